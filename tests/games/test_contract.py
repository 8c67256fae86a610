"""The contract every registered game keeps, checked on random games.

Each game is played from its start by choosing, at every step, a random seat and one of the
moves ``legal_actions`` says that seat may make now, with parameters drawn from the move's
payload model (names from the seats, numbers within their bounds, choices from their
literals). At every step: ``play`` leaves its input untouched; the new state survives a JSON
round trip; the log replayed from the start gives the same state; an undo gives back the
state before the move exactly; ``view``, ``status``, ``scores`` and ``winners`` work; a move
with a scope commutes with another seat's move of a disjoint scope; a phase change is one the
game's ``phases`` declare (from that phase, by that move, to that phase). And a move type that
``legal_actions`` calls legal is never refused for every parameter tried.

Besides: the phases every move names are declared, and no module of the games writes a phase
but ``enter_phase`` (read from the sources).

Profiles: "ci" (fixed, derandomised, the default) and "long" (CONTRACT_PROFILE=long).
"""

from __future__ import annotations

import ast
import copy
import enum
import itertools
import json
import os
import types
import typing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import GAMES, GameError
from companion.games.base import Action, Game, Move, Phase, PhaseError, enter_phase
from companion.games.text import Sentence, as_sentence
from companion.service.history import replay
from tests.games.languages import english, german

settings.register_profile("ci", max_examples=12, derandomize=True, deadline=None,
                          suppress_health_check=list(HealthCheck))
settings.register_profile("long", max_examples=400, deadline=None,
                          suppress_health_check=list(HealthCheck))
PROFILE = os.environ.get("CONTRACT_PROFILE", "ci")
STEPS = 60 if PROFILE == "ci" else 150
CANDIDATES = 400  # parameter sets tried per move type before calling it unplayable
STEPS_PLAYED: dict[str, int] = {}  # moves played per game, printed by the long profile

# Names a payload field may carry that stand for a seat at the table.
PLAYER_FIELDS = {"player", "starter", "attacker", "owner", "winner", "to", "target_player",
                 "opponent", "who"}


def _choices(annotation, name: str, players: list[str]) -> list:
    """A few values worth trying for one payload field."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _choices(typing.get_args(annotation)[0], name, players)
    if origin in (typing.Union, types.UnionType):
        values = []
        for arg in typing.get_args(annotation):
            values += [None] if arg is type(None) else _choices(arg, name, players)
        return values
    if origin is typing.Literal:
        return list(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [member.value for member in annotation]
    if annotation is bool:
        return [True, False]
    if annotation is int:
        return list(range(0, 7)) + [8, 10, 12, 15]
    if annotation is str:
        return list(players) if name in PLAYER_FIELDS or "player" in name else ["x", "A"] + list(players)
    if origin in (list, tuple, set):
        return [[]]
    return [None]


def payloads(game, state: dict, kind: str, players: list[str]) -> list[dict]:
    """Parameter sets for a move of ``kind``: every combination of a few values per field."""
    model = next(action for action in game.actions
                 if action.model_fields["type"].default == kind)
    fields = {name: _choices(info.annotation, name, players)
              for name, info in model.model_fields.items() if name != "type"}
    names = list(fields)
    combos = itertools.product(*(fields[name] for name in names))
    found = [dict(zip(names, combo), type=kind) for combo in itertools.islice(combos, 5000)]
    return [{k: v for k, v in p.items() if v is not None} for p in found]


def game_samples(game, state: dict, kind: str) -> list[dict]:
    """What a game adds where the generic guess misses (its ``sample_payloads`` hook)."""
    if hasattr(game, "sample_payloads"):
        return list(game.sample_payloads(state, kind))
    return []


def start(game, players: list[str]) -> dict:
    return game.initial_state(players, game.parse_options({}))


def check_phase_change(game, before: dict, after: dict, kind: str) -> None:
    """A move that changes the phase does what the game's declaration says it may."""
    was, now = game.phase(before), game.phase(after)
    if was == now:
        return
    declared = {phase.name: phase for phase in game.phases}
    assert was in declared, f"{game.id}: {kind} left the undeclared phase {was!r}"
    assert kind in declared[was].ends, f"{game.id}: {kind} ended {was!r}, whose declaration does not list it"
    assert now in declared[was].then, f"{game.id}: {kind} went from {was!r} to {now!r}, not declared"


def check_state(game, state: dict) -> None:
    assert json.loads(json.dumps(state)) == state
    game.view(state)
    status = game.status(state)
    assert isinstance(status, (str, Sentence)) and str(status)
    game.scores(state)
    game.winners(state)
    check_coach(game, state)


