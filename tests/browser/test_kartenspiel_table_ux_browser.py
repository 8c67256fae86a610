"""Asterix: Das Kartenspiel at the table, as a hand and an eye feel it, on a 390 px and a 320 px
phone and a landscape tablet: a trick tapped without the page moving under the finger, menus
that stay open while other phones play, a typed-in pile that cannot be saved twice into the
next round, a score sheet of five long names, and nothing too small, too wide or unlabelled."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import ux
from tests.browser.conftest import api, create_table, seated, settle

PLAYERS = ["Ann", "Ben", "Cid", "Dora"]
SIZES = pytest.mark.parametrize("size", list(ux.SIZES.values()), ids=list(ux.SIZES))
SMALLEST = pytest.mark.parametrize("size", list(ux.SMALLEST.values()), ids=list(ux.SMALLEST))


class Table:
    """A table whose other phones play through the JSON API (the host's token)."""

    def __init__(self, live_server: str, players=PLAYERS, options: dict | None = None):
        self.server = live_server
        created = create_table(live_server, "kartenspiel", players, options)
        self.code, self.token = created["code"], created["token"]

    def act(self, **payload) -> dict:
        return api(self.server, "POST", f"/api/tables/{self.code}/actions", payload, token=self.token)

    def state(self) -> dict:
        return api(self.server, "GET", f"/api/tables/{self.code}")["state"]

    def typed_round(self, piles: dict[str, str]) -> None:
        for name, values in piles.items():
            self.act(type="enter_romans", player=name, values=values)
        self.act(type="close_round")


def mid_game(live_server: str) -> Table:
    """Round 1 scored, round 2 under way: Ben won the first trick (a 7)."""
    table = Table(live_server)
    table.typed_round({"Ann": "10 10 7", "Ben": "5 5 5", "Cid": "1 2", "Dora": "9"})
    table.act(type="win_roman", player="Ben", value=7)
    return table


def deck_count(page):
    return page.locator("#deck .ks-deck-count strong")


def sticking_out(page) -> list[str]:
    """Visible boxes of the game whose text runs past their own edge (a name, a count, a rank)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
            '.ks-hands li, .ks-chip span, .ks-chip-button, .ks-who-buttons button, .ks-pirate-row legend, ' +
            '.ks-fix button, .ks-table th, .ks-table td, .ks-fold > summary, .ks-more > summary'))
        .filter(el => el.getClientRects().length && !el.closest('details:not([open]) > :not(summary)'))
        .filter(el => el.scrollWidth > el.clientWidth + 1)
        .map(el => el.className + ' "' + el.textContent.trim().slice(0, 30) + '" ' + el.scrollWidth + '>' + el.clientWidth)""")


# -- a normal turn by taps ------------------------------------------------------------------------


