"""facts_of on real final states, built by replaying each game's own moves (as tests/games does)."""

from __future__ import annotations

import json

import pytest

from companion.games import GAMES
from companion.service.history import replay
from companion.service.stats import facts_of


def act(action_type: str, actor: str | None = None, **fields) -> dict:
    return {"kind": "action", "payload": {"type": action_type, **fields}, "actor": actor}


def final_state(game_id: str, players: list[str], entries: list[dict], options: dict | None = None) -> dict:
    state = replay(GAMES[game_id], players, options or {}, entries).state
    assert json.loads(json.dumps(state)) == state
    return state


def stored(facts: dict) -> dict:
    """Facts are kept with the play as JSON: they must survive the trip unchanged."""
    assert json.loads(json.dumps(facts)) == facts
    return facts


# -- Asterix & Obelix: the whole game of tests/games/test_asterix_obelix.py -------------------------
def ao_line(which: str, number: int, start: str | None = None, move: str = "choose_line") -> dict:
    return act(move, line=which, number=number, **({"start": start} if start else {}))


def leg(colour: str) -> dict:
    return act("reveal_card", kind="legionary", colour=colour)


def cent(colour: str) -> dict:
    return act("reveal_card", kind="centurion", colour=colour)


def card(kind: str) -> dict:
    return act("reveal_card", kind=kind)


END, FAIL, SKIP = act("end_attack"), act("no_matching_card"), act("skip_block")

AO_GAME = [
    act("start_game", starter="Ann"),
    ao_line("row", 1), leg("red"), leg("red"), END, act("block_line", line="row", number=2),
    ao_line("row", 3, "right"), leg("blue"), card("feast"), cent("blue"), END, SKIP,
    ao_line("column", 1), card("pirate"), card("traitor"), leg("yellow"), FAIL,
    act("block_line", line="column", number=4),
    ao_line("row", 4), leg("green"), leg("green"), cent("green"), leg("purple"),
    ao_line("column", 1, "bottom", move="further_attack"), act("reveal_card"), card("pirate"), card("feast"), END,
    act("block_line", line="row", number=4),
    ao_line("row", 2), card("boar"), SKIP,
    ao_line("row", 1), card("feast"), leg("red"), END, act("block_line", line="column", number=2),
    ao_line("column", 3), act("look_at_last_card"), leg("red"), cent("red"), card("pirate"), END, SKIP,
    ao_line("row", 2), card("feast"), leg("yellow"), END, SKIP,
    ao_line("row", 3), leg("purple"), leg("purple"),
]


def test_asterix_obelix_tokens_by_kind_and_the_fifth_feast():
    state = final_state("asterix-obelix", ["Ann", "Ben"], AO_GAME + [card("feast")])
    assert GAMES["asterix-obelix"].winners(state) == ["Ben"]
    facts = stored(facts_of("asterix-obelix", state))
    assert facts == {
        "tokens": {"traitor": None, "pirates": None, "red": "Ann", "blue": "Ben", "yellow": "Ben",
                   "green": "Ben", "purple": "Ann"},
        "tokens_won": {"Ann": ["red", "purple"], "Ben": ["blue", "yellow", "green"]},
        "feasts": 5,
        "fifth_feast_ended": True,
        "finished": True,
    }


def test_asterix_obelix_left_before_the_fifth_feast():
    facts = facts_of("asterix-obelix", final_state("asterix-obelix", ["Ann", "Ben"], AO_GAME))
    assert facts["feasts"] == 4 and facts["fifth_feast_ended"] is False and facts["finished"] is False


def test_asterix_obelix_fifth_feast_set_by_a_correction_also_ends_it():
    entries = [act("start_game", starter="Ann"), act("correct_feasts", count=4, reason="laid out earlier"),
               ao_line("row", 1), leg("blue"), card("feast")]
    facts = facts_of("asterix-obelix", final_state("asterix-obelix", ["Ann", "Ben"], entries))
    assert facts["fifth_feast_ended"] is True
    assert facts["tokens_won"] == {"Ann": ["blue"], "Ben": []}


