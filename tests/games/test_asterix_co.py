"""Asterix & Co. replayed from action lists, with no app."""

import pytest

from companion.games.asterix_co import AsterixCo, sesterces
from companion.games.base import FromJson, GameError
from companion.service.history import replay

GAME = AsterixCo()
DUO = ["Matthew", "Laura"]
TRIO = ["Ann", "Bob", "Cid"]
QUARTET = ["Ann", "Bob", "Cid", "Dee"]


def act(actor=None, **payload):
    return {"kind": "action", "payload": payload, "actor": actor}


def play(player, album, strength, character_type, colour, name=None):
    payload = dict(
        type="play_character",
        player=player,
        album=album,
        strength=strength,
        character_type=character_type,
        colour=colour,
    )
    if name:
        payload["name"] = name
    return act(**payload)


def passes(*players):
    """Turns taken by reinforcing the hand: nothing changes on the albums."""
    return [act(type="reinforce_hand", player=player) for player in players]


def given_turn(state, player):
    """The state with the turn handed to ``player`` (the host's correction), if need be."""
    if state["turn"] == player:
        return state
    return GAME.apply(state, GAME.parse_action({"type": "hand_turn", "player": player}), None)


def run(players, entries, options=None):
    return replay(GAME, players, options or {}, entries).state


def refused(state, payload, *fragments):
    with pytest.raises(GameError) as caught:
        GAME.apply(state, GAME.parse_action(payload), None)
    for fragment in fragments:
        assert fragment in caught.value.message
    return caught.value.message


def totals(state, album):
    board = next(a for a in GAME.view(state)["albums"] if a["number"] == album)
    return board["sides"]["gaul"]["total"], board["sides"]["roman"]["total"]


def win_album_one():
    """Matthew (Gaul on album 1) takes it 16 to 0 with two strength 8 Gauls."""
    return [
        play("Matthew", 1, 8, "Rebel", "Gaul"),
        *passes("Laura"),
        play("Matthew", 1, 8, "Diehard", "Gaul"),
    ]


# -- point 1: setup ------------------------------------------------------------------------


def test_three_players_sit_between_three_albums():
    view = GAME.view(run(TRIO, []))
    layout = {
        a["number"]: (a["sides"]["gaul"]["player"], a["sides"]["roman"]["player"])
        for a in view["albums"]
    }
    assert layout == {1: ("Ann", "Bob"), 2: ("Bob", "Cid"), 3: ("Cid", "Ann")}
    ann = view["seats"][0]
    assert ann["player"] == "Ann"
    assert [(s["where"], s["album"], s["faction"], s["opponent"]) for s in ann["albums"]] == [
        ("left", 1, "gaul", "Bob"),
        ("right", 3, "roman", "Cid"),
    ]


def test_two_players_share_two_albums_with_one_side_each():
    view = GAME.view(run(DUO, []))
    assert [
        (a["number"], a["sides"]["gaul"]["player"], a["sides"]["roman"]["player"])
        for a in view["albums"]
    ] == [
        (1, "Matthew", "Laura"),
        (2, "Laura", "Matthew"),
    ]
    laura = view["seats"][1]["albums"]
    assert {(s["album"], s["faction"]) for s in laura} == {(1, "roman"), (2, "gaul")}


def test_four_players_get_four_albums_and_starting_tokens():
    state = run(QUARTET, [])
    view = GAME.view(state)
    assert [a["number"] for a in view["albums"]] == [1, 2, 3, 4]
    for name in QUARTET:
        row = view["ledger"][name]
        assert row["legionary_helmets"] == 1
        assert row["centurion_helmets"] == 0
        assert row["bonuses"] == {"potion": 1, "fish": 1, "boar": 1}
        assert row["sesterces"] == 1
    assert view["stock"] == {
        "legionary": None,
        "centurion": None,
        "potion": None,
        "fish": None,
        "boar": None,
    }
    assert GAME.status(state) == "Ann's turn · first to 50 sesterces wins"


def test_stock_options_are_checked():
    with pytest.raises(GameError, match="fish_tokens"):
        GAME.parse_options({"fish_tokens": -1})
    with pytest.raises(GameError, match="legionary_helmets"):
        GAME.parse_options({"legionary_helmets": True})
    # The set-up form sends its numbers as text; the API's JSON sends numbers.
    assert GAME.parse_options({"centurion_helmets": "4"}).centurion_helmets == 4
    with pytest.raises(GameError, match="not text"):
        GAME.parse_options(FromJson(centurion_helmets="4"))


# -- point 2: album battles and faction totals -----------------------------------------------


def test_potion_doubles_and_ko_removes_strength():
    state = run(
        DUO,
        [
            play("Matthew", 1, 5, "Hero", "Gaul", "Asterix"),
            play("Laura", 1, 4, "Legionary", "Roman"),
            play("Matthew", 1, 3, "Rebel", "Neutral"),
            act(type="use_potion", player="Laura", character="c2"),
        ],
    )
    assert totals(state, 1) == (8, 8)
    state = run(
        DUO,
        [
            play("Matthew", 1, 5, "Hero", "Gaul", "Asterix"),
            play("Laura", 1, 4, "Legionary", "Roman"),
            *passes("Matthew"),
            act(type="use_fish", player="Laura", character="c1"),
        ],
    )
    assert totals(state, 1) == (0, 4)
    assert GAME.view(state)["ledger"]["Laura"]["bonuses"]["fish"] == 0
    # Reinvigorating gives the strength back.
    state = GAME.apply(state, GAME.parse_action({"type": "reinvigorate", "character": "c1"}), None)
    assert totals(state, 1) == (5, 4)