def check_coach(game, state: dict) -> None:
    """The teaching mode has words for every reachable state (its introduction may be read
    again at any time), in both languages; they name the player who acts, and the control
    they highlight is one that player may use now."""
    coach, intro = game.coach(state), game.intro(state)
    for sentence in (intro.goal, intro.need, intro.start, coach.say, coach.short, coach.scoring,
                     coach.after, coach.hint):
        if sentence is not None:
            assert english(sentence) and german(sentence) != english(sentence), english(sentence)
    players = game.players_of(state)
    assert coach.player is None or coach.player in players
    if coach.player is not None:
        assert coach.player in english(coach.say) and coach.player in german(coach.say)
    if coach.control is not None:
        assert game.legal_actions(state, coach.player).get(coach.control) is None, (
            f"the coach points {coach.player} to {coach.control}, not legal now: {english(coach.say)}")


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(settings.get_profile(PROFILE))
@given(data=st.data())
def test_random_games_keep_the_contract(game_id, data):
    game = GAMES[game_id]
    count = data.draw(st.integers(game.min_players, min(game.max_players, 4)), label="players")
    players = ["Ann", "Ben", "Cy", "Dee"][:count]
    state = start(game, players)
    entries: list[dict] = []
    check_state(game, state)
    assert game.phase(state) == (game.phases[0].name if game.phases else None), "a game starts in its first phase"
    for _step in range(STEPS):
        seat = data.draw(st.sampled_from(players + [None]), label="seat")
        legal = [kind for kind, why in game.legal_actions(state, seat).items()
                 if why is None and kind != "hand_turn"]
        if not legal:
            break
        kind = data.draw(st.sampled_from(legal), label="move")
        candidates = payloads(game, state, kind, players)
        first = data.draw(st.integers(0, max(len(candidates) - 1, 0)), label="parameters")
        samples = game_samples(game, state, kind)
        if samples:
            pick = data.draw(st.integers(0, len(samples) - 1), label="sample")
            samples = samples[pick:] + samples[:pick]
        order = samples + candidates[first:] + candidates[:first]
        before = copy.deepcopy(state)
        for payload in order[:CANDIDATES]:
            try:
                action = game.parse_action(payload)
                new, sentence = game.play(state, action, seat)
            except GameError:
                continue
            break
        else:
            raise AssertionError(f"{game_id}: legal_actions offered {kind} to {seat} but none "
                                 f"of {min(len(candidates), CANDIDATES)} parameter sets was "
                                 f"accepted, e.g. {order[0]} in phase "
                                 f"{game.phase(state)!r}")
        assert state == before, f"{kind} changed the state it was given"
        # A sentence each phone reads in its language, which also reads as English text.
        assert isinstance(sentence, (str, Sentence)) and str(sentence)
        assert Sentence.from_json(as_sentence(sentence).to_json()) == as_sentence(sentence)
        check_state(game, new)
        check_phase_change(game, state, new, kind)
        check_commutes(game, state, action, seat, players, data)
        entries.append({"kind": "action", "payload": action.model_dump(mode="json"), "actor": seat})
        replayed = replay(game, players, {}, entries)
        assert replayed.state == new, f"replaying the log after {kind} gives another state"
        undone = replay(game, players, {}, entries + [{"kind": "undo", "payload": {}, "actor": seat}])
        assert undone.state == before, f"undoing {kind} does not give back the state before it"
        state = new
        STEPS_PLAYED[game_id] = STEPS_PLAYED.get(game_id, 0) + 1
        if game.is_over(state):
            break


def check_commutes(game, state: dict, action, seat, players: list[str], data) -> None:
    """Moves whose scopes are disjoint, tapped at once on two phones, are both recorded in the
    order they arrive (tables.play.check_version): either order must give the same state."""
    if game.scope_of(action) is None:
        return
    other = data.draw(st.sampled_from([p for p in players + [None] if p != seat]), label="other seat")
    legal = sorted(kind for kind, why in game.legal_actions(state, other).items()
                   if why is None and kind != "hand_turn")
    if not legal:
        return
    kind = data.draw(st.sampled_from(legal), label="other move")
    candidates = payloads(game, state, kind, players)
    first = data.draw(st.integers(0, max(len(candidates) - 1, 0)), label="other parameters")
    for payload in (candidates[first:] + candidates[:first])[:40]:
        try:
            second = game.parse_action(payload)
        except GameError:
            continue
        scope = game.scope_of(second)
        if scope is None or scope & game.scope_of(action):
            continue
        try:
            one = game.play(game.play(state, action, seat)[0], second, other)[0]
            two = game.play(game.play(state, second, other)[0], action, seat)[0]
        except GameError:
            continue  # refused one way: the rules decide against the table as it is then
        assert one == two, f"{game.id}: {action.type} and {kind} have disjoint scopes but do not commute"
        return


@pytest.fixture(scope="module", autouse=True)
def report_steps():
    yield
    if PROFILE == "long":
        print("\ncontract: moves played per game:", STEPS_PLAYED)


