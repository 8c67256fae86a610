"""Asterix: Das Kartenspiel: trick taps, direct entry, pirates, sets, rounds and the quick score."""

from __future__ import annotations

import json

import pytest

from companion.games.base import GameError
from companion.games.kartenspiel import Kartenspiel, quick_score, work_out_pile
from companion.service.history import replay

GAME = Kartenspiel()
DEFAULT_RANKS = {"dekurio": None, "zenturio": 10, "general": None}
BONUS = {"2": 20, "3": 50, "4": 100}


def act(action_type: str, actor: str | None = "Ann", **fields) -> dict:
    return {"kind": "action", "payload": {"type": action_type, **fields}, "actor": actor}


def play(entries: list[dict], players=("Ann", "Ben"), options: dict | None = None) -> dict:
    return replay(GAME, list(players), options or {}, entries).state


def refused(state: dict, payload: dict) -> str:
    with pytest.raises(GameError) as caught:
        GAME.apply(state, GAME.parse_action(payload), "Ann")
    return caught.value.message


def quick_refusal(payload: dict) -> str:
    with pytest.raises(GameError) as caught:
        quick_score(payload)
    return caught.value.message


def one_pile(romans, pirates, ranks=None, choice=None) -> dict:
    return work_out_pile(romans, pirates, ranks or DEFAULT_RANKS, BONUS, choice)


# -- options and setup -------------------------------------------------------------------


def test_default_deck_has_fifty_cards_and_gauls_in_seat_order():
    state = play([], players=("Ann", "Ben", "Cid"))
    view = GAME.view(state)
    assert view["deck_size"] == 50 and view["deck_left"] == 50
    assert [row["total"] for row in view["deck_values"]] == [4] * 10 + [1] * 4
    # Names as the English edition prints them; each phone shows its language's set.
    assert view["gauls"] == {"Ann": "Asterix", "Ben": "Obelix", "Cid": "Vitalstatistix"}
    assert view["dog"] == "Dogmatix"
    assert next(row for row in view["deck_values"] if row["value"] == 10)["rank"] == "Zenturio"


def test_choosing_a_gaul_by_either_name_swaps_characters():
    # "language" of older tables is ignored: the names follow each phone's language.
    state = play(
        [act("choose_gaul", player="Ann", gaul="Getafix")],
        players=("Ann", "Ben", "Cid"),
        options={"language": "de"},
    )
    view = GAME.view(state)
    assert view["gauls"] == {"Ann": "Getafix", "Ben": "Obelix", "Cid": "Vitalstatistix"}
    state = GAME.apply(state, GAME.parse_action({"type": "choose_gaul", "player": "Ben", "gaul": "getafix"}), None)
    assert GAME.view(state)["gauls"]["Ann"] == "Obelix"
    assert GAME.view(state)["dog"] == "Dogmatix"


@pytest.mark.parametrize(
    "raw, fragment",
    [
        ({"high_values": "11,12,13,14,15"}, "The deck holds 44 Romans: use four high values"),
        ({"high_values": "11,12,x"}, "whole numbers separated by commas or spaces"),
        ({"high_values": "11,12,13,16"}, "between 11 and 15"),
        ({"high_values": "11,12,13,13"}, "list it only once"),
        ({"general": 15}, "The General's value is not in the deck"),
        ({"dekurio": "10"}, "Two ranks cannot be worth the same value"),
        ({"rounds": True}, "'rounds'"),
    ],
)
def test_options_are_checked_strictly(raw, fragment):
    with pytest.raises(GameError) as caught:
        GAME.parse_options(raw)
    assert fragment in caught.value.message


def test_a_five_high_value_deck_with_a_short_low_value():
    options = GAME.parse_options(
        {"high_values": "15, 11,12,13,14", "short_value": "3", "general": "15", "dekurio": "5"}
    )
    assert options.high_values == "11,12,13,14,15"
    state = GAME.initial_state(["Ann", "Ben"], options)
    assert state["deck"]["3"] == 3 and state["deck"]["15"] == 1
    assert GAME.view(state)["deck_size"] == 50


# -- pirates and sets -------------------------------------------------------------------


