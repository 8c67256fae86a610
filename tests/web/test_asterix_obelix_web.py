"""Asterix & Obelix on the phones: the JSON API game, the board page, its regions and the quick score."""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.games import get_game
from tests.conftest import ApiTable, bearer
from tests.pages import region

GAME = "asterix-obelix"
HELP_SECTIONS = {"turn", "setup", "attack", "soldiers", "pirates", "traitor", "wild-boar", "village-feast",
                 "looking", "failed-attack", "formation-broken", "end-of-attack", "blocking", "end-of-game",
                 "scoring", "tie-breaks", "card-counting"}


def text(response):
    return unescape(response.get_data(as_text=True))


def offered(html: str) -> set[str]:
    """The action types the board offers: forms that can be sent now. A form shown disabled
    with the reason why (not now) is not offered."""
    board = region(html, "board")
    return {kind for kind, body in re.findall(r'<form[^>]*data-action="(\w+)"[^>]*>(.*?)</form>', board, re.S)
            if '<p class="why-not">' not in body}


def offered_lines(html: str, action: str) -> set[tuple[str, int, str]]:
    """(line, number, start) of every arrow the board offers for ``action``."""
    arrows = set()
    for form in re.findall(rf'data-action="{action}".*?</fieldset>', region(html, "board"), re.S):
        line = re.search(r'name="line" value="(\w+)"', form).group(1)
        number = int(re.search(r'name="number" value="(\d)"', form).group(1))
        for start in re.findall(r'name="start" value="(\w+)"', form):
            arrows.add((line, number, start))
    return arrows


def helps(html: str) -> set[str]:
    return set(re.findall(r'href="/rules/asterix-obelix#([\w-]+)"', html))


def api_game(client, host, options: dict | None = None) -> ApiTable:
    """A table started on ``host``'s phone (which may make every move, so its page offers
    them; ``options``: its set-up form's fields), a phone at each seat through the JSON API."""
    table = ApiTable(client, GAME, ("Ann", "Ben"), options, host=host)
    table.join("Ann", "Ben")
    return table


def shown(table: ApiTable) -> str:
    """The table's page on its host's phone, entities decoded."""
    return unescape(table.page())


def a(action_type: str, **fields) -> dict:
    return {"type": action_type, **fields}


def line(which: str, number: int, start: str | None = None) -> dict:
    return a("choose_line", line=which, number=number, **({"start": start} if start else {}))


def leg(colour: str) -> dict:
    return a("reveal_card", kind="legionary", colour=colour)


def cent(colour: str) -> dict:
    return a("reveal_card", kind="centurion", colour=colour)


def card(kind: str) -> dict:
    return a("reveal_card", kind=kind)


END, SKIP, FAIL = a("end_attack"), a("skip_block"), a("no_matching_card")
BEAT = a("beat_card", beaten=True)


@pytest.fixture
def table(client, phone):
    return api_game(client, phone())


# -- a whole game through the JSON API ------------------------------------------------------
def test_a_whole_game_through_the_api_from_setup_to_the_fifth_feast(table):
    t = table
    seen_helps = set()

    html = shown(t)
    assert "Who attacks first?" in html and "put the pile with 2 feasts on top" in html
    assert offered(html) == {"start_game"}
    seen_helps |= helps(html)
    assert t.refused(line("row", 1), by="Ann") == "Not now: Finish the setup first, then tap who attacks first."

    t.move("start_game", by="Ann", starter="Ann")
    html = shown(t)
    assert len(offered_lines(html, "choose_line")) == 16  # every row and column from both ends
    seen_helps |= helps(html)

    # 1 Ann: two reds, then blocks row 2 for Ben.
    t.moves(line("row", 1), leg("red"), leg("red"), END, by="Ann")
    html = shown(t)
    assert offered(html) >= {"block_line", "skip_block"}
    seen_helps |= helps(html)
    snap = t.move("block_line", by="Ann", line="row", number=2)
    assert snap["state"]["secured"]["Ann"]["legionaries"]["red"] == 2
    assert snap["status"] == "Ben's attack: choose a row or column (row 2 is blocked) · feasts 0/5"
    assert t.refused(line("row", 2), by="Ben") == "Row 2 is blocked for Ben's attack; choose another line."
    html = shown(t)
    assert not any(entry[:2] == ("row", 2) for entry in offered_lines(html, "choose_line"))
    assert "Row 2 is blocked for Ben's next attack." in html

    # 2 Ben: a blue legionary, a feast and the blue centurion.
    t.moves(line("row", 3, "right"), leg("blue"), card("feast"), cent("blue"), END, SKIP, by="Ben")
    # 3 Ann: pirate and traitor, then a yellow she cannot beat.
    t.moves(line("column", 1), card("pirate"), card("traitor"), leg("yellow"), by="Ann")
    html = shown(t)
    assert {"beat_card", "end_attack", "reveal_card"} <= offered(html)
    seen_helps |= helps(html)
    t.moves(FAIL, a("block_line", line="column", number=4), by="Ann")
    # 4 Ben: breaks the formation on row 4, then column 1 from the bottom (3 cards, one known).
    t.moves(line("row", 4), leg("green"), leg("green"), cent("green"), leg("purple"), BEAT, by="Ben")
    html = shown(t)
    assert "further_attack" in offered(html) and "Formation broken!" in html
    seen_helps |= helps(html)
    t.move(a("further_attack", line="column", number=1, start="bottom"), by="Ben")
    html = shown(t)
    assert "It is the known card: yellow legionary" in html
    t.moves(a("reveal_card"), card("pirate"), card("feast"), END, a("block_line", line="row", number=4),
            by="Ben")
    # 5 Ann: the wild boar at once.
    t.moves(line("row", 2), card("boar"), SKIP, by="Ann")
    # 6 Ben: a feast and a red.
    t.moves(line("row", 1), card("feast"), leg("red"), END, a("block_line", line="column", number=2),
            by="Ben")
    # 7 Ann: looks at the last card first.
    t.move(line("column", 3), by="Ann")
    html = shown(t)
    assert "look_at_last_card" in offered(html)
    seen_helps |= helps(html)
    t.moves(a("look_at_last_card"), leg("red"), cent("red"), card("pirate"), END, SKIP, by="Ann")
    # 8 Ben: the fourth feast and a yellow.
    t.moves(line("row", 2), card("feast"), leg("yellow"), END, SKIP, by="Ben")
    # 9 Ann: two purples and the fifth feast.
    t.moves(line("row", 3), leg("purple"), leg("purple"), by="Ann")
    assert "4/5" in shown(t)
    snap = t.move(card("feast"), by="Ann")

    assert snap["finished"] is True
    assert snap["winners"] == ["Ben"]
    assert snap["scores"] == {"Ann": 2, "Ben": 3}
    assert snap["status"] == "Game over after the fifth feast: Ben wins with 3 tokens to 2."
    assert snap["log"][0]["text"] == ("Ann turned over the fifth village feast: the game is over and Ann "
                                      "keeps 2 defeated cards of this attack.")
    assert t.refused(line("row", 1), by="Ben") == "The game is over; only a secured pile can still be corrected."

    html = shown(t)
    seen_helps |= helps(html)
    scoring = region(html, "scoring")
    assert "Final scoring, token by token" in scoring
    for sentence in ("Traitor: nobody secured the traitor, so nobody takes his token.",
                     "Pirates: Ann and Ben have 1 pirate each, a tie, so nobody takes the pirate token.",
                     "Red: Ann has 4 cards to Ben's 1 and takes the red token.",
                     "Green: Ben has 3 cards to Ann's 0 and takes the green token.",
                     "Ben wins with 3 tokens to 2."):
        assert sentence in scoring
    assert "🏆 Ben wins!" in region(html, "status")
    assert offered(html) == set()  # the board offers nothing once the game is over
    assert "5/5" in region(html, "board")
    # Cards out of the game are listed with the card counting (they are seen cards).
    out = region(html, "odds")
    assert "Out of the game (3)" in out and "wild boar" in out and "(failed attack, Ann)" in out
    assert seen_helps == HELP_SECTIONS  # every rule a control depends on has its "?"


