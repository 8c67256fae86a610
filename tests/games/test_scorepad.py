"""The score pad's rules, replayed from action lists with no app."""

import pytest

from companion.games import GameError, get_game
from companion.service.history import replay

pad = get_game("scorepad")


def score(player, rnd, points, actor=None):
    return {"kind": "action", "payload": {"type": "enter_score", "player": player,
                                          "round": rnd, "points": points}, "actor": actor}


def play(entries, players=("Ann", "Ben"), **options):
    return replay(pad, list(players), options, entries).state


def test_totals_add_up_rounds_including_negative_points():
    state = play([score("Ann", 1, 10), score("Ben", 1, -4), score("Ann", 2, 5)])
    assert pad.scores(state) == {"Ann": 15, "Ben": -4}
    assert pad.view(state)["rows"][0]["cells"][1] == {"player": "Ben", "points": -4, "running": -4}


def test_second_entry_for_the_same_cell_replaces_the_first():
    state = play([score("Ann", 1, 10), score("Ann", 1, 7)])
    assert pad.scores(state)["Ann"] == 7


@pytest.mark.parametrize("winning, winners", [("highest", ["Ann"]), ("lowest", ["Ben"])])
def test_highest_or_lowest_total_wins(winning, winners):
    state = play([score("Ann", 1, 10), score("Ben", 1, 3),
                  {"kind": "action", "payload": {"type": "finish_game"}}], winning=winning)
    assert pad.winners(state) == winners
    assert pad.is_over(state)


def test_a_tie_is_a_shared_win():
    state = play([score("Ann", 1, 3), score("Ben", 1, 3),
                  {"kind": "action", "payload": {"type": "finish_game"}}])
    assert pad.winners(state) == ["Ann", "Ben"]
    assert "share" in str(pad.status(state))


def test_planned_rounds_end_the_game_when_the_last_round_is_full():
    state = play([score("Ann", 1, 1), score("Ben", 1, 2), score("Ann", 2, 1)], rounds=2)
    assert not pad.is_over(state)
    state = play([score("Ann", 1, 1), score("Ben", 1, 2), score("Ann", 2, 1), score("Ben", 2, 5)],
                 rounds=2)
    assert pad.is_over(state) and pad.winners(state) == ["Ben"]


def test_no_winner_while_the_game_runs():
    assert pad.winners(play([score("Ann", 1, 3)])) == []


def test_undo_and_redo_replay_the_log():
    entries = [score("Ann", 1, 10), score("Ann", 1, 4), {"kind": "undo"}]
    assert pad.scores(play(entries))["Ann"] == 10
    assert pad.scores(play(entries + [{"kind": "redo"}]))["Ann"] == 4
    # A new action after an undo ends the redo chain.
    result = replay(pad, ["Ann", "Ben"], {}, entries + [score("Ben", 1, 2), {"kind": "redo"}])
    assert pad.scores(result.state) == {"Ann": 10, "Ben": 2}
    assert result.redoable == []


@pytest.mark.parametrize("payload, message", [
    ({"type": "enter_score", "player": "Cy", "round": 1, "points": 1}, "no player called 'Cy'"),
    ({"type": "enter_score", "player": "Ann", "round": 0, "points": 1}, "'round'"),
    ({"type": "enter_score", "player": "Ann", "round": 1, "points": "ten"}, "'points'"),
    ({"type": "enter_score", "player": "Ann", "round": 1, "points": True}, "not true/false"),
    ({"type": "enter_score", "player": "Ann", "round": 1}, "'points' is missing"),
    ({"type": "jump"}, "knows: enter_score, finish_game"),
])
def test_bad_entries_are_refused_with_a_sentence(payload, message):
    state = play([])
    with pytest.raises(GameError) as refused:
        pad.apply(state, pad.parse_action(payload), None)
    assert message in refused.value.message


def test_rounds_beyond_the_plan_and_scores_after_the_finish_are_refused():
    state = play([score("Ann", 1, 1), score("Ben", 1, 4)], rounds=1)
    with pytest.raises(GameError, match="over"):
        pad.apply(state, pad.parse_action({"type": "enter_score", "player": "Ben", "round": 1,
                                           "points": 2}), None)
    state = play([], rounds=3)
    with pytest.raises(GameError, match="no round 4"):
        pad.apply(state, pad.parse_action({"type": "enter_score", "player": "Ben", "round": 4,
                                           "points": 2}), None)


def test_the_log_sentence_says_what_changed():
    state = play([score("Ann", 2, 7)])
    action = pad.parse_action({"type": "enter_score", "player": "Ann", "round": 2, "points": 9})
    assert pad.describe(state, action, "Ben") == "Ben changed Ann's round 2 from 7 to 9 points."
    first = pad.parse_action({"type": "enter_score", "player": "Ben", "round": 1, "points": 1})
    assert pad.describe(state, first, None) == "The host wrote 1 point for Ben in round 1."


def take_back(player, rnd, actor):
    return {"kind": "action", "payload": {"type": "take_back", "player": player, "round": rnd},
            "actor": actor}


def test_a_seat_takes_back_its_own_last_entry_after_others_entered():
    """Lena writes 80, Jonas 5 since: an undo would take back Jonas's 5; Lena takes back her
    80 instead, as a new entry, and Jonas's 5 stays."""
    players = ("Lena", "Jonas")
    entries = [score("Lena", 2, 30, "Lena"), score("Lena", 2, 80, "Lena"),
               score("Jonas", 2, 5, "Jonas")]
    state = play(entries, players)
    assert pad.legal_actions(state, "Lena")["take_back"] is None
    assert pad.view(state)["last_entries"]["Lena"] == {"player": "Lena", "round": 2,
                                                       "points": 80, "before": 30}
    new, sentence = pad.play(state, pad.parse_action(take_back("Lena", 2, "Lena")["payload"]), "Lena")
    assert new["entries"] == {"Lena": {"2": 30}, "Jonas": {"2": 5}}
    assert str(sentence) == "Lena took back 80 for Lena in round 2: 30 again."
    # Replayed from the log it comes out the same; taken back once, there is nothing left.
    again = play(entries + [take_back("Lena", 2, "Lena")], players)
    assert again["entries"] == new["entries"]
    assert pad.legal_actions(again, "Lena")["take_back"] == "You have no entry of your own to take back."


def test_an_entry_is_not_taken_back_once_another_phone_changed_its_cell():
    players = ("Lena", "Jonas")
    state = play([score("Lena", 1, 80, "Lena"), score("Lena", 1, 8, "Jonas")], players)
    # Lena's 80 is gone from the sheet: nothing of hers to take back, and the host has none.
    assert pad.legal_actions(state, "Lena")["take_back"] == "You have no entry of your own to take back."
    assert pad.legal_actions(state, None)["take_back"] == "You have no entry of your own to take back."
    with pytest.raises(GameError) as refused:
        pad.play(state, pad.parse_action(take_back("Lena", 1, "Lena")["payload"]), "Lena")
    assert "no entry of your own" in refused.value.message
    # A first entry taken back leaves its cell empty again.
    state = play([score("Lena", 1, 80, "Lena"), score("Jonas", 1, 3, "Jonas")], players)
    new, sentence = pad.play(state, pad.parse_action(take_back("Lena", 1, "Lena")["payload"]), "Lena")
    assert new["entries"] == {"Lena": {}, "Jonas": {"1": 3}}
    assert str(sentence) == "Lena took back 80 for Lena in round 1."