@pytest.mark.parametrize(
    "romans, pirate, escaped",
    [
        ([3, 12, 7], "highest", [12]),
        ([3, 12, 7], "lowest", [3]),
        ([3, 12, 7], "zenturio", []),  # no 10 in the pile
        ([3, 10, 7], "zenturio", [10]),
        ([3, 5, 7], "dekurio", []),  # the Dekurio has no value by default
        ([3, 14, 7], "general", []),
        ([], "highest", []),
        ([], "lowest", []),
        ([], "choice", []),
    ],
)
def test_each_pirate_kind_with_default_ranks(romans, pirate, escaped):
    working = one_pile(romans, [pirate])
    assert working["escaped"] == escaped
    assert working["points"] == sum(romans) - sum(escaped)
    if not escaped:
        assert "nobody escapes" in working["escapes"][0]["reason"]


def test_rank_pirates_with_set_values_and_the_rank_goes_before_the_highest():
    ranks = {"dekurio": 5, "zenturio": 10, "general": 14}
    assert one_pile([5, 9], ["dekurio"], ranks)["escaped"] == [5]
    # The General takes the 14, so the highest pirate takes the 10 instead of finding nothing.
    working = one_pile([14, 10, 2], ["highest", "general"], ranks)
    assert working["escaped"] == [10, 14]
    assert working["kept"] == [2]


def test_an_escape_breaks_a_set():
    working = one_pile([7, 7, 7, 2], ["highest"])
    assert working["kept"] == [7, 7, 2]
    assert working["sets"] == [{"value": 7, "count": 2, "bonus": 20}]
    assert (working["points"], working["bonus"], working["total"]) == (16, 20, 36)


def test_the_cheapest_escape_counts_the_set_bonus_lost():
    # Losing a 2 breaks the pair (2 + 20 points); losing the 3 costs only 3.
    assert one_pile([2, 2, 3], ["choice"])["escaped"] == [3]
    # Breaking four 3s costs 3 + 50; breaking the pair of 2s costs 2 + 20.
    assert one_pile([3, 3, 3, 3, 2, 2], ["choice"])["escaped"] == [2]
    assert one_pile([9, 4], ["choice"])["escaped"] == [4]
    # A named value overrides the cheapest one.
    assert one_pile([2, 2, 3], ["choice"], choice=2)["escaped"] == [2]


def test_the_owner_names_the_escape_on_the_scoring_screen_and_undo_takes_it_back():
    entries = [
        act("enter_romans", player="Ann", values="2, 2, 3"),
        act("add_pirate", player="Ann", kind="choice"),
    ]
    # Nothing escapes until Ann has chosen: never silently the cheapest Roman.
    view = GAME.view(play(entries))
    assert view["working"]["Ann"]["escaped"] == [] and view["working"]["Ann"]["choice_pending"]
    assert view["working"]["Ann"]["total"] == 27
    assert view["choice_options"] == {"Ann": [2, 3]}
    entries.append(act("choose_escape", player="Ann", value=2))
    assert GAME.view(play(entries))["working"]["Ann"]["total"] == 5
    entries.append({"kind": "undo"})
    assert GAME.view(play(entries))["working"]["Ann"]["total"] == 27


def test_the_choice_is_offered_among_the_romans_the_other_pirates_leave():
    entries = [
        act("enter_romans", player="Ann", values="9 4 4"),
        act("add_pirate", player="Ann", kind="highest"),
        act("add_pirate", player="Ann", kind="choice"),
    ]
    state = play(entries)
    assert GAME.view(state)["choice_options"] == {}  # only 4s are left: the escape is forced
    assert GAME.view(state)["working"]["Ann"]["escaped"] == [9, 4]
    # A named 9 that the highest pirate takes once it is added is asked for again.
    state = play([act("enter_romans", player="Ann", values="9 4 3"),
                  act("add_pirate", player="Ann", kind="choice"),
                  act("choose_escape", player="Ann", value=9),
                  act("add_pirate", player="Ann", kind="highest")])
    assert state["piles"]["Ann"]["choice"] is None
    assert GAME.view(state)["choice_options"] == {"Ann": [3, 4]}


# -- trick by trick ---------------------------------------------------------------------


def test_taps_count_the_deck_down_and_idefix_follows_its_rules():
    entries = [
        act("win_roman", player="Ann", value=7),
        act("idefix_look", player="Ben", roman=12, given_to="Ann"),  # gave a Roman: keeps Idefix
        act("idefix_clash"),  # nobody looks: nothing leaves the deck
        act("win_roman", player="Ben", value=7),
    ]
    state = play(entries)
    view = GAME.view(state)
    assert view["deck_left"] == 47
    assert view["piles"]["Ann"]["romans"] == [7, 12]
    assert view["hands"]["Ann"] == {"gauls": 9, "idefix": True, "out": False}
    assert view["hands"]["Ben"] == {"gauls": 9, "idefix": True, "out": False}
    assert view["clashes"] == 1
    # Keeping a Roman discards Idefix; a second look is then refused.
    state = play(entries + [act("idefix_look", player="Ben", roman=3)])
    assert state["hands"]["Ben"]["idefix"] is False
    assert "Dogmatix is already discarded" in refused(
        state, {"type": "idefix_look", "player": "Ben", "roman": 4}
    )


