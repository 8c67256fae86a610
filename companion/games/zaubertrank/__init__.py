"""Mission Zaubertrank!: the cooperative race against the Roman's lap of the village.

The players gather mistletoe, strawberries and fish to complete task cards before the Roman
figure walks once round the ring of six location cards and is back at his camp. The app keeps
the clock (the Roman's timeline), the mishap markers on the locations and in the bag, the task
stack, the general supply, every player's ingredients, helper cards and potion, and the turn's
steps: two actions and up to two moves, then the Roman steps on, then a mishap marker is drawn.

What the cards say exactly (a location's advantage, a helper card's text, a task's reward) is
not known to the app, so the gains they grant are separate free taps (taps.py).

Phases: "setup", then for every turn "actions" → "draw" (the Roman has stepped) → "place"
(a drawn marker waits), and "over". The phases and the moves table below are the one place
that says what ends each phase, which move is legal when and whose turn it must be.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints, create_model, model_validator

from ..base import Game, GameError, Move, Options, Phase, Whole, enter_phase, unblank
from ..text import N_, Sentence, plural_sentence
from . import gains, mishaps, samples, scoring, setup_moves, taps, turn
from .coach import coach
from .coach_setup import intro
from .board import legal_spaces, spaces_to_camp, who
from .components import (
    ACTIONS_PER_TURN, CHARACTERS, DEFAULT_LOCATIONS, HELPER_CARDS_PER_CHARACTER, INGREDIENTS,
    LOCATION_COUNT, MARKERS_PER_SYMBOL, OPENING_MARKERS, SUPPLY_PER_INGREDIENT, SYMBOLS,
    DIFFICULTY_NAMES, SYMBOL_NAMES, TASK_CARDS, Difficulty, Symbol, fresh_seat,
)
from .scoring import result_line
from .view import table_view

# The document says what the stripping means: something besides spaces must be in the name.
LocationName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
                         Field(json_schema_extra=unblank)]


class _TableBasics(Options):
    """The difficulty of the game; the location fields are added below."""

    difficulty: Difficulty = Field(
        "one Roman",
        title=N_("Difficulty"),
        description=N_("Task cards dealt: one Roman 4, a small patrol 5, a cohort 6, "
                       "Caesar's army 7, conquer Rome 8."),
        json_schema_extra={"choice_labels": DIFFICULTY_NAMES},
    )
    challenge: bool = Field(
        False, strict=True, title=N_("Challenge: one task card more"),
        description=N_("Adds one task card to the difficulty's stack."),
    )

    @model_validator(mode="after")
    def _distinct_location_names(self):
        numbers = range(1, LOCATION_COUNT + 1)
        names = [getattr(self, f"location{n}_name").strip().lower() for n in numbers]
        if len(set(names)) != len(names):
            raise ValueError(N_("Each of the six locations needs its own name"))
        return self


# The form labels of the six cards' fields, one whole message each (pages.py looks a field's
# title up as it is).
_CARD_TITLES = {
    1: (N_("Card 1: name"), N_("Card 1: timeline spaces"),
        N_("Card 1: mishap symbol 1"), N_("Card 1: mishap symbol 2")),
    2: (N_("Card 2: name"), N_("Card 2: timeline spaces"),
        N_("Card 2: mishap symbol 1"), N_("Card 2: mishap symbol 2")),
    3: (N_("Card 3: name"), N_("Card 3: timeline spaces"),
        N_("Card 3: mishap symbol 1"), N_("Card 3: mishap symbol 2")),
    4: (N_("Card 4: name"), N_("Card 4: timeline spaces"),
        N_("Card 4: mishap symbol 1"), N_("Card 4: mishap symbol 2")),
    5: (N_("Card 5: name"), N_("Card 5: timeline spaces"),
        N_("Card 5: mishap symbol 1"), N_("Card 5: mishap symbol 2")),
    6: (N_("Card 6: name"), N_("Card 6: timeline spaces"),
        N_("Card 6: mishap symbol 1"), N_("Card 6: mishap symbol 2")),
}


def _location_fields() -> dict:
    """Four flat option fields per location card, numbered as the cards are (1 = Forest).

    The setup form is generated from these fields, so the titles read as form labels and only
    card 1's fields carry an explanation (it holds for every card)."""
    fields: dict = {}
    for number, (name, spaces, first, second) in enumerate(DEFAULT_LOCATIONS, start=1):
        first_card = number == 1
        fields[f"location{number}_name"] = (
            LocationName, Field(
                name, title=_CARD_TITLES[number][0],
                description=N_("Cards lie clockwise by the number at their bottom right; card 1 "
                               "holds the Roman camp.") if first_card else None),
        )
        fields[f"location{number}_spaces"] = (
            Whole, Field(
                spaces, ge=1, le=12,
                title=_CARD_TITLES[number][1],
                description=N_("Squares of the Roman's track on the card, the camp included. "
                               "The default 4 is a guess: count yours.") if first_card else None),
        )
        fields[f"location{number}_symbol_1"] = (
            Symbol, Field(
                first, title=_CARD_TITLES[number][2],
                description=N_("The symbols on the card's two hexagonal mishap spaces "
                               "(lower left).") if first_card else None,
                json_schema_extra={"choice_labels": SYMBOL_NAMES}),
        )
        fields[f"location{number}_symbol_2"] = (
            Symbol, Field(second,
                          title=_CARD_TITLES[number][3],
                          json_schema_extra={"choice_labels": SYMBOL_NAMES}),
        )
    return fields


