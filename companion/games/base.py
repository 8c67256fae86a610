"""What every game module provides: pure rules, no web framework and no database.

A game is a subclass of :class:`Game`. Its state is JSON-serialisable data (dicts,
lists, strings, numbers, booleans); ``apply`` returns a new state and never mutates
the one it was given; an illegal move raises :class:`GameError` with a sentence a
player at the table understands.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Annotated, Any, Callable, ClassVar, Literal, Union

from pydantic import (BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError,
                      ValidationInfo)

from .coach import Coach, Intro
from .patterns import unblank_pattern
from .text import N_, Name, Sentence, quote
from .refusals import explain


class GameError(Exception):
    """An illegal move or impossible input, explained in one human sentence: a ``Sentence``
    (``sentence``: each phone reads it in its language with ``text.say``) or plain text.
    ``message`` is the English."""

    def __init__(self, message: "str | Sentence"):
        super().__init__(str(message))
        self.sentence = message
        self.message = str(message)


def no_such_player(name) -> GameError:
    """The refusal of a name no seat has, quoting at most 40 characters of what was sent."""
    return GameError(Sentence("There is no player called '%(player)s' at this table.",
                              player=quote(name, 40)))


class FromJson(dict):
    """A payload decoded from a request's JSON (the API): its numbers must be JSON's numbers,
    as the API's document says. A page's form sends them as text ("5"), and the log holds
    what was checked when it was written: both are read as before."""


def typed_by(raw: Any) -> dict:
    """The validation context of a payload: whether it is JSON (``FromJson``)."""
    return {"json": isinstance(raw, FromJson)}


def _whole(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, bool):
        raise ValueError(N_("expected a whole number, not true/false"))
    if isinstance(value, str) and (info.context or {}).get("json"):
        raise ValueError(N_("expected a whole number, not text"))  # JSON's are unquoted
    return value


# A whole number (from a form: its text, "5"; from JSON: a number), never true/false.
Whole = Annotated[int, BeforeValidator(_whole)]


def _ticked(value: Any) -> Any:
    return True if value == "on" else value  # what a ticked checkbox of a page sends


def _true_false_or_on(schema: dict) -> None:
    schema.pop("type", None)
    schema["anyOf"] = [{"type": "boolean"}, {"const": "on", "description": "Ticked: true."}]


# True or false, and nothing else that reads as one (0, "yes"), but for the "on" a ticked
# checkbox of a page sends.
Ticked = Annotated[bool, BeforeValidator(_ticked),
                   Field(strict=True, json_schema_extra=_true_false_or_on)]


def _type_is_required(schema: dict, model: type) -> None:
    # ``type`` has its one value as a default (for building an action in Python), but a payload
    # is dispatched by it: the API's document says it must be sent.
    required = schema.setdefault("required", [])
    if "type" in schema.get("properties", {}) and "type" not in required:
        required.insert(0, "type")


def unblank(schema: dict) -> None:
    """For a text the server strips: the document says something besides spaces must be in it."""
    schema["pattern"] = unblank_pattern()


class Action(BaseModel):
    """Base of every action payload; subclasses set ``type`` to a ``Literal``."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_type_is_required)

    type: str


class Options(BaseModel):
    """Base of every game's table options (all fields need defaults)."""

    model_config = ConfigDict(extra="forbid")


class HandTurn(Action):
    """The host's correction when the real table went on differently: the turn passes to
    ``player`` (logged, and undone like any move)."""

    type: Literal["hand_turn"] = "hand_turn"
    player: str = Field(description="The player whose turn it is from now on.")


# What a rule does: change ``state`` (the game's own copy) for ``action`` and return the
# log sentence. ``actor`` is the seat that made the move (None: the host or a script).
Rule = Callable[[Any, dict, Any, "str | None"], str]
# A further condition of a move: None when it is allowed in ``state``, else why not.
Check = Callable[[Any, dict], "str | None"]
# The same for the seat making it (None: the host or a script).
SeatCheck = Callable[[Any, dict, "str | None"], "str | None"]


@dataclass(frozen=True)
class Phase:
    """One phase of a game, declared once in ``Game.phases``: the moves that may end it
    (``ends``, their kinds) and the phases that may follow it (``then``). A move names the
    phases it is legal in (``Move.phases``); a rule moves on with ``enter_phase``, and
    ``Game.play`` refuses a change of phase that is not declared here."""

    name: str
    ends: tuple[str, ...] = ()
    then: tuple[str, ...] = ()


