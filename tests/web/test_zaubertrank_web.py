"""Mission Zaubertrank! through the table API and through the page's own forms, as phones use it."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest

from companion.games import get_game
from tests.conftest import ApiTable
from tests.pages import region

GAME = "zaubertrank"
FISH_SOUP = {"first_ingredient": "fish", "first_quantity": 2, "second_ingredient": "mistletoe",
             "second_quantity": 1, "third_ingredient": "strawberries", "third_quantity": 3,
             "title": "Fish soup", "reward": "Two players draw a helper card each"}
ONE_MISTLETOE_EACH = {"first_ingredient": "mistletoe", "first_quantity": 1,
                      "second_ingredient": "mistletoe", "second_quantity": 1,
                      "third_ingredient": "mistletoe", "third_quantity": 1}
# Default cards: 1 Forest knife/skull, 2 Fishmonger's stall lightning/fist, 3 Druid's Cave
# knife/lightning, 4 Mistletoe grove skull/fist, 5 Bard's Hut knife/fist, 6 Strawberry patch
# skull/lightning; four timeline spaces each.
OPENING = [{"type": "draw_mishap", "symbol": "lightning"}, {"type": "place_mishap", "location": 2},
           {"type": "draw_mishap", "symbol": "knife"}, {"type": "place_mishap", "location": 3}]
HELP_SECTIONS = ("turn setup difficulty goal actions moving use-location locations ingredients "
                 "magic-potion potion-die pass-on helper-cards sub-task tasks roman-timeline "
                 "mishaps characters winning-losing").split()


class Table(ApiTable):
    """A Zaubertrank table driven through the JSON API with the host's token."""

    def __init__(self, client, players=("Ann", "Bob"), options=None):
        super().__init__(client, GAME, players, options)

    def start(self, opening=OPENING, starting_player=None) -> "Table":
        """Every figure set at the task stack (their characters' usual starts are locations),
        the opening markers placed, play begun."""
        for name in self.state["players"]:
            self.move("place_figure", player=name)
        for payload in opening:
            self.move(payload)
        self.move("begin_play", **({"starting_player": starting_player} if starting_player else {}))
        return self

    def end_turn(self) -> None:
        """The Roman steps; a marker that fits somewhere goes on its first legal space."""
        if self.move("advance_roman")["finished"]:
            return
        state = self.state
        roman = roman_location(state)
        for symbol in ("knife", "skull", "lightning", "fist"):
            for location in state["locations"]:
                for slot in (0, 1):
                    if (location["number"] != roman and location["symbols"][slot] == symbol
                            and not location["covered"][slot]):
                        self.move("draw_mishap", symbol=symbol)
                        self.move("place_mishap", location=location["number"], slot=slot + 1)
                        return
        self.move("draw_mishap", symbol="knife")


def roman_location(state: dict) -> int:
    steps = state["roman_steps"] % state["lap_length"]
    for location in state["locations"]:
        if steps < location["spaces"]:
            return location["number"]
        steps -= location["spaces"]
    raise AssertionError


# -- reading the page's forms the way a browser submits them ------------------------------------
class Forms(HTMLParser):
    """Every action form of a page: its fields' values and its submit buttons (for a phone
    that may not act: the same controls, disabled and with no form that could post)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form = self._button = self._select = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("form", "div") and "data-action" in attrs:
            self._form = {"fields": {}, "buttons": [], "disabled": False,
                          "class": attrs["class"], "posts": tag == "form"}
            if tag == "div":
                self._form["fields"]["type"] = attrs["data-action"]
        if self._form is None:
            return
        if tag == "fieldset" and "disabled" in attrs:
            self._form["disabled"] = True
        elif tag == "input" and attrs.get("name") and "disabled" not in attrs:
            self._form["fields"][attrs["name"]] = attrs.get("value") or ""
        elif tag == "select":
            self._select = attrs["name"]
            self._form["fields"].setdefault(self._select, None)
        elif tag == "option" and self._select:
            value = attrs.get("value")
            if self._form["fields"][self._select] is None or "selected" in attrs:
                self._form["fields"][self._select] = value if value is not None else ""
                self._option_text = value is None
            else:
                self._option_text = False
        elif tag == "button":
            self._button = {"name": attrs.get("name"), "value": attrs.get("value"), "text": "",
                            "disabled": "disabled" in attrs}

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data
        elif self._select and getattr(self, "_option_text", False):
            self._form["fields"][self._select] += data.strip()

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "option":
            self._option_text = False
        elif tag == "button" and self._form is not None and self._button is not None:
            self._button["text"] = " ".join(self._button["text"].split())
            self._form["buttons"].append(self._button)
            self._button = None
        elif self._form is not None and (tag == "form" or (
                tag == "fieldset" and not self._form["posts"])):
            self.forms.append(self._form)
            self._form = None

    def find(self, action: str, label: str, **hidden) -> tuple[dict, dict]:
        """The form of ``action`` with a button whose text holds ``label`` (and these fields)."""
        for form in self.forms:
            if form["fields"].get("type") != action:
                continue
            if any(str(form["fields"].get(k)) != str(v) for k, v in hidden.items()):
                continue
            for button in form["buttons"]:
                if label in button["text"]:
                    return form, button
        shown = [(f["fields"].get("type"), [b["text"] for b in f["buttons"]]) for f in self.forms]
        raise AssertionError(f"no {action} button '{label}' on the page: {shown}")


class Player:
    """A phone at the table that taps the buttons its page shows."""

    def __init__(self, phone, code=None, seat=None):
        self.phone = phone
        if code is not None:
            phone.join(code, seat)

    @property
    def code(self):
        return self.phone.code

    def page(self) -> str:
        response = self.phone.get(f"/t/{self.code}")
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def tap(self, action: str, label: str, fill: dict | None = None, where: dict | None = None):
        """Tap the button ``label`` of the ``action`` form, with typed-in ``fill`` values."""
        form, button = Forms(self.page()).find(action, label, **(where or {}))
        assert not form["disabled"] and not button["disabled"], (action, label)
        data = {k: v for k, v in form["fields"].items() if v is not None}
        data.update(fill or {})
        if button["name"]:
            data[button["name"]] = button["value"]
        return self.phone.post(f"/t/{self.code}/act", data, htmx=True)

    def taps(self, action: str, label: str, fill: dict | None = None, where: dict | None = None):
        response = self.tap(action, label, fill, where)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        return response


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def host(phone):
    """The host's phone with a fresh two-player table (Ann: Asterix, Bob: Obelix)."""
    device = phone()
    device.start(game=GAME, players=("Ann", "Bob"))
    return Player(device)