def test_every_help_section_exists_in_the_rules(client, phone):
    for section in sorted(HELP_SECTIONS):
        response = client.get(f"/rules/{GAME}/{section}", headers={"HX-Request": "true"})
        assert response.status_code == 200, section
    assert helps(text(phone().get(f"/games/{GAME}/score"))) <= HELP_SECTIONS


def test_the_game_over_board_points_to_the_end_of_game_rule(table):
    t = table
    t.move("start_game", by="Ann", starter="Ann")
    t.move("correct_feasts", by="Ann", count=4, reason="feasts laid out before we started tracking")
    t.moves(line("row", 1), leg("blue"), card("feast"), by="Ann")
    html = shown(t)
    assert "end-of-game" in helps(region(html, "board"))
    assert "the fifth village feast was turned over" in html


# -- the page: regions, offered controls, refusals ---------------------------------------------
def test_every_region_renders_alone_exactly_as_in_the_page(phone):
    host = phone()
    code = host.start(game=GAME)
    for step in ({"type": "start_game", "starter": "Ben"}, {"type": "choose_line", "line": "column", "number": 2},
                 {"type": "reveal_card", "kind": "centurion", "colour": "yellow"}):
        assert host.act(**step).status_code == 200
        page = text(host.get(f"/t/{code}"))
        in_page = dict(re.findall(r'<section id="(\w+)" data-region="\w+" data-hash="(\w+)"', page))
        live = host.get(f"/t/{code}/live?v=0", headers={"HX-Request": "true"})
        assert live.status_code == 200
        alone = dict(re.findall(r'<section id="(\w+)" data-region="\w+" data-hash="(\w+)" hx-swap-oob',
                                text(live)))
        for name in ("board", "piles", "odds", "scoring", "fix"):
            assert alone[name] == in_page[name], name


HOST = {"hand_turn"}  # the host's phone can also hand the turn to the other player


def test_the_board_offers_only_what_the_rules_allow(phone):
    host = phone()
    code = host.start(game=GAME)
    html = text(host.get(f"/t/{code}"))
    assert offered(html) == {"start_game"}  # nobody has the turn yet: nothing to hand on
    assert 'hidden' in re.search(r'<section id="odds"[^>]*>', html).group(0)  # nothing to count yet

    host.act(type="start_game", starter="Ann")
    html = text(host.get(f"/t/{code}"))
    assert offered(html) == {"choose_line", *HOST}
    assert ("row", 3, "right") in offered_lines(html, "choose_line")
    assert ("column", 2, "bottom") in offered_lines(html, "choose_line")

    host.act(type="choose_line", line="row", number=1, start="right")
    html = text(host.get(f"/t/{code}"))
    assert offered(html) == {"look_at_last_card", "reveal_card", *HOST}
    assert "Turn the next card (row 1, column 4): what is it?" in html
    # Ending the attack sits under the formation from the start, disabled until a card is beaten.
    end = forms(html)["end_attack"][0]
    assert "<fieldset disabled>" in end and "Turn over the first card of row 1 before ending the attack." in end

    host.act(type="reveal_card", kind="legionary", colour="green")
    html = text(host.get(f"/t/{code}"))
    assert offered(html) == {"reveal_card", "end_attack", "beat_card", *HOST}
    assert "Beaten <small>(a green fight card discarded)</small>" in html
    assert "The attack fails <small>(no matching fight card)</small>" in html
    assert "End attack and secure 1 card" in html

    host.act(type="reveal_card", kind="feast")
    html = text(host.get(f"/t/{code}"))
    assert offered(html) == {"reveal_card", "end_attack", *HOST}  # a feast needs no fight card
    assert "1/5" in region(html, "board") and "1 feast this attack" in html

    host.act(type="reveal_card", kind="boar")
    html = text(host.get(f"/t/{code}"))
    assert offered(html) == {"block_line", "skip_block", *HOST}
    assert region(html, "odds").count("(wild boar, Ann)") == 1
    # The boar is gone: on the next attack its button is shown but cannot be tapped.
    host.act(type="skip_block")
    host.act(type="choose_line", line="row", number=2)
    board = region(text(host.get(f"/t/{code}")), "board")
    assert re.search(r'value="boar" class="kind-boar ao-seen-all" disabled', board)
    assert re.search(r'value="pirate" class="kind-pirate"\s*>', board)