def test_boar_reinvigorates_a_knocked_out_character():
    state = run(
        DUO,
        [
            play("Matthew", 1, 6, "Chief", "Gaul"),
            act(type="knock_out", character="c1"),
            *passes("Laura"),
            act(type="use_boar", player="Matthew", character="c1"),
        ],
    )
    assert totals(state, 1) == (6, 0)
    assert GAME.view(state)["ledger"]["Matthew"]["bonuses"]["boar"] == 0


def test_call_on_moves_a_character_to_the_callers_faction():
    state = run(
        TRIO,
        [
            *passes("Ann"),
            play("Bob", 2, 7, "Legionary", "Neutral"),
            *passes("Cid"),
            play("Ann", 1, 3, "Rebel", "Gaul"),
            act(type="call_on", player="Bob", album=1, character="c1"),
        ],
    )
    assert totals(state, 2) == (0, 0)
    assert totals(state, 1) == (3, 7)
    moved = next(c for c in GAME.view(state)["characters"] if c["id"] == "c1")
    assert (moved["album"], moved["faction"], moved["owner"], moved["called_on_by"]) == (
        1,
        "roman",
        "Bob",
        "Bob",
    )


def test_call_on_from_the_other_side_of_the_same_album():
    state = run(
        DUO,
        [
            play("Matthew", 1, 6, "Swindler", "Neutral"),
            act(type="call_on", player="Laura", album=1, character="c1"),
        ],
    )
    assert totals(state, 1) == (0, 6)


def test_eliminate_discards_the_character_and_its_potion():
    state = run(
        DUO,
        [
            play("Matthew", 1, 6, "Hero", "Gaul", "Asterix"),
            *passes("Laura"),
            act(type="use_potion", player="Matthew", character="c1"),
            act(type="eliminate", character="c1"),
        ],
        {"potion_tokens": 0},
    )
    assert totals(state, 1) == (0, 0)
    assert GAME.view(state)["stock"]["potion"] == 1
    assert GAME.view(state)["characters"] == []


def test_turn_passes_left_after_a_turn_move_but_not_after_a_power():
    state = run(TRIO, [play("Ann", 1, 4, "Rebel", "Gaul")])
    assert state["turn"] == "Bob"
    state = run(
        TRIO,
        [
            play("Ann", 1, 4, "Rebel", "Gaul"),
            act(type="gain_helmet", player="Ann", helmet="legionary"),
        ],
    )
    assert state["turn"] == "Bob"
    state = run(TRIO, passes("Ann", "Bob", "Cid"))
    assert state["turn"] == "Ann"


def test_undo_takes_back_a_potion():
    entries = [
        play("Matthew", 1, 6, "Hero", "Gaul", "Asterix"),
        *passes("Laura"),
        act(type="use_potion", player="Matthew", character="c1"),
        {"kind": "undo"},
    ]
    state = run(DUO, entries)
    assert totals(state, 1) == (6, 0)
    assert state["ledger"]["Matthew"]["bonuses"]["potion"] == 1


# -- point 3 and 4: the rulebook's battle example -----------------------------------------------


def battle_example():
    return [
        play("Matthew", 1, 3, "Chief", "Gaul", "Getafix"),
        act(type="gain_bonus", player="Matthew", bonus="potion"),
        play("Laura", 1, 3, "Swindler", "Neutral", "Edifis"),
        act(type="eliminate", character="c1"),
        play("Matthew", 1, 4, "Rebel", "Gaul", "Dogmatix"),
        act(type="gain_helmet", player="Matthew", helmet="legionary"),
        play("Laura", 1, 4, "Centurion", "Roman", "Crismus Bonus"),
        play("Matthew", 1, 6, "Hero", "Gaul", "Asterix"),
        act(type="knock_out", character="c4"),
        play("Laura", 1, 3, "Swindler", "Roman", "Valueaddedtax"),
        act(type="reinvigorate", character="c4"),
    ]


def test_battle_example_before_the_potion():
    state = run(DUO, battle_example())
    assert totals(state, 1) == (10, 10)
    assert state["turn"] == "Matthew"
    assert state["ledger"]["Matthew"]["bonuses"]["potion"] == 2