class PhaseError(Exception):
    """A rule changed the phase in a way its game does not declare: a fault in the game's
    code, never a player's (so it carries no sentence for the table)."""


def enter_phase(state: dict, phase: str) -> None:
    """Move ``state`` (a rule's own copy) on to ``phase``: the one place a game's stored phase
    is written, so that the contract test can hold every change to the declaration."""
    state["phase"] = phase


@dataclass(frozen=True)
class Move:
    """One kind of move, declared once: its payload, its rule, and when it is legal.

    ``phases``: the phases (``Game.phase``, declared in ``Game.phases``) in which it may be
    made; None means any phase.
    ``turn``: the payload field naming the player the move is made for (usually "player"),
    checked against whose turn it is; "actor" checks the seat making it; None: anyone.
    ``seat_check``: a condition on the seat making the move (a seat takes back only its own
    entry), for every phone apart from whose turn it is. ``host_too``: the host's phone passes
    it whatever its seat (a player's choice made for a player without a phone).
    ``after_end``: still allowed once the game is over (corrections of the final count).
    ``scope``: what a move of this kind touches (e.g. one cell of a score sheet), as a set of
    keys: two moves with disjoint scopes leave the same table in either order, so one made
    against an older version of the table is still applied (``Game.commutes``). None: the
    move may depend on anything, and a tap made against an older version is refused."""

    action: type[Action]
    rule: Rule
    phases: tuple[str, ...] | None = None
    check: Check | None = None
    seat_check: SeatCheck | None = None
    host_too: bool = False
    turn: str | None = None
    after_end: bool = False
    scope: Callable[[Any], frozenset] | None = None

    @property
    def kind(self) -> str:
        return self.action.model_fields["type"].default