# -- Das Kartenspiel: two rounds with pirates ------------------------------------------------------
def test_kartenspiel_points_lost_to_pirates_per_player_per_round():
    entries = [
        # Round 1: Ann 7 7 7 2 and the highest pirate: a 7 escapes and breaks her three of a kind.
        # Without it 7+7+7+2 + 50 = 73; with it 7+7+2 + 20 = 36: lost 37. Ben 5 3: 8, lost 0.
        act("enter_romans", player="Ann", values="7,7,7,2"), act("add_pirate", player="Ann", kind="highest"),
        act("enter_romans", player="Ben", values="5,3"), act("close_round"),
        # Round 2: Ann 9 4: 13, lost 0. Ben 10 10 3 and the Zenturio (10): without 23 + 20 = 43,
        # with it 10 + 3 = 13: lost 30.
        act("enter_romans", player="Ann", values="9,4"),
        act("enter_romans", player="Ben", values="10,10,3"), act("add_pirate", player="Ben", kind="zenturio"),
        act("close_round"),
    ]
    state = final_state("kartenspiel", ["Ann", "Ben"], entries, {"rounds": 2})
    assert GAMES["kartenspiel"].scores(state) == {"Ann": 49, "Ben": 21}
    facts = stored(facts_of("kartenspiel", state))
    assert facts == {
        "rounds": [
            {"round": 1, "lost_to_pirates": {"Ann": 37, "Ben": 0}, "escaped": {"Ann": [7], "Ben": []},
             "scores": {"Ann": 36, "Ben": 8}},
            {"round": 2, "lost_to_pirates": {"Ann": 0, "Ben": 30}, "escaped": {"Ann": [], "Ben": [10]},
             "scores": {"Ann": 13, "Ben": 13}},
        ],
        "lost_to_pirates": {"Ann": 37, "Ben": 30},
        "rounds_planned": 2,
        "finished": True,
    }


def test_kartenspiel_a_pirate_with_nobody_to_take_costs_nothing():
    entries = [act("add_pirate", player="Ann", kind="lowest"), act("enter_romans", player="Ben", values="6"),
               act("close_round")]
    facts = facts_of("kartenspiel", final_state("kartenspiel", ["Ann", "Ben"], entries, {"rounds": 1}))
    assert facts["lost_to_pirates"] == {"Ann": 0, "Ben": 0}


# -- Asterix & Co.: Matthew's three albums (tests/games/test_asterix_co.py) --------------------------
def co_play(player: str, album: int, strength: int, character_type: str, colour: str) -> dict:
    return act("play_character", player=player, album=album, strength=strength,
               character_type=character_type, colour=colour)


def passes(*players: str) -> list[dict]:
    return [act("reinforce_hand", player=player) for player in players]


THREE_ALBUMS = (
    [co_play("Matthew", 1, 8, "Rebel", "Gaul"), *passes("Laura"), co_play("Matthew", 1, 8, "Diehard", "Gaul")]
    + [act("take_consolation", bonus="potion"), act("orient_album", faction="roman")]
    + passes("Laura")
    + [co_play("Matthew", 2, 8, "Legionary", "Roman")]
    + passes("Laura")
    + [co_play("Matthew", 2, 7, "Centurion", "Roman")]
    + [act("take_consolation", bonus="fish"), act("orient_album", faction="roman")]
    + passes("Laura")
    + [co_play("Matthew", 3, 8, "Chief", "Gaul")]
    + passes("Laura")
    + [co_play("Matthew", 3, 7, "Chief", "Gaul")]
)


def test_asterix_co_sesterces_by_source_and_albums_won():
    state = final_state("asterix-co", ["Matthew", "Laura"], THREE_ALBUMS)
    assert GAMES["asterix-co"].scores(state) == {"Matthew": 50, "Laura": 1}
    facts = stored(facts_of("asterix-co", state))
    # Matthew: 3 albums (45), the Centurion's helmet (3), the Legionary's and his starting one (2).
    assert facts == {
        "sesterces": {"Matthew": {"albums": 45, "centurion_helmets": 3, "legionary_helmets": 2},
                      "Laura": {"albums": 0, "centurion_helmets": 0, "legionary_helmets": 1}},
        "albums_won": {"Matthew": 3, "Laura": 0},
        "helmets": {"Matthew": {"centurion": 1, "legionary": 2}, "Laura": {"centurion": 0, "legionary": 1}},
        "finished": True,
    }
    for name, sources in facts["sesterces"].items():
        assert sum(sources.values()) == GAMES["asterix-co"].scores(state)[name]


# -- Mission Zaubertrank!: won together, and lost when the Roman is home ----------------------------
ONE_MISTLETOE_EACH = {"first_ingredient": "mistletoe", "first_quantity": 1, "second_ingredient": "mistletoe",
                      "second_quantity": 1, "third_ingredient": "mistletoe", "third_quantity": 1}
