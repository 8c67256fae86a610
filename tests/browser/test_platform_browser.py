"""What only a browser shows: live updates between phones, undo, offline, the rules overlay."""

from playwright.sync_api import expect
import pytest

from tests.browser import ux
from tests.browser.conftest import api, create_table, join


def test_two_phones_share_a_score_and_an_undo(live_server, new_phone, tmp_path):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    ann, ben = new_phone(), new_phone()
    for page in (ann, ben):  # pushed on the stream: no poll can carry the changes
        page.route("**/live?*", lambda route: route.abort())
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")

    # Ben starts typing in the entry form: a live update must not wipe it.
    ben.locator("form.score-entry input[name=points]").fill("3")

    ann.locator("form.score-entry select[name=player]").select_option("Ann")
    ann.locator("form.score-entry input[name=round]").fill("1")
    ann.locator("form.score-entry input[name=points]").fill("17")
    ann.get_by_role("button", name="Save score").click()

    # Within 1.5 s, without a reload, Ben's sheet shows it.
    expect(ben.locator("#scoresheet tfoot")).to_contain_text("17", timeout=1500)
    expect(ben.locator("#history .log")).to_contain_text("Ann wrote down 17 points in round 1")
    assert ben.locator("form.score-entry input[name=points]").input_value() == "3"

    # Undo on Ben's phone reverts it on Ann's.
    ben.get_by_role("button", name="↶ Undo").click()
    expect(ann.locator("#scoresheet tfoot")).not_to_contain_text("17", timeout=1500)
    expect(ann.locator("#history .log")).to_contain_text("Ben undid")
    ann.screenshot(path=tmp_path / "scorepad-ann.png", full_page=True)


@pytest.mark.network_failures
def test_the_page_says_when_the_server_is_gone_and_recovers(server, new_phone):
    table = create_table(server.url, "scorepad", ["Ann"])
    page = new_phone()
    join(page, server.url, table["code"], "Ann")
    banner = page.locator("#connection")
    expect(banner).to_be_hidden()
    server.stop()
    try:
        expect(banner).to_be_visible(timeout=8000)
        expect(banner).to_contain_text("No connection")
    finally:
        server.start()
    expect(banner).to_be_hidden(timeout=8000)
    # The table survived the restart and the page carries on.
    page.locator("form.score-entry input[name=points]").fill("4")
    page.get_by_role("button", name="Save score").click()
    expect(page.locator("#scoresheet tfoot")).to_contain_text("4", timeout=3000)


# The QR code's address is decoded and opened in test_pages_browser.py, on a server that
# listens on every interface (this suite's listens on loopback, where the invite says that
# phones cannot join).


def test_the_rules_overlay_searches_and_reads_without_leaving_the_table(live_server, new_phone):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    ann, ben = new_phone(), new_phone()
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")
    ann.get_by_role("link", name="Rules").click()
    dialog = ann.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    ann.locator("#rules-q").fill("zenturio tie")
    hits = ann.locator("#rules-dialog-body .hits a")
    expect(hits.first).to_be_visible(timeout=3000)
    expect(ann.locator("#rules-dialog-body mark").first).to_be_visible()
    hits.first.click()
    expect(ann.locator("#rules-dialog-body article.rule h2")).to_be_visible()
    # While Ann reads, Ben scores: Ann's board updates behind the overlay.
    ben.locator("form.score-entry input[name=points]").fill("9")
    ben.get_by_role("button", name="Save score").click()
    expect(ann.locator("#scoresheet tfoot")).to_contain_text("9", timeout=3000)
    assert ann.url.endswith(f"/t/{table['code']}")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(ann.locator("#scoresheet tfoot")).to_contain_text("9")


def test_enter_in_the_rules_dialog_answers_inside_it_on_a_german_phone(live_server, new_phone, tmp_path):
    table = create_table(live_server, "kartenspiel", ["Lena", "Jonas", "Mama"])
    lena = new_phone(viewport=ux.PHONE_390, locale="de-DE")
    join(lena, live_server, table["code"], "Lena")
    lena.get_by_role("link", name="Regeln").click()
    dialog = lena.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    # Typed and sent at once with Enter, faster than the search-as-you-type waits.
    lena.locator("#rules-q").press_sequentially("Darf ich zwei Karten spielen?", delay=0)
    lena.locator("#rules-q").press("Enter")
    first = lena.locator("#rules-dialog-body .hits a").first
    expect(first).to_contain_text("Einen Stich spielen", timeout=3000)
    assert lena.url.endswith(f"/t/{table['code']}")
    expect(dialog).to_be_visible()
    lena.screenshot(path=tmp_path / f"rules-enter-{ux.PHONE_390['width']}.png")
    first.click()
    expect(lena.locator("#rules-dialog-body article.rule h2")).to_have_text("Einen Stich spielen")
    assert lena.url.endswith(f"/t/{table['code']}")


@pytest.mark.network_failures  # its poll is cut: the update must come pushed
def test_an_open_dialog_and_its_half_typed_name_survive_a_live_update(live_server, new_phone):
    """On her turn Laura is typing a character into the play dialog while a move of Matthew's
    (the host handed the turn back: the real table went on) changes the albums behind it:
    her dialog and text stay, and the albums show the move."""
    table = create_table(live_server, "asterix-co", ["Matthew", "Laura"])
    matthew, laura = new_phone(), new_phone()
    laura.route("**/live?*", lambda route: route.abort())  # the update is pushed, not polled
    join(matthew, live_server, table["code"], "Matthew")
    join(laura, live_server, table["code"], "Laura")

    def play(page, strength, kind, name):
        page.locator("#album-1 .ac-side-gaul .ac-add").click()
        dialog = page.locator("#ac-play")
        dialog.locator(".ac-strength label.chip").filter(has_text=str(strength)).click()
        dialog.locator("input[name=name]").fill(name)
        dialog.locator(".ac-types").get_by_role("button", name=kind, exact=True).click()
        expect(dialog).to_be_hidden()

    play(matthew, 3, "Rebel", "Obelix")  # Matthew's turn; then it is Laura's
    expect(laura.locator("#history .log")).to_contain_text("Obelix", timeout=3000)
    laura.locator("#album-1 .ac-side-roman .ac-add").click()
    dialog = laura.locator("#ac-play")
    expect(dialog).to_be_visible()
    dialog.locator("input[name=name]").fill("Crismus Bo")

    api(live_server, "POST", f"/api/tables/{table['code']}/actions",
        {"type": "hand_turn", "player": "Matthew"}, token=table["token"])
    expect(matthew.locator("#album-1 .ac-side-gaul .ac-add")).to_be_enabled(timeout=3000)
    play(matthew, 6, "Hero", "Asterix")
    # The change has reached Laura's phone (her history shows it) ...
    expect(laura.locator("#history .log")).to_contain_text("Asterix", timeout=3000)
    laura.wait_for_timeout(1500)  # ... and a while has passed
    # ... but her dialog is still open with what she typed.
    expect(dialog).to_be_visible()
    assert dialog.locator("input[name=name]").input_value() == "Crismus Bo"
    dialog.get_by_role("button", name="Close").click()
    # The albums (another region than the dialog's) show the move.
    expect(laura.locator("#album-1 .ac-side-gaul")).to_contain_text("Asterix", timeout=3000)