def test_battle_example_replayed_to_its_result():
    entries = battle_example() + [act(type="use_potion", player="Matthew", character="c5")]
    state = run(DUO, entries)
    last = state["last_resolution"]
    assert last["totals"] == {"gaul": 16, "roman": 10}
    assert (last["winner"], last["loser"], last["album"]) == ("Matthew", "Laura", 1)
    assert (last["centurion_helmets"], last["legionary_helmets"]) == (1, 0)
    matthew = GAME.view(state)["ledger"]["Matthew"]
    assert matthew["albums"] == [1]
    assert (
        matthew["album_sesterces"],
        matthew["centurion_sesterces"],
        matthew["legionary_sesterces"],
    ) == (15, 3, 2)
    assert matthew["sesterces"] == 20
    assert GAME.scores(state) == {"Matthew": 20, "Laura": 1}
    assert GAME.status(state) == "Matthew took album 1 · Laura picks a consolation bonus token."
    describe = GAME.describe(
        run(DUO, entries[:-1]), GAME.parse_action(entries[-1]["payload"]), None
    )
    assert describe == (
        "Matthew gave a Potion to Asterix. Matthew took album 1 (16 to 10) "
        "and 1 centurion helmet, reaching 20 sesterces."
    )

    state = run(DUO, entries + [act(type="take_consolation", bonus="potion")])
    assert state["ledger"]["Laura"]["bonuses"]["potion"] == 2
    assert state["pending"]["step"] == "orientation"
    state = run(
        DUO,
        entries
        + [
            act(type="take_consolation", bonus="potion"),
            act(type="orient_album", faction="gaul", note="No Fish Bonus here"),
        ],
    )
    album = GAME.view(state)["albums"][0]
    assert (
        album["number"],
        album["sides"]["gaul"]["player"],
        album["sides"]["roman"]["player"],
    ) == (3, "Laura", "Matthew")
    assert album["note"] == "No Fish Bonus here"
    assert state["turn"] == "Laura"
    assert GAME.status(state) == "Laura's turn · first to 50 sesterces wins"


# -- point 3: resolution details -------------------------------------------------------------


def test_helmets_paid_for_visible_legionaries_and_centurions_on_both_sides():
    state = run(
        DUO,
        [
            *passes("Matthew"),
            play("Laura", 1, 2, "Legionary", "Roman"),
            *passes("Matthew"),
            play("Laura", 1, 3, "Centurion", "Roman"),
            *passes("Matthew"),
            play("Laura", 1, 2, "Legionary", "Roman"),
            act(type="knock_out", character="c3"),
            play("Matthew", 1, 7, "Legionary", "Neutral"),
            *passes("Laura"),
            play("Matthew", 1, 8, "Centurion", "Gaul"),
        ],
    )
    last = state["last_resolution"]
    assert (last["winner"], last["legionary_helmets"], last["centurion_helmets"]) == (
        "Matthew",
        2,
        2,
    )
    assert [dict(back, name=str(back["name"])) for back in GAME.view(state)["back_to_hand"]] == [
        {"name": "the strength 2 Roman Legionary", "owner": "Laura"}
    ]
    assert GAME.scores(state)["Matthew"] == 15 + 2 * 3 + 3 * 1
    assert GAME.view(state)["characters"] == []


def test_called_on_character_knocked_out_goes_back_to_the_caller():
    state = run(
        DUO,
        [
            play("Matthew", 1, 5, "Rebel", "Neutral", "Redbeard"),
            act(type="call_on", player="Laura", album=1, character="c1"),
            act(type="knock_out", character="c1"),
            *passes("Laura"),
            play("Matthew", 1, 8, "Chief", "Gaul"),
            *passes("Laura"),
            play("Matthew", 1, 8, "Chief", "Gaul"),
        ],
    )
    assert GAME.view(state)["back_to_hand"] == [{"name": "Redbeard", "owner": "Laura"}]


def test_next_player_is_left_of_the_winner_and_loser_orients_the_new_album():
    entries = [
        *passes("Ann", "Bob"),
        play("Cid", 3, 8, "Chief", "Gaul"),
        *passes("Dee", "Ann", "Bob"),
        play("Cid", 3, 8, "Chief", "Gaul"),
        act(type="take_consolation", bonus="fish"),
        act(type="orient_album", faction="gaul"),
    ]
    state = run(QUARTET, entries)
    assert state["turn"] == "Dee"
    album = GAME.view(state)["albums"][2]
    assert (
        album["number"],
        album["sides"]["gaul"]["player"],
        album["sides"]["roman"]["player"],
    ) == (5, "Dee", "Cid")
    assert state["ledger"]["Dee"]["bonuses"]["fish"] == 2
    dee = GAME.view(state)["seats"][3]["albums"]
    assert {(s["album"], s["faction"]) for s in dee} == {(4, "gaul"), (5, "gaul")}


def test_consolation_refuses_a_third_copy():
    entries = [
        act(type="gain_bonus", player="Laura", bonus="boar"),
    ] + win_album_one()
    state = run(DUO, entries)
    assert GAME.view(state)["consolation_choices"] == ["potion", "fish"]
    refused(
        state,
        {"type": "take_consolation", "bonus": "boar"},
        "Laura already holds two Boar tokens; a third one is not allowed.",
    )


def test_consolation_is_skipped_when_nothing_can_be_taken():
    entries = [
        act(type="gain_bonus", player="Laura", bonus="potion"),
        act(type="gain_bonus", player="Laura", bonus="fish"),
        act(type="gain_bonus", player="Laura", bonus="boar"),
    ] + win_album_one()
    state = run(DUO, entries)
    assert state["pending"] == {"step": "orientation", "player": "Laura", "slot": 0}
    assert (
        GAME.status(state)
        == "Matthew took album 1 · Laura reveals the next album and picks the side that faces them."
    )