def test_idefix_and_pirates_keep_or_lose_the_dog_the_other_way_round():
    kept = play([act("idefix_look", player="Ann", pirate="lowest")])
    assert kept["hands"]["Ann"]["idefix"] is True
    assert kept["piles"]["Ann"]["pirates"] == ["lowest"]
    given = play([act("idefix_look", player="Ann", pirate="lowest", given_to="Ben")])
    assert given["hands"]["Ann"]["idefix"] is False
    assert given["piles"]["Ben"]["pirates"] == ["lowest"]


def test_a_pirate_trick_costs_every_other_player_a_gaul():
    state = play([act("win_pirate", player="Ann", kind="highest")], players=("Ann", "Ben", "Cid"))
    assert [state["hands"][n]["gauls"] for n in ("Ann", "Ben", "Cid")] == [10, 9, 9]


def test_a_player_whose_gauls_run_out_is_out_and_the_last_player_is_asked():
    entries = [act("win_roman", player="Ben", value=v) for v in range(1, 11)]
    state = play(entries)
    assert state["hands"]["Ben"]["out"] is True
    assert GAME.status(state) == "Round 1 of 4 · only Ann still holds cards: say how many are left."
    assert GAME.view(state)["last_player_hint"] == {"player": "Ann", "cards_left": 11, "idefix_among": True}
    assert "Only Ann still holds cards" in refused(state, {"type": "win_roman", "player": "Ann", "value": 3})
    three = play(entries, players=("Ann", "Ben", "Cid"))
    assert "Ben is out of cards" in refused(three, {"type": "idefix_look", "player": "Ben", "roman": 3})
    assert "Ben is out of cards" in refused(three, {"type": "win_roman", "player": "Ben", "value": 12})


def test_end_of_round_with_idefix_among_several_cards_counts_it():
    entries = [
        act("player_out", player="Ben"),
        act("last_player", player="Ann", cards_left=3, idefix_among=True),
    ]
    state = play(entries)
    assert state["phase"] == "drawing" and state["draws_left"] == 3
    assert GAME.status(state) == "Round 1 of 4 · Ann takes 3 more cards from the deck."
    assert "Only Ann takes cards" in refused(state, {"type": "win_roman", "player": "Ben", "value": 5})
    entries += [
        act("win_roman", player="Ann", value=5),
        act("win_pirate", player="Ann", kind="general"),  # a pirate drawn counts as one card
        act("win_roman", player="Ann", value=9),
    ]
    state = play(entries)
    assert state["phase"] == "scoring"
    assert state["piles"]["Ann"] == {"romans": [5, 9], "pirates": ["general"], "choice": None}
    assert "tricks of round 1 are over" in refused(state, {"type": "win_roman", "player": "Ann", "value": 4})


def test_end_of_round_with_idefix_as_the_only_card_takes_nothing():
    state = play(
        [act("player_out", player="Ben"), act("last_player", player="Ann", cards_left=1, idefix_among=True)]
    )
    assert state["phase"] == "scoring"
    assert GAME.view(state)["deck_left"] == 50
    # Without Idefix, one Gaul left still brings one card.
    state = play(
        [act("player_out", player="Ben"), act("last_player", player="Ann", cards_left=1)]
    )
    assert state["phase"] == "drawing" and state["draws_left"] == 1


def test_the_round_ends_when_everybody_is_out():
    state = play([act("player_out", player="Ben"), act("player_out", player="Ann")])
    assert state["phase"] == "scoring"
    assert str(GAME.status(state)).startswith("Round 1 of 4 · scoring")


def full_deck_by_taps() -> list[dict]:
    """25 tricks with three players: each face-up Roman is won and an Idefix gives the top card away."""
    romans = [v for v in range(1, 11) for _ in range(4)] + [11, 12, 13, 14]
    looked = romans[25:] + ["highest", "lowest", "choice", "dekurio", "zenturio", "general"]
    players = ["Ann", "Ben", "Cid"]
    entries = []
    for trick in range(25):
        winner, looker = players[trick % 3], players[(trick + 1) % 3]
        entries.append(act("win_roman", player=winner, value=romans[trick]))
        card = looked[trick]
        if isinstance(card, int):
            entries.append(act("idefix_look", player=looker, roman=card, given_to=players[(trick + 2) % 3]))
        else:  # a pirate kept by Idefix lets him go back to hand
            entries.append(act("idefix_look", player=looker, pirate=card))
    return entries