class Game:
    """A game module. Subclasses fill in the class attributes and override the methods.

    A game declares its ``phases`` and its ``moves``; the base class dispatches an action to
    its rule, refuses one that is not legal now (wrong phase, failed check, not this player's
    turn) with a sentence saying what is expected instead, and derives ``legal_actions`` from
    the same table, so that the pages never offer a move the rules will refuse."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    cooperative: ClassVar[bool] = False
    options_model: ClassVar[type[Options]] = Options
    actions: ClassVar[tuple[type[Action], ...]] = ()
    # Blocks of templates/games/<id>/table.html that change with the state; each one is
    # a live region swapped in place on every phone.
    regions: ClassVar[tuple[str, ...]] = ()
    # Games that can be scored from final piles alone offer a quick score (page and JSON).
    quick_score_model: ClassVar[type[BaseModel] | None] = None

    # The phases in the order a game meets them, the first where it starts (see ``Phase``);
    # none: every move may be made at any time until the game is over (the score pad).
    phases: ClassVar[tuple[Phase, ...]] = ()
    moves: ClassVar[tuple[Move, ...]] = ()
    # Games with a turn order override ``turn_of`` and ``give_turn``; the host may then hand
    # the turn to another player (``hand_turn``).
    has_turns: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        moves = list(cls.moves)
        if cls.has_turns:
            moves.append(Move(HandTurn, Game._hand_turn, check=Game._can_hand_turn))
        if not moves:
            raise TypeError(f"{cls.__name__} declares no moves")
        cls._moves = {move.kind: move for move in moves}
        cls._phases = {phase.name: phase for phase in cls.phases}
        _check_phases(cls)
        cls.actions = tuple(move.action for move in moves)
        union = Union[tuple(cls.actions)] if len(cls.actions) > 1 else cls.actions[0]
        if len(cls.actions) > 1:
            union = Annotated[union, Field(discriminator="type")]
        cls._action_adapter = TypeAdapter(union)

    # -- names and templates -------------------------------------------------
    @property
    def template(self) -> str:
        return f"games/{self.id}/table.html"

    def action_types(self) -> list[str]:
        return [model.model_fields["type"].default for model in self.actions]

    # -- input ---------------------------------------------------------------
    def parse_options(self, raw: dict | None) -> Options:
        """Validate table options; raise GameError naming the problem."""
        try:
            return self.options_model.model_validate(raw or {}, context=typed_by(raw))
        except ValidationError as exc:
            raise GameError(explain(exc)) from None

    def parse_action(self, raw: dict) -> Action:
        """Validate an action payload against this game's action models."""
        if not isinstance(raw, dict):
            raise GameError(Sentence("An action must be an object with a 'type' field."))
        kind = raw.get("type")
        known = self.action_types()
        if kind not in known:
            if isinstance(kind, str) and kind:
                raise GameError(Sentence("The action type is '%(kind)s'; %(game)s knows: "
                                         "%(known)s.", kind=quote(kind, 40), game=Name(self.name),
                                         known=", ".join(known)))
            raise GameError(Sentence("The action type is missing; %(game)s knows: %(known)s.",
                                     game=Name(self.name), known=", ".join(known)))
        try:
            return self._action_adapter.validate_python(raw, context=typed_by(raw))
        except ValidationError as exc:
            skip = len(self.actions) > 1
            raise GameError(explain(exc, skip_first=skip)) from None
        except TypeError:  # a check given an object or list where it reads a word or number
            raise GameError(Sentence("A field of the action holds an object or a list where a "
                                     "word or a number belongs.")) from None

    # -- the moves: legality and dispatch ----------------------------------------
    def phase(self, state: dict) -> str | None:
        """The phase of the game (one of ``phases``) that decides which moves are legal."""
        return state.get("phase")

    def expected(self, state: dict) -> str:
        """What the table is expected to do now, as a sentence (shown when a move is refused)."""
        return self.status(state)

    def turn_of(self, state: dict) -> str | None:
        """Whose turn it is (None: nobody's in particular, e.g. during set-up)."""
        return None

    def give_turn(self, state: dict, player: str) -> None:
        """Make it ``player``'s turn in ``state`` (a copy the caller owns)."""
        raise GameError(Sentence("%(game)s has no turn order to change.", game=Name(self.name)))

    def why_not(self, state: dict, kind: str, player: str | None = None,
                seat: str | None = None) -> Sentence | None:
        """None when a move of ``kind`` made for ``player`` by ``seat`` is legal in ``state``;
        else the sentence a player reads. ``player`` None skips the turn check (the host acts
        for all); ``seat`` None is the host or a script."""
        move = self._moves.get(kind)
        if move is None:
            return Sentence("%(game)s has no move called '%(kind)s'.", game=Name(self.name),
                            kind=quote(kind, 40))
        if self.is_over(state) and not move.after_end:
            return Sentence("The game is over; undo the last move to change it.")
        if move.phases is not None and self.phase(state) not in move.phases:
            return Sentence("Not now: %(expected)s", expected=self.expected(state))
        if move.turn and player is not None:
            turn = self.turn_of(state)
            if turn is not None and player != turn:
                return Sentence("It is %(player)s's turn.", player=turn)
        if move.check is not None:
            reason = move.check(self, state)
            if reason:
                return reason
        if move.seat_check is not None:
            return move.seat_check(self, state, seat)
        return None

    def scope_of(self, action: Action) -> frozenset | None:
        """What ``action`` touches (see ``Move.scope``); None: possibly anything."""
        move = self._moves.get(action.type)
        return move.scope(action) if move is not None and move.scope is not None else None

    def commutes(self, action: Action, since: list[Action]) -> bool:
        """Whether ``action``, made before the moves ``since`` were, touches nothing they
        touched: then it may be applied after them as if made now."""
        mine = self.scope_of(action)
        if mine is None:
            return False
        for other in since:
            theirs = self.scope_of(other)
            if theirs is None or theirs & mine:
                return False
        return True

    def legal_actions(self, state: dict, seat: str | None = None,
                      host: bool = False) -> dict[str, Sentence | None]:
        """Every move of the game: None when ``seat`` (``host``: on the host's phone) may make
        it now, else why not."""
        return {kind: self.why_not(state, kind, seat if move.turn else None,
                                   None if host and move.host_too else seat)
                for kind, move in self._moves.items()}

    def play(self, state: dict, action: Action, actor: str | None,
             replaying: bool = False, host: bool = False) -> tuple[dict, str]:
        """The state after ``action`` and its log sentence, computed once; ``state`` is left
        as it was. ``actor`` is the seat that made it (None: the host or a script); ``host``:
        made on the host's phone.

        ``replaying``: the move is read back from the log, where it was accepted once; when it
        is legal is not checked again (a log written before a turn, a check or a seat check was
        added replays as it was played at the real table), nor is its change of phase."""
        move = self._moves[action.type]
        player = None
        if move.turn == "actor":
            player = actor
        elif move.turn:
            player = getattr(action, move.turn, None) or actor
        seat = None if host and move.host_too else actor
        reason = None if replaying else self.why_not(state, action.type, player, seat)
        if reason:
            raise GameError(reason)
        new = copy.deepcopy(state)
        sentence = move.rule(self, new, action, actor)
        if not replaying:
            self._check_phase_change(state, new, action.type)
        return new, sentence

    def apply(self, state: dict, action: Action, actor: str | None) -> dict:
        """The state after ``action`` (``play`` without the log sentence)."""
        return self.play(state, action, actor)[0]

    def describe(self, state: dict, action: Action, actor: str | None) -> str:
        """The log sentence of ``action`` made against ``state`` (the state before it)."""
        return self.play(state, action, actor)[1]

    def _check_phase_change(self, before: dict, after: dict, kind: str) -> None:
        was, now = self.phase(before), self.phase(after)
        if was == now:
            return
        declared = self._phases.get(was)
        if declared is None or kind not in declared.ends or now not in declared.then:
            raise PhaseError(f"{self.id}: {kind} moved the game from phase {was!r} to {now!r}, "
                             f"which {type(self).__name__}.phases does not declare")

    def _hand_turn(self, state: dict, action: HandTurn, actor: str | None) -> str:
        if action.player not in self.players_of(state):
            raise no_such_player(action.player)
        if action.player == self.turn_of(state):
            raise GameError(Sentence("It is already %(player)s's turn.", player=action.player))
        self.give_turn(state, action.player)
        if actor:
            return Sentence("%(actor)s handed the turn to %(player)s.", actor=actor,
                            player=action.player)
        return Sentence("The host handed the turn to %(player)s.", player=action.player)

    def _can_hand_turn(self, state: dict) -> Sentence | None:
        return None if self.turn_of(state) is not None else Sentence("Nobody has the turn now.")

    def players_of(self, state: dict) -> list[str]:
        return list(state.get("players", []))

    # -- rules (override) ----------------------------------------------------
    def initial_state(self, players: list[str], options: Options) -> dict:
        raise NotImplementedError

    def is_over(self, state: dict) -> bool:
        return bool(state.get("finished"))

    def scores(self, state: dict) -> dict[str, int] | None:
        """Points per player name where the game has them, else None."""
        return None

    def winners(self, state: dict) -> list[str]:
        """The winners' names once over (several for a shared win, all for a co-op win)."""
        return []

    def status(self, state: dict) -> str:
        """One line for the top of the table page: whose turn, what happens next, the result."""
        return ""

    def coach(self, state: dict) -> Coach:
        """What the table does now, for the teaching mode (``games/coach.py``)."""
        raise NotImplementedError

    def intro(self, state: dict) -> Intro:
        """How a first game of this game opens: its goal, what everyone needs, who starts."""
        raise NotImplementedError

    def view(self, state: dict) -> dict:
        """Extra template context derived from the state (totals, odds, layouts)."""
        return {}

    def quick_score(self, payload: dict) -> dict:
        """Score final piles without a table; raise GameError when they are impossible."""
        raise GameError(Sentence("%(game)s has no quick score.", game=Name(self.name)))

    def quick_score_payload(self, form: dict[str, list[str]]) -> dict:
        """Turn the quick-score page's form (field -> values) into a quick_score payload."""
        raise GameError(Sentence("%(game)s has no quick score.", game=Name(self.name)))

    # -- helpers for subclasses ------------------------------------------------
    @staticmethod
    def copy(state: dict) -> dict:
        return copy.deepcopy(state)

    @staticmethod
    def best(totals: dict[str, int], highest: bool = True) -> list[str]:
        """Everyone on the best total, in seating order (several: a shared win)."""
        target = (max if highest else min)(totals.values())
        return [name for name, total in totals.items() if total == target]


def _check_phases(game: type[Game]) -> None:
    """A phase or a move named but not declared (a typo) fails when the game's class is made."""
    names = set(game._phases)
    named = [(f"move {kind}", move.phases or ()) for kind, move in game._moves.items()]
    named += [(f"phase {phase.name}", phase.then) for phase in game.phases]
    for where, phases in named:
        unknown = sorted(set(phases) - names)
        if unknown:
            raise TypeError(f"{game.__name__}: {where} names undeclared phases {unknown}")
    for phase in game.phases:
        unknown = sorted(set(phase.ends) - set(game._moves))
        if unknown:
            raise TypeError(f"{game.__name__}: phase {phase.name} is ended by moves it does not "
                            f"have: {unknown}")