def test_moves_wait_for_the_pending_choices():
    """A move out of its phase is refused with what the table is expected to do instead."""
    state = run(DUO, win_album_one())
    assert GAME.phase(state) == "consolation"
    refused(
        state,
        play("Laura", 2, 4, "Rebel", "Gaul")["payload"],
        "Not now: Laura picks a consolation bonus token.",
    )
    refused(
        state,
        {"type": "orient_album", "faction": "roman"},
        "Not now: Laura picks a consolation bonus token.",
    )
    state = run(DUO, win_album_one() + [act(type="take_consolation", bonus="fish")])
    assert GAME.phase(state) == "orientation"
    refused(
        state,
        {"type": "use_fish", "player": "Laura", "character": "c1"},
        "Not now: Laura reveals the next album",
    )
    refused(
        state,
        {"type": "take_consolation", "bonus": "boar"},
        "Not now: Laura reveals the next album and picks the side that faces them.",
    )
    # The album's note may still be written while the loser chooses.
    state = GAME.apply(state, GAME.parse_action({"type": "set_album_note", "album": 2}), None)
    fresh = run(DUO, [])
    assert GAME.phase(fresh) == "play"
    for payload in ({"type": "take_consolation", "bonus": "boar"},
                    {"type": "orient_album", "faction": "gaul"}):
        assert refused(fresh, payload) == (
            "Not now: Matthew plays a character, uses a bonus token or reinforces their hand."
        )
    assert GAME.legal_actions(fresh, "Matthew")["take_consolation"] == (
        "Not now: Matthew plays a character, uses a bonus token or reinforces their hand."
    )


# -- point 4: ledger moves ----------------------------------------------------------------------


def test_gaining_and_destroying_helmets():
    state = run(
        DUO,
        [
            act(type="gain_helmet", player="Laura", helmet="centurion"),
            act(type="destroy_helmet", player="Laura", helmet="legionary"),
        ],
    )
    assert GAME.scores(state)["Laura"] == 3
    refused(
        state,
        {"type": "destroy_helmet", "player": "Laura", "helmet": "legionary"},
        "Laura has no legionary helmet to destroy.",
    )


def test_a_third_bonus_from_a_power_is_refused():
    state = run(DUO, [act(type="gain_bonus", player="Matthew", bonus="fish")])
    refused(
        state,
        {"type": "gain_bonus", "player": "Matthew", "bonus": "fish"},
        "Matthew already holds two Fish tokens; a third one is not allowed.",
    )


def test_sesterce_arithmetic():
    assert sesterces(albums=3, centurion_helmets=1, legionary_helmets=2) == 50


# -- point 5: the win -------------------------------------------------------------------------


def three_albums_for_matthew():
    return (
        win_album_one()
        + [act(type="take_consolation", bonus="potion"), act(type="orient_album", faction="roman")]
        + passes("Laura")
        + [play("Matthew", 2, 8, "Legionary", "Roman")]
        + passes("Laura")
        + [play("Matthew", 2, 7, "Centurion", "Roman")]
        + [act(type="take_consolation", bonus="fish"), act(type="orient_album", faction="roman")]
        + passes("Laura")
        + [play("Matthew", 3, 8, "Chief", "Gaul")]
        + passes("Laura")
        + [play("Matthew", 3, 7, "Chief", "Gaul")]
    )


def test_reaching_fifty_at_a_resolution_ends_the_game():
    state = run(DUO, three_albums_for_matthew())
    assert GAME.is_over(state)
    assert GAME.winners(state) == ["Matthew"]
    assert GAME.scores(state) == {"Matthew": 50, "Laura": 1}
    breakdown = GAME.view(state)["ledger"]["Matthew"]
    assert (
        breakdown["albums"],
        breakdown["album_sesterces"],
        breakdown["centurion_sesterces"],
        breakdown["legionary_sesterces"],
    ) == (
        [1, 2, 3],
        45,
        3,
        2,
    )
    assert state["pending"] is None
    assert GAME.status(state) == "Matthew wins with 50 sesterces!"
    refused(
        state,
        {"type": "reinforce_hand", "player": "Laura"},
        "The game is over; undo the last move to change it.",
    )


def test_fifty_from_a_power_alone_does_not_end_the_game():
    entries = (
        three_albums_for_matthew()[:-2]
        + [act(type="gain_helmet", player="Matthew", helmet="legionary")] * 20
    )
    state = run(DUO, entries)
    assert GAME.scores(state)["Matthew"] >= 50
    assert not GAME.is_over(state)
    assert GAME.winners(state) == []


def test_forty_nine_at_a_resolution_does_not_win():
    state = run(
        DUO,
        three_albums_for_matthew()[:-2]
        + [act(type="destroy_helmet", player="Matthew", helmet="legionary")]
        + three_albums_for_matthew()[-2:],
    )
    assert GAME.scores(state)["Matthew"] == 49
    assert not GAME.is_over(state)
    assert state["pending"]["player"] == "Laura"


# -- point 6: stocks ---------------------------------------------------------------------------


def test_empty_helmet_stock_refuses_and_a_destroyed_helmet_returns():
    state = run(
        DUO, [act(type="gain_helmet", player="Laura", helmet="legionary")], {"legionary_helmets": 1}
    )
    assert GAME.view(state)["stock"]["legionary"] == 0
    refused(
        state,
        {"type": "gain_helmet", "player": "Matthew", "helmet": "legionary"},
        "The legionary helmet stockpile is empty.",
    )
    state = run(
        DUO,
        [
            act(type="gain_helmet", player="Laura", helmet="legionary"),
            act(type="destroy_helmet", player="Laura", helmet="legionary"),
            act(type="gain_helmet", player="Matthew", helmet="legionary"),
        ],
        {"legionary_helmets": 1},
    )
    assert state["ledger"]["Matthew"]["legionary_helmets"] == 2