def test_the_round_ends_when_the_deck_is_empty():
    entries = full_deck_by_taps()
    state = play(entries[:-1], players=("Ann", "Ben", "Cid"))
    assert GAME.view(state)["deck_left"] == 1 and state["phase"] == "tricks"
    state = play(entries, players=("Ann", "Ben", "Cid"))
    assert GAME.view(state)["deck_left"] == 0
    assert state["phase"] == "scoring"
    assert sum(len(p["romans"]) for p in state["piles"].values()) == 44


def test_the_last_draws_stop_when_the_deck_runs_out():
    entries = full_deck_by_taps()[:-2] + [
        act("player_out", player="Ben"),
        act("player_out", player="Cid"),
        act("last_player", player="Ann", cards_left=5),
    ]
    state = play(entries[:-1], players=("Ann", "Ben", "Cid"))
    assert GAME.describe(state, GAME.parse_action(entries[-1]["payload"]), "Ann") == (
        "Ann was the last with cards (5 cards) and takes 2 cards from the deck.")
    state = play(entries, players=("Ann", "Ben", "Cid"))
    assert state["draws_left"] == 2
    entries += [act("win_roman", player="Ann", value=7), act("win_pirate", player="Ann", kind="general")]
    state = play(entries, players=("Ann", "Ben", "Cid"))
    assert state["phase"] == "scoring" and GAME.view(state)["deck_left"] == 0


def test_the_trick_log_builds_the_same_piles_as_direct_entry():
    players = ("Ann", "Ben", "Cid")
    tricks = play(full_deck_by_taps(), players=players)
    direct_entries = []
    for name in players:
        pile = tricks["piles"][name]
        direct_entries.append(
            act("enter_romans", player=name, values=",".join(str(v) for v in pile["romans"]))
        )
        direct_entries += [act("add_pirate", player=name, kind=kind) for kind in pile["pirates"]]
    direct = play(direct_entries, players=players)
    assert direct["piles"] == tricks["piles"]
    assert GAME.view(direct)["working"] == GAME.view(tricks)["working"]
    assert direct["phase"] == tricks["phase"] == "scoring"


def test_direct_entry_one_roman_at_a_time_and_corrections():
    state = play(
        [
            act("add_roman", player="Ann", value=4),
            act("add_roman", player="Ann", value=4),
            act("add_roman", player="Ann", value=9),
            act("remove_roman", player="Ann", value=9),
        ]
    )
    assert state["phase"] == "scoring"
    assert GAME.view(state)["working"]["Ann"]["total"] == 28


# -- rounds and the game ----------------------------------------------------------------


def scored_round(ann: str, ben: str) -> list[dict]:
    return [
        act("enter_romans", player="Ann", values=ann),
        act("enter_romans", player="Ben", values=ben),
        act("close_round"),
    ]


def test_a_four_round_game_with_running_totals_and_a_winner():
    entries = (
        scored_round("10,10", "5,5,5")  # Ann 40, Ben 65
        + scored_round("14", "1")  # Ann 14, Ben 1
        + scored_round("3,3,3,3", "")  # Ann 112, Ben 0
        + [act("enter_romans", player="Ann", values="2"), act("add_pirate", player="Ann", kind="lowest")]
        + [act("close_round")]  # Ann 0
    )
    state = play(entries[:-1])
    assert not GAME.is_over(state) and GAME.winners(state) == []
    state = play(entries)
    view = GAME.view(state)
    assert [row["cells"][0]["points"] for row in view["table"]] == [40, 14, 112, 0]
    assert [(line["player"], line["cumulative"]) for line in view["chart"]["series"]] == [
        ("Ann", [40, 54, 166, 166]),
        ("Ben", [65, 66, 66, 66]),
    ]
    assert view["chart"]["max_total"] == 166
    assert GAME.scores(state) == {"Ann": 166, "Ben": 66}
    assert GAME.is_over(state) and GAME.winners(state) == ["Ann"]
    assert json.loads(json.dumps(state)) == state
    assert GAME.status(state) == "Ann wins with 166 points!"
    assert "game is over" in refused(state, {"type": "add_roman", "player": "Ann", "value": 3})