# -- setup --------------------------------------------------------------------------------------
def test_the_setup_form_is_generated_from_the_options(phone):
    device = phone()
    page = device.get(f"/new/{GAME}").get_data(as_text=True)
    for label in ("Difficulty", "Challenge: one task card more", "Card 1: name",
                  "Card 1: timeline spaces", "Card 1: mishap symbol 1", "Card 6: mishap symbol 2"):
        assert label in page
    assert '<option value="a cohort"' in page and '<option value="conquer Rome"' in page
    code = device.start(game=GAME, players=("Ann", "Bob", "Cy"), difficulty="Caesar's army",
                        challenge="on", challenge__present="1", location3_name="Cave",
                        location3_spaces="6", location3_symbol_2="fist")
    state = device.snapshot()["state"]
    assert state["tasks"]["total"] == 8  # Caesar's army 7, and the challenge
    assert state["locations"][2] == {"number": 3, "name": "Cave", "spaces": 6,
                                     "symbols": ["knife", "fist"], "covered": [False, False]}
    page = text(device.get(f"/t/{code}").get_data(as_text=True))
    assert "26 spaces left until the Roman is back at his camp" in page
    assert "3 Cave" in page and "Caesar's army + challenge" in page


def test_bad_setup_options_are_refused_with_a_sentence(client):
    response = client.post("/api/tables", json={"game": GAME, "players": ["Ann", "Bob"],
                                                "options": {"location2_name": "Forest"}})
    assert response.status_code == 422
    assert response.get_json()["error"] == "Each of the six locations needs its own name."
    response = client.post("/api/tables", json={"game": GAME, "players": ["Ann"]})
    assert response.status_code == 422 and "2" in response.get_json()["error"]
    # Scripts may name the difficulty by its short id or by its number of task cards.
    table = Table(client, options={"difficulty": "caesars_army"})
    assert table.state["tasks"]["total"] == 7
    assert Table(client, options={"difficulty": 6}).state["tasks"]["total"] == 6


def test_setup_with_the_apps_help_characters_places_markers_and_the_starter(host):
    ann = host
    assert "Setup" in text(region(ann.page(), "turn"))
    ann.taps("choose_character", "Getafix", where={"player": "Bob"})
    ann.taps("place_figure", "5 · Bard", where={"player": "Bob"})
    ann.taps("take_ingredients", "Take", fill={"player": "Bob", "fish": "2", "mistletoe": "1"})
    # Begin is offered but cannot be tapped before the opening markers lie, and says why.
    form, button = Forms(ann.page()).find("begin_play", "Bob starts")
    assert form["disabled"]
    assert "Place the two opening mishap markers before play begins." in text(region(ann.page(), "turn"))
    # A skull is drawn: its legal spaces are offered, never the Roman's Forest.
    ann.taps("draw_mishap", "skull")
    turn = region(ann.page(), "turn")
    assert "Place the" in turn and "skull marker" in text(turn)
    placements = [f["fields"]["location"] for f in Forms(turn).forms
                  if f["fields"].get("type") == "place_mishap"]
    assert placements == ["4", "6"]
    ann.taps("place_mishap", "6 · Strawberry patch")
    ann.taps("draw_mishap", "fist")
    ann.taps("place_mishap", "4 · Mistletoe grove")
    page = text(ann.page())
    assert "Opening mishap markers: 2 of 2 placed" in page and "Both are on the board" in page
    ann.taps("begin_play", "Bob starts")
    snap = ann.phone.snapshot()
    seats = snap["state"]["seats"]
    assert seats["Bob"]["character"] == "getafix" and seats["Ann"]["character"] == "asterix"
    assert seats["Bob"]["location"] == 5 and seats["Bob"]["ingredients"]["fish"] == 2
    assert snap["state"]["turn"]["player"] == "Bob"
    page = ann.page()
    assert "Bob's turn" in text(region(page, "turn"))
    assert "Bob (Getafix)'s turn: 2 actions left · 24 spaces to the camp" in text(page)
    ring = region(page, "timeline")
    assert 'aria-label="skull space: covered by a marker"' in ring
    assert "Shut: both spaces covered" not in ring  # one marker each on two cards


# -- the ring and the Roman ---------------------------------------------------------------------
def test_the_ring_shows_the_roman_and_wraps_to_the_next_card(client, phone):
    table = Table(client, options={"location1_spaces": 2}).start()
    host = Player(phone(), table.code, "Ann")
    ring = region(host.page(), "timeline")
    assert "22 spaces left until the Roman is back at his camp" in text(ring)
    assert re.search(r'zt-loc-1 roman-here"', ring)
    table.end_turn()
    table.end_turn()  # past the Forest's last space: the first space of card 2
    ring = region(host.page(), "timeline")
    assert re.search(r'zt-loc-2 roman-here"', ring) and not re.search(r'zt-loc-1 roman-here', ring)
    assert "Fishmonger's stall, space 1" in text(ring)
    assert "20 spaces left until the Roman is back at his camp" in text(ring)
    assert ring.count('class="zt-space passed') == 2


def test_end_of_turn_moves_the_roman_and_the_mishap_draw_ends_the_turn(host):
    host.taps("draw_mishap", "lightning")
    host.taps("place_mishap", "2 · Fishmonger")
    host.taps("draw_mishap", "knife")
    host.taps("place_mishap", "3 · Druid")
    host.taps("begin_play", "Ann starts")
    host.taps("advance_roman", "Move the Roman 1 space (23 left after)")
    turn = text(region(host.page(), "turn"))
    assert "✓ The Roman stepped on: 23 left" in turn
    assert "Draw a mishap marker: which symbol do you see?" in turn
    assert "23 spaces left" in text(region(host.page(), "timeline"))
    host.taps("draw_mishap", "fist")
    host.taps("place_mishap", "5 · Bard's Hut")
    assert "Bob's turn" in text(region(host.page(), "turn"))
    # Each step is undoable: the marker comes off again and it is Ann's turn once more.
    undo = host.phone.post(f"/t/{host.code}/undo", {"expected_version": host.phone.version()},
                           htmx=True)
    assert undo.status_code == 200
    assert "Place the" in text(region(host.page(), "turn"))