def test_resolution_pays_only_what_the_helmet_stock_holds():
    state = run(
        DUO,
        [
            play("Matthew", 2, 8, "Centurion", "Roman"),
            *passes("Laura"),
            play("Matthew", 2, 8, "Centurion", "Roman"),
        ],
        {"centurion_helmets": 1},
    )
    last = state["last_resolution"]
    assert (last["centurion_helmets"], last["helmets_short"]) == (1, 1)
    assert state["stock"]["centurion"] == 0


def test_empty_bonus_stock_refuses_and_used_tokens_return():
    state = run(DUO, [], {"fish_tokens": 0})
    refused(
        state,
        {"type": "gain_bonus", "player": "Laura", "bonus": "fish"},
        "The Fish token stockpile is empty.",
    )
    state = run(
        DUO,
        [
            play("Matthew", 1, 4, "Rebel", "Gaul"),
            act(type="use_fish", player="Laura", character="c1"),
        ],
        {"fish_tokens": 0},
    )
    assert state["stock"]["fish"] == 1
    state = GAME.apply(
        state, GAME.parse_action({"type": "gain_bonus", "player": "Laura", "bonus": "fish"}), None
    )
    assert state["stock"]["fish"] == 0


def test_consolation_offers_only_kinds_left_in_stock():
    state = run(DUO, win_album_one(), {"potion_tokens": 0})
    assert GAME.view(state)["consolation_choices"] == ["fish", "boar"]
    refused(
        state,
        {"type": "take_consolation", "bonus": "potion"},
        "The Potion token stockpile is empty.",
    )


def test_potions_on_a_won_album_return_to_the_stock():
    state = run(
        DUO,
        [
            play("Matthew", 1, 8, "Hero", "Gaul", "Obelix"),
            *passes("Laura"),
            act(type="use_potion", player="Matthew", character="c1"),
        ],
        {"potion_tokens": 0},
    )
    assert state["last_resolution"]["winner"] == "Matthew"
    assert state["stock"]["potion"] == 1


# -- point 7: album notes and the Hero rule ---------------------------------------------------


def test_album_note_is_set_and_cleared():
    state = run(
        TRIO, [act(type="set_album_note", album=2, note="  At most one Neutral per player  ")]
    )
    assert GAME.view(state)["albums"][1]["note"] == "At most one Neutral per player"
    state = GAME.apply(state, GAME.parse_action({"type": "set_album_note", "album": 2}), None)
    assert GAME.view(state)["albums"][1]["note"] == ""


def test_identical_hero_cannot_be_played_or_reinvigorated_while_one_is_visible():
    state = run(TRIO, [play("Ann", 1, 6, "Hero", "Gaul", "Asterix")])
    refused(
        state,
        play("Bob", 2, 6, "Hero", "Gaul", "asterix")["payload"],
        "Asterix is already visible on album 1; an identical Hero cannot join while it is.",
    )
    # Once the first one is K.O.'d, the second may come; then the first cannot be reinvigorated.
    state = run(
        TRIO,
        [
            play("Ann", 1, 6, "Hero", "Gaul", "Asterix"),
            act(type="knock_out", character="c1"),
            play("Bob", 2, 6, "Hero", "Gaul", "Asterix"),
            *passes("Cid"),
        ],
    )
    refused(
        state, {"type": "reinvigorate", "character": "c1"}, "Asterix is already visible on album 2"
    )
    refused(
        state,
        {"type": "use_boar", "player": "Ann", "character": "c1"},
        "Asterix is already visible on album 2",
    )
    # A nameless Hero or a different name is never blocked.
    run(
        TRIO,
        [
            play("Ann", 1, 6, "Hero", "Gaul", "Asterix"),
            play("Bob", 2, 8, "Hero", "Gaul", "Obelix"),
            play("Cid", 3, 5, "Hero", "Gaul"),
        ],
    )


# -- refusals ------------------------------------------------------------------------------------


TURN_MOVES = ("play_character", "use_potion", "use_fish", "use_boar", "reinforce_hand")