def test_one_tap_cards_post_what_the_model_expects_and_refusals_come_back_as_sentences(phone):
    host = phone()
    code = host.start(game=GAME)
    host.act(type="start_game", starter="Ann")
    host.act(type="choose_line", line="row", number=1)
    html = text(host.get(f"/t/{code}"))
    form = re.search(r'<form[^>]*class="action ao-reveal-colour">.*?</form>', html, re.S).group(0)
    assert 'name="colour" value="red"' in form and 'name="kind" value="legionary"' in form
    refused = host.act(type="end_attack")
    assert refused.status_code == 422
    assert text(refused) == "Turn over the first card of row 1 before ending the attack."
    refused = host.act(type="reveal_card", kind="legionary")
    assert refused.status_code == 422 and "Say which colour the legionary is" in text(refused)
    assert host.act(type="reveal_card", kind="legionary", colour="red").status_code == 200
    assert host.snapshot()["state"]["grid"][0][0]["card"] == {"kind": "legionary", "colour": "red"}


def test_watchers_see_the_board_but_cannot_tap(phone):
    host = phone()
    code = host.start(game=GAME)
    host.act(type="start_game", starter="Ann")
    watcher = phone("10.0.0.8")
    watcher.join(code)
    html = text(watcher.get(f"/t/{code}"))
    assert "Ann" in region(html, "board") and "attacks" in region(html, "board")
    assert "<button" not in region(html, "board") and "<form" not in region(html, "board")
    assert watcher.act(type="choose_line", line="row", number=1).status_code == 403


def test_colours_carry_their_name_and_letter_everywhere(phone):
    host = phone()
    code = host.start(game=GAME)
    host.act(type="start_game", starter="Ann")
    host.act(type="choose_line", line="row", number=1)
    host.act(type="reveal_card", kind="centurion", colour="purple")
    html = text(host.get(f"/t/{code}"))
    board, piles, odds = region(html, "board"), region(html, "piles"), region(html, "odds")
    for colour, letter in (("red", "R"), ("blue", "B"), ("yellow", "Y"), ("green", "G"), ("purple", "P")):
        chip = f'<span class="ao-chip col-{colour}"><b>{letter}</b> {colour.capitalize()}</span>'
        assert chip in board and chip in piles and chip in odds
    assert 'aria-label="Row 1, column 1: defeated: purple centurion' in board
    assert "<b>P</b><small>cent.</small>" in board


# -- failed attack, undo, formation broken ------------------------------------------------------
def test_a_failed_attack_loses_the_catch_and_turns_the_card_back(table):
    t = table
    t.move("start_game", by="Ann", starter="Ann")
    snap = t.moves(line("row", 1), leg("red"), leg("blue"), card("feast"), leg("yellow"), FAIL, by="Ann")
    state = snap["state"]
    assert [entry["card"] for entry in state["out_of_game"]] == [
        {"kind": "legionary", "colour": "red"}, {"kind": "legionary", "colour": "blue"}]
    assert state["secured"]["Ann"]["legionaries"] == {c: 0 for c in ("red", "blue", "yellow", "green", "purple")}
    assert state["feasts_set_aside"] == 1 and state["supply"] == 21
    assert snap["log"][0]["text"] == (
        "Ann had no fight card for a yellow legionary: the attack failed and the card went back face "
        "down; 2 defeated cards left the game. 3 supply cards refilled the formation (21 left).")
    html = shown(t)
    out = region(html, "odds")
    assert "Out of the game (2)" in out and out.count("(failed attack, Ann)") == 2
    board = region(html, "board")
    assert "face down: yellow legionary" in board and "Y leg." in board
    assert "Supply: <strong>21</strong>" in board
    odds = region(html, "odds")
    assert "Still unseen: <strong>36</strong> of 40" in odds and "4/36" in odds  # 4 feasts of 36


def test_undo_in_the_middle_of_an_attack(table):
    t = table
    t.move("start_game", by="Ann", starter="Ann")
    t.moves(line("row", 1), leg("red"), leg("blue"), by="Ann")
    snap = t.undo("Ben")
    attack = snap["state"]["attack"]
    assert attack["revealed_in_line"] == 1 and snap["state"]["grid"][0][1] == {"state": "down", "card": None}
    html = shown(t)
    # Back to the red legionary just turned, waiting for its fight card.
    assert "beaten so far: 1" in html and "Red legionary: beat it (discard a red fight card)" in html
    assert "↶ Undo" in html
    snap = t.redo("Ann")
    assert snap["state"]["attack"]["revealed_in_line"] == 2
    snap = t.undo("Ann")
    snap = t.moves(leg("green"), END, by="Ann")
    assert snap["state"]["secured"]["Ann"]["legionaries"]["green"] == 1
    assert snap["state"]["secured"]["Ann"]["legionaries"]["blue"] == 0