def test_a_placement_that_would_shut_a_location_says_so_on_its_button(host):
    host.taps("draw_mishap", "lightning")
    host.taps("place_mishap", "2 · Fishmonger")  # the Fishmonger's lightning space
    host.taps("draw_mishap", "fist")
    turn = region(host.page(), "turn")
    buttons = {f["fields"]["location"]: b["text"] for f in Forms(turn).forms
               if f["fields"].get("type") == "place_mishap" for b in f["buttons"]}
    assert "this shuts it" in buttons["2"]  # its other space is covered
    assert "shuts" not in buttons["4"] and "shuts" not in buttons["5"]


def test_a_potion_roll_offers_what_it_grants_beside_its_result(client, phone):
    table = Table(client).start()
    ann = Player(phone(), table.code, "Ann")
    table.move("drink_potion", outcome="two_ingredients")
    turn = region(ann.page(), "turn")
    result = turn[turn.index('id="zt-gain"'):]
    assert "The potion die: take 2 ingredients of any kinds" in text(result)
    assert 'data-action="take_ingredients"' in result and 'id="zt-gain-take-player"' in result
    ann.taps("take_ingredients", "Take", fill={"player": "Ann", "fish": "2"})
    assert table.state["seats"]["Ann"]["ingredients"]["fish"] == 2
    # Taken: the turn records it, and the box is gone.
    assert table.state["turn"]["gain"] is None
    assert 'id="zt-gain"' not in region(ann.page(), "turn")


def test_a_marker_that_fits_nowhere_moves_the_roman_two_more(client, phone):
    table = Table(client).start(opening=[
        {"type": "draw_mishap", "symbol": "skull"}, {"type": "place_mishap", "location": 4},
        {"type": "draw_mishap", "symbol": "skull"}, {"type": "place_mishap", "location": 6}])
    table.move("advance_roman")
    watcher = Player(phone("10.0.0.9"), table.code, "Ann")
    skull = Forms(region(watcher.page(), "turn")).find("draw_mishap", "skull")[1]
    assert "fits nowhere: Roman +2" in skull["text"]
    snap = table.move("draw_mishap", symbol="skull")
    assert snap["state"]["roman_steps"] == 3 and snap["state"]["turn"]["player"] == "Bob"
    assert "fitted nowhere" in snap["log"][0]["text"] and "2 spaces on" in snap["log"][0]["text"]
    assert "21 spaces left" in text(region(watcher.page(), "timeline"))


def test_a_location_shut_by_two_markers_shows_and_refuses_until_one_is_cleared(client, phone):
    table = Table(client).start(opening=[
        {"type": "draw_mishap", "symbol": "skull"}, {"type": "place_mishap", "location": 4},
        {"type": "draw_mishap", "symbol": "fist"}, {"type": "place_mishap", "location": 4}])
    ann = Player(phone(), table.code, "Ann")
    ring = region(ann.page(), "timeline")
    assert "zt-loc-4 shut" in ring and "Shut: both spaces covered" in ring
    ann.taps("move", "4 · Mistletoe grove (shut)")
    form, button = Forms(ann.page()).find("use_location", "Use the Mistletoe grove")
    assert form["disabled"]
    assert ("The Mistletoe grove is shut: both of its mishap spaces are covered."
            in text(region(ann.page(), "turn")))
    assert "The Mistletoe grove is shut: both of its mishap spaces are covered." in table.refused(
        "use_location")
    bag_before = table.state["bag"]["fist"]
    ann.taps("remove_mishap", "fist off 4 · Mistletoe grove")
    assert table.state["bag"]["fist"] == bag_before + 1
    assert "Shut: both spaces covered" not in region(ann.page(), "timeline")
    ann.taps("use_location", "Use the Mistletoe grove")
    assert table.state["turn"]["actions_used"] == 1


def test_a_symbol_counted_out_is_still_accepted_and_explained(client, phone):
    every_knife = {f"location{n}_symbol_{s}": "knife" for n in range(1, 7) for s in (1, 2)}
    table = Table(client, options=every_knife).start(opening=[
        {"type": "draw_mishap", "symbol": "knife"}, {"type": "place_mishap", "location": 2},
        {"type": "draw_mishap", "symbol": "knife"}, {"type": "place_mishap", "location": 2}])
    table.end_turn()
    table.end_turn()
    assert table.state["bag"]["knife"] == 0
    ann = Player(phone(), table.code, "Ann")
    assert "no knife marker is left" in text(region(ann.page(), "timeline"))
    ann.taps("advance_roman", "Move the Roman")
    ann.taps("draw_mishap", "knife")
    state = table.state
    assert state["drawn"] == "knife" and sum(state["bag"].values()) == 11
    assert "other side of a marker" in table.snapshot()["log"][0]["text"]


# -- tasks --------------------------------------------------------------------------------------
def test_tasks_are_entered_from_the_card_and_sub_tasks_are_limited(client, phone):
    table = Table(client).start()
    ann = Player(phone(), table.code, "Ann")
    fill = {k: str(v) for k, v in FISH_SOUP.items()}
    ann.taps("enter_task", "Enter the task card", fill=fill)
    tasks = text(region(ann.page(), "tasks"))
    assert "Fish soup" in tasks and "2 fish (blue 2) next" in tasks
    assert "1 mistletoe (green 1)" in tasks and "3 strawberries (red 3)" in tasks
    assert "0 of 4 done · face-down stack: 3" in tasks
    assert "Reward: Two players draw a helper card each" in tasks
    ann.taps("take_ingredients", "Take", fill={"fish": "2", "mistletoe": "1"})
    ann.taps("complete_subtask", "Complete a sub-task: hand in 2 fish")
    tasks = text(region(ann.page(), "tasks"))
    assert "2 fish (blue 2) done" in tasks and "Menhirs placed: 1 of 3" in tasks
    assert table.state["supply"]["fish"] == 10  # the fish went back
    assert "Only one sub-task may be completed per turn (Obelix may do two)." in table.refused(
        "complete_subtask")
    assert ("Only one sub-task may be completed per turn (Obelix may do two)."
            in text(region(ann.page(), "turn")))
    table.end_turn()
    # Bob plays Obelix: two sub-tasks in one turn, each an action.
    table.move("take_ingredients", mistletoe=1, strawberries=3)
    table.move("complete_subtask")
    table.move("complete_subtask")
    snap = table.snapshot()
    assert snap["state"]["tasks"]["completed"] == 1
    tasks = text(region(ann.page(), "tasks"))
    assert "1 of 4 done" in tasks and "Turn up the next card and enter it" in tasks
    assert "Reward of the task just done: Two players draw a helper card each" in tasks