def test_a_log_from_before_turns_were_checked_still_replays():
    """A move the real table made out of turn, logged before the companion checked turns, is
    read back as it was played: the log is the truth."""
    game = GAMES["asterix-obelix"]
    players = ["Ann", "Ben"]
    entries = [{"kind": "action", "payload": {"type": "start_game", "starter": "Ann"}, "actor": None},
               {"kind": "action", "payload": {"type": "choose_line", "line": "row", "number": 1},
                "actor": "Ben"}]
    state = replay(game, players, {}, entries[:1]).state
    with pytest.raises(GameError, match="It is Ann's turn"):
        game.play(state, game.parse_action(entries[1]["payload"]), "Ben")
    after = replay(game, players, {}, entries).state
    assert after["phase"] == "attack"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_phase_a_move_names_is_declared(game_id):
    game = GAMES[game_id]
    names = [phase.name for phase in game.phases]
    assert len(set(names)) == len(names), f"{game_id} declares a phase twice"
    kinds = {move.kind for move in game.moves} | {"hand_turn"}
    for move in game.moves:
        assert set(move.phases or ()) <= set(names), f"{move.kind} names an undeclared phase"
    for phase in game.phases:
        assert set(phase.then) <= set(names), f"{phase.name} is followed by an undeclared phase"
        assert set(phase.ends) <= kinds, f"{phase.name} is ended by a move {game_id} does not have"


def test_a_move_naming_an_undeclared_phase_fails_at_import():
    class Nap(Action):
        type: typing.Literal["nap"] = "nap"

    with pytest.raises(TypeError, match="'dreaming'"):
        class Sleepy(Game):
            phases = ()
            moves = (Move(Nap, lambda game, state, action, actor: "Zzz.", phases=("dreaming",)),)


def test_a_change_of_phase_the_game_does_not_declare_is_refused_unless_replayed():
    class Doze(Action):
        type: typing.Literal["doze"] = "doze"

    class Jump(Action):
        type: typing.Literal["jump"] = "jump"

    def wake(game, state, action, actor):
        enter_phase(state, "awake")
        return "Up."

    class Sleepy(Game):
        id = "sleepy"
        phases = (Phase("asleep", ends=("doze",), then=("awake",)), Phase("awake"))
        moves = (Move(Doze, wake), Move(Jump, wake))

    game, state = Sleepy(), {"phase": "asleep"}
    assert game.play(state, game.parse_action({"type": "doze"}), None)[0] == {"phase": "awake"}
    with pytest.raises(PhaseError, match="jump moved the game from phase 'asleep' to 'awake'"):
        game.play(state, game.parse_action({"type": "jump"}), None)
    # A log is read back as it was played.
    assert game.play(state, game.parse_action({"type": "jump"}), None, replaying=True)[0] == {"phase": "awake"}


GAMES_SOURCE = Path(__file__).resolve().parents[2] / "companion" / "games"


def phase_writes(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a module writes a phase itself: ``x["phase"] = …`` (or ``+=``, ``del``),
    ``x.update(phase=…)`` or ``x.update({"phase": …})``, ``x.setdefault("phase", …)``, and a
    dict made with a phase named outright (a state being made) outside ``initial_state``."""
    found = []
    starts = {node for function in ast.walk(tree) if isinstance(function, ast.FunctionDef)
              and function.name == "initial_state" for node in ast.walk(function)}

    def is_phase(node) -> bool:
        return isinstance(node, ast.Constant) and node.value == "phase"

    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) and is_phase(node.slice):
            found.append((node.lineno, "writes x['phase']"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "update" and (any(k.arg == "phase" for k in node.keywords) or any(
                    isinstance(a, ast.Dict) and any(is_phase(k) for k in a.keys) for a in node.args)):
                found.append((node.lineno, "updates the phase"))
            if node.func.attr == "setdefault" and node.args and is_phase(node.args[0]):
                found.append((node.lineno, "sets a default phase"))
        elif isinstance(node, ast.Dict) and node not in starts:
            found += [(node.lineno, "makes a dict with a phase") for key, value in zip(node.keys, node.values)
                      if is_phase(key) and isinstance(value, ast.Constant)]
    return found


def test_no_module_of_the_games_writes_a_phase_but_enter_phase():
    found = []
    for path in sorted(GAMES_SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        if path == GAMES_SOURCE / "base.py":  # but for its enter_phase, the one place allowed
            tree.body = [node for node in tree.body if getattr(node, "name", None) != "enter_phase"]
        found += [f"{path.relative_to(GAMES_SOURCE)}:{line}: {what}" for line, what in phase_writes(tree)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_phase_entered_is_one_the_game_declares(game_id):
    """``enter_phase(state, "…")`` names a phase of its own game (a typo fails here)."""
    game = GAMES[game_id]
    package = GAMES_SOURCE / type(game).__module__.rsplit(".", 1)[-1]
    declared = {phase.name for phase in game.phases}
    entered = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "enter_phase":
                phase = node.args[1] if len(node.args) > 1 else None
                assert isinstance(phase, ast.Constant), f"{path.name}:{node.lineno} names its phase outright"
                entered.append(phase.value)
    assert set(entered) <= declared, f"{game_id} enters undeclared phases: {set(entered) - declared}"