def test_the_chart_draws_one_line_per_player_told_apart_by_shape_and_label():
    entries = scored_round("10,10", "5,5,5") + scored_round("14", "1")
    chart = GAME.view(play(entries, players=("Ann", "Ben")))["chart"]
    assert chart["drawn"] and chart["max_total"] == 66
    # The y axis runs to a round number above the best total, in at most five steps.
    assert [tick["value"] for tick in chart["y_ticks"]] == [0, 20, 40, 60, 80]
    assert [tick["round"] for tick in chart["x_ticks"]] == [1, 2, 3, 4]
    ann, ben = chart["series"]
    assert ann["marker"] != ben["marker"] and ann["dash"] != ben["dash"]
    assert ann["line"].startswith(f"{chart['plot']['left']}.0,{chart['plot']['bottom']}.0 ")
    assert len(ann["line"].split()) == 3 and len(ann["marker_paths"]) == 2
    assert (ann["label"]["text"], ben["label"]["text"]) == ("Ann 54", "Ben 66")
    # Ben is higher (smaller y) than Ann, and close totals are pushed apart.
    assert ben["points"][-1]["y"] < ann["points"][-1]["y"]
    assert ann["label"]["y"] - ben["label"]["y"] >= 15


def test_the_chart_keeps_equal_totals_readable_and_waits_for_a_round():
    assert GAME.view(play([]))["chart"]["drawn"] is False
    entries = scored_round("9", "9")
    chart = GAME.view(play(entries, players=("Ann", "Ben"), options={"rounds": 2}))["chart"]
    labels = sorted(line["label"]["y"] for line in chart["series"])
    assert labels[1] - labels[0] >= 15
    long_entries = [act("enter_romans", player="Maximilian", values="9"), act("close_round")]
    long = GAME.view(play(long_entries, players=("Ann", "Maximilian")))["chart"]
    assert long["series"][1]["label"]["text"] == "Maximi… 9"


def test_a_shared_win():
    entries = scored_round("9", "9") + scored_round("", "")
    state = play(entries, options={"rounds": 2})
    assert GAME.winners(state) == ["Ann", "Ben"]
    assert GAME.status(state) == "Ann and Ben share the win with 9 points each."


def test_closing_a_round_starts_a_fresh_one_and_logs_the_scores():
    state = play(scored_round("10,10", "5,5,5")[:-1])
    assert GAME.describe(state, GAME.parse_action({"type": "close_round"}), "Ann") == (
        "Round 1 was scored: Ann 40, Ben 65."
    )
    state = play(scored_round("10,10", "5,5,5"))
    assert state["round"] == 2 and state["phase"] == "tricks"
    assert GAME.view(state)["deck_left"] == 50
    assert state["hands"]["Ann"] == {"gauls": 10, "idefix": True, "out": False}


def test_a_pile_typed_in_for_a_closed_round_cannot_land_in_the_next_one():
    state = play(scored_round("10,10", "5,5,5"))
    assert state["round"] == 2
    # A page still showing round 1's form sends round 1's values with its round number.
    for payload in ({"type": "enter_romans", "player": "Ann", "values": "10 10", "round": 1},
                    {"type": "add_pirate", "player": "Ann", "kind": "highest", "round": 1}):
        assert refused(state, payload) == (
            "This was typed in for round 1, but round 2 is being played now; type in round 2's piles afresh."
        )
    # Typed for the round being played, or sent without a round (the API), it is taken.
    typed = GAME.apply(state, GAME.parse_action(
        {"type": "enter_romans", "player": "Ann", "values": "3", "round": "2"}), "Ann")
    assert typed["piles"]["Ann"]["romans"] == [3] and typed["phase"] == "scoring"
    pirate = GAME.apply(state, GAME.parse_action({"type": "add_pirate", "player": "Ben", "kind": "lowest"}), "Ann")
    assert pirate["piles"]["Ben"]["pirates"] == ["lowest"]
    assert "round" in refused(state, {"type": "enter_romans", "player": "Ann", "values": "3", "round": 0})