def test_obelix_may_not_complete_a_third_sub_task(client):
    table = Table(client, players=("Ann", "Bob", "Cy")).start(starting_player="Bob")
    table.move("enter_task", **ONE_MISTLETOE_EACH)
    table.move("take_ingredients", mistletoe=3)
    table.move("complete_subtask")
    table.move("complete_subtask")
    assert table.state["tasks"]["covered"] == 2
    assert "Obelix may complete at most two sub-tasks per turn." in table.refused("complete_subtask")


# -- supplies -----------------------------------------------------------------------------------
def test_supply_limits_and_the_draw_pile_running_out(client, phone):
    table = Table(client).start()
    ann = Player(phone(), table.code, "Ann")
    ann.taps("take_ingredients", "Take", fill={"fish": "9"})
    assert "The supply has only 1 fish left." in table.refused("take_ingredients", fish=2)
    table.move("take_ingredients", player="Bob", fish=1)
    assert "The supply has no fish left until a sub-task brings some back." in table.refused(
        "take_ingredients", fish=1)
    page = ann.page()
    assert "0 fish · empty" in text(region(page, "village"))
    # The free tap's fish field (in the turn's "Take ingredients" menu) cannot be filled.
    assert re.search(r'name="fish"[^>]*disabled', region(page, "turn"))
    # Asterix draws one extra card each time; the pile of 12 is not reshuffled.
    ann.taps("draw_helpers", "Draw 3 (2 + extra)", where={"player": "Ann"})
    assert "draw pile 9 of 12" in text(region(ann.page(), "village"))
    table.move("draw_helpers", count=9)
    assert "Ann's draw pile is empty; played helper cards are not shuffled back." in table.refused(
        "draw_helpers")
    page = ann.page()
    assert "Draw pile empty: played cards are not reshuffled." in text(region(page, "turn"))
    assert "12 Asterix" in text(region(page, "village"))


def test_passing_playing_cards_and_the_potion(client, phone):
    table = Table(client, players=("Ann", "Bob", "Cy")).start()
    ann = Player(phone(), table.code, "Ann")
    table.move("take_ingredients", fish=2)
    table.move("draw_helpers")
    assert "Items are passed to another player, not to oneself." in table.refused(
        "pass_items", to_player="Ann", ingredient="fish")
    assert "Choose at least one ingredient or helper card to pass." in table.refused(
        "pass_items", to_player="Bob")
    ann.taps("pass_items", "Pass on", fill={"to_player": "Cy", "ingredient": "fish",
                                          "card": "asterix"})
    cy = table.state["seats"]["Cy"]
    assert cy["ingredients"]["fish"] == 1 and cy["hand"]["asterix"] == 1
    assert "At most two items in total may be passed in one action." in table.refused(
        "pass_items", to_player="Bob", ingredient="fish", card="asterix", second_card="asterix")
    ann.taps("drink_potion", "+2 ingredients")
    page = text(ann.page())
    assert "The potion die: take 2 ingredients of any kinds" in page
    assert "Both actions are used" in page and "Potion: used" in page
    assert "Ann has used both actions; move the Roman on to end them." in table.refused("play_helpers")
    assert "Obelix has roast boars, and a gnawed bone cannot be refilled." in table.refused(
        "refill_potion", player="Bob")
    # The die's gain waits in its box (the free taps' menu with it) until taken or ended.
    assert "Free taps" not in text(region(ann.page(), "turn"))
    ann.taps("end_gain", "Nothing more")
    assert "Ann (Asterix) took nothing more from the potion die." in table.snapshot()["log"][0]["text"]
    ann.taps("refill_potion", "Refill Ann's potion")
    table.end_turn()
    assert "Only Getafix rolls the potion die twice." in table.refused(
        "drink_potion", outcome="two_ingredients", other_roll="remove_one_mishap")
    table.move("drink_potion", outcome="three_ingredients")
    assert table.state["seats"]["Bob"]["roast_boars"] == 2
    assert "Roast boars: 2 of 3" in text(ann.page())
    table.end_turn()
    # Getafix: the page asks his player for the other roll too.
    cy = Player(phone("10.0.0.8"), table.code, "Cy")
    cy.taps("drink_potion", "1 mishap marker off", fill={"other_roll": "two_ingredients"})
    assert "Getafix" in table.snapshot()["log"][0]["text"]
    assert "(the other roll: take 2 ingredients of any kinds)" in table.snapshot()["log"][0]["text"]


# -- refusals -----------------------------------------------------------------------------------
@pytest.mark.parametrize("payload, message", [
    ({"type": "move", "location": 2}, "Play has not begun; finish the setup and tap begin."),
    ({"type": "begin_play"}, "Place the two opening mishap markers before play begins."),
    ({"type": "place_mishap", "location": 3}, "No mishap marker is waiting; draw one from the bag first."),
    ({"type": "draw_mishap", "symbol": "sword"}, "The field 'symbol' is not valid"),
    ({"type": "choose_character", "player": "Zed", "character": "obelix"}, "There is no player called 'Zed' at this table."),
    ({"type": "feast"}, "The action type is 'feast'; Mission Zaubertrank! knows:"),
])
def test_setup_refusals_name_the_problem(client, payload, message):
    assert message in Table(client).refused(payload)


