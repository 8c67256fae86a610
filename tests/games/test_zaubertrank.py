"""Mission Zaubertrank! replayed through the action log with no app."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from companion.games.base import GameError
from companion.games.zaubertrank import Zaubertrank
from companion.service.history import replay

GAME = Zaubertrank()
PLAYERS = ["Ann", "Bob"]

# Default symbols: 1 Forest knife/skull, 2 lightning/fist, 3 knife/lightning,
# 4 skull/fist, 5 knife/fist, 6 skull/lightning; four spaces on every card.


def act(kind: str, actor: str | None = None, **fields) -> dict:
    return {"kind": "action", "payload": {"type": kind, **fields}, "actor": actor}


UNDO = {"kind": "undo"}

# The two opening markers: a lightning on the Fishmonger's stall, a knife on the Druid's Cave.
OPENING = [
    act("draw_mishap", symbol="lightning"),
    act("place_mishap", location=2),
    act("draw_mishap", symbol="knife"),
    act("place_mishap", location=3),
]


class Table:
    """A table whose log grows one tap at a time and is replayed from scratch every time."""

    def __init__(self, players=PLAYERS, options=None, entries=()):
        self.players = list(players)
        self.options = options or {}
        self.entries = list(entries)

    @property
    def state(self) -> dict:
        return replay(GAME, self.players, self.options, self.entries).state

    @property
    def view(self) -> dict:
        return GAME.view(self.state)

    def do(self, kind: str, **fields) -> "Table":
        self.entries.append(act(kind, **fields))
        self.state  # replaying raises at once if the tap is refused
        return self

    def refused(self, kind: str, fragment: str, **fields) -> None:
        state = self.state
        before = copy.deepcopy(state)
        with pytest.raises(GameError) as caught:
            GAME.apply(state, GAME.parse_action({"type": kind, **fields}), None)
        assert fragment in caught.value.message
        assert state == before  # a refusal leaves the state untouched

    def end_turn(self) -> None:
        """Move the Roman on, then draw a marker that fits and put it on the first legal space."""
        self.do("advance_roman")
        if self.state["finished"]:
            return
        state = self.state
        for symbol in self.view["drawable_symbols"]:
            spaces = GAME.legal_spaces(state, symbol)
            if spaces:
                self.do("draw_mishap", symbol=symbol)
                self.do("place_mishap", location=spaces[0]["location"], slot=spaces[0]["slot"])
                return
        self.do("draw_mishap", symbol=self.view["drawable_symbols"][0])


def at_the_stack(players=PLAYERS) -> list[dict]:
    """Every figure set at the task stack (the characters' usual starts are locations)."""
    return [act("place_figure", player=name) for name in players]


def started(players=PLAYERS, options=None, opening=OPENING) -> Table:
    return Table(players, options, [*at_the_stack(players), *opening, act("begin_play")])


# -- options and setup ------------------------------------------------------------------------
def test_default_locations_spread_each_symbol_over_three_spaces():
    state = Table().state
    symbols = Counter(s for location in state["locations"] for s in location["symbols"])
    assert symbols == {"knife": 3, "skull": 3, "lightning": 3, "fist": 3}
    assert state["locations"][0]["name"] == "Forest"
    assert state["lap_length"] == 24
    assert state["tasks"]["total"] == 4
    assert GAME.view(state)["tasks"]["face_down"] == 3


@pytest.mark.parametrize(
    "options, total",
    [({}, 4), ({"difficulty": "cohort"}, 6), ({"difficulty": "conquer_rome", "challenge": True}, 9)],
)
def test_difficulty_deals_task_cards(options, total):
    assert Table(options=options).state["tasks"]["total"] == total


def test_locations_are_table_settings():
    state = Table(options={"location3_name": "Cave", "location3_spaces": "6",
                           "location3_symbol_2": "fist"}).state
    assert state["locations"][2] == {"number": 3, "name": "Cave", "spaces": 6,
                                     "symbols": ["knife", "fist"], "covered": [False, False]}
    assert state["lap_length"] == 26


@pytest.mark.parametrize(
    "options, fragment",
    [({"location2_name": "forest"}, "its own name"),
     ({"location1_symbol_1": "sword"}, "location1_symbol_1"),
     ({"location4_spaces": 0}, "location4_spaces"),
     ({"difficulty": "easy"}, "difficulty")],
)
def test_bad_options_are_refused(options, fragment):
    with pytest.raises(GameError) as caught:
        GAME.parse_options(options)
    assert fragment in caught.value.message


def test_characters_are_dealt_in_seat_order_and_swapped_in_setup():
    table = Table(["Ann", "Bob", "Cy"])
    assert [table.state["seats"][p]["character"] for p in table.players] == ["asterix", "obelix", "getafix"]
    table.do("choose_character", player="Ann", character="obelix")
    seats = table.state["seats"]
    assert seats["Ann"]["character"] == "obelix" and seats["Ann"]["roast_boars"] == 3
    assert seats["Bob"]["character"] == "asterix" and seats["Bob"]["potion_fresh"] is True
    table.do("choose_character", player="Cy", character="dogmatix")
    assert table.state["seats"]["Cy"]["character"] == "dogmatix"


def test_opening_markers_are_placed_with_help_then_play_begins():
    table = Table()
    table.refused("begin_play", "two opening mishap markers")
    table.do("draw_mishap", symbol="skull")
    assert table.view["legal_spaces"] == [
        {"location": 4, "slot": 1, "name": "Mistletoe grove", "shuts": False},
        {"location": 6, "slot": 1, "name": "Strawberry patch", "shuts": False},
    ]
    assert table.state["bag"]["skull"] == 3
    table.refused("draw_mishap", "must be placed first", symbol="fist")
    table.do("place_mishap", location=6)
    table.do("draw_mishap", symbol="fist").do("place_mishap", location=4)
    table.refused("draw_mishap", "Both opening mishap markers", symbol="knife")
    assert table.state["opening_placed"] == 2
    table.do("take_ingredients", player="Bob", fish=2)
    table.do("place_figure", player="Bob", location=5)
    table.do("begin_play", starting_player="Bob")
    assert GAME.status(table.state) == "Bob (Obelix)'s turn: 2 actions left · 24 spaces to the camp"
    assert table.state["seats"]["Bob"]["ingredients"]["fish"] == 2
    # Setup moves are out of phase now: the refusal says what the table does instead.
    not_now = "Not now: Bob (Obelix) has 2 actions left; then the Roman steps on"
    table.refused("choose_character", not_now, player="Ann", character="getafix")
    table.refused("place_figure", not_now, player="Ann", location=2)


def test_play_taps_wait_for_the_setup():
    table = Table()
    table.refused("move", "Play has not begun", location=2)
    table.refused("advance_roman", "Play has not begun")
    table.refused("take_ingredients", "Name the player", fish=1)
    table.refused("choose_character", "no player called 'Zed'", player="Zed", character="asterix")


# -- the Roman's timeline ---------------------------------------------------------------------
def test_the_roman_wraps_to_the_next_card_after_its_last_space():
    table = started(options={"location1_spaces": 2})
    assert table.view["roman"] == {"location": 1, "space": 1, "name": "Forest", "steps": 0,
                                   "lap_length": 22, "spaces_to_camp": 22, "at_camp": False}
    table.end_turn()
    assert (table.view["roman"]["location"], table.view["roman"]["space"]) == (1, 2)
    table.end_turn()
    roman = table.view["roman"]
    assert (roman["location"], roman["space"], roman["spaces_to_camp"]) == (2, 1, 20)
    ring = table.view["ring"]
    assert ring[1]["roman_space"] == 1 and ring[0]["roman_space"] is None
    assert [space["passed"] for space in ring[0]["timeline"]] == [True, True]
    assert ring[0]["timeline"][0]["camp"] is True
    assert table.state["turn"]["player"] == "Ann"  # two turns: Ann, Bob, Ann again


def test_the_roman_back_at_the_camp_loses_the_game():
    spaces = {f"location{n}_spaces": 1 for n in range(1, 7)}
    table = started(options=spaces)
    for _ in range(5):
        table.end_turn()
    assert str(GAME.status(table.state)).endswith("1 space to the camp")
    assert not GAME.is_over(table.state)
    table.do("advance_roman")
    state = table.state
    assert GAME.is_over(state) and state["result"] == "lost"
    assert GAME.winners(state) == []
    assert GAME.status(state) == "The Roman is back at his camp: the village has lost."
    assert table.view["roman"]["location"] == 1 and table.view["ring"][0]["timeline"][0]["roman"]
    table.refused("draw_mishap", "The game is over", symbol="knife")
    table.entries.append(UNDO)
    assert not GAME.is_over(table.state) and table.state["roman_steps"] == 5


# -- mishap markers ---------------------------------------------------------------------------
def test_mishaps_never_go_on_the_romans_location():
    table = Table()
    table.do("draw_mishap", symbol="knife")
    assert [s["location"] for s in table.view["legal_spaces"]] == [3, 5]
    table.refused("place_mishap", "The Roman stands on the Forest", location=1)
    table.refused("place_mishap", "has no free space with the knife symbol", location=2)
    table.refused("place_mishap", "shows a lightning, not a knife", location=3, slot=2)
    table.do("place_mishap", location=3, slot=1)
    assert table.state["locations"][2]["covered"] == [True, False]
    table.do("draw_mishap", symbol="knife")
    table.refused("place_mishap", "Space 1 of the Druid's Cave is already covered", location=3, slot=1)
    table.refused("place_mishap", "no free space with the knife symbol", location=3)
    table.do("place_mishap", location=5)
    assert table.view["bag"]["knife"] == 2


def test_an_opening_marker_that_fits_nowhere_goes_back_without_a_penalty():
    # Skull only on the Forest, where the Roman stands at the start.
    table = Table(options={"location6_symbol_1": "knife", "location4_symbol_1": "knife"})
    table.do("draw_mishap", symbol="skull")
    state = table.state
    assert state["bag"]["skull"] == 4 and state["drawn"] is None
    assert state["roman_steps"] == 0 and state["opening_placed"] == 0


def test_the_table_needs_two_to_four_players():
    with pytest.raises(GameError) as caught:
        Table(players=["Ann"]).state
    assert "2 to 4 players" in caught.value.message


def test_a_marker_that_fits_nowhere_moves_the_roman_two_more_spaces():
    # Both skull spaces away from the Forest are covered, and the Roman stands on the Forest.
    table = started(opening=[act("draw_mishap", symbol="skull"), act("place_mishap", location=4),
                             act("draw_mishap", symbol="skull"), act("place_mishap", location=6)])
    assert table.state["bag"]["skull"] == 2
    table.do("advance_roman")
    table.refused("move", "draw the mishap marker", location=2)
    assert table.view["roman"]["steps"] == 1
    table.do("draw_mishap", symbol="skull")
    state = table.state
    assert state["roman_steps"] == 3
    assert state["bag"]["skull"] == 2  # the marker went straight back
    assert state["drawn"] is None and state["phase"] == "actions"
    assert state["turn"]["player"] == "Bob"
    assert "fitted nowhere" in str(GAME.describe(replay(GAME, PLAYERS, {}, table.entries[:-1]).state,
                                              GAME.parse_action({"type": "draw_mishap", "symbol": "skull"}), None))


def test_a_location_with_both_spaces_covered_is_shut_until_one_is_cleared():
    table = started(opening=[act("draw_mishap", symbol="skull"), act("place_mishap", location=4),
                             act("draw_mishap", symbol="fist"), act("place_mishap", location=4)])
    assert table.view["shut_locations"] == [4]
    assert table.view["ring"][3]["shut"] is True
    table.do("move", location=4)
    table.refused("use_location", "Mistletoe grove is shut")
    bag_before = table.state["bag"]["fist"]
    table.do("remove_mishap", location=4, slot=2)
    assert table.state["bag"]["fist"] == bag_before + 1
    assert table.view["shut_locations"] == []
    table.do("use_location")
    assert table.view["turn"]["actions_left"] == 1
    table.refused("use_location", "already used this turn")
    table.refused("remove_mishap", "no mishap marker on space 2 of the Mistletoe grove", location=4, slot=2)
    table.refused("remove_mishap", "no mishap marker on the Forest", location=1)


def test_a_symbol_counted_out_of_the_bag_can_still_be_drawn():
    # Markers are two-sided: a fifth knife can show up. The table is never blocked by the count;
    # the marker is counted against the symbol with most left, so the bag's total stays exact.
    every_knife = {f"location{n}_symbol_{s}": "knife" for n in range(1, 7) for s in (1, 2)}
    table = started(options=every_knife, opening=[
        act("draw_mishap", symbol="knife"), act("place_mishap", location=2),
        act("draw_mishap", symbol="knife"), act("place_mishap", location=2),
    ])
    table.end_turn()
    table.end_turn()
    assert table.state["bag"] == {"knife": 0, "skull": 4, "lightning": 4, "fist": 4}
    assert table.view["bag_out"] == ["knife"]
    assert table.view["drawable_symbols"] == ["skull", "lightning", "fist"]
    choice = table.view["draw_choices"][0]
    assert choice["symbol"] == "knife" and choice["in_bag"] == 0 and choice["counted_as"] == "skull"
    table.do("advance_roman")
    before = table.state
    said = GAME.describe(before, GAME.parse_action({"type": "draw_mishap", "symbol": "knife"}), None)
    assert said == ("A knife marker was drawn from the bag (the other side of a marker counted "
                    "as skull).")
    table.do("draw_mishap", symbol="knife")
    assert table.state["bag"] == {"knife": 0, "skull": 3, "lightning": 4, "fist": 4}
    assert table.view["bag_size"] == 11
    table.do("place_mishap", location=table.view["legal_spaces"][0]["location"])
    table.do("remove_mishap", location=2, slot=1)
    assert table.state["bag"]["knife"] == 1  # it goes back as the symbol it lay on
    table.refused("place_mishap", "draw one from the bag first", location=3)


# -- tasks ------------------------------------------------------------------------------------
FISH_TASK = {"first_ingredient": "fish", "first_quantity": 2, "second_ingredient": "mistletoe",
             "second_quantity": 1, "third_ingredient": "strawberries", "third_quantity": 3,
             "reward": "Two players draw a helper card each"}


def test_one_sub_task_per_turn_and_the_ingredients_go_back():
    table = started()
    table.refused("complete_subtask", "Enter the face-up task card")
    table.do("enter_task", **FISH_TASK)
    table.refused("enter_task", "already entered", **FISH_TASK)
    table.do("move", location=1)
    table.refused("complete_subtask", "must stand at the task stack")
    table.do("move")
    table.refused("complete_subtask", "needs 2 fish; Ann has 0")
    table.do("take_ingredients", fish=2, mistletoe=1)
    assert table.view["supply"] == {"mistletoe": 9, "strawberries": 10, "fish": 8}
    table.do("complete_subtask")
    assert table.view["supply"]["fish"] == 10
    assert [s["covered"] for s in table.view["tasks"]["subtasks"]] == [True, False, False]
    table.refused("complete_subtask", "Only one sub-task may be completed per turn")
    table.refused("move", "already moved twice", location=3)


def test_obelix_completes_two_sub_tasks_each_costing_an_action():
    table = started()
    table.do("enter_task", **FISH_TASK)
    table.end_turn()  # Ann's turn passes
    assert table.view["turn"]["character"] == "obelix"
    table.do("take_ingredients", fish=2, mistletoe=1, strawberries=3)
    table.do("complete_subtask").do("complete_subtask")
    assert table.view["tasks"]["menhirs_placed"] == 2
    assert table.view["turn"]["actions_left"] == 0
    table.refused("complete_subtask", "Obelix may complete at most two")
    table.refused("use_location", "has used both actions")


def test_the_third_sub_task_gives_the_reward_and_turns_up_the_next_task():
    table = started()
    table.do("enter_task", **FISH_TASK)
    table.do("take_ingredients", fish=2, mistletoe=1, strawberries=3)
    table.do("complete_subtask")
    table.end_turn()
    table.end_turn()
    table.do("complete_subtask")
    table.end_turn()
    table.end_turn()
    table.do("complete_subtask")
    tasks = table.view["tasks"]
    assert tasks["completed"] == 1 and tasks["current"] is None and tasks["awaiting_entry"]
    assert tasks["face_down"] == 2
    assert tasks["last_reward"] == "Two players draw a helper card each"
    table.do("draw_helpers", player="Bob")
    assert table.view["players"][1]["hand_size"] == 1


# -- supplies ---------------------------------------------------------------------------------
def test_an_empty_supply_refuses():
    table = started()
    table.do("take_ingredients", fish=8)
    table.refused("take_ingredients", "only 2 fish left", fish=3)
    table.do("take_ingredients", player="Bob", fish=2)
    table.refused("take_ingredients", "no fish left", fish=1)
    table.refused("take_ingredients", "at least one ingredient")
    assert table.view["supply"]["fish"] == 0


def test_the_draw_pile_runs_out_and_is_not_reshuffled():
    table = started()
    table.do("draw_helpers", count=5)  # Asterix draws one extra
    assert table.view["players"][0]["draw_pile"] == 6
    assert table.view["players"][0]["hand"] == {"asterix": 6}
    table.refused("play_helpers", "Ann holds not enough Obelix helper cards", card="obelix")
    table.do("draw_helpers", count=10)
    assert table.view["players"][0]["draw_pile"] == 0
    table.refused("draw_helpers", "Ann's draw pile is empty")
    table.do("play_helpers", second_card="asterix")
    assert table.state["discards"]["asterix"] == 2
    table.refused("draw_helpers", "not shuffled back")
    table.do("draw_helpers", player="Bob", count=2)
    assert table.view["players"][1]["hand"] == {"obelix": 2}


def test_passing_needs_the_same_place_and_at_most_two_items():
    table = started()
    table.do("take_ingredients", fish=2, mistletoe=1)
    table.do("draw_helpers")
    table.refused("pass_items", "at least one", to_player="Bob")
    table.refused("pass_items", "At most two items", to_player="Bob", ingredient="fish",
                  second_ingredient="fish", card="asterix")
    table.refused("pass_items", "not to oneself", to_player="Ann", ingredient="fish")
    table.refused("pass_items", "not enough strawberries", to_player="Bob", ingredient="strawberries")
    table.refused("pass_items", "not enough Obelix helper cards", to_player="Bob", card="obelix")
    table.do("move", location=5)
    table.refused("pass_items", "same location, or both at the task stack", to_player="Bob", ingredient="fish")
    table.do("move")
    table.do("pass_items", to_player="Bob", ingredient="fish", card="asterix")
    bob = table.view["players"][1]
    assert bob["ingredients"]["fish"] == 1 and bob["hand"] == {"asterix": 1}
    assert table.view["players"][0]["hand"] == {"asterix": 1}


def test_potions_roast_boars_and_getafix_double_roll():
    table = started(["Ann", "Bob", "Cy"])
    table.refused("drink_potion", "Only Getafix", outcome="two_ingredients", other_roll="remove_one_mishap")
    table.do("drink_potion", outcome="two_ingredients")
    assert table.view["players"][0]["potion_fresh"] is False
    gain = table.view["turn"]["gain"]
    assert (gain["from"], gain["tap"], gain["left"]) == ("potion", "take_ingredients", 1)
    assert gain["outcome_text"] == "take 2 ingredients of any kinds"
    table.refused("drink_potion", "Ann's magic potion is used", outcome="two_ingredients")
    table.refused("refill_potion", "Obelix has roast boars", player="Bob")
    table.refused("refill_potion", "Cy's magic potion is still fresh", player="Cy")
    table.do("refill_potion")
    table.refused("refill_potion", "still fresh")
    table.end_turn()
    for _ in range(2):  # Obelix gnaws two boars in one turn, then one more later
        table.do("drink_potion", outcome="three_ingredients")
    assert table.view["players"][1]["roast_boars"] == 1
    table.end_turn()
    table.do("drink_potion", outcome="remove_two_mishaps", other_roll="two_ingredients")
    assert table.view["players"][2]["potion_fresh"] is False
    table.end_turn()
    table.end_turn()
    table.do("drink_potion", outcome="ingredient_or_card")
    table.refused("drink_potion", "gnawed all three roast boars", outcome="ingredient_or_card")


# -- the turn helper --------------------------------------------------------------------------
def test_the_turn_runs_actions_then_the_roman_then_the_mishap():
    table = started()
    table.refused("draw_mishap", "Not now: Ann (Asterix) has 2 actions left; then the Roman steps "
                  "on and a mishap marker is drawn.", symbol="knife")
    table.do("move", location=1).do("use_location").do("move", location=4).do("use_location")
    table.refused("drink_potion", "has used both actions", outcome="two_ingredients")
    table.refused("move", "already moved twice")
    table.do("advance_roman")
    assert GAME.status(table.state) == "Ann (Asterix): draw a mishap marker · 23 spaces to the camp"
    table.refused("advance_roman", "draw the mishap marker")
    table.do("draw_mishap", symbol="fist")
    assert str(GAME.status(table.state)).startswith("Ann (Asterix): place the fist marker")
    table.refused("move", "Place the drawn fist marker", location=2)
    table.do("place_mishap", location=5)
    assert GAME.status(table.state) == "Bob (Obelix)'s turn: 2 actions left · 23 spaces to the camp"
    table.entries.append(UNDO)
    assert table.state["drawn"] == "fist" and table.state["turn"]["player"] == "Ann"


def test_moving_to_where_one_stands_is_refused_and_the_same_location_only_once():
    table = started()
    table.refused("move", "already at the task stack")
    table.do("move", location=6).do("use_location")
    table.refused("use_location", "Strawberry patch was already used this turn")
    table.do("move")
    table.refused("use_location", "stands at the task stack")


def test_apply_leaves_the_old_state_alone_and_everything_is_json():
    table = started()
    state = table.state
    before = copy.deepcopy(state)
    after = GAME.apply(state, GAME.parse_action({"type": "take_ingredients", "fish": 3}), "Ann")
    assert state == before and after["seats"]["Ann"]["ingredients"]["fish"] == 3
    json.dumps(after)
    json.dumps(GAME.view(after))


@pytest.mark.parametrize(
    "payload, fragment",
    [({"type": "draw_mishap", "symbol": "sword"}, "symbol"),
     ({"type": "place_mishap", "location": 7}, "location"),
     ({"type": "enter_task", "first_ingredient": "fish"}, "missing"),
     ({"type": "draw_helpers", "count": True}, "count"),
     ({"type": "feast"}, "knows:")],
)
def test_malformed_taps_are_refused(payload, fragment):
    with pytest.raises(GameError) as caught:
        GAME.parse_action(payload)
    assert fragment in caught.value.message


def test_describe_tells_the_log_what_happened():
    table = started()
    state = table.state
    said = {
        "move": GAME.describe(state, GAME.parse_action({"type": "move", "location": 2}), "Ann"),
        "take": GAME.describe(state, GAME.parse_action({"type": "take_ingredients", "fish": 2}), None),
        "draw": GAME.describe(state, GAME.parse_action({"type": "draw_helpers", "count": 2}), None),
    }
    assert said == {
        "move": "Ann (Asterix) moved to the Fishmonger's stall.",
        "take": "Ann (Asterix) took 2 fish from the supply.",
        "draw": "Ann (Asterix) drew 3 helper cards.",
    }


# -- the moves table: phases and turns --------------------------------------------------------
def play(state: dict, kind: str, actor: str | None, **fields) -> tuple[dict, str]:
    return GAME.play(state, GAME.parse_action({"type": kind, **fields}), actor)


@pytest.mark.parametrize("entries, kind, fields, sentence", [
    ([], "advance_roman", {},
     "Not now: Play has not begun; finish the setup and tap begin."),
    ([*at_the_stack(), *OPENING, act("begin_play"), act("advance_roman")], "take_ingredients", {"fish": 1},
     "Not now: The Roman has stepped; draw the mishap marker to end the turn."),
    ([*at_the_stack(), *OPENING, act("begin_play"), act("advance_roman"), act("draw_mishap", symbol="fist")],
     "move", {"location": 2}, "Not now: Place the drawn fist marker to end the turn."),
    ([*at_the_stack(), *OPENING, act("begin_play")], "begin_play", {},
     "Not now: Ann (Asterix) has 2 actions left; then the Roman steps on and a mishap marker "
     "is drawn."),
])
def test_a_move_out_of_its_phase_is_refused_with_what_is_expected_now(entries, kind, fields, sentence):
    table = Table(entries=entries)
    table.refused(kind, sentence, **fields)
    assert GAME.legal_actions(table.state)[kind] == sentence


def test_the_turn_players_moves_are_refused_on_another_players_turn():
    state = started().state
    for kind, fields in (("move", {"location": 2}), ("drink_potion", {"outcome": "two_ingredients"}),
                         ("advance_roman", {})):
        with pytest.raises(GameError) as caught:
            play(state, kind, "Bob", **fields)
        assert caught.value.message == "It is Ann's turn."
        play(state, kind, "Ann", **fields)  # her own phone, or the host's (no seat)
        play(state, kind, None, **fields)
    legal = GAME.legal_actions(state, "Bob")
    assert legal["move"] == legal["advance_roman"] == "It is Ann's turn."
    # Gains go to whoever they concern (a reward may be for another player): no turn check.
    assert legal["take_ingredients"] is None and legal["draw_helpers"] is None
    assert play(state, "take_ingredients", "Bob", player="Bob", fish=1)[1] == (
        "Bob (Obelix) took 1 fish from the supply.")
    # The mishap is drawn by the player holding the bag; where it goes is decided together.
    state = play(state, "advance_roman", "Ann")[0]
    assert GAME.legal_actions(state, "Bob")["draw_mishap"] == "It is Ann's turn."
    state = play(state, "draw_mishap", "Ann", symbol="fist")[0]
    assert GAME.legal_actions(state, "Bob")["place_mishap"] is None
    state, said = play(state, "place_mishap", "Bob", location=5)
    assert said == "The fist marker was placed on the Bard's Hut."
    assert GAME.turn_of(state) == "Bob"


def test_the_host_hands_the_turn_on_and_it_is_undone_like_any_move():
    table = started(["Ann", "Bob", "Cy"])
    table.do("move", location=2).do("use_location")
    state, said = play(table.state, "hand_turn", None, player="Cy")
    assert said == "The host handed the turn to Cy."
    assert state["phase"] == "actions" and GAME.turn_of(state) == "Cy"
    assert GAME.view(state)["turn"]["actions_left"] == 2 and GAME.view(state)["turn"]["moves_left"] == 2
    assert state["seats"]["Ann"]["location"] == 2  # only the turn changes hands
    table.do("hand_turn", player="Cy")
    assert str(GAME.status(table.state)).startswith("Cy (Getafix)'s turn: 2 actions left")
    table.entries.append(UNDO)
    assert GAME.turn_of(table.state) == "Ann" and table.state["turn"]["actions_used"] == 1
    table.refused("hand_turn", "It is already Ann's turn.", player="Ann")
    table.refused("hand_turn", "no player called 'Zed'", player="Zed")
    table.do("advance_roman").do("draw_mishap", symbol="fist")
    table.refused("hand_turn", "Place the drawn fist marker first", player="Bob")
    # The table of moves says so before the tap: the host's form is disabled with that reason.
    assert GAME.legal_actions(table.state, None)["hand_turn"] == (
        "Place the drawn fist marker first, then hand the turn on.")
    Table().refused("hand_turn", "Nobody has the turn now.", player="Bob")


# -- whole games ------------------------------------------------------------------------------
ONE_MISTLETOE_EACH = {"first_ingredient": "mistletoe", "first_quantity": 1,
                      "second_ingredient": "mistletoe", "second_quantity": 1,
                      "third_ingredient": "mistletoe", "third_quantity": 1}


def test_a_whole_game_won_together():
    table = started()
    while not table.state["finished"]:
        if table.view["tasks"]["awaiting_entry"]:
            table.do("enter_task", **ONE_MISTLETOE_EACH)
        turn = table.view["turn"]
        table.do("take_ingredients", mistletoe=turn["subtasks_left"])
        for _ in range(turn["subtasks_left"]):
            if table.view["tasks"]["awaiting_entry"]:
                table.do("enter_task", **ONE_MISTLETOE_EACH)
            table.do("complete_subtask")
            if table.state["finished"]:
                break
        else:
            table.end_turn()
    state = table.state
    assert state["result"] == "won" and GAME.is_over(state)
    assert GAME.winners(state) == ["Ann", "Bob"]
    assert GAME.status(state) == "All 4 tasks completed: the village wins!"
    assert GAME.scores(state) is None
    assert state["roman_steps"] < state["lap_length"]
    assert state["supply"] == {"mistletoe": 10, "strawberries": 10, "fish": 10}
    table.refused("advance_roman", "The game is over")


def test_a_whole_game_lost_when_time_runs_out():
    table = started()
    table.do("enter_task", **ONE_MISTLETOE_EACH)
    while not table.state["finished"]:
        table.end_turn()
    state = table.state
    assert state["result"] == "lost" and GAME.winners(state) == []
    assert state["tasks"]["completed"] == 0
    assert table.view["roman"]["spaces_to_camp"] == 0


# -- what the page is given -------------------------------------------------------------------
@pytest.mark.parametrize("raw, name", [("one_roman", "one Roman"), ("Caesar's army", "Caesar's army"),
                                       ("CONQUER ROME", "conquer Rome"), (5, "a small patrol")])
def test_the_difficulty_is_named_as_the_rulebook_does_and_short_forms_are_accepted(raw, name):
    assert GAME.parse_options({"difficulty": raw}).difficulty == name


def test_the_moves_table_says_why_each_action_is_closed():
    table = started(opening=[act("draw_mishap", symbol="skull"), act("place_mishap", location=4),
                             act("draw_mishap", symbol="fist"), act("place_mishap", location=4)])
    turn = table.view["turn"]
    assert turn["here_name"] == "Task stack" and turn["at_stack"]
    legal = GAME.legal_actions(table.state)
    assert legal["use_location"] == "Ann stands at the task stack, not on a location."
    assert legal["complete_subtask"] == "Enter the face-up task card's sub-tasks first."
    assert legal["drink_potion"] is None and turn["drink"] == "Drink the magic potion"
    assert turn["partners"] == ["Bob"]  # both at the task stack, but Ann has nothing yet
    assert legal["pass_items"] == "Ann holds nothing to pass: no ingredients, no helper cards."
    assert legal["refill_potion"] == "Every magic potion is still fresh; there is nothing to refill."
    assert legal["play_helpers"] == "Ann holds no helper cards."
    table.do("enter_task", **FISH_TASK)
    assert GAME.legal_actions(table.state)["complete_subtask"] == "This sub-task needs 2 fish; Ann has 0."
    table.do("move", location=4)
    legal = GAME.legal_actions(table.state)
    assert legal["use_location"] == "The Mistletoe grove is shut: both of its mishap spaces are covered."
    assert legal["complete_subtask"] == "Ann must stand at the task stack to complete a sub-task."
    assert legal["pass_items"] == ("Nobody else stands at the Mistletoe grove: items are passed on "
                                   "the same location, or both at the task stack.")
    assert table.view["turn"]["partners"] == []
    table.do("remove_mishap", location=4).do("use_location").do("drink_potion", outcome="two_ingredients")
    legal = GAME.legal_actions(table.state)
    assert table.view["turn"]["actions_left"] == 0
    assert legal["use_location"] == legal["drink_potion"] == (
        "Ann has used both actions; move the Roman on to end them.")
    assert table.view["turn"]["moves_left"] == 1 and legal["move"] is None
    table.do("advance_roman")
    legal = GAME.legal_actions(table.state)
    assert legal["move"] == legal["use_location"] == (
        "Not now: The Roman has stepped; draw the mishap marker to end the turn.")


def test_the_ring_marks_where_the_drawn_marker_may_go():
    table = Table()
    table.do("draw_mishap", symbol="knife")
    ring = table.view["ring"]
    legal = [(loc["number"], slot["slot"]) for loc in ring for slot in loc["slots"] if slot["legal"]]
    assert legal == [(3, 1), (5, 1)]
    assert ring[0]["roman_here"] and ring[0]["slots"][0] == {"slot": 1, "symbol": "knife",
                                                              "covered": False, "legal": False}
    choices = {c["symbol"]: c["spaces"] for c in table.view["draw_choices"]}
    assert choices == {"knife": 2, "skull": 2, "lightning": 3, "fist": 3}
    # Before anybody sets a start place, each figure stands on its character's usual start.
    assert table.view["stack_figures"] == []
    assert ring[1]["figures"] == [{"name": "Ann", "character": "asterix",
                                   "character_name": "Asterix"}]
    assert ring[0]["figures"] == [{"name": "Bob", "character": "obelix",
                                   "character_name": "Obelix"}]