def test_log_sentences():
    state = play([])
    describe = lambda payload: GAME.describe(state, GAME.parse_action(payload), "Ann")  # noqa: E731
    assert describe({"type": "win_roman", "player": "Ben", "value": 7}) == "Ben won a Roman worth 7."
    assert describe({"type": "idefix_look", "player": "Ann", "roman": 3, "given_to": "Ben"}) == (
        "Ann's Dogmatix looked at the top card, a Roman worth 3, and gave it to Ben."
    )
    # The sentence comes from the rule itself, so the move must be legal: Ben is out first.
    state = play([act("player_out", player="Ben")])
    assert describe({"type": "last_player", "player": "Ann", "cards_left": 1, "idefix_among": True}) == (
        "Ann was the last with cards (1 card, Dogmatix among them) and takes 0 cards from the deck."
    )


# -- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload, fragment",
    [
        ({"type": "win_roman", "player": "Ann", "value": 15}, "The deck has no Roman worth 15."),
        ({"type": "win_roman", "player": "Zed", "value": 5}, "no player called 'Zed'"),
        ({"type": "win_roman", "player": "Ann", "value": 11}, "already in a pile"),
        ({"type": "win_pirate", "player": "Ben", "kind": "highest"}, "already in Ann's pile"),
        ({"type": "idefix_look", "player": "Ann"}, "either a Roman's value or a pirate's kind"),
        ({"type": "idefix_look", "player": "Ann", "roman": 3, "pirate": "lowest"}, "either a Roman's"),
        ({"type": "close_round"}, "Round 1 is still being played (48 cards in the deck)"),
        ({"type": "last_player", "player": "Ann", "cards_left": 3}, "Ann and Ben still hold cards"),
        ({"type": "choose_escape", "player": "Ann", "value": 11}, "Nobody holds the pirate of choice."),
        ({"type": "enter_romans", "player": "Ben", "values": "11"}, "only 0 can be Ben's"),
        ({"type": "enter_romans", "player": "Ben", "values": "4,four"}, "'four' is not"),
        ({"type": "remove_pirate", "player": "Ben", "kind": "lowest"}, "Ben's pile has no pirate"),
        ({"type": "win_pirate", "player": "Ann", "kind": "admiral"}, "'kind'"),
    ],
)
def test_game_refusals(payload, fragment):
    state = play([act("win_roman", player="Ann", value=11), act("win_pirate", player="Ann", kind="highest")])
    assert fragment in refused(state, payload)


def test_each_value_is_refused_once_the_deck_no_longer_holds_it():
    state = play([act("win_roman", player=name, value=6) for name in ("Ann", "Ben", "Ann", "Ben")])
    assert "All 4 Romans worth 6 are already in the piles" in refused(
        state, {"type": "win_roman", "player": "Ann", "value": 6}
    )


QUICK = {
    "players": [
        {"name": "Ann", "romans": [10, 10, 3], "pirates": ["highest"]},
        {"name": "Ben", "romans": [5, 5, 5], "pirates": []},
    ],
    "bonus": {"2": 20, "3": 50, "4": 100},
    "ranks": {"dekurio": 5, "zenturio": 10, "general": 15},
}


def test_quick_score_matches_the_documented_example():
    assert quick_score(QUICK) == {
        "players": [
            {"name": "Ann", "kept": [10, 3], "escaped": [10], "points": 13, "bonus": 0, "total": 13},
            {"name": "Ben", "kept": [5, 5, 5], "escaped": [], "points": 15, "bonus": 50, "total": 65},
        ]
    }


def test_quick_score_defaults_and_choice_pirates():
    result = quick_score(
        {
            "players": [
                {"name": "Ann", "romans": [2, 2, 3], "pirates": ["choice"]},
                {"name": "Cid", "romans": [4, 4, 10], "pirates": ["dekurio", "zenturio"]},
            ],
            "bonus": {"2": 30},
        }
    )
    ann, cid = result["players"]
    assert (ann["escaped"], ann["total"]) == ([3], 34)  # the pair bonus of 30 makes the 3 cheaper
    assert (cid["escaped"], cid["total"]) == ([10], 38)  # no Dekurio value by default
    named = quick_score({"players": [player("Ann", [2, 2, 3], [{"choice": 2}]), player("Ben")]})
    assert named["players"][0] == {
        "name": "Ann", "kept": [2, 3], "escaped": [2], "points": 5, "bonus": 0, "total": 5
    }


def player(name, romans=(), pirates=()):
    return {"name": name, "romans": list(romans), "pirates": list(pirates)}