@SMALLEST
def test_a_trick_by_taps_keeps_each_tapped_control_where_it_was(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    expect(deck_count(ann)).to_have_text("49")
    shot = tmp_path / f"trick-{size['width']}"

    # The face-up Roman (a radio chip), then who won it: the deck is redrawn under the finger.
    chip = '#deck form[data-action="win_roman"] label.ks-chip:has(input[value="4"])'
    ux.kept_in_place(ann, chip, lambda: ann.locator(chip).click())
    expect(ann.locator(chip + " input")).to_be_checked()
    winner = '#deck form[data-action="win_roman"] button[value="Cid"]'
    ux.kept_in_place(ann, winner, lambda: ann.locator(winner).click(),
                     settle=lambda: expect(deck_count(ann)).to_have_text("48"))
    expect(ann.locator("#piles .ks-pile", has_text="Cid").locator(".ks-cards")).to_have_text("4")
    ann.screenshot(path=f"{shot}-after-winner.png")

    # The pirate menu: opened in place, a pirate's winner tapped in place (one tap).
    summary = "#ks-pirate-menu > summary"
    ux.kept_in_place(ann, summary, lambda: ann.locator(summary).click())
    expect(ann.locator("#ks-pirate-menu")).to_have_attribute("open", "")
    # The tapped row goes (that pirate is taken): the menu around it stays where it was.
    pirate_winner = '#ks-pirate-menu form:has(input[value="highest"]) button[value="Dora"]'
    ux.kept_in_place(ann, summary, lambda: ann.locator(pirate_winner).click(),
                     settle=lambda: expect(deck_count(ann)).to_have_text("47"))
    expect(ann.locator("#ks-pirate-menu")).to_have_attribute("open", "")
    expect(ann.locator("#piles .ks-pile", has_text="Dora").locator(".ks-cards")).to_contain_text("Highest")
    ann.screenshot(path=f"{shot}-after-pirate.png")

    # Someone ran out of cards: opened and tapped in place.
    out = "#ks-out-menu > summary"
    ux.kept_in_place(ann, out, lambda: ann.locator(out).click())
    gone = '#ks-out-menu button[value="Ben"]'
    ux.kept_in_place(ann, out, lambda: ann.locator(gone).click(),
                     settle=lambda: expect(ann.locator("#deck .ks-hands li.out")).to_contain_text("Ben"))
    assert table.state()["hands"]["Ben"]["out"] is True
    ann.screenshot(path=f"{shot}-after-out.png")
    ux.assert_fit_for_hands_and_eyes(ann, "mid-trick, menus open", sticking_out)


@SMALLEST
def test_the_scoring_of_a_round_by_taps_keeps_each_tapped_control_where_it_was(
        live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    table.act(type="enter_romans", player="Ann", values="3 3 5 12")
    table.act(type="add_pirate", player="Ann", kind="choice")
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    expect(ann.locator("#scoring")).to_contain_text("Scoring round 2")

    # Take a Roman out of a pile, name the pirate of choice's escape, then close the round.
    take_out = '#piles form[data-action="remove_roman"] button[value="12"]'
    beside = '#piles form[data-action="remove_roman"] button[value="3"]'  # stays on the same line
    ux.kept_in_place(ann, beside, lambda: ann.locator(take_out).click(),
                     settle=lambda: expect(ann.locator(take_out)).to_have_count(0))
    escape = '#scoring form[data-action="choose_escape"] button[value="3"]'
    ux.kept_in_place(ann, escape, lambda: ann.locator(escape).click(),
                     settle=lambda: expect(ann.locator(escape)).to_have_attribute("aria-pressed", "true"))
    ann.screenshot(path=tmp_path / f"scoring-{size['width']}.png")
    ux.assert_fit_for_hands_and_eyes(ann, "scoring", sticking_out)
    close = '#scoring form[data-action="close_round"] button'
    ux.kept_in_place(ann, close, lambda: ann.locator(close).click(),
                     settle=lambda: expect(ann.locator("#deck h2")).to_contain_text("Round 3 of 4"))
    assert table.state()["round"] == 3


# -- menus and half-typed fields through other phones' moves ------------------------------------------


@SMALLEST
def test_open_menus_survive_moves_made_on_another_phone(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)

    ann.locator("#ks-pirate-menu > summary").click()
    ann.locator("#ks-pirate-menu").evaluate("el => el.scrollIntoView({block: 'center'})")
    # Another phone taps a trick: Ann's deck changes, her menu stays open.
    table.act(type="win_roman", player="Dora", value=5)
    settle(ann, live_server, table.code)
    ann.wait_for_timeout(300)
    expect(ann.locator("#ks-pirate-menu")).to_have_attribute("open", "")
    expect(deck_count(ann)).to_have_text("48")
    ann.screenshot(path=tmp_path / f"menu-kept-{size['width']}.png")
    # Ann's own tap in it shows at once, and the menu is still there for the next pirate.
    ann.locator('#ks-pirate-menu form:has(input[value="lowest"]) button[value="Ann"]').click()
    expect(ann.locator("#piles .ks-pile", has_text="Ann").locator(".ks-cards")).to_contain_text("Lowest")
    expect(deck_count(ann)).to_have_text("47")
    expect(ann.locator("#ks-pirate-menu")).to_have_attribute("open", "")
    # That pirate's row stays in place, its buttons disabled: it is in a pile now.
    expect(ann.locator('#ks-pirate-menu form:has(input[value="lowest"]) legend')).to_contain_text("taken")
    expect(ann.locator('#ks-pirate-menu form:has(input[value="lowest"]) button[value="Cid"]')).to_be_disabled()
    assert table.state()["piles"]["Ann"]["pirates"] == ["lowest"]

    # Half a choice in the Idefix menu survives another phone's move...
    idefix = ann.locator("#ks-idefix-menu")
    idefix.locator("summary").click()
    idefix.locator('label.ks-chip:has(input[name="player"][value="Ann"])').click()
    idefix.locator('label.ks-chip:has(input[name="roman"][value="12"])').click()
    table.act(type="win_roman", player="Cid", value=6)
    settle(ann, live_server, table.code)
    ann.wait_for_timeout(300)
    expect(idefix).to_have_attribute("open", "")
    expect(idefix.locator('input[name="player"][value="Ann"]')).to_be_checked()
    expect(idefix.locator('input[name="roman"][value="12"]')).to_be_checked()
    # Sent, though chosen against the table before Cid's trick: Cid's trick touched neither
    # Ann's hand nor her pile, so the one tap counts and her page shows it.
    idefix.get_by_role("button", name="Kept it").click()
    expect(ann.locator("#piles .ks-pile", has_text="Ann").locator(".ks-cards")).to_contain_text("12")
    expect(idefix.locator(".form-error")).to_have_text("")
    expect(deck_count(ann)).to_have_text("45")
    assert table.state()["piles"]["Ann"]["romans"] == [12]

    # The chart and the typing-in fold away; opened, they stay open when a round closes elsewhere.
    ann.locator("#ks-chart-menu > summary").click()
    ann.locator("#direct-entry > summary").click()
    table.typed_round({"Ann": "11", "Ben": "13"})
    settle(ann, live_server, table.code)
    ann.wait_for_timeout(300)
    expect(ann.locator("#deck h2")).to_contain_text("Round 3 of 4")
    expect(ann.locator("#ks-chart-menu")).to_have_attribute("open", "")
    expect(ann.locator("#direct-entry")).to_have_attribute("open", "")
    expect(ann.locator("#direct-entry h2")).to_contain_text("Type in round 3's piles")


@SMALLEST
def test_a_half_typed_pile_survives_moves_made_on_another_phone(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    ann.locator("#direct-entry > summary").click()
    field = ann.get_by_role("textbox", name="Cid's Romans")
    field.fill("8 8")
    table.act(type="win_roman", player="Dora", value=5)
    settle(ann, live_server, table.code)
    ann.wait_for_timeout(300)
    expect(field).to_have_value("8 8")
    expect(deck_count(ann)).to_have_text("48")
    # Even a round closed on another phone meanwhile does not wipe what Ann is typing...
    table.typed_round({"Ann": "11"})
    settle(ann, live_server, table.code)
    ann.wait_for_timeout(300)
    expect(field).to_have_value("8 8")
    expect(ann.locator("#direct-entry")).to_have_attribute("open", "")
    # ...but it was typed for round 2: saved now, it does not land in round 3, and the form
    # says so where Ann is looking.
    save = ann.get_by_role("button", name="Save Cid's Romans")
    save.click()
    said = ann.locator('#direct-entry form:has(input[name="player"][value="Cid"]) .form-error')
    expect(said).to_have_text(re.compile(r"\w"), timeout=5000)
    ann.screenshot(path=tmp_path / f"entry-refused-{size['width']}.png")
    save.click()  # a second tap does not get it in either
    expect(said).to_contain_text("round 3", timeout=5000)
    state = table.state()
    assert state["round"] == 3 and state["piles"]["Cid"]["romans"] == []
    assert state["closed"][1]["piles"]["Cid"]["romans"] == []
    # Folded away, the form turns into round 3's; opened again, it is empty.
    ann.locator("#direct-entry > summary").click()
    expect(ann.locator("#direct-entry h2")).to_contain_text("Type in round 3's piles")
    ann.locator("#direct-entry > summary").click()
    expect(ann.get_by_role("textbox", name="Cid's Romans")).to_have_value("")


# -- typing in the piles: a fresh form each round ---------------------------------------------------


@SMALLEST
def test_a_closed_round_leaves_an_empty_form_that_cannot_save_last_rounds_piles(
        live_server, new_phone, size, tmp_path):
    table = Table(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    ann.locator("#direct-entry > summary").click()
    expect(ann.locator("#direct-entry h2")).to_contain_text("Type in round 1's piles")
    ann.get_by_role("textbox", name="Ann's Romans").fill("10 10 7")
    ann.get_by_role("button", name="Save Ann's Romans").click()
    expect(ann.locator("#piles .ks-pile", has_text="Ann").locator(".ks-cards")).to_have_text("10107")
    ann.get_by_role("textbox", name="Ben's Romans").fill("5 5")
    ann.get_by_role("button", name="Save Ben's Romans").click()
    expect(ann.locator("#piles .ks-pile", has_text="Ben").locator(".ks-cards")).to_have_text("55")
    ann.locator('#scoring form[data-action="close_round"] button').click()
    expect(ann.locator("#deck h2")).to_contain_text("Round 2 of 4")

    # The new round's form: named for round 2, every field empty.
    expect(ann.locator("#direct-entry h2")).to_contain_text("Type in round 2's piles")
    for name in PLAYERS:
        expect(ann.get_by_role("textbox", name=f"{name}'s Romans")).to_have_value("")
    ann.screenshot(path=tmp_path / f"entry-round2-{size['width']}.png")
    # A second tap on Save enters nothing: the new round's piles stay empty, its tricks go on.
    ann.get_by_role("button", name="Save Ann's Romans").click()
    ann.wait_for_timeout(500)
    state = table.state()
    assert state["round"] == 2 and state["phase"] == "tricks"
    assert state["piles"]["Ann"]["romans"] == [] and state["piles"]["Ben"]["romans"] == []
    assert state["closed"][0]["piles"]["Ann"]["romans"] == [10, 10, 7]


# -- the score sheet ---------------------------------------------------------------------------------

LONG_NAMES = ["Maximiliane", "Bartholomäus", "Cunigunde", "Donatella", "Evangelina"]


@SIZES
def test_a_sheet_of_five_long_names_scrolls_sideways_under_a_fixed_round_column(
        live_server, new_phone, size, tmp_path):
    table = Table(live_server, players=LONG_NAMES)
    page = seated(new_phone, table.server, table.code, "Cunigunde", size)  # before the end
    # Four rounds: the chart's end labels stand right of the last round, with three digits.
    for _ in range(4):
        table.typed_round({"Maximiliane": "10 10 10", "Bartholomäus": "5 5 5", "Cunigunde": "14",
                           "Donatella": "1", "Evangelina": "12 11"})
    settle(page, table.server, table.code)
    sheet = page.locator("#totals .sheet-scroll")
    sheet.evaluate("el => el.scrollIntoView({block: 'center'})")
    wide = sheet.evaluate("el => ({scroll: el.scrollWidth, client: el.clientWidth})")
    assert wide["scroll"] > wide["client"], wide  # five long names do not fit: it scrolls
    expect(page.locator("#totals .swipe-hint")).to_be_visible()  # and says so
    left = sheet.evaluate("el => el.getBoundingClientRect().left")
    firsts = "#totals thead th:first-child, #totals th[scope=row]"
    page.screenshot(path=tmp_path / f"sheet-{size['width']}-start.png")
    sheet.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    page.wait_for_timeout(100)
    page.screenshot(path=tmp_path / f"sheet-{size['width']}-end.png")
    # The round column stays at the sheet's left edge while the names scroll past it.
    for x in page.locator(firsts).evaluate_all("els => els.map(e => e.getBoundingClientRect().left)"):
        assert abs(x - left) <= 3, (x, left)
    # Every name is shown whole: no header cuts its text off.
    clipped = page.locator("#totals thead th").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
    assert clipped == []
    last = page.locator("#totals thead th").last
    expect(last).to_have_text("Evangelina")
    box, frame = last.bounding_box(), sheet.bounding_box()
    assert box["x"] + box["width"] <= frame["x"] + frame["width"] + 1  # scrolled fully into view

    # The chart of five long names: every label inside the picture and at least 12 px as drawn.
    page.locator("#ks-chart-menu > summary").click()
    texts = page.locator("#totals figure.ks-chart > svg").evaluate("""svg => {
        const box = svg.viewBox.baseVal, scale = svg.getBoundingClientRect().width / box.width;
        return Array.from(svg.querySelectorAll('text')).map(t => {
            const b = t.getBBox();
            return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
                    inside: b.x >= -0.5 && b.y >= -0.5 && b.x + b.width <= box.width + 0.5
                            && b.y + b.height <= box.height + 0.5};
        });
    }""")
    labels = [t["text"] for t in texts]
    assert "Maximi… 320" in labels and "Bartho… 260" in labels
    assert [t for t in texts if t["px"] < ux.MIN_TEXT - 0.05 or not t["inside"]] == []
    page.locator("#totals figure.ks-chart").evaluate("el => el.scrollIntoView({block: 'center'})")
    page.screenshot(path=tmp_path / f"chart-{size['width']}.png")
    ux.assert_fit_for_hands_and_eyes(page, "five long names", sticking_out)


# -- the tablet ----------------------------------------------------------------------------------------


def test_a_landscape_tablet_shows_the_board_and_the_scores_side_by_side(live_server, new_phone, tmp_path):
    table = mid_game(live_server)
    tablet = seated(new_phone, table.server, table.code, "Dora", ux.TABLET)
    deck = tablet.locator("#deck").bounding_box()
    totals = tablet.locator("#totals").bounding_box()
    assert totals["x"] >= deck["x"] + deck["width"], (deck, totals)  # beside, not below
    assert totals["y"] < deck["y"] + deck["height"] / 2
    # The trick's controls and the totals are on the first screen together.
    who = tablet.locator('#deck form[data-action="win_roman"] button[value="Ann"]').bounding_box()
    assert who["y"] + who["height"] <= ux.TABLET["height"] * 1.5
    tablet.screenshot(path=tmp_path / "tablet.png")
    tablet.screenshot(path=tmp_path / "tablet-full.png", full_page=True)
    ux.assert_fit_for_hands_and_eyes(tablet, "tablet", sticking_out)


# -- a short page --------------------------------------------------------------------------------------


@SIZES
def test_a_normal_turn_needs_at_most_two_screens(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    # The face-up Roman and who won it: within two screens from the top of the page; the
    # typing-in, the Gauls and the chart are folded away.
    winners = ann.locator('#deck form[data-action="win_roman"] .ks-who-buttons')
    bottom = winners.evaluate("el => el.getBoundingClientRect().bottom + scrollY")
    assert bottom <= 2 * size["height"], bottom
    expect(ann.locator("#direct-entry")).not_to_have_attribute("open", "")
    expect(ann.locator("details.ks-gauls")).not_to_have_attribute("open", "")
    expect(ann.locator("#ks-chart-menu")).not_to_have_attribute("open", "")
    ann.screenshot(path=tmp_path / f"page-{size['width']}.png", full_page=True)
    print(f"kartenspiel mid-game page height at {size['width']}x{size['height']}: {ux.page_height(ann)} px")
    ux.assert_fit_for_hands_and_eyes(ann, "fresh mid-game page", sticking_out)


# -- in German: the longer words still fit the hand ------------------------------------------------


@SIZES
def test_in_german_the_board_and_its_menus_fit_the_hand(live_server, new_phone, size, tmp_path, german_shots):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Ann", size, locale="de-DE")
    expect(ann.locator("#deck .ks-deck-count")).to_contain_text("von 50 Karten im Stapel")
    expect(ann.locator("#deck .ks-hands")).to_contain_text("Gallier + Idefix")
    # The menus with the longest German words: the pirates and Idefix.
    ann.locator("#ks-pirate-menu > summary").click()
    ann.locator("#ks-idefix-menu > summary").click()
    expect(ann.locator("#ks-pirate-menu")).to_contain_text("Rangniedrigste")
    expect(ann.locator("#ks-idefix-menu")).to_contain_text("Behalten")
    ux.assert_fit_for_hands_and_eyes(ann, "German mid-game page, menus open", sticking_out)
    ann.screenshot(path=tmp_path / f"de-menus-{size['width']}.png", full_page=True)
    ann.locator("#ks-pirate-menu > summary").click()
    ann.locator("#ks-idefix-menu > summary").click()
    ann.evaluate("window.scrollTo(0, 0)")
    ann.screenshot(path=german_shots / f"de-kartenspiel-{size['width']}.png", full_page=True)
    # The scoring of a round: pirate names, take-out buttons and the close button.
    table.act(type="add_pirate", player="Ann", kind="lowest")
    table.act(type="add_pirate", player="Ben", kind="choice")
    settle(ann, live_server, table.code)
    expect(ann.locator("#scoring")).to_contain_text("Wertung von Runde 2")
    expect(ann.locator("#scoring")).to_contain_text("Runde 2 abschließen, Runde 3 beginnen")
    ux.assert_fit_for_hands_and_eyes(ann, "German scoring", sticking_out)
    ann.screenshot(path=tmp_path / f"de-scoring-{size['width']}.png", full_page=True)


@pytest.mark.parametrize("size, players", [(ux.PHONE_390, ["Lena", "Jonas", "Mama", "Papa"]),
                                           (ux.PHONE_320, ["Lena", "Jonas", "Mama"])], ids=["390x4", "320x3"])
def test_the_totals_of_four_players_fit_390_px_and_of_three_fit_320(live_server, new_phone, size, players):
    table = Table(live_server, players)
    table.typed_round({name: "10 7" for name in players})
    page = seated(new_phone, live_server, table.code, "Mama", size, locale="de-DE")
    sheet = page.locator("#totals .ks-sheet")
    sheet.scroll_into_view_if_needed()
    wide, room = sheet.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert wide <= room, f"the totals are {wide} px wide in {room} px: they would need a swipe"
    expect(page.locator("#totals .swipe-hint")).to_be_hidden()