def battle_in_progress():
    """c1 Asterix with a Potion (Matthew), c2 a K.O.'d Legionary and c3 Redbeard (Laura)."""
    return [
        play("Matthew", 1, 6, "Hero", "Gaul", "Asterix"),
        act(type="gain_bonus", player="Matthew", bonus="potion"),
        *passes("Laura"),
        act(type="use_potion", player="Matthew", character="c1"),
        act(type="gain_bonus", player="Matthew", bonus="potion"),
        play("Laura", 1, 4, "Legionary", "Roman"),
        act(type="use_fish", player="Matthew", character="c2"),
        play("Laura", 2, 5, "Rebel", "Neutral", "Redbeard"),
    ]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (
            {
                "type": "play_character",
                "player": "Laura",
                "album": 1,
                "strength": 4,
                "character_type": "Rebel",
                "colour": "Gaul",
            },
            "A Gaul character goes on a Gaul side, and Laura plays the Roman side of album 1.",
        ),
        (
            {
                "type": "play_character",
                "player": "Matthew",
                "album": 1,
                "strength": 4,
                "character_type": "Legionary",
                "colour": "Roman",
            },
            "A Roman character goes on a Roman side, and Matthew plays the Gaul side of album 1.",
        ),
        (
            {
                "type": "play_character",
                "player": "Matthew",
                "album": 9,
                "strength": 4,
                "character_type": "Rebel",
                "colour": "Gaul",
            },
            "There is no album 9 on the table.",
        ),
        (
            {
                "type": "play_character",
                "player": "Zoe",
                "album": 1,
                "strength": 4,
                "character_type": "Rebel",
                "colour": "Gaul",
            },
            "It is Matthew's turn.",  # the turn is checked before the rule looks at the name
        ),
        (
            {"type": "use_potion", "player": "Matthew", "character": "c9"},
            "There is no character 'c9' on an album right now.",
        ),
        (
            {"type": "use_potion", "player": "Matthew", "character": "c1"},
            "Asterix already has a Potion; one is the most.",
        ),
        (
            {"type": "use_potion", "player": "Laura", "character": "c2"},
            "The strength 4 Roman Legionary is K.O.'d; it must be reinvigorated before it can take a Potion.",
        ),
        (
            {"type": "use_fish", "player": "Laura", "character": "c1"},
            "Asterix has a Potion and cannot be K.O.'d.",
        ),
        (
            {"type": "knock_out", "character": "c2"},
            "The strength 4 Roman Legionary is already K.O.'d.",
        ),
        (
            {"type": "reinvigorate", "character": "c1"},
            "Asterix is not K.O.'d, so it cannot be reinvigorated.",
        ),
        (
            {"type": "eliminate", "character": "c2"},
            "Only a visible character can be eliminated, and the strength 4 Roman Legionary is K.O.'d.",
        ),
        (
            {"type": "call_on", "player": "Laura", "album": 1, "character": "c1"},
            "Asterix has a Potion and cannot be called on.",
        ),
        (
            {"type": "call_on", "player": "Matthew", "album": 1, "character": "c2"},
            "Only a visible character can be called on, and the strength 4 Roman Legionary is K.O.'d.",
        ),
        (
            {"type": "call_on", "player": "Laura", "album": 2, "character": "c3"},
            "Redbeard already fights for Laura on album 2.",
        ),
        (
            {"type": "use_fish", "player": "Matthew", "character": "c3"},
            "Matthew has no Fish token to use.",
        ),
        (
            {"type": "gain_bonus", "player": "Matthew", "bonus": "potion"},
            "Matthew already holds two Potion tokens; a third one is not allowed.",
        ),
        (
            {"type": "destroy_helmet", "player": "Matthew", "helmet": "centurion"},
            "Matthew has no centurion helmet to destroy.",
        ),
        ({"type": "set_album_note", "album": 5, "note": "x"}, "There is no album 5 on the table."),
    ],
)
def test_refusals_on_a_battle_in_progress(payload, message):
    state = run(DUO, battle_in_progress())
    # A turn move is tried on the turn of the player it names, so that the rule itself answers.
    if payload["type"] in TURN_MOVES and payload["player"] in DUO:
        state = given_turn(state, payload["player"])
    assert refused(state, payload) == message


def test_album_not_facing_the_player_is_refused():
    state = run(TRIO, passes("Ann", "Bob") + [play("Cid", 3, 4, "Rebel", "Gaul")])
    refused(
        given_turn(state, "Cid"),
        play("Cid", 1, 4, "Rebel", "Gaul")["payload"],
        "Album 1 lies between Ann and Bob; it does not face Cid.",
    )
    refused(
        state,
        {"type": "call_on", "player": "Cid", "album": 1, "character": "c1"},
        "it does not face Cid.",
    )
    # Bob has a character of his own to use a Boar on (c2 on album 1), but not Cid's c1.
    state = run(TRIO, passes("Ann", "Bob") + [play("Cid", 3, 4, "Rebel", "Gaul"),
                                              play("Ann", 1, 3, "Rebel", "Gaul")])
    refused(
        state,
        {"type": "use_boar", "player": "Bob", "character": "c1"},
        "A Boar re-uses the power of a character on an album facing Bob, and album 3 does not face them.",
    )


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        (
            {
                "type": "play_character",
                "player": "Ann",
                "album": 1,
                "strength": 9,
                "character_type": "Rebel",
                "colour": "Gaul",
            },
            "strength",
        ),
        (
            {
                "type": "play_character",
                "player": "Ann",
                "album": 1,
                "strength": 1,
                "character_type": "Rebel",
                "colour": "Gaul",
            },
            "strength",
        ),
        (
            {
                "type": "play_character",
                "player": "Ann",
                "album": 1,
                "strength": 4,
                "character_type": "Druid",
                "colour": "Gaul",
            },
            "character_type",
        ),
        (
            {
                "type": "play_character",
                "player": "Ann",
                "album": 1,
                "strength": 4,
                "character_type": "Rebel",
                "colour": "Green",
            },
            "colour",
        ),
        ({"type": "gain_bonus", "player": "Ann", "bonus": "wine"}, "bonus"),
        ({"type": "orient_album", "faction": "pirate"}, "faction"),
        ({"type": "bribe"}, "knows: play_character"),
    ],
)
def test_malformed_moves_are_refused(payload, fragment):
    with pytest.raises(GameError) as caught:
        GAME.parse_action(payload)
    assert fragment in caught.value.message


