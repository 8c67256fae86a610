"""The contract every registered game keeps, checked on random games.

Each game is played from its start by choosing, at every step, a random seat and one of the
moves ``legal_actions`` says that seat may make now, with parameters drawn from the move's
payload model (names from the seats, numbers within their bounds, choices from their
literals). At every step: ``play`` leaves its input untouched; the new state survives a JSON
round trip; the log replayed from the start gives the same state; an undo gives back the
state before the move exactly; ``view``, ``status``, ``scores`` and ``winners`` work; a move
with a scope commutes with another seat's move of a disjoint scope. And a move type that
``legal_actions`` calls legal is never refused for every parameter tried.

Profiles: "ci" (fixed, derandomised, the default) and "long" (CONTRACT_PROFILE=long).
"""

from __future__ import annotations

import copy
import enum
import itertools
import json
import os
import types
import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import GAMES, GameError
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