def test_undo_from_the_page_in_the_middle_of_an_attack(phone):
    host = phone()
    code = host.start(game=GAME)
    for step in ({"type": "start_game", "starter": "Ann"}, {"type": "choose_line", "line": "row", "number": 2},
                 {"type": "reveal_card", "kind": "pirate"}, {"type": "reveal_card", "kind": "traitor"}):
        host.act(**step)
    response = host.post(f"/t/{code}/undo", {"expected_version": host.version()}, htmx=True)
    assert response.status_code == 200
    board = region(text(response), "board")
    assert "beaten so far: 1" in board and "Pirate: beat it (discard any fight card)" in board


FULL_ROW = (leg("red"), leg("blue"), cent("red"), card("pirate"))


def test_breaking_the_formation_offers_a_further_attack_on_the_other_lines(table):
    t = table
    t.move("start_game", by="Ann", starter="Ann")
    t.moves(line("row", 1), *FULL_ROW, by="Ann")
    # The fourth card waits to be beaten: the arrows of a further attack come after that.
    assert offered_lines(shown(t), "further_attack") == set()
    t.move(BEAT, by="Ann")
    html = shown(t)
    arrows = offered_lines(html, "further_attack")
    assert ("column", 3, "bottom") in arrows and not any(entry[:2] == ("row", 1) for entry in arrows)
    assert "reveal_card" not in offered(html)
    snap = t.move(a("further_attack", line="column", number=3, start="bottom"), by="Ann")
    assert snap["state"]["attack"]["attacks_this_turn"] == 2
    assert snap["log"][0]["text"] == ("Ann broke the formation and took a further attack on column 3 "
                                      "from the bottom with a full hand.")


def test_no_further_attack_when_the_boar_is_the_fourth_card(table):
    t = table
    t.move("start_game", by="Ann", starter="Ann")
    snap = t.moves(line("row", 1), leg("red"), leg("blue"), card("pirate"), card("boar"), by="Ann")
    assert snap["state"]["phase"] == "block" and snap["state"]["secured"]["Ann"]["pirates"] == 1
    assert "Ann is in the middle" not in t.refused(a("further_attack", line="row", number=2), by="Ann")
    html = shown(t)
    assert "Formation broken!" not in html and "further_attack" not in offered(html)


def test_no_further_attack_after_a_short_line(table):
    t = table
    t.move("start_game", by="Ann", starter="Ann")
    t.moves(line("row", 1), *FULL_ROW, a("further_attack", line="column", number=1), leg("green"),
            leg("green"), leg("yellow"), BEAT, by="Ann")
    message = t.refused(a("further_attack", line="row", number=2), by="Ann")
    assert message == ("The line had fewer than four face-down cards when the attack on it began, "
                       "so the formation is not broken.")
    html = shown(t)
    assert "Every card of column 1 is turned" in html and "further_attack" not in offered(html)
    assert "this line had fewer than 4 face-down cards" in html


def test_no_further_attack_once_the_supply_cannot_refill_and_the_last_cards_fill_holes(client, phone):
    t = api_game(client, phone(), {"blocking__present": "1"})  # the box left unticked
    t.move("start_game", by="Ann", starter="Ann")
    colours = ["red", "blue", "yellow", "green", "purple"]
    pool = [leg(c) for c in colours for _ in range(4)] + [leg(c) for c in colours]
    who = "Ann"
    for number in range(5):
        t.moves(line("row", number % 4 + 1), *pool[:4], END, by=who)
        pool = pool[4:]
        who = "Ben" if who == "Ann" else "Ann"
    snap = t.moves(line("row", 2), pool.pop(0), END, by=who)
    assert snap["state"]["supply"] == 3
    who = "Ben" if who == "Ann" else "Ann"
    t.moves(line("row", 3), cent("red"), cent("blue"), cent("yellow"), cent("green"), by=who)
    assert "can no longer fill every hole" in t.refused(a("further_attack", line="row", number=1), by=who)
    assert "further_attack" not in offered(shown(t))
    t.move(END, by=who)
    html = shown(t)
    assert offered(html) - {"hand_turn"} == {"fill_hole"}  # the host's own correction aside
    assert len(re.findall(r'aria-label="Put a supply card into row 3, column \d"', html)) == 4
    assert "the supply has only 3 cards for 4 holes" in html
    assert t.refused("fill_hole", by=who, row=1, column=1) == (
        "Row 1, column 1 is not a hole; pick an empty place.")
    snap = t.moves(a("fill_hole", row=3, column=1), a("fill_hole", row=3, column=2),
                   a("fill_hole", row=3, column=4), by=who)
    assert snap["state"]["supply"] == 0 and snap["state"]["phase"] == "choose_line"
    assert "Supply: <strong>0</strong>" in shown(t)


# -- corrections -------------------------------------------------------------------------------------
def test_corrections_are_logged_with_their_reason_and_undoable(phone):
    host = phone()
    code = host.start(game=GAME)
    for step in ({"type": "start_game", "starter": "Ann"}, {"type": "choose_line", "line": "row", "number": 1},
                 {"type": "reveal_card", "kind": "legionary", "colour": "red"}, {"type": "end_attack"},
                 {"type": "skip_block"}):
        host.act(**step)
    html = text(host.get(f"/t/{code}"))
    fix = region(html, "fix")
    assert 'value="correct_pile"' in fix and 'value="correct_feasts"' in fix and 'name="reason"' in fix

    missing = host.act(type="correct_pile", player="Ann", item="legionary", colour="red", count="0")
    assert missing.status_code == 422 and text(missing) == "The field 'reason' is missing."
    response = host.act(type="correct_pile", player="Ann", item="legionary", colour="blue", count="1",
                        reason="it was blue, not red")
    assert response.status_code == 200
    host.act(type="correct_pile", player="Ann", item="legionary", colour="red", count="0",
             reason="it was blue, not red")
    html = text(host.get(f"/t/{code}"))
    assert ("The host corrected Ann's red legionaries from 1 to 0 (reason: it was blue, not red)."
            in region(html, "history"))
    assert host.snapshot()["state"]["secured"]["Ann"]["legionaries"]["blue"] == 1

    host.act(type="correct_feasts", count="2", reason="two feasts were missed")
    board = region(text(host.get(f"/t/{code}")), "board")
    assert "2/5" in board
    assert host.post(f"/t/{code}/undo", {"expected_version": host.version()}, htmx=True).status_code == 200
    assert "0/5" in region(text(host.get(f"/t/{code}")), "board")
    assert host.snapshot()["state"]["feasts_set_aside"] == 0