@pytest.mark.parametrize(
    "players, fragment",
    [
        ([player("Ann")], "2 to 5 players, not 1"),
        ([player(n) for n in "ABCDEF"], "2 to 5 players, not 6"),
        ([player("Ann", [15]), player("Ben")], "Roman worth 15, but the deck has no such card"),
        ([player("Ann", [0]), player("Ben")], "Roman worth 0"),
        ([player("Ann", [7, 7, 7]), player("Ben", [7, 7])], "holds 4 Romans worth 7, but the piles have 5"),
        ([player("Ann", [12]), player("Ben", [12])], "holds 1 Roman worth 12, but the piles have 2"),
        (
            [
                player("Ann", [], ["highest", "lowest", "choice", "dekurio"]),
                player("Ben", [], ["zenturio", "general", "highest"]),
            ],
            "The deck has 6 pirates, but the piles have 7.",
        ),
        ([player("Ann", [3], ["blue"]), player("Ben")], "pirate 'blue' of no known kind"),
        ([player("Ann", [3], [{"choice": "x"}]), player("Ben")], "of no known kind"),
        ([player("Ann", [3], [{"choice": 7}]), player("Ben")], "names 7, but that pile has no 7"),
        ([player("Ann", [9, 3], ["highest", {"choice": 9}]), player("Ben")], "already take every 9"),
        ([player("Ann", [], ["lowest"]), player("Ben", [], ["lowest"])], "both Ann and Ben have it"),
        ([player("Ann"), player("Ann")], "Two players are called Ann"),
    ],
)
def test_quick_score_refusals(players, fragment):
    assert fragment in quick_refusal({"players": players})


@pytest.mark.parametrize(
    "payload, fragment",
    [
        ({}, "The field 'players' is missing."),
        ({"players": [], "colour": 1}, "'colour' is not expected"),
        ({"players": [player("Ann", [True]), player("Ben")]}, "'players[0].romans[0]'"),
        ({"players": [player("Ann"), player("Ben")], "bonus": {"5": 1}}, "'bonus[5]' is not expected"),
    ],
)
def test_quick_score_malformed_requests(payload, fragment):
    assert fragment in quick_refusal(payload)


def test_apply_never_changes_the_state_it_was_given():
    state = play(full_deck_by_taps()[:-2], players=("Ann", "Ben", "Cid"))
    before = json.loads(json.dumps(state))
    for payload in (
        {"type": "win_pirate", "player": "Ben", "kind": "general"},
        {"type": "idefix_look", "player": "Cid", "roman": 7},
        {"type": "enter_romans", "player": "Ann", "values": "1"},
        {"type": "player_out", "player": "Ann"},
    ):
        GAME.apply(state, GAME.parse_action(payload), "Ann")
    assert state == before


# -- the table of moves: phases, checks and no turn order -----------------------------------


def legal_now(state: dict, seat: str | None = "Ann") -> set[str]:
    return {kind for kind, why in GAME.legal_actions(state, seat).items() if why is None}


ANY_TIME = {"choose_gaul", "enter_romans"}  # until the game is over, whatever the phase


def test_the_moves_are_declared_once_and_the_base_class_plays_them():
    assert {move.kind for move in GAME.moves} == set(GAME.action_types())
    for inherited in ("apply", "describe"):
        assert inherited not in vars(Kartenspiel)
    # Everyone lays a card at once and reveals together: no move waits for a player's turn.
    assert not GAME.has_turns and "hand_turn" not in GAME.action_types()
    assert all(move.turn is None for move in GAME.moves)


def test_legal_moves_follow_the_phase_of_the_round():
    state = play([])
    assert GAME.phase(state) == "tricks"
    assert legal_now(state) == ANY_TIME | {
        "win_roman", "win_pirate", "idefix_look", "idefix_clash", "player_out", "add_roman", "add_pirate",
    }
    last_hand = play([act("player_out", player="Ben")])
    assert GAME.phase(last_hand) == "last_hand"
    assert legal_now(last_hand) == ANY_TIME | {"player_out", "last_player", "add_roman", "add_pirate"}
    drawing = play([act("player_out", player="Ben"), act("last_player", player="Ann", cards_left=3)])
    assert GAME.phase(drawing) == "drawing"
    assert legal_now(drawing) == ANY_TIME | {"win_roman", "win_pirate", "add_roman", "add_pirate"}
    scoring = play([act("enter_romans", player="Ann", values="3"), act("add_pirate", player="Ben", kind="choice")])
    assert GAME.phase(scoring) == "scoring"
    assert legal_now(scoring, "Ben") == ANY_TIME | {
        "add_roman", "remove_roman", "add_pirate", "remove_pirate", "choose_escape", "close_round",
    }
    # The same for every seat and for the host, but the escape is Ben's to name.
    assert GAME.legal_actions(scoring, "Ben") == GAME.legal_actions(scoring, None)
    assert legal_now(scoring, "Ann") == legal_now(scoring, "Ben") - {"choose_escape"}
    over = play(scored_round("1", "2") * 4)
    assert legal_now(over) == set()
    assert GAME.legal_actions(over)["choose_gaul"] == "The game is over; undo the last move to change it."