@pytest.mark.parametrize("payload, message", [
    ({"type": "move"}, "Ann is already at the task stack."),
    ({"type": "use_location"}, "Ann stands at the task stack, not on a location."),
    ({"type": "complete_subtask"}, "Enter the face-up task card's sub-tasks first."),
    ({"type": "draw_mishap", "symbol": "knife"}, "Not now: Ann (Asterix) has 2 actions left; then the Roman steps on and a mishap marker is drawn."),
    ({"type": "pass_items", "to_player": "Bob", "ingredient": "fish"}, "Ann holds nothing to pass: no ingredients, no helper cards."),
    ({"type": "play_helpers"}, "Ann holds no helper cards."),
    ({"type": "refill_potion"}, "Every magic potion is still fresh; there is nothing to refill."),
    ({"type": "remove_mishap", "location": 1}, "There is no mishap marker on the Forest."),
    ({"type": "take_ingredients"}, "Choose at least one ingredient to take."),
    ({"type": "choose_character", "player": "Ann", "character": "getafix"}, "Not now: Ann (Asterix) has 2 actions left"),
])
def test_play_refusals_name_the_problem(client, payload, message):
    assert message in Table(client).start().refused(payload)


def test_placing_on_the_romans_location_is_refused(client):
    table = Table(client)
    table.move("draw_mishap", symbol="knife")
    assert "The Roman stands on the Forest; no mishap marker may go there." in table.refused(
        "place_mishap", location=1)
    assert "Space 2 of the Druid's Cave shows a lightning, not a knife." in table.refused(
        "place_mishap", location=3, slot=2)


def test_a_refused_tap_from_the_page_answers_with_its_sentence(host):
    response = host.phone.act(type="complete_subtask")
    assert response.status_code == 422
    assert response.get_data(as_text=True) == (
        "Not now: Play has not begun; finish the setup and tap begin.")


# -- whole games --------------------------------------------------------------------------------
def test_a_whole_cooperative_game_won_through_the_api(client, phone):
    table = Table(client).start()
    bob = Player(phone("10.0.0.5"), table.code, "Bob")
    while not table.snapshot()["finished"]:
        state = table.state
        if state["tasks"]["current"] is None:
            table.move("enter_task", **ONE_MISTLETOE_EACH)
        limit = 2 if state["seats"][state["turn"]["player"]]["character"] == "obelix" else 1
        table.move("take_ingredients", mistletoe=limit)
        for _ in range(limit):
            if table.state["tasks"]["current"] is None:
                table.move("enter_task", **ONE_MISTLETOE_EACH)
            if table.move("complete_subtask")["finished"]:
                break
        else:
            table.end_turn()
    snap = table.snapshot()
    assert snap["winners"] == ["Ann", "Bob"] and snap["state"]["result"] == "won"
    assert snap["state"]["supply"] == {"mistletoe": 10, "strawberries": 10, "fish": 10}
    page = bob.page()
    assert "You won together!" in text(region(page, "status"))
    assert "All 4 tasks are done: you won together!" in text(region(page, "tasks"))
    assert "the village wins together" in text(region(page, "turn"))
    assert "The game is over; undo the last move to change it." in table.refused("advance_roman")


def test_a_whole_game_lost_is_announced_on_every_phone(client, phone):
    table = Table(client).start()
    table.move("enter_task", **ONE_MISTLETOE_EACH)
    ann = Player(phone("10.0.0.4"), table.code, "Ann")
    watcher = Player(phone("10.0.0.6"), table.code)
    seen = ann.phone.client.get(f"/api/tables/{table.code}").get_json()["version"]
    while not table.snapshot()["finished"]:
        table.end_turn()
    snap = table.snapshot()
    assert snap["winners"] == [] and snap["state"]["result"] == "lost"
    assert snap["state"]["tasks"]["completed"] == 0
    for device in (ann, watcher):
        live = device.phone.get(f"/t/{table.code}/live?v={seen}", headers={"HX-Request": "true"})
        body = live.get_data(as_text=True)
        assert "The game is lost." in text(region(body, "status"))
        assert "The Roman is back at his camp: the game is lost." in text(region(body, "timeline"))
        assert "The Roman got back to his camp" in text(region(body, "turn"))


# -- the page -----------------------------------------------------------------------------------
def phases(client, phone):
    """One table per moment of the game that shows different controls, each with Ann's and
    Bob's phones (``table.seats``), seated before its moves (a finished game takes no new
    seats)."""

    def seated(table: Table) -> Table:
        table.seats = {seat: Player(phone(), table.code, seat) for seat in ("Ann", "Bob")}
        return table

    setup = seated(Table(client))
    drawn = seated(Table(client))
    drawn.move("draw_mishap", symbol="knife")
    acting = seated(Table(client)).start()
    acting.move("enter_task", **FISH_SOUP)
    acting.move("draw_helpers")
    acting.move("take_ingredients", fish=1)
    drawing = seated(Table(client)).start()
    drawing.move("advance_roman")
    placing = seated(Table(client)).start()
    placing.move("advance_roman")
    placing.move("draw_mishap", symbol="fist")
    over = seated(Table(client, options={f"location{n}_spaces": 1 for n in range(1, 7)})).start()
    while not over.snapshot()["finished"]:
        over.end_turn()
    return {"setup": setup, "drawn": drawn, "actions": acting, "draw": drawing,
            "place": placing, "over": over}


def test_every_region_renders_alone_in_every_phase(client, phone):
    for name, table in phases(client, phone).items():
        device = table.seats["Ann"]
        live = device.phone.get(f"/t/{table.code}/live?v=0", headers={"HX-Request": "true"})
        assert live.status_code == 200, name
        body = live.get_data(as_text=True)
        for block in ("timeline", "tasks", "village", "turn"):
            assert f'id="{block}" data-region="{block}"' in body, (name, block)
            assert 'hx-swap-oob="true"' in region(body, block).split(">")[0], (name, block)
        full = device.page()
        assert "Ann" in text(region(full, "village")) and "Bob" in text(region(full, "village"))


def test_every_rules_section_the_controls_need_is_linked_and_exists(client, phone):
    linked = set()
    for table in phases(client, phone).values():
        page = table.seats["Ann"].page()
        linked |= set(re.findall(rf'/rules/{GAME}/([\w-]+)"', page))
        linked |= set(re.findall(rf'/rules/{GAME}#([\w-]+)"', page))
    assert set(HELP_SECTIONS) <= linked, set(HELP_SECTIONS) - linked
    ids = {section["section"] for section in client.get(f"/api/rules/{GAME}").get_json()}
    assert set(HELP_SECTIONS) <= ids