# -- quick score: the page and the JSON -------------------------------------------------------------
ISSUE_EXAMPLE = {"players": [
    {"name": "Ann", "legionaries": {"red": 3, "blue": 0, "yellow": 1, "green": 2, "purple": 0},
     "centurions": ["red"], "pirates": 2, "traitor": False},
    {"name": "Ben", "legionaries": {"yellow": 1, "black": 1}, "centurions": [], "pirates": 1, "traitor": True},
]}


def test_quick_score_json(client):
    response = client.post(f"/api/games/{GAME}/score", json=ISSUE_EXAMPLE)
    assert response.status_code == 200
    result = response.get_json()
    assert result["tokens"] == {"traitor": "Ben", "pirates": "Ann", "red": "Ann", "blue": None,
                                "yellow": None, "green": "Ann", "purple": "Ben"}
    assert result["points"] == {"Ann": 3, "Ben": 2} and result["winners"] == ["Ann"]
    assert result["explanation"][0] == "Traitor: Ben secured the traitor and takes his token."
    assert len(result["explanation"]) == 7
    shared = client.post(f"/api/games/{GAME}/score", json={"players": [
        {"name": "Ann", "legionaries": {"red": 1}}, {"name": "Ben", "legionaries": {"green": 1}}]}).get_json()
    assert shared["winners"] == ["Ann", "Ben"]


def pair(ann: dict, ben: dict | None = None) -> dict:
    return {"players": [{"name": "Ann", **ann}, {"name": "Ben", **(ben or {})}]}


@pytest.mark.parametrize(("payload", "sentence"), [
    ({"players": [{"name": "Ann"}]}, "Asterix & Obelix is scored for exactly two players, not 1."),
    (pair({"legionaries": {"red": -1}}), "Ann cannot have a negative number of red legionaries (-1)."),
    (pair({"pirates": -1}), "Ann cannot have a negative number of pirates (-1)."),
    (pair({"legionaries": {"blue": 4}}, {"legionaries": {"blue": 2}}),
     "There are only 5 blue legionaries, but the piles hold 6 between them."),
    (pair({"centurions": ["green"]}, {"centurions": ["green"]}),
     "There is only one green centurion, but both Ann and Ben list it."),
    (pair({"pirates": 2}, {"pirates": 2}), "There are only 3 pirates, but the piles hold 4 between them."),
    (pair({"traitor": True}, {"traitor": True}), "There is only one traitor, but both Ann and Ben claim him."),
    (pair({"legionaries": {"orange": 1}}),
     "'orange' is not a legion colour; use red, blue, yellow, green or purple (black is purple)."),
])
def test_quick_score_json_refuses_impossible_piles(client, payload, sentence):
    response = client.post(f"/api/games/{GAME}/score", json=payload)
    assert response.status_code == 422
    assert response.get_json() == {"error": sentence, "kind": "invalid"}


def test_quick_score_page(phone):
    scorer = phone()
    page = text(scorer.get(f"/games/{GAME}/score"))
    for field in ("name_1", "name_2", "legionaries_1_red", "legionaries_2_purple", "pirates_2", "traitor_1"):
        assert f'name="{field}"' in page
    assert page.count('name="centurion_1"') == 5
    form = {"name_1": "Ann", "legionaries_1_red": "3", "legionaries_1_yellow": "1", "legionaries_1_green": "2",
            "centurion_1": ["red"], "pirates_1": "2",
            "name_2": "Ben", "legionaries_2_yellow": "1", "legionaries_2_purple": "1", "pirates_2": "1",
            "traitor_2": "1"}
    response = scorer.post(f"/games/{GAME}/score", form)
    html = text(response)
    assert response.status_code == 200
    assert "Traitor: Ben secured the traitor and takes his token." in html
    assert ("Yellow: Ann and Ben have 1 card each and nobody holds the yellow centurion, "
            "so nobody takes the yellow token.") in html
    assert "🏆 Ann wins!" in html
    assert 'value="3"' in html and re.search(r'name="centurion_1" value="red" checked', html)


@pytest.mark.parametrize(("form", "sentence"), [
    ({"name_1": "Ann", "name_2": "Ben", "pirates_1": "2", "pirates_2": "2"},
     "There are only 3 pirates, but the piles hold 4 between them."),
    ({"name_1": "Ann", "name_2": "Ben", "legionaries_1_red": "many"},
     "The number of Ann's red legionaries must be a whole number, not 'many'."),
    ({"name_1": "Ann", "name_2": "Ben", "centurion_1": ["blue"], "centurion_2": ["blue"]},
     "There is only one blue centurion, but both Ann and Ben list it."),
    ({"name_1": "Ann", "name_2": "Ann"}, "The two players need different names."),
])
def test_quick_score_page_refuses_impossible_piles(phone, form, sentence):
    response = phone().post(f"/games/{GAME}/score", form)
    assert response.status_code == 422
    assert sentence in text(response)