OPENING = [act("draw_mishap", symbol="lightning"), act("place_mishap", location=2),
           act("draw_mishap", symbol="knife"), act("place_mishap", location=3), act("begin_play")]
ZT = GAMES["zaubertrank"]


class Table:
    """A Zaubertrank table whose log grows a tap at a time."""

    def __init__(self, options: dict | None = None):
        self.options, self.entries = options or {}, list(OPENING)

    @property
    def state(self) -> dict:
        return final_state("zaubertrank", ["Ann", "Bob"], self.entries, self.options)

    def do(self, kind: str, **fields) -> None:
        self.entries.append(act(kind, **fields))

    def end_turn(self) -> None:
        """The Roman steps on, then a marker that fits is drawn and placed."""
        self.do("advance_roman")
        state = self.state
        if state["finished"]:
            return
        drawable = ZT.view(state)["drawable_symbols"]
        for symbol in drawable:
            spaces = ZT.legal_spaces(state, symbol)
            if spaces:
                self.do("draw_mishap", symbol=symbol)
                self.do("place_mishap", location=spaces[0]["location"], slot=spaces[0]["slot"])
                return
        self.do("draw_mishap", symbol=drawable[0])


def test_zaubertrank_won_with_spaces_left():
    table = Table({"difficulty": "one Roman"})
    while not table.state["finished"]:
        if ZT.view(table.state)["tasks"]["awaiting_entry"]:
            table.do("enter_task", **ONE_MISTLETOE_EACH)
        left = ZT.view(table.state)["turn"]["subtasks_left"]
        table.do("take_ingredients", mistletoe=left)
        for _ in range(left):
            if ZT.view(table.state)["tasks"]["awaiting_entry"]:
                table.do("enter_task", **ONE_MISTLETOE_EACH)
            table.do("complete_subtask")
            if table.state["finished"]:
                break
        else:
            table.end_turn()
    state = table.state
    facts = stored(facts_of("zaubertrank", state))
    assert facts["result"] == "won" and facts["finished"] is True
    assert (facts["difficulty"], facts["challenge"], facts["task_cards"], facts["tasks_completed"]) == (
        "one Roman", False, 4, 4)
    assert facts["lap_length"] == 24
    assert facts["roman_spaces_left"] == 24 - state["roman_steps"] > 0


def test_zaubertrank_lost_leaves_the_roman_no_space():
    table = Table({"difficulty": "a cohort", "challenge": True,
                   **{f"location{n}_spaces": 1 for n in range(1, 7)}})
    table.do("enter_task", **ONE_MISTLETOE_EACH)
    while not table.state["finished"]:
        table.end_turn()
    facts = facts_of("zaubertrank", table.state)
    assert facts == {"difficulty": "a cohort", "challenge": True, "task_cards": 7, "tasks_completed": 0,
                     "result": "lost", "roman_spaces_left": 0, "lap_length": 6, "finished": True}


# -- the score pad, unknown games and damaged states -----------------------------------------------
def test_scorepad_says_which_total_wins():
    entries = [act("enter_score", player="Ann", round=1, points=3), act("enter_score", player="Ben", round=1, points=5),
               act("enter_score", player="Ann", round=2, points=4), act("finish_game")]
    state = final_state("scorepad", ["Ann", "Ben"], entries, {"winning": "lowest"})
    assert facts_of("scorepad", state) == {"winning": "lowest", "rounds": 2, "finished": True}


@pytest.mark.parametrize("game_id, state", [
    ("chess", {"players": ["Ann"]}),
    ("asterix-obelix", {}),
    ("asterix-obelix", {"players": ["Ann", "Ben"], "secured": {}}),
    ("kartenspiel", {"players": ["Ann"], "closed": [{"round": 1}]}),
    ("asterix-co", {"players": ["Ann"], "ledger": {"Ann": {"albums": 3}}}),
    ("zaubertrank", {"difficulty": "a cohort"}),
    ("scorepad", {"entries": None}),
    ("zaubertrank", None),
    ("kartenspiel", []),
])
def test_unknown_games_and_missing_keys_give_no_facts(game_id, state):
    assert facts_of(game_id, state) == {}


def test_every_registered_game_has_facts_for_its_first_state():
    for game_id, game in GAMES.items():
        players = ["Ann", "Ben"]
        state = game.initial_state(players, game.parse_options({}))
        assert isinstance(stored(facts_of(game_id, state)), dict)