@pytest.mark.parametrize(
    "entries, payload, sentence",
    [
        (
            [],
            {"type": "close_round"},
            "Not now: Round 1 is still being played (50 cards in the deck): Ann and Ben still hold cards; "
            "finish the tricks or type in the piles.",
        ),
        (
            [],
            {"type": "last_player", "player": "Ann", "cards_left": 2},
            "Not now: Round 1 is still being played (50 cards in the deck): Ann and Ben still hold cards; "
            "finish the tricks or type in the piles.",
        ),
        (
            [act("player_out", player="Ben")],
            {"type": "idefix_clash"},
            "Not now: Only Ann still holds cards; say how many are left to finish the round.",
        ),
        (
            [act("player_out", player="Ben"), act("last_player", player="Ann", cards_left=2)],
            {"type": "idefix_look", "player": "Ann", "roman": 4},
            "Not now: Ann is taking 2 more cards from the deck; only those can be recorded now.",
        ),
        (
            [act("enter_romans", player="Ann", values="4")],
            {"type": "win_pirate", "player": "Ann", "kind": "lowest"},
            "Not now: Round 1 is being typed in: type in the Romans of Ben and close the round, or undo.",
        ),
        (
            [act("player_out", player="Ben"), act("player_out", player="Ann")],
            {"type": "win_pirate", "player": "Ann", "kind": "lowest"},
            "Not now: The tricks of round 1 are over; correct the piles on the scoring screen and close "
            "the round, or undo.",
        ),
    ],
)
def test_a_move_out_of_phase_is_refused_saying_what_is_expected(entries, payload, sentence):
    state = play(entries)
    assert refused(state, payload) == sentence
    assert GAME.legal_actions(state, "Ann")[payload["type"]] == sentence


def test_checks_refuse_what_the_deck_or_the_piles_cannot_give():
    nothing = play([])
    assert GAME.legal_actions(nothing)["remove_roman"] == "No pile holds a Roman to take out."
    assert GAME.legal_actions(nothing)["remove_pirate"] == "No pile holds a pirate to take out."
    assert refused(nothing, {"type": "choose_escape", "player": "Ann"}) == "Nobody holds the pirate of choice."
    pirates = [act("win_pirate", player="Ann", kind=kind) for kind in ("highest", "lowest", "dekurio")]
    pirates += [act("win_pirate", player="Ben", kind=kind) for kind in ("zenturio", "general", "choice")]
    state = play(pirates)
    assert refused(state, {"type": "win_pirate", "player": "Ann", "kind": "lowest"}) == (
        "All six pirates are already in the piles."
    )
    # Someone else's pirate of choice: the owner is named in the refusal, on a seat's phone as
    # on the host's.
    assert refused(state, {"type": "choose_escape", "player": "Ann"}) == (
        "It is Ben's choice which Roman escapes: Ben taps it on their own phone, or the host "
        "does.")
    with pytest.raises(GameError) as caught:
        GAME.apply(state, GAME.parse_action({"type": "choose_escape", "player": "Ann"}), None)
    assert caught.value.message == "Ann does not hold the pirate of choice."
    dogs = play([act("idefix_look", player="Ann", roman=3), act("idefix_look", player="Ben", roman=4)])
    assert refused(dogs, {"type": "idefix_look", "player": "Ben", "roman": 5}) == (
        "Nobody still in the round has Dogmatix in hand."
    )


def test_pile_corrections_are_logged_in_plain_words():
    state = play([act("add_roman", player="Ann", value=4), act("add_pirate", player="Ann", kind="dekurio")])
    describe = lambda payload: GAME.describe(state, GAME.parse_action(payload), "Ann")  # noqa: E731
    assert describe({"type": "add_roman", "player": "Ben", "value": 7}) == "A Roman worth 7 was added to Ben's pile."
    assert describe({"type": "remove_roman", "player": "Ann", "value": 4}) == (
        "A Roman worth 4 was taken out of Ann's pile."
    )
    assert describe({"type": "remove_pirate", "player": "Ann", "kind": "dekurio"}) == (
        "The pirate (a Dekurio escapes) was taken out of Ann's pile."
    )