def test_symbols_are_named_and_drawn_not_told_by_colour(client, phone):
    table = phases(client, phone)["place"]
    page = table.seats["Ann"].page()
    ring = region(page, "timeline")
    for symbol in ("knife", "skull", "lightning", "fist"):
        assert f'href="#zt-{symbol}"' in ring and f"{symbol}" in text(ring)
        assert f'<symbol id="zt-{symbol}"' in page
    assert 'aria-label="fist space: free, the drawn marker may go here"' in ring
    assert ring.count("◀") >= 2  # the legal spaces are marked by a sign too


def test_a_watcher_sees_everything_and_can_tap_nothing(client, phone):
    table = phases(client, phone)["actions"]
    watcher = Player(phone("10.0.0.7"), table.code)
    assert Forms(watcher.page()).forms == []  # not even greyed ones
    assert "csrf_token" not in region(watcher.page(), "turn")
    page = text(watcher.page())
    assert "Ann's turn" in page and "Fish soup" in page
    assert "Supplies of 10 each" in page and "9 fish" in page
    response = watcher.phone.act(type="advance_roman")
    assert response.status_code == 403


# -- the moves table: what the page offers, whose turn it is --------------------------------------
def action_forms(html: str) -> list[tuple[str, bool, str | None]]:
    """(type, disabled, the reason shown) of every action form the page lets a phone post."""
    found = []
    for match in re.finditer(r'<form[^>]*data-action="(\w+)".*?</form>', html, re.S):
        body = match.group(0)
        why = re.search(r'<p class="why-not">(.*?)</p>', body, re.S)
        found.append((match.group(1), "<fieldset disabled>" in body,
                      unescape(why.group(1)) if why else None))
    return found


def test_a_control_is_disabled_with_its_reason_exactly_when_the_moves_table_says_so(client, phone):
    game = get_game(GAME)
    shown = set()
    for name, table in phases(client, phone).items():
        state = table.state
        for seat in ("Ann", "Bob"):
            legal = game.legal_actions(state, seat)
            for kind, disabled, reason in action_forms(table.seats[seat].page()):
                assert reason == legal[kind], (name, seat, kind)
                assert disabled == (reason is not None), (name, seat, kind)
                shown.add((name, seat, kind, reason))
    # Ann has the turn: her moves are open; Bob's phone shows them closed, saying whose turn it is.
    assert ("actions", "Ann", "move", None) in shown
    assert ("actions", "Bob", "move", "It is Ann's turn.") in shown
    assert ("draw", "Bob", "draw_mishap", "It is Ann's turn.") in shown
    assert ("actions", "Ann", "play_helpers", None) in shown
    assert ("setup", "Ann", "begin_play",
            "Place the two opening mishap markers before play begins.") in shown
    # Placing the drawn marker is decided together: any seat may tap it.
    assert ("place", "Bob", "place_mishap", None) in shown


def test_a_move_on_another_players_turn_is_refused_naming_whose_turn_it_is(client, phone):
    table = Table(client).start()
    bob = Player(phone("10.0.0.5"), table.code, "Bob")
    before = table.snapshot()["version"]
    response = bob.phone.act(type="move", location="2")
    assert response.status_code == 422
    assert response.get_data(as_text=True) == "It is Ann's turn."
    assert table.snapshot()["version"] == before
    # A gain for Bob himself is not bound to the turn.
    bob.taps("take_ingredients", "Take", fill={"player": "Bob", "fish": "1"})
    assert table.state["seats"]["Bob"]["ingredients"]["fish"] == 1


def test_only_the_host_hands_the_turn_on_and_it_is_undone_like_a_move(host, phone):
    host.taps("draw_mishap", "lightning")
    host.taps("place_mishap", "2 · Fishmonger")
    host.taps("draw_mishap", "knife")
    host.taps("place_mishap", "3 · Druid")
    host.taps("begin_play", "Ann starts")
    bob = Player(phone("10.0.0.5"), host.code, "Bob")
    assert "hand_turn" not in [kind for kind, _, _ in action_forms(bob.page())]
    response = bob.phone.act(type="hand_turn", player="Bob")
    assert response.status_code == 403
    assert host.phone.snapshot()["state"]["turn"]["player"] == "Ann"

    turn = region(host.page(), "turn")
    assert "Host: hand the turn to" in text(turn)
    host.taps("hand_turn", "Hand over", fill={"player": "Bob"})
    snap = host.phone.snapshot()
    assert snap["state"]["turn"]["player"] == "Bob"
    assert snap["log"][0]["text"] == "The host handed the turn to Bob."
    assert "Bob's turn" in text(region(bob.page(), "turn"))
    assert ("move", False, None) in action_forms(region(bob.page(), "turn"))
    undo = host.phone.post(f"/t/{host.code}/undo", {"expected_version": host.phone.version()},
                           htmx=True)
    assert undo.status_code == 200
    assert host.phone.snapshot()["state"]["turn"]["player"] == "Ann"


def test_the_hosts_hand_over_waits_disabled_while_a_drawn_marker_waits(host):
    for payload in (("lightning", "2 · Fishmonger"), ("knife", "3 · Druid")):
        host.taps("draw_mishap", payload[0])
        host.taps("place_mishap", payload[1])
    host.taps("begin_play", "Ann starts")
    host.taps("advance_roman", "Move the Roman")
    host.taps("draw_mishap", "fist")
    turn = region(host.page(), "turn")
    assert ("hand_turn", True, "Place the drawn fist marker first, then hand the turn on."
            ) in action_forms(turn)
    response = host.phone.act(type="hand_turn", player="Bob")
    assert response.status_code == 422
    host.taps("place_mishap", "5 · Bard's Hut")
    assert ("hand_turn", False, None) in action_forms(region(host.page(), "turn"))


def test_the_board_and_the_supplies_are_the_same_for_every_phone(client, phone):
    """The ring and the supplies read no fact about the phone: one render per table version
    serves every phone (their regions' hashes agree), the turn's controls differ by seat."""
    table = phases(client, phone)["actions"]
    pages = [table.seats["Ann"].page(), table.seats["Bob"].page(),
             Player(phone("10.0.0.4"), table.code).page()]

    def hashes(name):
        return {re.search(rf'id="{name}" data-region="{name}" data-hash="(\w+)"', page).group(1)
                for page in pages}

    assert len(hashes("timeline")) == 1 and len(hashes("village")) == 1
    assert len(hashes("turn")) == 3


