"""The score pad at the table, as a hand and an eye feel it, on a 390 px and a 320 px phone and
a landscape tablet: a score written by tapping its cell (a small dialog over the sheet) or with
the entry form, without the page moving under the finger; a dialog and a half-typed score that
survive another phone's entry; a sheet of five long names with a fixed round column that
scrolls sideways and says so; and nothing too small, too wide or unlabelled."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import ux
from tests.browser.conftest import api, create_table, seated, settle

SIZES = pytest.mark.parametrize("size", list(ux.SIZES.values()), ids=list(ux.SIZES))
SMALLEST = pytest.mark.parametrize("size", list(ux.SMALLEST.values()), ids=list(ux.SMALLEST))
LONG_NAMES = ["Annabelle", "Benedikt-Maximilian", "Clementine", "Dorothea", "Eberhard"]


class Table:
    """A table whose other phones write through the JSON API (the host's token)."""

    def __init__(self, live_server: str, players=LONG_NAMES, options: dict | None = None):
        self.server = live_server
        created = create_table(live_server, "scorepad", list(players), options)
        self.code, self.token = created["code"], created["token"]
        self.players = list(players)

    def score(self, player: str, round_: int, points: int) -> dict:
        return api(self.server, "POST", f"/api/tables/{self.code}/actions",
                   {"type": "enter_score", "player": player, "round": round_, "points": points}, token=self.token)

    def scores(self) -> dict:
        return api(self.server, "GET", f"/api/tables/{self.code}")["state"]["entries"]


def mid_game(live_server: str, players=LONG_NAMES, rounds: int = 5) -> Table:
    """``rounds`` rounds written for everybody, and the next one begun by the first two."""
    table = Table(live_server, players)
    for round_ in range(1, rounds + 1):
        for i, name in enumerate(players):
            table.score(name, round_, (round_ * 7 + i * 13) % 40 - 5)
    for name in players[:2]:
        table.score(name, rounds + 1, 10)
    return table


def cell(player: str, round_: int) -> str:
    return f'#scoresheet button.cell[data-player="{player}"][data-round="{round_}"]'


# -- a round by taps -------------------------------------------------------------------------------


@SMALLEST
def test_a_score_written_in_its_cell_keeps_the_cell_where_it_was(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Annabelle", size)
    dialog = ann.locator("#score-cell")
    target = cell("Clementine", 6)

    # The cell opens its dialog over the sheet: the page does not move.
    ux.kept_in_place(ann, target, lambda: ann.locator(target).tap(), settle=lambda: expect(dialog).to_be_visible())
    expect(dialog.get_by_role("heading")).to_have_text("Clementine, round 6")
    expect(dialog.locator("input[name=points]")).to_be_focused()
    ann.screenshot(path=tmp_path / f"sp-cell-dialog-{size['width']}.png")
    ux.assert_fit_for_hands_and_eyes(ann, "cell dialog open")

    # Saved: the dialog closes and the cell, where it was, shows the score.
    before = ux.top_of(ann, target)
    dialog.locator("input[name=points]").fill("-7")
    dialog.get_by_role("button", name="Save").tap()
    expect(dialog).to_be_hidden()
    expect(ann.locator(target)).to_have_text("-7")
    ann.wait_for_timeout(300)
    assert abs(ux.top_of(ann, target) - before) <= ux.LINE
    assert table.scores()["Clementine"]["6"] == -7

    # A written score is changed the same way.
    ux.kept_in_place(ann, cell("Annabelle", 2), lambda: ann.locator(cell("Annabelle", 2)).tap(),
                     settle=lambda: expect(dialog).to_be_visible())
    expect(dialog.locator("input[name=points]")).to_have_value(str((2 * 7) % 40 - 5))
    dialog.locator("[data-flip-sign]").tap()
    dialog.get_by_role("button", name="Save").tap()
    expect(ann.locator(cell("Annabelle", 2))).to_have_text("-9")
    ann.screenshot(path=tmp_path / f"sp-after-edit-{size['width']}.png")


@SMALLEST
def test_the_entry_form_keeps_save_where_it_was_when_a_round_is_added(live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Annabelle", size)
    form = ann.locator("form.score-entry")
    save = "form.score-entry button[type=submit]"
    # The next round a new row: the sheet above the form grows; Save stays under the finger.
    form.locator("select[name=player]").select_option("Eberhard")
    form.locator("input[name=round]").fill("7")
    form.locator("input[name=points]").fill("12")
    ux.kept_in_place(ann, save, lambda: ann.locator(save).tap(),
                     settle=lambda: expect(ann.locator(cell("Eberhard", 7))).to_have_text("12"))
    expect(form.locator("input[name=points]")).to_have_value("")
    assert table.scores()["Eberhard"]["7"] == 12
    ann.screenshot(path=tmp_path / f"sp-entry-{size['width']}.png")


def test_the_next_entry_typed_before_the_answer_came_is_kept(live_server, new_phone):
    """The stream shows an entry before its own answer reaches the phone: the player, seeing
    it, types the next one, and the late answer must not empty or renumber what they typed."""
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Annabelle", ux.PHONE_390)
    held = []
    ann.route(f"**/t/{table.code}/act*", lambda route: held.append((route, route.fetch())))
    form = ann.locator("form.score-entry")
    form.locator("select[name=player]").select_option("Clementine")
    form.locator("input[name=round]").fill("6")
    form.locator("input[name=points]").fill("12")
    form.locator("button[type=submit]").tap()
    expect(ann.locator(cell("Clementine", 6))).to_have_text("12")  # from the stream
    form.locator("select[name=player]").select_option("Dorothea")
    form.locator("input[name=round]").fill("6")
    form.locator("input[name=points]").fill("8")
    route, answer = held.pop()
    route.fulfill(response=answer)
    ann.wait_for_timeout(300)
    expect(form.locator("input[name=round]")).to_have_value("6")
    expect(form.locator("input[name=points]")).to_have_value("8")
    ann.unroute(f"**/t/{table.code}/act*")
    form.locator("button[type=submit]").tap()
    expect(ann.locator(cell("Dorothea", 6))).to_have_text("8")
    assert table.scores()["Clementine"]["6"] == 12 and table.scores()["Dorothea"]["6"] == 8


# -- a dialog and half-typed scores through other phones' entries -------------------------------------


@SMALLEST
def test_an_open_dialog_and_half_typed_scores_survive_another_phones_entry(
        live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Annabelle", size)
    form = ann.locator("form.score-entry")
    form.locator("input[name=points]").fill("33")

    ann.locator(cell("Dorothea", 6)).tap()
    dialog = ann.locator("#score-cell")
    expect(dialog).to_be_visible()
    dialog.locator("input[name=points]").fill("4")

    table.score("Eberhard", 6, 21)  # another phone writes meanwhile
    settle(ann, live_server, table.code)
    ann.wait_for_timeout(300)
    expect(ann.locator(cell("Eberhard", 6))).to_have_text("21")  # the sheet behind shows it
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Dorothea, round 6")
    expect(dialog.locator("input[name=points]")).to_have_value("4")
    ann.screenshot(path=tmp_path / f"sp-dialog-kept-{size['width']}.png")

    # Sent: the tap was made against the sheet as it was, but touches another cell than the
    # other phone's entry, so it is recorded (merged), not refused.
    dialog.get_by_role("button", name="Save").tap()
    expect(dialog).to_be_hidden()
    expect(ann.locator(cell("Dorothea", 6))).to_have_text("4")
    expect(form.locator("input[name=points]")).to_have_value("33")
    assert table.scores()["Dorothea"]["6"] == 4
    assert table.scores()["Eberhard"]["6"] == 21

    # The same cell written by another phone meanwhile is a real conflict: refused in the
    # dialog where Ann looks; a second tap (on the fresh sheet) lands.
    ann.locator(cell("Dorothea", 6)).tap()
    expect(dialog).to_be_visible()
    dialog.locator("input[name=points]").fill("5")
    table.score("Dorothea", 6, 9)
    settle(ann, live_server, table.code)
    dialog.get_by_role("button", name="Save").tap()
    expect(dialog.locator(".form-error")).to_contain_text("The table changed a moment before your tap")
    expect(dialog).to_be_visible()
    assert table.scores()["Dorothea"]["6"] == 9
    dialog.get_by_role("button", name="Save").tap()
    expect(dialog).to_be_hidden()
    expect(ann.locator(cell("Dorothea", 6))).to_have_text("5")
    assert table.scores()["Dorothea"]["6"] == 5


# -- the sheet: many players, long names ---------------------------------------------------------


@SIZES
def test_a_wide_sheet_keeps_the_round_column_and_scrolls_sideways_with_a_hint(
        live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Annabelle", size)
    sheet = ann.locator("#scoresheet")
    scroller = sheet.locator(".sheet-scroll")
    expect(sheet.locator(".sheet-more")).to_be_visible()
    expect(sheet.locator(".sheet-more")).to_contain_text("sideways")
    assert scroller.evaluate("el => el.scrollWidth > el.clientWidth")

    # Every name in full: wrapped, never cut off.
    for name in LONG_NAMES:
        head = sheet.locator("thead th .name", has_text=name)
        assert head.evaluate("el => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1"), name
    assert sheet.locator("thead").inner_text().replace("\n", " ").count("Benedikt-Maximilian") == 1

    # Scrolled to the last player: the round column stays at the left edge.
    round_head = sheet.locator("thead th").first
    left = scroller.bounding_box()["x"]
    scroller.evaluate("el => el.scrollTo({left: el.scrollWidth})")
    ann.wait_for_timeout(200)
    assert abs(round_head.bounding_box()["x"] - left) <= 3
    assert abs(sheet.locator("tbody th").nth(5).bounding_box()["x"] - left) <= 3
    expect(ann.locator(cell("Eberhard", 1))).to_be_in_viewport()
    ann.screenshot(path=tmp_path / f"sp-wide-scrolled-{size['width']}.png")
    ux.assert_fit_for_hands_and_eyes(ann, "wide sheet scrolled")

    # A live update keeps the sheet where it was scrolled to.
    scrolled = scroller.evaluate("el => el.scrollLeft")
    assert scrolled > 0
    table.score("Eberhard", 6, 8)
    expect(ann.locator(cell("Eberhard", 6))).to_have_text("8", timeout=3000)
    ann.wait_for_timeout(300)
    assert scroller.evaluate("el => el.scrollLeft") == scrolled
    assert abs(round_head.bounding_box()["x"] - left) <= 3


@SIZES
def test_a_narrow_sheet_says_nothing_about_scrolling(live_server, new_phone, size):
    table = mid_game(live_server, players=["Ann", "Ben"], rounds=3)
    ann = seated(new_phone, table.server, table.code, "Ann", size)
    expect(ann.locator("#scoresheet .sheet-more")).to_be_hidden()
    assert ann.locator("#scoresheet .sheet-scroll").evaluate("el => el.scrollWidth <= el.clientWidth")
    ux.assert_fit_for_hands_and_eyes(ann, "two players")


@SIZES
def test_a_round_needs_at_most_two_screens_of_scrolling(live_server, new_phone, size):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Annabelle", size)
    # The cells of the round being written are within two screens of the top of the page.
    row = ann.eval_on_selector(cell("Annabelle", 6), "el => el.getBoundingClientRect().bottom + scrollY")
    assert row <= 2 * size["height"], row
    print(f"score pad, 5 players, round 6, at {size['width']}x{size['height']}: page {ux.page_height(ann)} px, "
          f"sheet ends at {ann.eval_on_selector('#scoresheet', 'el => el.getBoundingClientRect().bottom + scrollY'):.0f}")


def test_on_a_tablet_the_sheet_and_the_entry_form_stand_side_by_side(live_server, new_phone, tmp_path):
    table = mid_game(live_server)
    page = seated(new_phone, table.server, table.code, "Annabelle", ux.TABLET)
    sheet = page.locator("#scoresheet").bounding_box()
    entry = page.locator("section.entry").bounding_box()
    assert entry["x"] >= sheet["x"] + sheet["width"], (entry, sheet)  # to the right of the sheet
    assert entry["y"] < sheet["y"] + sheet["height"], (entry, sheet)  # beside it, not below
    assert page.locator("#scoresheet tfoot").bounding_box()["y"] < ux.TABLET["height"]  # totals on the first screen
    page.screenshot(path=tmp_path / "sp-tablet.png", full_page=True)
    ux.assert_fit_for_hands_and_eyes(page, "tablet")
    print(f"score pad at 1024x768: page {ux.page_height(page)} px")


def test_a_watcher_sees_the_sheet_without_buttons_and_it_still_takes_focus(live_server, new_phone):
    table = mid_game(live_server)
    page = seated(new_phone, table.server, table.code, None, ux.PHONE_390)
    expect(page.locator("#scoresheet button.cell")).to_have_count(0)
    expect(page.locator("#score-cell")).to_have_count(0)
    expect(page.get_by_role("region", name="Score sheet: 5 players, 6 rounds")).to_be_visible()
    ux.assert_fit_for_hands_and_eyes(page, "watcher")


@SMALLEST
def test_finishing_the_game_keeps_the_button_in_place_and_shows_the_winner(
        live_server, new_phone, size, tmp_path):
    table = mid_game(live_server)
    ann = seated(new_phone, table.server, table.code, "Annabelle", size)
    finish = '#scoresheet form[data-action="finish_game"] button'
    # The button goes with the tap (the game is over); the sheet above it stays where it was.
    ann.eval_on_selector(finish, "el => el.scrollIntoView({block: 'center'})")
    ann.wait_for_timeout(100)
    before = ux.top_of(ann, "#scoresheet tfoot")
    ann.locator(finish).tap()
    expect(ann.locator("#scoresheet tfoot td.win")).to_contain_text("🏆")
    ann.wait_for_timeout(300)
    assert abs(ux.top_of(ann, "#scoresheet tfoot") - before) <= ux.LINE
    expect(ann.locator("#scoresheet button.cell")).to_have_count(0)  # a finished sheet is read, not written
    ann.screenshot(path=tmp_path / f"sp-finished-{size['width']}.png", full_page=True)
    ux.assert_fit_for_hands_and_eyes(ann, "finished")


def test_a_round_typed_far_past_the_sheet_is_asked_about_first(live_server, new_phone, tmp_path):
    table = Table(live_server, ["Lena", "Jonas", "Mama"])
    for name in table.players:
        table.score(name, 1, 5)
        table.score(name, 2, 7)
    mama = seated(new_phone, table.server, table.code, "Mama", ux.PHONE_390, locale="de-DE")
    form = mama.locator("form.score-entry")
    ask = mama.locator("#round-gap")
    # A 7 typed for a 3: asked, not written; kept on the form to be fixed.
    form.locator("input[name=round]").fill("7")
    form.locator("input[name=points]").fill("12")
    form.get_by_role("button", name="Punkte speichern").tap()
    expect(ask.get_by_role("heading")).to_have_text("Runde 7 eintragen?")
    expect(ask).to_contain_text("Der Block geht bis Runde 2: Die Runden 3 bis 6 blieben leer.")
    mama.screenshot(path=tmp_path / "sp-round-gap-390.png")
    ask.get_by_role("button", name="Nein, ich korrigiere").tap()
    expect(ask).to_be_hidden()
    assert "7" not in table.scores()["Mama"]
    expect(form.locator("input[name=round]")).to_have_value("7")
    # The next round is written without a question; so is a far one once confirmed.
    form.locator("input[name=round]").fill("3")
    form.get_by_role("button", name="Punkte speichern").tap()
    expect(mama.locator(cell("Mama", 3))).to_contain_text("12")
    expect(ask).to_be_hidden()
    form.locator("input[name=round]").fill("5")
    form.locator("input[name=points]").fill("4")
    form.get_by_role("button", name="Punkte speichern").tap()
    expect(ask).to_contain_text("Der Block geht bis Runde 3: Runde 4 bliebe leer.")
    ask.get_by_role("button", name="Ja, diese Runde").tap()
    expect(mama.locator(cell("Mama", 5))).to_contain_text("4")
    assert table.scores()["Mama"] == {"1": 5, "2": 7, "3": 12, "5": 4}


def test_the_entry_form_offers_each_players_next_round_as_other_phones_write(live_server, new_phone):
    table = Table(live_server, ["Papa", "Mama", "Lena"])
    papa = seated(new_phone, table.server, table.code, "Papa", ux.PHONE_390, locale="de-DE")
    form = papa.locator("form.score-entry")
    round_ = form.locator("input[name=round]")
    expect(round_).to_have_value("1")
    # Round 1 written on the other phones (in the sheet's cells): Papa's form moves on by itself.
    for name, points in (("Papa", 7), ("Mama", 9), ("Lena", 15)):
        table.score(name, 1, points)
    expect(round_).to_have_value("2")
    form.locator("select[name=player]").select_option("Mama")
    expect(round_).to_have_value("2")
    table.score("Mama", 2, 4)
    expect(round_).to_have_value("3")
    # Papa writes his round 2, takes it back: the form offers round 2 again, not 3.
    form.locator("select[name=player]").select_option("Papa")
    form.locator("input[name=points]").fill("5")
    form.get_by_role("button", name="Punkte speichern").tap()
    expect(papa.locator(cell("Papa", 2))).to_contain_text("5")
    expect(round_).to_have_value("3")
    papa.locator("#lastmove").get_by_role("button", name="Rückgängig").click()
    expect(papa.locator(cell("Papa", 2))).to_have_text("–")
    expect(round_).to_have_value("2")
    # A round typed by hand stays as typed while other phones write.
    round_.fill("4")
    table.score("Lena", 2, 8)
    papa.wait_for_timeout(300)
    expect(round_).to_have_value("4")


def test_a_score_written_over_one_the_sheet_holds_is_asked_first(live_server, new_phone, tmp_path):
    table = Table(live_server, ["Papa", "Lena"])
    table.score("Lena", 1, 15)
    papa = seated(new_phone, table.server, table.code, "Papa", ux.PHONE_390, locale="de-DE")
    form = papa.locator("form.score-entry")
    ask = papa.locator("#score-replace")
    form.locator("select[name=player]").select_option("Lena")
    form.locator("input[name=round]").fill("1")
    form.locator("input[name=points]").fill("11")
    form.get_by_role("button", name="Punkte speichern").tap()
    expect(ask.get_by_role("heading")).to_have_text("15 von Lena in Runde 1 ersetzen?")
    expect(ask).to_contain_text("In Runde 1 steht für Lena schon 15; beim Speichern steht dort stattdessen 11.")
    # The safe answer is the one a quick tap meets.
    expect(ask.get_by_role("button", name="Nein, ich korrigiere")).to_be_focused()
    papa.screenshot(path=tmp_path / "sp-replace-390.png")
    ask.get_by_role("button", name="Nein, ich korrigiere").tap()
    expect(ask).to_be_hidden()
    assert table.scores()["Lena"] == {"1": 15}
    form.get_by_role("button", name="Punkte speichern").tap()
    ask.get_by_role("button", name="Ja, ersetzen").tap()
    expect(papa.locator(cell("Lena", 1))).to_contain_text("11")
    assert table.scores()["Lena"] == {"1": 11}


@pytest.mark.parametrize("size, players", [(ux.PHONE_390, ["Lena", "Jonas", "Mama", "Papa"]),
                                           (ux.PHONE_320, ["Lena", "Jonas", "Mama"])], ids=["390x4", "320x3"])
def test_a_sheet_of_four_fits_390_px_and_of_three_fits_320(live_server, new_phone, size, players):
    table = Table(live_server, players)
    for round_ in (1, 2, 3):
        for name in players:
            table.score(name, round_, 100 + 10 * round_)
    page = seated(new_phone, table.server, table.code, "Mama", size, locale="de-DE")
    sheet = page.locator("#scoresheet .sheet-scroll")
    wide, room = sheet.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert wide <= room, f"the sheet is {wide} px wide in {room} px: it would need a swipe"
    expect(page.locator("#scoresheet .sheet-more")).to_be_hidden()
    ux.assert_fit_for_hands_and_eyes(page, f"{len(players)} players")