ZaubertrankOptions = create_model(
    "ZaubertrankOptions",
    __base__=_TableBasics,
    __doc__="Table settings: the difficulty and the six location cards (defaults editable, "
    "since the printed space counts and symbols are not known for certain). The six location "
    "names must differ, case and surrounding spaces aside (a rule JSON Schema cannot state).",
    **_location_fields(),
)

# The status line of the set-up steps before the opening markers.
SETUP_STATUS = {
    "task": Sentence("Setup: enter the face-up task card."),
    "characters": Sentence("Setup: each player chooses a character."),
    "places": Sentence("Setup: each player sets the figure's starting place."),
    "stock": Sentence("Setup: each player takes the starting ingredients."),
}

# The phases of a turn in which somebody has the turn (the bag is in their hands).
TURN_PHASES = ("actions", "draw", "place")


def _place_first(state: dict) -> Sentence:
    return Sentence("Place the drawn %(symbol)s marker first, then hand the turn on.",
                    symbol=SYMBOL_NAMES[state["drawn"]])


class Zaubertrank(Game):
    id = "zaubertrank"
    name = N_("Mission Zaubertrank!")
    summary = N_(
        "Cooperative: gather mistletoe, strawberries and fish for the task cards before the "
        "Roman completes his lap and reaches his camp."
    )
    min_players = 2
    max_players = 4
    cooperative = True
    options_model = ZaubertrankOptions
    has_turns = True
    # The rulebook's turn ("on your turn, carry out 3 steps"): the moves, the two actions, the
    # Roman's step and the mishap draw are the turn player's. Placing the drawn marker is
    # decided together; the free taps record gains that may go to any player; entering a task
    # card is bookkeeping. None of those is bound to the turn. A player's character, start
    # place and starting ingredients are their own (``seat_check``: once, on their phone), and
    # what a location or the die gave is the turn player's to enter before others tap.
    # The turn ends with the mishap marker: placed, or fitting nowhere (the Roman marches two
    # more); the host's hand-over ends it before the draw. The last task completed wins, the
    # Roman back at his camp loses.
    phases = (
        Phase("setup", ends=("begin_play",), then=("actions",)),
        Phase("actions", ends=("advance_roman", "complete_subtask"), then=("draw", "over")),
        Phase("draw", ends=("draw_mishap", "hand_turn"), then=("place", "actions", "over")),
        Phase("place", ends=("place_mishap",), then=("actions",)),
        Phase("over"),
    )
    moves = (
        Move(setup_moves.ChooseCharacter, setup_moves.choose_character, phases=("setup",),
             seat_check=setup_moves.character_open),
        Move(setup_moves.PlaceFigure, setup_moves.place_figure, phases=("setup",),
             seat_check=setup_moves.place_open),
        Move(setup_moves.BeginPlay, setup_moves.begin_play, phases=("setup",),
             check=setup_moves.openings_placed),
        Move(taps.EnterTask, taps.enter_task, check=taps.no_task_face_up),
        Move(mishaps.DrawMishap, mishaps.draw_mishap, phases=("setup", "draw"),
             check=mishaps.can_draw, turn="actor"),
        Move(mishaps.PlaceMishap, mishaps.place_mishap, check=mishaps.marker_waiting),
        Move(turn.MoveFigure, turn.move, phases=("actions",), check=turn.can_move,
             turn="actor"),
        Move(turn.UseLocation, turn.use_location, phases=("actions",),
             check=turn.can_use_location, turn="actor"),
        Move(turn.DrinkPotion, turn.drink_potion, phases=("actions",), check=turn.can_drink,
             turn="actor"),
        Move(turn.PassItems, turn.pass_items, phases=("actions",), check=turn.can_pass,
             turn="actor"),
        Move(turn.PlayHelpers, turn.play_helpers, phases=("actions",), check=turn.can_play,
             turn="actor"),
        Move(turn.CompleteSubtask, turn.complete_subtask, phases=("actions",),
             check=turn.can_complete, turn="actor"),
        Move(turn.AdvanceRoman, turn.advance_roman, phases=("actions",), turn="actor"),
        Move(taps.TakeIngredients, taps.take_ingredients, phases=("setup", "actions"),
             check=taps.supply_left, seat_check=taps.take_seat),
        Move(taps.DrawHelpers, taps.draw_helpers, phases=("actions",),
             check=taps.draw_pile_left, seat_check=taps.tap_seat),
        Move(taps.RemoveMishap, taps.remove_mishap, phases=("actions",),
             check=taps.marker_on_ring, seat_check=taps.tap_seat),
        Move(taps.RefillPotion, taps.refill_potion, phases=("actions",),
             check=taps.potion_used, seat_check=taps.tap_seat),
        Move(taps.EndGain, taps.end_gain, phases=("actions",), check=gains.waiting,
             seat_check=taps.tap_seat),
    )
    regions = ("timeline", "tasks", "village", "turn")

    legal_spaces = staticmethod(legal_spaces)

    # -- setup ------------------------------------------------------------------------------
    def initial_state(self, players: list[str], options: Options) -> dict:
        if not self.min_players <= len(players) <= self.max_players:
            raise GameError(Sentence("Mission Zaubertrank! is played by 2 to 4 players."))
        locations = []
        for number in range(1, LOCATION_COUNT + 1):
            locations.append({
                "number": number,
                "name": getattr(options, f"location{number}_name").strip(),
                "spaces": getattr(options, f"location{number}_spaces"),
                "symbols": [getattr(options, f"location{number}_symbol_1"),
                            getattr(options, f"location{number}_symbol_2")],
                "covered": [False, False],
            })
        task_total = TASK_CARDS[options.difficulty] + (1 if options.challenge else 0)
        # Seated players get the characters in box order; setup may swap them.
        seats = {name: fresh_seat(character) for name, character in zip(players, CHARACTERS)}
        return {
            "players": list(players),
            "phase": "setup",
            "difficulty": options.difficulty,
            "challenge": options.challenge,
            "seats": seats,
            "locations": locations,
            "lap_length": sum(location["spaces"] for location in locations),
            "roman_steps": 0,
            "bag": {symbol: MARKERS_PER_SYMBOL for symbol in SYMBOLS},
            "drawn": None,
            "opening_placed": 0,
            "supply": {ingredient: SUPPLY_PER_INGREDIENT for ingredient in INGREDIENTS},
            "draw_piles": {character: HELPER_CARDS_PER_CHARACTER for character in CHARACTERS},
            "discards": {character: 0 for character in CHARACTERS},
            "tasks": {"total": task_total, "completed": 0, "current": None, "covered": 0,
                      "last_reward": None},
            "turn": None,
            "result": None,
            "finished": False,
        }

    # -- the turn ---------------------------------------------------------------------------
    def turn_of(self, state: dict) -> str | None:
        """The player holding the bag, from their actions to the mishap marker that ends the
        turn; nobody's during the setup and once the game is over."""
        return state["turn"]["player"] if state["phase"] in TURN_PHASES else None

    def give_turn(self, state: dict, player: str) -> None:
        """A fresh turn for ``player``: two actions, two moves."""
        if state["drawn"] is not None:
            raise GameError(_place_first(state))
        enter_phase(state, "actions")
        state["turn"] = turn.new_turn(player)

    def why_not(self, state: dict, kind: str, player: str | None = None,
                seat: str | None = None) -> str | None:
        """The base's table of moves, and the host's hand-over also waits for a drawn marker
        (``give_turn`` would refuse it: the page disables the form with the same sentence)."""
        reason = super().why_not(state, kind, player, seat)
        if reason is None and kind == "hand_turn" and state["drawn"] is not None:
            return _place_first(state)
        return reason

    def expected(self, state: dict):
        """What the table does now, as a sentence (a refused move reads "Not now: …")."""
        phase = state["phase"]
        if phase == "setup":
            return Sentence("Play has not begun; finish the setup and tap begin.")
        if phase == "draw":
            return Sentence("The Roman has stepped; draw the mishap marker to end the turn.")
        if phase == "place":
            return Sentence("Place the drawn %(symbol)s marker to end the turn.",
                            symbol=SYMBOL_NAMES[state["drawn"]])
        if phase == "actions":
            name = state["turn"]["player"]
            left = ACTIONS_PER_TURN - state["turn"]["actions_used"]
            if not left:
                return Sentence("%(player)s has used both actions; move the Roman on to end "
                                "them.", player=name)
            return plural_sentence(
                "%(player)s has %(count)s action left; then the Roman steps on and a mishap "
                "marker is drawn.",
                "%(player)s has %(count)s actions left; then the Roman steps on and a mishap "
                "marker is drawn.", left, player=who(state, name))
        return self.status(state)

    # -- derived ----------------------------------------------------------------------------
    def winners(self, state: dict) -> list[str]:
        return scoring.winners(state)

    def status(self, state: dict) -> str:
        """Whose turn and the clock, the setup step, or the result."""
        ended = result_line(state)
        if ended:
            return ended
        phase = state["phase"]
        if phase == "setup":
            if state["drawn"]:
                return Sentence("Setup: place the %(symbol)s marker.",
                                symbol=SYMBOL_NAMES[state["drawn"]])
            step = setup_moves.setup_step(state)
            if step in SETUP_STATUS:
                return SETUP_STATUS[step]
            if state["opening_placed"] < OPENING_MARKERS:
                number = state["opening_placed"] + 1
                return Sentence("Setup: draw opening mishap marker %(number)s of %(total)s.",
                                number=number, total=OPENING_MARKERS)
            return Sentence("Setup done: choose the starting player and begin.")
        name = who(state, state["turn"]["player"])
        clock = plural_sentence("%(count)s space to the camp", "%(count)s spaces to the camp",
                                spaces_to_camp(state))
        if phase == "draw":
            return Sentence("%(player)s: draw a mishap marker · %(clock)s", player=name,
                            clock=clock)
        if phase == "place":
            return Sentence("%(player)s: place the %(symbol)s marker · %(clock)s", player=name,
                            symbol=SYMBOL_NAMES[state["drawn"]], clock=clock)
        left = ACTIONS_PER_TURN - state["turn"]["actions_used"]
        return plural_sentence("%(player)s's turn: %(count)s action left · %(clock)s",
                               "%(player)s's turn: %(count)s actions left · %(clock)s",
                               left, player=name, clock=clock)

    def view(self, state: dict) -> dict:
        return table_view(state)

    def coach(self, state: dict):
        return coach(state)

    def intro(self, state: dict):
        return intro(state)

    def sample_payloads(self, state: dict, kind: str) -> list[dict]:
        """For tests that play random games: payloads that fit the table as it lies."""
        return samples.sample_payloads(state, kind)