# -- German -------------------------------------------------------------------------------------
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


def _german_table(client, phone):
    """Mid-game: Ann (Asterix) walked to the Forest and used it; Bob (Obelix) is on the task
    stack; a task card is face up. Returns the table and Bob's phone (Ann's turn, greyed)."""
    table = Table(client).start()
    table.move("enter_task", **{k: v for k, v in FISH_SOUP.items() if k not in ("title", "reward")})
    table.move("move", location=1)
    table.move("use_location")
    return table, Player(phone("10.0.0.7"), table.code, "Bob")


def _page(player: Player, headers: dict) -> str:
    response = player.phone.get(f"/t/{player.code}", headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_german_phone_reads_the_board_the_log_and_the_reasons_in_german(client, phone):
    table, watcher = _german_table(client, phone)
    german = text(_page(watcher, GERMAN))
    # The board: the German names of the places, characters, ingredients and symbols.
    for words in ("Wald", "Fischhändler", "Höhle des Druiden", "Troubadix' Hütte", "Erdbeerfeld",
                  "Mistelhain", "Felder, bis der Römer zurück in seinem Lager ist",
                  "Aufgabenstapel", "Misteln", "Erdbeeren", "Fische", "Blitz", "Messer",
                  "Ann ist dran", "Ann steht am Ort Wald", "Hinkelsteine gesetzt: 0 von 3",
                  "2 Fische (blau 2)", "1 Mistel (grün 1)", "3 Erdbeeren (rot 3)", "Vorrat",
                  "Teilaufgabe erfüllen", "Gratis-Eingaben", "Römer 1 Feld weiter"):
        assert words in german, words
    # The same log entry, in each phone's language.
    assert "Ann (Asterix) nutzt den Ort Wald." in german
    assert "Ann (Asterix) geht zum Ort Wald." in german
    english = text(_page(watcher, ENGLISH))
    assert "Ann (Asterix) used the Forest." in english and "nutzt den Ort" not in english
    assert "Ann (Asterix) moved to the Forest." in english
    # A refusal: the reason a closed control shows to the player on turn, in German.
    ann = Player(phone("10.0.0.8"), table.code, "Ann")
    assert "Der Ort Wald wurde in diesem Zug schon genutzt." in text(_page(ann, GERMAN))
    assert "The Forest was already used this turn." in text(_page(ann, ENGLISH))
    # Miraculix and Idefix in a German game, Getafix and Dogmatix in an English one.
    assert "Miraculix" in german and "Idefix" in german
    assert "Getafix" in english and "Dogmatix" in english


def test_a_refusal_from_the_page_reads_in_german(client, phone):
    table, _ = _german_table(client, phone)
    ann = Player(phone("10.0.0.8"), table.code, "Ann")
    ann.phone.get(f"/t/{table.code}", headers=GERMAN)
    response = ann.phone.post(f"/t/{table.code}/act", {"type": "use_location",
                              "expected_version": ann.phone.version()}, htmx=True,
                              headers=dict(GERMAN))
    assert "Der Ort Wald wurde in diesem Zug schon genutzt." in text(
        response.get_data(as_text=True))


def test_the_german_page_has_no_english_words_of_the_game_left(client, phone):
    table, watcher = _german_table(client, phone)
    table.move("draw_helpers", player="Ann", count=1)
    german = text(_page(watcher, GERMAN))
    leftovers = ("Getafix", "Dogmatix", "Forest", "Fishmonger", "Druid's Cave", "Bard's Hut",
                 "Mistletoe grove", "Strawberry patch", "mistletoe", "strawberries", " fish ",
                 "knife", "skull", "lightning", " fist", "Task stack", "task stack", "Take",
                 "Supplies", "Free taps", "Move the Roman", "Complete a sub-task", "spaces left",
                 "Menhirs", "draw pile", "helper card", "Pass on", "Use the", "stands at",
                 "actions left", "of 2 left", "one Roman", "The bag", "Mishap", "Potion:",
                 "Reward", "sub-task", "Tasks", "The players", "'s turn", "moved to", "used the")
    for english in leftovers:
        assert english not in german, english


def test_the_german_setup_form_and_setup_steps(client, phone):
    device = phone()
    page = text(device.get(f"/new/{GAME}", headers=GERMAN).get_data(as_text=True))
    for words in ("Mission Zaubertrank!", "Kooperativ", "Herausforderung: eine Aufgabenkarte mehr",
                  "Karte 1: Name", "Karte 2: Felder der Zeitleiste", "Karte 1: Unheilsymbol 1",
                  "eine kleine Patrouille", "Cäsars Armee", "Totenkopf"):
        assert words in page, words
    table = Table(client)
    watcher = Player(phone("10.0.0.9"), table.code, "Ann")
    setup = text(_page(watcher, GERMAN))
    for words in ("Aufbau", "Charaktere", "Startorte", "Startzutaten", "Wer fängt an?",
                  "Start-Unheilmarker: 0 von 2 abgelegt", "Zieh einen Unheilmarker"):
        assert words in setup, words
    table.move("draw_mishap", symbol="skull")
    assert "Ein Totenkopf-Marker kam aus dem Beutel." in text(_page(watcher, GERMAN))


# -- teaching mode: each player's own choices, and a marked control within reach ----------------
class Reach(HTMLParser):
    """Every action form of a page with the menus around it: for each, whether its controls
    are disabled and the chain of ``<details>`` it sits in (open or not, with a summary)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._details: list[dict] = []
        self._form = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "details":
            self._details.append({"open": "open" in attrs, "summary": False})
        elif tag == "summary" and self._details:
            self._details[-1]["summary"] = True
        elif tag == "form" and "data-action" in attrs:
            self._form = {"action": attrs["data-action"], "disabled": False, "player": None,
                          "menus": [dict(d) for d in self._details]}
        elif self._form is not None and tag == "fieldset" and "disabled" in attrs:
            self._form["disabled"] = True
        elif self._form is not None and tag == "input" and attrs.get("name") == "player":
            self._form["player"] = attrs.get("value")

    def handle_endtag(self, tag):
        if tag == "details" and self._details:
            self._details.pop()
        elif tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None

    def usable(self, action: str) -> list[dict]:
        return [f for f in self.forms if f["action"] == action and not f["disabled"]]


def marked_within_reach(html: str) -> list[dict]:
    """The forms the coach card marks on this page; each must be in view or behind one
    menu opener (a ``<summary>``), never deeper."""
    control = re.search(r'<section id="coach"[^>]*data-control="([^"]*)"', html).group(1)
    forms = Reach(html).usable(control) if control else []
    for form in forms:
        closed = [menu for menu in form["menus"] if not menu["open"]]
        assert all(menu["summary"] for menu in form["menus"]), form
        assert len(closed) <= 1, form
    return forms


def coached_table(phone):
    """A coached table set up by the host's phone without a seat; Ann's and Bob's phones."""
    host = phone()
    code = host.start(game=GAME, players=("Ann", "Bob"), me="host", coach="1")
    ann, bob = Player(phone("10.0.0.3"), code, "Ann"), Player(phone("10.0.0.4"), code, "Bob")
    return Player(host), ann, bob


def test_each_player_sets_up_their_own_character_place_and_stock_on_their_phone(phone):
    host, ann, bob = coached_table(phone)
    host.phone.act(type="enter_task", **ONE_MISTLETOE_EACH)
    page = ann.page()
    assert 'id="zt-setup-characters" data-dock-stays open' in page  # the step the table is at lies open
    forms = marked_within_reach(page)
    assert [(f["action"], f["player"]) for f in forms] == [("choose_character", "Ann")]
    assert "Bob chooses on their own phone." in text(region(page, "turn"))
    # Another player's choice is refused from Ann's phone, and changes nothing.
    refused = ann.phone.act(type="choose_character", player="Bob", character="getafix")
    assert refused.status_code == 422
    assert refused.get_data(as_text=True) == "Bob chooses that on their own phone."
    ann.taps("choose_character", "Getafix", where={"player": "Ann"})
    page = ann.page()
    assert marked_within_reach(page) == []  # Ann has chosen: nothing of hers is marked now
    assert "You play Getafix; undo your choice to change it." in text(region(page, "turn"))
    bob_forms = marked_within_reach(bob.page())
    assert [(f["action"], f["player"]) for f in bob_forms] == [("choose_character", "Bob")]
    # The host's phone without a seat sets up for anyone who has not chosen yet.
    host_forms = Reach(host.page()).usable("choose_character")
    assert [f["player"] for f in host_forms] == ["Bob"]
    assert "✓ Ann plays Getafix" in text(region(host.page(), "turn"))
    bob.taps("choose_character", "Obelix", where={"player": "Bob"})
    # Start places: each figure stands on its character's usual start, shown as a guess.
    page = ann.page()
    assert 'id="zt-setup-places" data-dock-stays open' in page
    assert [f["player"] for f in marked_within_reach(page)] == ["Ann"]
    _form, guess = Forms(page).find("place_figure", "3 · Druid", player="Ann")
    assert guess["text"] == "3 · Druid's Cave (guess)"
    ann.taps("place_figure", "3 · Druid", where={"player": "Ann"})
    bob.taps("place_figure", "2 · Fish", where={"player": "Bob"})
    seats = host.phone.snapshot()["state"]["seats"]
    assert (seats["Ann"]["location"], seats["Bob"]["location"]) == (3, 2)
    # Starting ingredients: each phone enters its own, in the opened menu.
    page = ann.page()
    assert 'id="zt-setup-take" data-dock-stays open' in page
    assert [f["player"] for f in marked_within_reach(page)] == ["Ann"]
    assert "Bob takes theirs on their own phone." in text(region(page, "turn"))
    ann.taps("take_ingredients", "Take", fill={"fish": "2"})
    assert host.phone.snapshot()["state"]["seats"]["Ann"]["ingredients"]["fish"] == 2


def test_after_using_a_location_its_gain_is_entered_right_under_the_button(phone, client):
    host, ann, bob = coached_table(phone)
    payloads = [{"type": "enter_task", **ONE_MISTLETOE_EACH}]
    for name, character, place in (("Ann", "asterix", 6), ("Bob", "obelix", None)):
        payloads += [{"type": "choose_character", "player": name, "character": character},
                     {"type": "place_figure", "player": name, "location": place},
                     {"type": "take_ingredients", "player": name, "fish": 1}]
    for payload in payloads + OPENING + [{"type": "begin_play"}]:
        assert host.phone.act(**payload).status_code == 200, payload
    ann.taps("use_location", "Use the Strawberry patch")
    page = ann.page()
    forms = marked_within_reach(page)
    assert forms and all(f["action"] == "take_ingredients" for f in forms)
    # One of them lies open under the button just tapped, in no menu.
    assert any(not f["menus"] for f in forms)
    gain = region(page, "turn")
    gain = gain[gain.index('id="zt-gain"'):]
    assert "What the Strawberry patch gives: strawberries" in text(gain)
    # Bob's phone waits: nothing there is marked, and it says why.
    page = bob.page()
    assert marked_within_reach(page) == []
    assert "Ann is entering what the Strawberry patch gave" in text(region(page, "turn"))
    ann.taps("take_ingredients", "Take", fill={"strawberries": "2"})
    state = host.phone.snapshot()["state"]
    assert state["turn"]["gain"] is None
    assert state["seats"]["Ann"]["ingredients"]["strawberries"] == 2
    assert 'id="zt-gain"' not in ann.page()


def test_the_german_coach_card_reads_naturally(phone):
    host, ann, _bob = coached_table(phone)
    for payload in [{"type": "enter_task", **ONE_MISTLETOE_EACH}]:
        host.phone.act(**payload)
    for name in ("Ann", "Bob"):
        host.phone.act(type="choose_character", player=name,
                       character="asterix" if name == "Ann" else "obelix")
        host.phone.act(type="place_figure", player=name)
        host.phone.act(type="take_ingredients", player=name, fish=1)
    for payload in OPENING:
        host.phone.act(**payload)
    card = text(_page(ann, GERMAN))
    card = card[card.index("Alle:"):]
    assert "Ihr könnt euch nicht einigen? Ann sitzt auf dem ersten Platz." in card
    assert "Zuerst steht" not in card and "Companion" not in card