def test_quick_score_page_names_blank_players(phone):
    html = text(phone().post(f"/games/{GAME}/score", {"legionaries_2_red": "1"}))
    assert "Red: Player 2 has 1 card to Player 1's 0 and takes the red token." in html


# -- turns, the host's hand-over and controls disabled with their reason ---------------------------
def seated(phone, code: str, seat: str, address: str):
    player = phone(address)
    assert player.join(code, seat).status_code == 303
    return player


def forms(html: str) -> dict[str, list[str]]:
    """Every action form of the page (type -> the forms' inner HTML), phone regions left out."""
    found: dict[str, list[str]] = {}
    for kind, body in re.findall(r'<form[^>]*data-action="(\w+)"[^>]*>(.*?)</form>', html, re.S):
        found.setdefault(kind, []).append(body)
    return found


def test_a_seated_phone_waits_on_the_other_players_turn(phone):
    host = phone()
    code = host.start(game=GAME)
    ann, ben = seated(phone, code, "Ann", "10.0.0.3"), seated(phone, code, "Ben", "10.0.0.4")
    assert ann.act(type="start_game", starter="Ann").status_code == 200
    refused = ben.act(type="choose_line", line="row", number=1)
    assert refused.status_code == 422 and text(refused) == "It is Ann's turn."
    board = region(text(ben.get(f"/t/{code}")), "board")
    assert "<strong>It is Ann's turn.</strong> Every tap Ann makes shows up here." in board
    # Ben sees Ann's 16 arrows, every one disabled with the reason; Ann's are live.
    assert len(offered_lines(text(ben.get(f"/t/{code}")), "choose_line")) == 16
    bens = forms(text(ben.get(f"/t/{code}")))["choose_line"]
    assert all("<fieldset disabled>" in body and "It is Ann's turn." in body for body in bens)
    assert len(offered_lines(text(ann.get(f"/t/{code}")), "choose_line")) == 16
    assert not any("disabled" in body for body in forms(text(ann.get(f"/t/{code}")))["choose_line"])
    assert "It is Ann's turn" not in region(text(ann.get(f"/t/{code}")), "board")
    assert ann.act(type="choose_line", line="row", number=1).status_code == 200
    # A correction is nobody's turn: Ben's phone may fix a pile during Ann's attack.
    assert ben.act(type="correct_pile", player="Ben", item="pirate", count="1", reason="an old pirate").status_code == 200


def test_the_host_hands_the_turn_to_the_other_player(phone):
    host = phone()
    code = host.start(game=GAME)
    ann, ben = seated(phone, code, "Ann", "10.0.0.3"), seated(phone, code, "Ben", "10.0.0.4")
    assert "hand_turn" not in forms(text(host.get(f"/t/{code}")))  # nobody has the turn during setup
    host.act(type="start_game", starter="Ann")
    board = region(text(host.get(f"/t/{code}")), "board")
    assert re.search(r'name="player" value="Ben">Hand the turn to Ben</button>', board)
    for seat_phone in (ann, ben):
        assert "Hand the turn" not in text(seat_phone.get(f"/t/{code}"))

    refused = ann.act(type="hand_turn", player="Ben")
    assert refused.status_code == 403 and "Only the host" in text(refused)
    assert host.snapshot()["state"]["attacker"] == "Ann"

    assert host.act(type="hand_turn", player="Ben").status_code == 200
    html = text(host.get(f"/t/{code}"))
    assert "The host handed the turn to Ben." in region(html, "history")
    assert "Ben's attack: choose a row or column" in region(html, "status")
    assert "Hand the turn to Ann" in region(html, "board")
    assert text(ann.act(type="choose_line", line="row", number=1)) == "It is Ben's turn."
    assert ben.act(type="choose_line", line="row", number=1).status_code == 200

    host.post(f"/t/{code}/undo", {"expected_version": host.version()}, htmx=True)
    host.post(f"/t/{code}/undo", {"expected_version": host.version()}, htmx=True)
    assert host.snapshot()["state"]["attacker"] == "Ann"
    assert "Ann's attack: choose a row or column" in region(text(host.get(f"/t/{code}")), "status")


def test_a_control_is_disabled_with_its_reason_exactly_when_the_table_of_moves_says_so(phone):
    game = get_game(GAME)
    host = phone()
    code = host.start(game=GAME)
    phones = {None: host, "Ann": seated(phone, code, "Ann", "10.0.0.3"), "Ben": seated(phone, code, "Ben", "10.0.0.4")}
    steps = [{"type": "start_game", "starter": "Ann"}, {"type": "choose_line", "line": "row", "number": 1},
             {"type": "reveal_card", "kind": "feast"}, {"type": "reveal_card", "kind": "pirate"},
             {"type": "end_attack"}, {"type": "skip_block"},
             {"type": "correct_feasts", "count": "5", "reason": "four more feasts lay beside the formation"}]
    disabled_seen = set()
    for step in [None, *steps]:
        if step:
            assert host.act(**step).status_code == 200, step
        state = host.snapshot()["state"]
        for seat, viewer in phones.items():
            legal = game.legal_actions(state, seat)
            for kind, bodies in forms(text(viewer.get(f"/t/{code}"))).items():
                for body in bodies:
                    why = re.search(r'<p class="why-not">(.*?)</p>', body)
                    is_disabled = "<fieldset disabled>" in body
                    assert is_disabled == (legal[kind] is not None), (step, seat, kind)
                    assert (why.group(1) if why else None) == legal[kind], (step, seat, kind)
                    if is_disabled:
                        disabled_seen.add((kind, legal[kind]))
    # The waiting player's phone shows the attacker's controls, disabled with the turn's reason.
    assert disabled_seen == {
        ("correct_pile", "Not now: Finish the setup first, then tap who attacks first."),
        ("correct_feasts", "Not now: Finish the setup first, then tap who attacks first."),
        ("correct_feasts", "The game is over; only a secured pile can still be corrected."),
        ("end_attack", "Turn over the first card of row 1 before ending the attack."),
        *((kind, "It is Ann's turn.") for kind in ("choose_line", "look_at_last_card", "reveal_card",
                                                   "beat_card", "end_attack", "block_line", "skip_block")),
        ("choose_line", "It is Ben's turn."),
    }