def test_describe_sentences():
    state = run(DUO, [play("Matthew", 1, 6, "Hero", "Gaul", "Asterix")])
    assert (
        GAME.describe(state, GAME.parse_action({"type": "knock_out", "character": "c1"}), None)
        == "A power K.O.'d Asterix."
    )
    assert (
        GAME.describe(
            state, GAME.parse_action(play("Laura", 1, 4, "Legionary", "Roman")["payload"]), "Laura"
        )
        == "Laura played a character (strength 4 Roman Legionary) on album 1."
    )
    assert (
        GAME.describe(
            state,
            GAME.parse_action({"type": "gain_helmet", "player": "Matthew", "helmet": "legionary"}),
            None,
        )
        == "Matthew won a legionary helmet."
    )


# -- what the page is given --------------------------------------------------------------------


def character_view(state, character_id):
    for album in GAME.view(state)["albums"]:
        for side in album["sides"].values():
            for character in side["characters"]:
                if character["id"] == character_id:
                    return character
    raise AssertionError(f"no {character_id} on the page")


def test_each_character_offers_only_the_one_tap_moves_that_fit_it():
    state = run(
        DUO,
        [
            play("Matthew", 1, 6, "Hero", "Gaul", "Asterix"),
            *passes("Laura"),
            act(type="use_potion", player="Matthew", character="c1"),
            play("Laura", 1, 4, "Legionary", "Roman"),
            act(type="knock_out", character="c2"),
            *passes("Matthew"),
            play("Laura", 2, 3, "Rebel", "Neutral"),
        ],
    )
    protected, knocked, plain = (character_view(state, c) for c in ("c1", "c2", "c3"))
    assert protected["counted"] == 12
    assert protected["moves"] == {
        "potion": False,
        "knock_out": False,
        "reinvigorate": False,
        "eliminate": True,
        "call_on": False,
    }
    assert knocked["moves"] == {
        "potion": False,
        "knock_out": False,
        "reinvigorate": True,
        "eliminate": False,
        "call_on": False,
    }
    assert plain["moves"]["knock_out"] and plain["moves"]["call_on"]
    # Matthew may call Laura's Neutral to either of his albums; Laura, who has it, to none.
    assert plain["call_on_to"] == {"Matthew": [1, 2]}


def test_call_on_targets_are_the_callers_albums_in_a_four_player_game():
    state = run(QUARTET, passes("Ann") + [play("Bob", 1, 5, "Swindler", "Neutral")])
    assert character_view(state, "c1")["call_on_to"] == {
        "Ann": [1, 4],
        "Cid": [2, 3],
        "Dee": [3, 4],
    }


def test_the_page_knows_the_loser_the_opponent_and_the_consolation_options():
    entries = [act(type="gain_bonus", player="Laura", bonus="boar")] + win_album_one()
    view = GAME.view(run(DUO, entries, {"fish_tokens": 0}))
    assert view["pending"] == {
        "step": "consolation",
        "player": "Laura",
        "slot": 0,
        "opponent": "Matthew",
        "album": 3,
    }
    assert [(o["kind"], o["held"], o["allowed"], o["full"]) for o in view["consolation"]] == [
        ("potion", 1, True, False),
        ("fish", 1, False, False),
        ("boar", 2, False, True),
    ]
    assert view["albums"][0]["number"] is None
    assert view["facing"]["Laura"][0] == {
        "where": "left",
        "slot": 1,
        "album": 2,
        "faction": "gaul",
        "opponent": "Matthew",
    }
    assert view["stock_set"] and not view["fresh"]


def test_a_fresh_table_shows_the_layout_and_no_stock():
    view = GAME.view(run(TRIO, []))
    assert view["fresh"] and not view["stock_set"]
    assert view["pending"] is None and view["consolation"] == []
    assert [p["album"] for p in view["facing"]["Bob"]] == [2, 1]


def test_stock_options_have_titles_for_the_setup_form():
    fields = GAME.options_model.model_fields
    assert fields["legionary_helmets"].title == "Legionary helmets in the stockpile"
    assert "Leave empty for unlimited" in fields["boar_tokens"].description


# -- the turn: whose move it is, and the host's correction ----------------------------------


def test_a_turn_move_for_another_player_is_refused_and_the_turn_is_not_skipped():
    state = run(TRIO, [play("Ann", 1, 4, "Rebel", "Gaul")])
    assert GAME.turn_of(state) == "Bob"
    # Cid may not play, use a token or reinforce while it is Bob's turn, from any phone.
    for payload in (
        play("Cid", 2, 4, "Legionary", "Roman")["payload"],
        {"type": "use_fish", "player": "Cid", "character": "c1"},
        {"type": "use_boar", "player": "Cid", "character": "c1"},
        {"type": "reinforce_hand", "player": "Cid"},
    ):
        assert refused(state, payload) == "It is Bob's turn."
        with pytest.raises(GameError, match="It is Bob's turn."):
            GAME.play(state, GAME.parse_action(payload), "Bob")
    # Bob's own move passes the turn to his left: Cid, then Ann. Nobody is skipped.
    state = run(TRIO, [play("Ann", 1, 4, "Rebel", "Gaul"), play("Bob", 2, 4, "Rebel", "Gaul")])
    assert state["turn"] == "Cid"
    # A power's effects follow the character just played: its player (Bob) enters them.
    knock = GAME.parse_action({"type": "knock_out", "character": "c1"})
    with pytest.raises(GameError, match="Bob enters the power of"):
        GAME.apply(state, knock, "Ann")
    state = GAME.apply(state, knock, "Bob")
    assert state["turn"] == "Cid"


