"""Asterix & Obelix at the table, as a hand and an eye feel it, on a 390 px and a 320 px phone
and a landscape tablet: an attack tapped card by card without the page moving under the
finger, the waiting player's controls disabled with the reason, menus and the rules overlay
that stay open while the other phone plays, a short page, and nothing too small, too wide or
unlabelled."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import ux
from tests.browser.conftest import api, create_table, seated, settle

SIZES = pytest.mark.parametrize("size", list(ux.SIZES.values()), ids=list(ux.SIZES))
SMALLEST = pytest.mark.parametrize("size", list(ux.SMALLEST.values()), ids=list(ux.SMALLEST))


class Table:
    """A table whose moves are made through the JSON API (the host's token): the other phone."""

    def __init__(self, live_server: str, players=("Ann", "Ben")):
        self.server = live_server
        created = create_table(live_server, "asterix-obelix", list(players))
        self.code, self.token = created["code"], created["token"]

    def act(self, **payload) -> dict:
        return api(self.server, "POST", f"/api/tables/{self.code}/actions", payload, token=self.token)

    def state(self) -> dict:
        return api(self.server, "GET", f"/api/tables/{self.code}")["state"]


def mid_game(live_server: str) -> Table:
    """One attack each played; Ann's turn again, row 4 blocked for her: she chooses a line."""
    table = Table(live_server)
    for move in ({"type": "start_game", "starter": "Ann"},
                 {"type": "choose_line", "line": "row", "number": 2, "start": "right"},
                 {"type": "reveal_card", "colour": "red", "kind": "legionary"},
                 {"type": "reveal_card", "kind": "feast"},
                 {"type": "reveal_card", "colour": "purple", "kind": "centurion"},
                 {"type": "end_attack"},
                 {"type": "block_line", "line": "column", "number": 3},
                 {"type": "choose_line", "line": "column", "number": 2, "start": "top"},
                 {"type": "reveal_card", "kind": "pirate"},
                 {"type": "reveal_card", "colour": "yellow", "kind": "legionary"},
                 {"type": "end_attack"},
                 {"type": "block_line", "line": "row", "number": 4}):
        table.act(**move)
    return table


def soldier(colour: str, kind: str) -> str:
    """The card button of a legionary or centurion of ``colour`` (a column of the card buttons)."""
    return f'#board .ao-reveal-colour:has(input[name=colour][value={colour}]) button[value={kind}]'


def now_line(page):
    return page.locator("#board #ao-now")


def stays_put(page, tapped: str, watched: str, settle) -> None:
    """Tap ``tapped`` (scrolled to the middle of the screen) when it goes away with the tap:
    the part of the page above it (``watched``) must not move."""
    page.eval_on_selector(tapped, "el => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(100)
    before = ux.top_of(page, watched)
    page.locator(tapped).tap()
    settle()
    page.wait_for_timeout(300)
    after = ux.top_of(page, watched)
    assert abs(after - before) <= ux.LINE, (
        f"the page jumped: {watched} was at {before:.0f}px on screen, now at {after:.0f}px")


# -- a normal turn by taps ------------------------------------------------------------------------


@SMALLEST
def test_an_attack_by_taps_keeps_each_tapped_control_where_it_was(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    shot = tmp_path / f"attack-{size['width']}"
    expect(now_line(ann)).to_contain_text("Ann: tap the arrow where your figure stands.")
    ann.screenshot(path=f"{shot}-0-choose.png")

    # The figure stands at the left end of row 3: the arrow turns into the figure, the formation stays.
    first_card = '#board .ao-grid [aria-label^="Row 3, column 1:"]'
    ux.kept_in_place(ann, first_card, lambda: ann.get_by_role("button", name="Attack row 3 from the left").tap(),
                     settle=lambda: expect(now_line(ann)).to_contain_text("Turn the next card (row 3, column 1)"))
    expect(ann.get_by_role("img", name="Ann's figure stands here")).to_be_visible()
    # Ending is there from the start, under the formation, disabled until a card is beaten.
    expect(ann.locator("#board .ao-end button")).to_be_disabled()
    ann.screenshot(path=f"{shot}-1-attack.png")

    # One tap per card turned; each card button is where it was after its tap.
    for control, beaten, name in ((soldier("red", "legionary"), 1, "Row 3, column 1: defeated: red legionary"),
                                  ("#board button.kind-feast", 1, "Row 3, column 2: village feast"),
                                  (soldier("blue", "centurion"), 2, "Row 3, column 3: defeated: blue centurion")):
        expect(ann.locator(control)).to_be_enabled()
        ux.kept_in_place(ann, control, lambda: ann.locator(control).tap(),
                         settle=lambda: expect(ann.get_by_role("img", name=name)).to_have_count(1))
        expect(ann.locator("#board .ao-stats")).to_contain_text(f"beaten so far: {beaten}")
    expect(ann.locator("#board .ao-track li.on")).to_have_count(2)
    ann.screenshot(path=f"{shot}-2-three-cards.png")

    # Ending the attack: the block buttons take the place of the button tapped.
    end = "#board .ao-end button"
    expect(ann.locator(end)).to_have_text("End attack and secure 2 cards")
    ux.kept_in_place(ann, f'{end}, #board button[aria-label="Block row 1"]', lambda: ann.locator(end).tap(),
                     settle=lambda: expect(now_line(ann)).to_contain_text("Ann: block a line for Ben's next attack."))
    ann.screenshot(path=f"{shot}-3-block.png")
    ux.assert_fit_for_hands_and_eyes(ann, "block")

    # Blocking ends Ann's turn: the buttons go, the formation above them stays.
    stays_put(ann, '#board button[aria-label="Block column 1"]', "#board .ao-grid",
              settle=lambda: expect(now_line(ann)).to_contain_text("It is Ben's turn."))
    state = table.state()
    assert state["attacker"] == "Ben" and state["blocked"] == {"line": "column", "number": 1, "for": "Ben"}
    assert state["secured"]["Ann"]["legionaries"]["red"] == 2 and state["secured"]["Ann"]["centurions"]["blue"]
    ann.screenshot(path=f"{shot}-4-waiting.png")


@SMALLEST
def test_the_other_phones_moves_do_not_move_the_page(live_server, new_phone, size, tmp_path):
    """Ben watches Ann's attack with the card buttons on his screen: each card she turns shows
    up on his board, and what he looks at stays where it was."""
    table = mid_game(live_server)
    ben = seated(new_phone, table.server, table.code, "Ben", size)
    table.act(type="choose_line", line="row", number=3, start="left")
    settle(ben, live_server, table.code)
    watched = soldier("green", "legionary")
    ben.eval_on_selector(watched, "el => el.scrollIntoView({block: 'center'})")
    ben.wait_for_timeout(100)
    before = ux.top_of(ben, watched)
    for move, name in (({"colour": "red", "kind": "legionary"}, "Row 3, column 1: defeated: red legionary"),
                       ({"kind": "pirate"}, "Row 3, column 2: defeated: pirate")):
        table.act(type="reveal_card", **move)
        expect(ben.get_by_role("img", name=name)).to_have_count(1, timeout=3000)
        ben.wait_for_timeout(300)
        assert abs(ux.top_of(ben, watched) - before) <= ux.LINE, f"Ben's page moved after {move}"
    ben.screenshot(path=tmp_path / f"watching-{size['width']}.png")


# -- controls that cannot be used now --------------------------------------------------------------


@SMALLEST
def test_the_waiting_players_controls_are_disabled_with_the_reason(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ben = seated(new_phone, table.server, table.code, "Ben", size)
    # Ann's turn: Ben sees her arrows, disabled, and why.
    expect(now_line(ben)).to_contain_text("It is Ann's turn. Every tap Ann makes shows up here.")
    arrow = ben.get_by_role("button", name="Attack row 3 from the left")
    expect(arrow).to_be_visible()
    expect(arrow).to_be_disabled()
    expect(ben.get_by_role("group", name="The formation, row 1 at the top, column 1 at the left")).to_have_accessible_description(
        "It is Ann's turn. Every tap Ann makes shows up here.")
    ux.assert_fit_for_hands_and_eyes(ben, "waiting, choose line")

    table.act(type="choose_line", line="row", number=3, start="left")
    table.act(type="reveal_card", colour="red", kind="legionary")
    settle(ben, live_server, table.code)
    for name in ("Blue legionary", "Village feast"):
        expect(ben.get_by_role("button", name=name)).to_be_disabled()
    expect(ben.locator("#board .ao-end button")).to_be_disabled()
    expect(now_line(ben)).to_contain_text("It is Ann's turn.")
    ben.screenshot(path=tmp_path / f"waiting-{size['width']}.png")
    ux.assert_fit_for_hands_and_eyes(ben, "waiting, mid-attack")
    assert table.state()["attack"]["revealed_in_line"] == 1  # nothing Ben's phone could send


@SIZES
def test_a_card_that_cannot_be_there_is_crossed_out_with_the_reason(live_server, new_phone, size):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    table.act(type="choose_line", line="row", number=3, start="left")
    settle(ann, live_server, table.code)
    # The purple centurion was beaten in Ann's first attack: it cannot be the next card.
    purple = ann.get_by_role("button", name="Purple centurion")
    expect(purple).to_be_disabled()
    expect(purple).to_have_attribute("title", "The purple centurion is accounted for")
    expect(ann.locator("#board .ao-gone")).to_have_text("Crossed out: every card of that kind is seen already.")
    expect(ann.get_by_role("button", name="Red centurion")).to_be_enabled()
    ux.assert_fit_for_hands_and_eyes(ann, "attack, a card crossed out")


# -- menus, folds and dialogs through the other phone's moves --------------------------------------------


@SMALLEST
def test_open_menus_and_the_rules_survive_moves_made_on_another_phone(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)

    # The corrections menu, half filled in.
    fix = ann.locator("#ao-fix-menu")
    fix.locator("summary").click()
    fix.locator("select[name=item]").select_option("pirate")
    fix.locator("input[name=reason]").first.fill("the pirate was B")
    # The counting and the key to the board, opened.
    counting = ann.locator("#ao-counting")
    counting.locator("summary").click()
    unseen = int(counting.locator("#odds p strong").first.inner_text())
    ann.locator("#ao-key summary").click()

    table.act(type="choose_line", line="row", number=3, start="left")
    table.act(type="reveal_card", colour="green", kind="legionary")
    settle(ann, live_server, table.code)
    ann.wait_for_timeout(300)
    expect(ann.get_by_role("img", name="Row 3, column 1: defeated: green legionary")).to_be_visible()
    expect(fix).to_have_attribute("open", "")
    expect(fix.locator("select[name=item]")).to_have_value("pirate")
    expect(fix.locator("input[name=reason]").first).to_have_value("the pirate was B")
    expect(counting).to_have_attribute("open", "")
    expect(counting).to_contain_text(f"Still unseen: {unseen - 1} of 40")  # counted on, while open
    expect(ann.locator("#ao-key")).to_have_attribute("open", "")
    ann.screenshot(path=tmp_path / f"menus-open-{size['width']}.png", full_page=True)
    ux.assert_fit_for_hands_and_eyes(ann, "menus open")

    # A rule opened from its "?" stays open over the board while the other phone plays on.
    ann.locator("#board .ao-specials a.help").first.click()
    dialog = ann.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("three pirates")
    table.act(type="reveal_card", kind="pirate")
    expect(ann.get_by_role("img", name="Row 3, column 2: defeated: pirate")).to_have_count(1, timeout=3000)
    expect(dialog).to_be_visible()
    ann.screenshot(path=tmp_path / f"rules-open-{size['width']}.png")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


# -- a short page, and a tablet that uses its width ------------------------------------------------------


@SIZES
def test_a_turn_needs_at_most_two_screens_of_scrolling(live_server, new_phone, size):
    table = mid_game(live_server)
    table.act(type="choose_line", line="row", number=3, start="left")
    table.act(type="reveal_card", colour="red", kind="legionary")
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    # From the top of the board to the last card button: the arrows, ending the attack and
    # every card button, within two screen heights.
    top = ann.eval_on_selector("#board", "el => el.getBoundingClientRect().top + scrollY")
    last = ann.eval_on_selector("#board .ao-specials", "el => el.getBoundingClientRect().bottom + scrollY")
    assert last - top <= 2 * size["height"], (top, last)
    # The counting, the key and the corrections are folded away; the scores follow the board.
    for fold in ("#ao-counting", "#ao-key", "#ao-fix-menu"):
        expect(ann.locator(fold)).not_to_have_attribute("open", "")
    board = ann.locator("#board").bounding_box()
    piles = ann.locator("#piles").bounding_box()
    assert piles["y"] >= board["y"] + board["height"]
    print(f"A&O mid-attack at {size['width']}x{size['height']}: page {ux.page_height(ann)} px, "
          f"board {top:.0f}-{ann.eval_on_selector('#board', 'el => el.getBoundingClientRect().bottom + scrollY'):.0f}")


def test_on_a_tablet_the_board_and_the_scores_stand_side_by_side(live_server, new_phone, tmp_path):
    table = mid_game(live_server)
    table.act(type="choose_line", line="row", number=3, start="left")
    table.act(type="reveal_card", colour="red", kind="legionary")
    page = seated(new_phone, table.server, table.code, "Ann", ux.TABLET)
    board = page.locator("#board").bounding_box()
    for region in ("#scoring", "#piles"):
        box = page.locator(region).bounding_box()
        assert box["x"] >= board["x"] + board["width"], (region, box, board)  # to the right of the board
        assert box["y"] < board["y"] + board["height"], (region, box, board)  # beside it, not below
    # The formation and the pile table are both on the first screen.
    assert page.locator("#board .ao-grid").bounding_box()["y"] < ux.TABLET["height"]
    assert page.locator("#piles table").bounding_box()["y"] < ux.TABLET["height"]
    page.screenshot(path=tmp_path / "tablet.png", full_page=True)
    ux.assert_fit_for_hands_and_eyes(page, "tablet mid-attack")
    print(f"A&O mid-attack at 1024x768: page {ux.page_height(page)} px")


@SIZES
def test_setup_leads_with_who_attacks_first_and_folds_the_checklist(live_server, new_phone, size, tmp_path):
    table = Table(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    expect(ann.get_by_role("button", name="Ann attacks first")).to_be_in_viewport()
    checklist = ann.locator("#board details.ao-setup")
    expect(checklist).not_to_have_attribute("open", "")
    checklist.locator("summary").click()
    checklist.get_by_text("Deal 16 cards face down").click()
    expect(checklist.locator("input[name=done_formation]")).to_be_checked()
    ann.screenshot(path=tmp_path / f"setup-{size['width']}.png", full_page=True)
    ux.assert_fit_for_hands_and_eyes(ann, "setup, checklist open")


@SIZES
def test_long_names_wrap_in_the_piles_and_nothing_is_cut_off(live_server, new_phone, size, tmp_path):
    players = ("Maximiliane-Sophie", "Bartholomäusmeister")
    table = Table(live_server, players)
    table.act(type="start_game", starter=players[0])
    table.act(type="choose_line", line="row", number=1, start="left")
    table.act(type="reveal_card", colour="green", kind="legionary")
    page = seated(new_phone, table.server, table.code, players[1], size)
    for name in players:
        head = page.locator("#piles thead th .ao-name", has_text=name[:8])
        expect(head).to_be_visible()
        assert head.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), name
    assert page.locator("#piles thead").inner_text().replace("\n", "").replace(" ", "").count("Bartholomäusmeister") == 1
    page.locator("#piles").screenshot(path=tmp_path / f"long-names-{size['width']}.png")
    ux.assert_fit_for_hands_and_eyes(page, "long names")


@SIZES
def test_the_fifth_feast_ends_the_game_in_place_and_shows_the_final_scoring(
        live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    table.act(type="correct_feasts", count=4, reason="feasts laid out before we started tracking")
    table.act(type="choose_line", line="row", number=3, start="left")
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    # The fifth feast: the card buttons go, the formation above them stays where it was.
    stays_put(ann, "#board button.kind-feast", "#board .ao-grid",
              settle=lambda: expect(now_line(ann)).to_contain_text("Game over: the fifth village feast was turned over."))
    expect(ann.locator("#scoring")).to_contain_text("Final scoring, token by token")
    expect(ann.locator("#board .ao-reveal")).to_have_count(0)  # nothing left to tap on the board
    ann.screenshot(path=tmp_path / f"game-over-{size['width']}.png", full_page=True)
    ux.assert_fit_for_hands_and_eyes(ann, "game over")


# -- the same board in German -----------------------------------------------------------------------


@SIZES
def test_the_german_board_fits_the_hand_too(live_server, new_phone, size, tmp_path, german_shots):
    """Mid-attack on a German phone: longer words, the same fit; a screenshot for the eye."""
    table = mid_game(live_server)
    table.act(type="choose_line", line="row", number=3, start="left")
    table.act(type="reveal_card", colour="red", kind="legionary")
    page = seated(new_phone, table.server, table.code, "Ann", size, locale="de-DE")
    expect(now_line(page)).to_contain_text("Roter Legionär: Wirf eine rote Kampfkarte ab, sonst scheitert der Angriff.")
    expect(page.locator("#board .ao-end button")).to_have_text("Angriff beenden, 1 Karte sichern")
    expect(page.get_by_role("img", name="Zeile 3, Spalte 1: geschlagen: roter Legionär")).to_have_count(1)
    page.eval_on_selector("#board", "el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)
    page.screenshot(path=german_shots / f"de-asterix-obelix-{size['width']}.png")
    page.locator("#board .ao-beat").screenshot(path=tmp_path / f"de-beat-{size['width']}.png")
    for part in ("#board", "#scoring", "#piles"):
        page.locator(part).screenshot(path=tmp_path / f"de-{part[1:]}-{size['width']}.png")
    ux.assert_fit_for_hands_and_eyes(page, "German mid-attack")


def test_the_german_refill_holes_fit_a_narrow_phone(live_server, new_phone, tmp_path):
    """The last supply cards placed by hand: the German hole buttons fit a 320 px phone."""
    table = Table(live_server)
    table.act(type="start_game", starter="Ann")
    colours = iter(["red", "blue", "yellow", "green", "purple"] * 5)
    # Five attacks of four cards use 20 of the 24 supply cards; the sixth breaks the formation
    # and its further attack opens a fifth hole for the last four supply cards.
    for attack in range(6):
        table.act(type="choose_line", line="row", number=attack % 4 + 1)
        for _ in range(4):
            table.act(type="reveal_card", kind="legionary", colour=next(colours))
        if attack < 5:
            table.act(type="end_attack")
            table.act(type="skip_block")
    table.act(type="further_attack", line="column", number=1)
    table.act(type="reveal_card", kind="pirate")
    table.act(type="end_attack")
    assert table.state()["phase"] == "refill"
    page = seated(new_phone, table.server, table.code,
                  "Ben" if table.state()["attacker"] == "Ben" else "Ann", ux.PHONE_320, locale="de-DE")
    holes = page.locator("#board button.ao-hole")
    expect(holes.first).to_contain_text("rein")
    page.locator("#board .ao-grid").screenshot(path=tmp_path / "de-refill-320.png")
    assert ux.overflowing(page) == []
    for index in range(holes.count()):
        box = holes.nth(index).evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert box[0] <= box[1], box


@SIZES
def test_the_german_final_scoring_fits_the_phone_and_the_undo_stays_whole(
        live_server, new_phone, size, tmp_path):
    """Issue 39: the final score table was 412-418 px wide on a German phone: the page scrolled
    sideways and the dock's "Rückgängig" was cut off."""
    created = create_table(live_server, "asterix-obelix", ["Lena", "Ben"], coach=True)
    table = Table.__new__(Table)
    table.server, table.code, table.token = live_server, created["code"], created["token"]
    for move in ({"type": "start_game", "starter": "Lena"},
                 {"type": "choose_line", "line": "row", "number": 1},
                 {"type": "reveal_card", "kind": "legionary", "colour": "purple"},
                 {"type": "reveal_card", "kind": "centurion", "colour": "green"},
                 {"type": "end_attack"}, {"type": "skip_block"},
                 {"type": "correct_feasts", "count": 4, "reason": "vier Dorffeste lagen schon"},
                 {"type": "choose_line", "line": "row", "number": 2},
                 {"type": "reveal_card", "kind": "pirate"}):
        table.act(**move)
    lena = seated(new_phone, live_server, table.code, "Lena", size, locale="de-DE")
    table.act(type="reveal_card", kind="feast")
    expect(lena.locator("#scoring")).to_contain_text("Schlusswertung")
    lena.locator("#scoring .ao-result").scroll_into_view_if_needed()
    lena.screenshot(path=tmp_path / f"de-final-{size['width']}.png", full_page=True)
    lena.locator("#scoring .ao-result").screenshot(path=tmp_path / f"de-final-table-{size['width']}.png")
    lena.screenshot(path=tmp_path / f"de-final-dock-{size['width']}.png")
    wide = ux.overflowing(lena)
    assert wide == [], "\n".join(wide)
    width = lena.evaluate("() => document.documentElement.clientWidth")
    assert lena.locator("#scoring .ao-result").bounding_box()["width"] <= width
    undo = lena.locator(".last-move-dock button").bounding_box()
    assert undo["x"] >= 0 and undo["x"] + undo["width"] <= width, (undo, width)