# -- each phone in its own language ------------------------------------------------------------
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
# English words of this game that a German phone must no longer show (whole words, as shown).
ENGLISH_LEFT_OVER = ("Legionary", "Centurion", "Pirate", "Traitor", "Wild boar", "Village feast", "Feasts",
                     "Supply", "End attack", "secure", "Secured piles", "Tokens", "Card counting", "Fix a mistake",
                     "Key to the board", "attacks", "waits", "row 3", "from the right", "legionary", "centurion",
                     "fight card", "Block", "Now:", "nobody", "Odds", "Unseen", "Out of the game", "Reason",
                     "Right number", "Which card", "Whose pile", "Correct the", "Roman cards", "token", "Red", "Blue",
                     "Yellow", "Green", "Purple", "Colour", "Player", "further attack", "Score final piles")


def visible_text(html: str) -> str:
    """What a phone shows of the game's part of the page: no tags, scripts or attribute values."""
    start = html.index('<section id="board"')
    end = html.index('id="ao-fix-menu"')
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html[start:end], flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def _mid_game(t) -> None:
    """Ann secured two reds and blocked row 2; Ben attacks row 3 from the right and beat a blue."""
    t.move("start_game", by="Ann", starter="Ann")
    t.moves(line("row", 1), leg("red"), leg("red"), END, a("block_line", line="row", number=2), by="Ann")
    t.moves(line("row", 3, "right"), leg("blue"), by="Ben")


def test_a_german_phone_reads_the_board_log_and_refusals_in_german(table, phone):
    t = table
    _mid_game(t)
    viewer = t.host  # the host's phone: every control of the board is on its page
    german = text(viewer.get(f"/t/{t.code}", headers=GERMAN))
    english = text(viewer.get(f"/t/{t.code}", headers={"Accept-Language": "en"}))

    board = region(german, "board")
    for words in ("Ben greift an", "Ann wartet", "Feste", "Vorrat:", "Angriff beenden, 1 Karte sichern",
                  "Legio\xadnär", "Zenturio", "Pirat", "Verräter", "Wildschwein", "Dorffest",
                  "Ben greift Zeile 3 von rechts an", "Kampfkarten für diese Reihe: 1",
                  "Zeile 2 ist für den nächsten Angriff von Ben gesperrt.", "Was ist die umgedrehte Karte?"):
        assert words in board or words in german, words
    assert 'aria-label="Zeile 3, Spalte 4: geschlagen: blauer Legionär' in board
    piles = region(german, "piles")
    assert "Gesicherte Stapel" in piles and "Rot" in piles and "Plättchen" in piles
    assert "Noch ungesehen:" in german and "Karten zählen und Chancen" in german
    assert "Stand jetzt: Ann gewinnt mit 1 Plättchen zu 0." in german

    # The same log entry in each phone's language.
    secured_de = "Ann beendet den Angriff und sichert 2 Karten: einen roten Legionär, einen roten Legionär."
    secured_en = "Ann ended the attack and secured 2 cards: a red legionary, a red legionary."
    assert secured_de in german and secured_en not in german
    assert secured_en in english and secured_de not in english
    assert "Ann sperrt Zeile 2 für den nächsten Angriff von Ben." in german
    assert "Ann blocked row 2 for Ben's next attack." in english

    # A refusal of the game's own rules, in the asking phone's language.
    t.move(END, by="Ben")
    refused = t.client.post(f"/api/tables/{t.code}/actions", json=line("row", 4),
                            headers={**bearer(t.tokens["Ann"]), **GERMAN})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == "Jetzt nicht: Ben sperrt zuerst eine Reihe für den nächsten Angriff " \
                                          "oder lässt das Sperren aus."
    t.move(a("block_line", line="column", number=2), by="Ben")
    refused = t.client.post(f"/api/tables/{t.code}/actions", json=line("column", 2),
                            headers={**bearer(t.tokens["Ann"]), **GERMAN})
    assert refused.get_json()["error"] == "Spalte 2 ist für den Angriff von Ann gesperrt; wähl eine andere Reihe."
    assert t.refused(line("column", 2), by="Ann") == "Column 2 is blocked for Ann's attack; choose another line."


def test_the_german_board_has_no_english_words_left(table, phone):
    t = table
    _mid_game(t)
    viewer = t.host  # the host's phone: every control of the board is on its page
    shown = visible_text(text(viewer.get(f"/t/{t.code}", headers=GERMAN)))
    assert "Legionär" in shown and "Zeile 3" in shown
    for word in ENGLISH_LEFT_OVER:
        assert not re.search(rf"\b{re.escape(word)}\b", shown), (word, shown)


def test_the_quick_score_page_speaks_german(phone):
    client = phone()
    page = text(client.get(f"/games/{GAME}/score", headers=GERMAN))
    assert "Asterix & Obelix: schnell werten" in page and "Spieler 1" in page and "Auswerten" in page
    form = {"name_1": "Ann", "name_2": "Ben", "legionaries_1_red": "3", "traitor_2": "1"}
    scored = text(client.post(f"/games/{GAME}/score", form, headers=GERMAN))
    assert "Verräter: Ben hat den Verräter gesichert und bekommt sein Plättchen." in scored
    assert "Rot: Ann hat 3 Karten, Ben 0; Ann bekommt das rote Plättchen." in scored
    bad = text(client.post(f"/games/{GAME}/score", {**form, "pirates_1": "x"}, headers=GERMAN))
    assert "Die Zahl für Piraten von Ann muss eine ganze Zahl sein, nicht „x“." in bad