def test_legal_actions_say_whose_turn_it_is_for_each_seat():
    state = run(TRIO, [play("Ann", 1, 4, "Rebel", "Gaul")])
    bob, cid = GAME.legal_actions(state, "Bob"), GAME.legal_actions(state, "Cid")
    assert bob["play_character"] is None and bob["reinforce_hand"] is None
    assert cid["play_character"] == "It is Bob's turn."
    # The power of Ann's character is hers to enter (or the host's).
    assert str(cid["knock_out"]) == "Ann enters the power of the strength 4 Gaul Rebel on their own phone or the host's."
    assert GAME.legal_actions(state, "Ann")["knock_out"] is None
    assert GAME.legal_actions(state, "Cid", host=True)["gain_helmet"] is None
    assert str(cid["take_consolation"]).startswith("Not now: Bob plays a character")
    # The host's phone (no seat) enters moves for everyone: the turn is checked on the move.
    assert GAME.legal_actions(state, None)["play_character"] is None
    # Nothing to work on yet: the reason says so.
    fresh = run(TRIO, [])
    assert GAME.legal_actions(fresh, "Ann")["eliminate"] == "No visible character to eliminate."
    assert GAME.legal_actions(fresh, "Ann")["reinvigorate"] == "No character is K.O.'d."


def test_the_host_hands_the_turn_on_logged_and_undone():
    entries = [play("Ann", 1, 4, "Rebel", "Gaul"), act(type="hand_turn", player="Dee")]
    state = run(QUARTET, entries)
    assert state["turn"] == "Dee"
    assert GAME.status(state) == "Dee's turn · first to 50 sesterces wins"
    before = run(QUARTET, entries[:1])
    after, sentence = GAME.play(before, GAME.parse_action(entries[1]["payload"]), None)
    assert (after, sentence) == (state, "The host handed the turn to Dee.")
    assert run(QUARTET, entries + [{"kind": "undo"}])["turn"] == "Bob"
    # Dee plays on; the turn goes on from her, to Ann.
    state = run(QUARTET, entries + [play("Dee", 4, 3, "Rebel", "Gaul")])
    assert state["turn"] == "Ann"
    refused(before, {"type": "hand_turn", "player": "Bob"}, "It is already Bob's turn.")
    refused(before, {"type": "hand_turn", "player": "Zed"}, "There is no player called 'Zed'")


def test_the_turn_cannot_be_handed_on_once_the_game_is_over():
    state = run(DUO, three_albums_for_matthew())
    assert GAME.turn_of(state) is None
    refused(state, {"type": "hand_turn", "player": "Laura"}, "The game is over")


# -- the Boar: the last visible character on an album facing the player -------------------------


def test_a_boar_uses_only_the_power_of_the_last_visible_character_on_an_album():
    entries = [
        play("Matthew", 1, 3, "Chief", "Gaul", "Getafix"),
        play("Laura", 1, 4, "Centurion", "Roman", "Crismus Bonus"),
        play("Matthew", 1, 6, "Hero", "Gaul", "Asterix"),
        play("Laura", 1, 2, "Legionary", "Roman"),
    ]
    state = run(DUO, entries + passes("Matthew"))  # Laura's turn; c4 was placed last
    refused(
        state,
        {"type": "use_boar", "player": "Laura", "character": "c2"},
        "A Boar re-uses only the power of the last visible character placed on an album; "
        "on album 1 that is the strength 2 Roman Legionary.",
    )
    after, sentence = GAME.play(
        state, GAME.parse_action({"type": "use_boar", "player": "Laura", "character": "c4"}), None
    )
    assert sentence == "Laura used a Boar to activate the strength 2 Roman Legionary's power again."
    assert after["ledger"]["Laura"]["bonuses"]["boar"] == 0
    # Once the last one is K.O.'d, the one placed before it is the last visible one.
    state = run(DUO, entries + [act(type="knock_out", character="c4")] + passes("Matthew"))
    run(DUO, entries + [act(type="knock_out", character="c4")] + passes("Matthew")
        + [act(type="use_boar", player="Laura", character="c3")])
    refused(state, {"type": "use_boar", "player": "Laura", "character": "c1"}, "that is Asterix")
    # Reinvigorating with a Boar still takes any K.O.'d character.
    state = run(DUO, entries + [act(type="knock_out", character="c1")] + passes("Matthew")
                + [act(type="use_boar", player="Laura", character="c1")])
    assert not state["slots"][0]["characters"][0]["knocked_out"]


def test_the_page_marks_the_last_visible_character_of_each_album():
    state = run(DUO, [play("Matthew", 1, 3, "Chief", "Gaul"), play("Laura", 1, 4, "Rebel", "Roman"),
                      act(type="knock_out", character="c2"), play("Matthew", 2, 5, "Rebel", "Roman")])
    assert [character_view(state, c)["last_visible"] for c in ("c1", "c2", "c3")] == [True, False, True]