# -- issue 39: the teaching mode at a real table --------------------------------------------------
def _coached(phone):
    """A coached table: Ann's and Ben's phones and the host's."""
    host = phone()
    code = host.start(game=GAME, coach="1")
    return host, code, seated(phone, code, "Ann", "10.0.0.3"), seated(phone, code, "Ben", "10.0.0.4")


def test_the_waiting_phone_crosses_out_only_cards_that_are_all_seen(phone):
    host, code, ann, ben = _coached(phone)
    for step in ({"type": "start_game", "starter": "Ann"}, {"type": "choose_line", "line": "row", "number": 1},
                 {"type": "reveal_card", "kind": "boar"}, {"type": "skip_block"}):
        assert host.act(**step).status_code == 200
    assert host.act(type="choose_line", line="row", number=2).status_code == 200  # Ben attacks
    for viewer, may_reveal in ((ben, True), (ann, False)):
        board = region(text(viewer.get(f"/t/{code}")), "board")
        crossed = re.findall(r'<button[^>]*class="[^"]*ao-seen-all[^"]*"[^>]*value="(\w+)"|'
                             r'<button[^>]*value="(\w+)"[^>]*class="[^"]*ao-seen-all', board)
        assert [value for pair in crossed for value in pair if value] == ["boar"], viewer
        # "every card of that kind is seen" is said where a card can be tapped, not on Ann's phone.
        assert ("Crossed out: every card of that kind is seen already." in board) is may_reveal


def test_a_players_choice_is_marked_and_accepted_on_that_players_phone_and_the_hosts(phone):
    host, code, ann, ben = _coached(phone)
    assert ann.act(type="start_game", starter="Ann").status_code == 200
    # The peek, the card just turned and the block are Ann's: Ben's phone is refused, naming her.
    assert text(ben.act(type="choose_line", line="row", number=1)) == "It is Ann's turn."
    assert ann.act(type="choose_line", line="row", number=1).status_code == 200
    assert text(ben.act(type="look_at_last_card")) == "It is Ann's turn."
    assert host.act(type="look_at_last_card").status_code == 200
    assert ann.act(type="reveal_card", kind="legionary", colour="red").status_code == 200
    bens = forms(text(ben.get(f"/t/{code}")))["beat_card"][0]
    assert "<fieldset disabled>" in bens and "It is Ann's turn." in bens
    assert "<fieldset disabled>" not in forms(text(ann.get(f"/t/{code}")))["beat_card"][0]
    assert text(ben.act(type="beat_card", beaten="true")) == "It is Ann's turn."
    assert ann.act(type="beat_card", beaten="true").status_code == 200
    assert ann.act(type="end_attack").status_code == 200
    assert text(ben.act(type="block_line", line="row", number=1)) == "It is Ann's turn."
    card = re.search(r'<section id="coach".*?</section>', text(ben.get(f"/t/{code}")), re.S).group(0)
    assert "Ann: draw 2 fight cards to have 5 again" in card and "Ben's next attack" in card
    assert host.act(type="block_line", line="row", number=1).status_code == 200


def test_the_fight_card_setting_is_on_the_set_up_form_and_in_the_api(client, phone):
    host = phone()
    page = text(host.get(f"/new/{GAME}"))
    assert "When a fight-card pile runs out" in page
    assert re.search(r'<option value="reshuffle" selected>Shuffle the discards into a new pile</option>', page)
    german = text(host.get(f"/new/{GAME}", headers={"Accept-Language": "de-DE"}))
    assert "Wenn ein Kampfkartenstapel leer ist" in german
    code = host.start(game=GAME, fight_cards_out="end")
    assert host.snapshot()["state"]["options"]["fight_cards_out"] == "end"
    made = client.post("/api/tables", json={"game": GAME, "players": ["Ann", "Ben"],
                                            "options": {"fight_cards_out": "never"}})
    assert made.status_code == 422 and "fight_cards_out" in made.get_json()["error"]
    assert code


def test_the_card_quotes_the_buttons_it_offers_besides_the_marked_one(phone):
    """A player who taps only what the card names finds each button by its words: ending the
    attack, peeking, blocking nothing (German phone)."""
    host, code, ann, ben = _coached(phone)
    for step in ({"type": "start_game", "starter": "Ann"}, {"type": "choose_line", "line": "row", "number": 1}):
        assert ann.act(**step).status_code == 200

    def card_and_buttons():
        html = text(ann.get(f"/t/{code}", headers=GERMAN))
        card = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r'<section id="coach".*?</section>', html, re.S).group(0)))
        buttons = {kind: [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip()
                          for body in re.findall(r"<button[^>]*>(.*?)</button>", "".join(bodies), re.S)]
                   for kind, bodies in forms(html).items()}
        return card, buttons

    card, buttons = card_and_buttons()
    assert f"„{buttons['look_at_last_card'][0]}“" in card
    for step in ({"type": "reveal_card", "kind": "pirate"}, {"type": "beat_card", "beaten": "true"}):
        assert ann.act(**step).status_code == 200
    card, buttons = card_and_buttons()
    assert buttons["end_attack"] == ["Angriff beenden, 1 Karte sichern"] and "„Angriff beenden, 1 Karte sichern“" in card
    assert ann.act(type="end_attack").status_code == 200
    card, buttons = card_and_buttons()
    assert buttons["skip_block"] == ["Diesmal nichts sperren"] and "„Diesmal nichts sperren“" in card
