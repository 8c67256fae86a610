"""The phone shell in real browsers (static/app/, templates/base.html): the page stays where it
was through taps and live updates, open menus and dialogs outlive other phones' moves, a refusal
shows where the player looks, a tap made offline is sent when the connection is back, and the
top bar (install, keep the screen on, Rules) fits and can be hit on every phone."""

from __future__ import annotations

import json
import re
import struct
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser import ux
from tests.browser.conftest import act, api, create_table, join, seated, settle

SIZES = pytest.mark.parametrize("size", list(ux.SIZES.values()), ids=list(ux.SIZES))
SMALLEST = pytest.mark.parametrize("size", list(ux.SMALLEST.values()), ids=list(ux.SMALLEST))
# The button for a red legionary (by the fields it sends, the same on every layout).
RED = "form:has(input[name=colour][value=red]) button[name=kind][value=legionary]"


def attacking(live_server: str, new_phone, size: dict):
    """An Asterix & Obelix table in mid-attack, Ann's phone showing the cards she may turn."""
    table = create_table(live_server, "asterix-obelix", ["Ann", "Ben"])
    act(live_server, table, {"type": "start_game", "starter": "Ann"})
    act(live_server, table, {"type": "choose_line", "line": "row", "number": 2, "start": "right"})
    page = new_phone(viewport=size)
    join(page, live_server, table["code"], "Ann")
    expect(page.locator(RED)).to_be_visible()
    return table, page


def log_texts(live_server: str, table: dict) -> list[str]:
    return [line["text"] for line in api(live_server, "GET", f"/api/tables/{table['code']}")["log"]]


def sent_again(page, keys: list) -> None:
    """Waits until the phone has sent the tap a second time and holds nothing back any more.
    (The board may show the change from the stream before the first answer comes at all, so
    an empty waiting list alone says nothing yet.)"""
    for _ in range(200):
        if len(keys) >= 2:
            break
        page.wait_for_timeout(100)  # lets the page's events come in
    page.wait_for_function("() => !sessionStorage.length || Object.keys(sessionStorage)"
                           ".every((k) => !k.startsWith('companion-unsent:'))", timeout=15_000)


def inside(page, selector: str, container: str | None = None) -> bool:
    """The element is wholly on screen (and inside ``container``'s visible box)."""
    return page.evaluate(
        """([selector, container]) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            if (box.height === 0 || box.top < 0 || box.bottom > innerHeight) return false;
            if (!container) return true;
            const area = document.querySelector(container).getBoundingClientRect();
            return box.top >= area.top - 1 && box.bottom <= area.bottom + 1;
        }""", [selector, container])


# -- the page stays where it was ------------------------------------------------------------

@SMALLEST
def test_taps_that_redraw_their_region_leave_the_tapped_control_where_it_was(live_server, new_phone, size):
    table = create_table(live_server, "asterix-obelix", ["Ann", "Ben"])
    page = new_phone(viewport=size)
    join(page, live_server, table["code"], "Ann")
    # A turn by taps, as at the table: who starts, then the arrow before row 2.
    for name, then in (("Ann attacks first", "Attack row 2 from the right"), ("Attack row 2 from the right", None)):
        button = page.get_by_role("button", name=name, exact=True)
        button.evaluate("el => el.scrollIntoView({block: 'center'})")
        button.click()
        expect(page.get_by_role("button", name=then, exact=True) if then else page.locator(RED)).to_be_visible()
        settle(page, live_server, table["code"])
    for beaten in (1, 2):
        # The old button is marked: after the tap the one measured is the new copy.
        page.eval_on_selector(RED, "el => { el.dataset.old = 'yes'; }")
        ux.kept_in_place(page, RED, lambda: page.locator(RED).click(),
                         lambda: expect(page.locator("#board")).to_contain_text(f"beaten so far: {beaten}"))
        settle(page, live_server, table["code"])
        assert page.eval_on_selector(RED, "el => !el.dataset.old"), "the board was not redrawn"
        # The new copy of the tapped button has the focus the tapped one had.
        assert page.evaluate("s => document.activeElement === document.querySelector(s)", RED)
    undo = "#history button:has-text('Undo')"
    ux.kept_in_place(page, undo, lambda: page.locator(undo).click(),
                     lambda: expect(page.locator("#board")).to_contain_text("beaten so far: 1"))


@SMALLEST
def test_moves_made_on_another_phone_leave_the_page_where_it_was(live_server, new_phone, size):
    table, page = attacking(live_server, new_phone, size)
    # Each move redraws the board, the status line above it and the history below it.
    for selector, move in (("#board .ao-grid", {"type": "reveal_card", "kind": "legionary", "colour": "red"}),
                           ("#history .undo-bar", {"type": "reveal_card", "kind": "feast"}),
                           ("#board .ao-grid", {"type": "end_attack"})):
        ux.kept_in_place(page, selector, lambda move=move: act(live_server, table, move),
                         lambda: settle(page, live_server, table["code"]))


# -- open menus, dialogs and fields outlive live updates ------------------------------------

@SMALLEST
def test_an_open_menu_stays_open_through_another_phones_moves(live_server, new_phone, size):
    table = create_table(live_server, "zaubertrank", ["Ann", "Bob"])
    page = new_phone(viewport=size)
    join(page, live_server, table["code"], "Ann")
    summary = "#timeline details#zt-bag summary"
    bag = page.locator("#timeline details#zt-bag")
    page.locator(summary).click()
    expect(bag).to_have_attribute("open", "")
    page.eval_on_selector(summary, "el => { el.dataset.old = 'yes'; }")
    ux.kept_in_place(page, summary, lambda: act(live_server, table, {"type": "draw_mishap", "symbol": "lightning"}),
                     lambda: settle(page, live_server, table["code"]))
    # The ring was redrawn (the bag holds one marker less) and the menu is open in the new copy.
    assert page.eval_on_selector(summary, "el => !el.dataset.old"), "the ring was not redrawn"
    expect(bag).to_have_attribute("open", "")
    expect(bag.locator(".zt-menu-body")).to_be_visible()
    # Closed by the player, it stays closed through the next move.
    page.locator(summary).click()
    expect(bag).not_to_have_attribute("open", "")
    api(live_server, "POST", f"/api/tables/{table['code']}/undo", {}, token=table["token"])
    settle(page, live_server, table["code"])
    expect(bag).not_to_have_attribute("open", "")


def test_a_choice_made_in_an_open_menu_survives_another_phones_move(live_server, new_phone):
    table = create_table(live_server, "kartenspiel", ["Ann", "Bob"])
    page = new_phone(viewport=ux.PHONE_390)
    join(page, live_server, table["code"], "Ann")
    menu = page.locator("details#ks-idefix-menu")
    menu.locator("summary").click()
    # Half chosen, not sent: whose Dogmatix looked, and what it saw.
    menu.locator("label:has(input[name=player][value=Ann])").click()
    menu.locator("label:has(input[name=roman][value='7'])").click()
    page.evaluate("() => document.activeElement.blur()")  # the player looks elsewhere
    act(live_server, table, {"type": "win_roman", "player": "Bob", "value": 5})
    settle(page, live_server, table["code"])
    page.wait_for_timeout(500)
    expect(menu).to_have_attribute("open", "")
    expect(menu.locator("input[name=player][value=Ann]")).to_be_checked()
    expect(menu.locator("input[name=roman][value='7']")).to_be_checked()
    # Bob's Roman touched only Bob's pile: Ann's choice, made against the table before it,
    # still counts; once sent, the region catches up with the menu still open.
    menu.get_by_role("button", name="Kept it").click()
    page.wait_for_function(
        "code => fetch(`/api/tables/${code}`).then(r => r.json()).then(t => t.state.piles.Ann.romans.includes(7))",
        arg=table["code"], timeout=5000)
    settle(page, live_server, table["code"])
    expect(menu).to_have_attribute("open", "")
    piles = api(live_server, "GET", f"/api/tables/{table['code']}")["state"]["piles"]
    assert (piles["Ann"]["romans"], piles["Bob"]["romans"]) == ([7], [5])


@SMALLEST
def test_an_open_dialog_survives_a_move_and_its_refusal_shows_inside_it(
        live_server, new_phone, size, tmp_path):
    table = create_table(live_server, "asterix-co", ["Matthew", "Laura"])
    act(live_server, table, {"type": "play_character", "album": 1, "player": "Matthew", "strength": 6,
                             "character_type": "Hero", "colour": "Gaul", "name": "Asterix"})
    page = new_phone(viewport=size)
    join(page, live_server, table["code"], "Laura")
    page.locator("#album-2 .ac-side-gaul .ac-add").click()
    dialog = page.locator("#ac-play")
    expect(dialog).to_be_visible()
    dialog.locator(".ac-strength label.chip").filter(has_text="6").click()
    dialog.locator("input[name=name]").fill("Asterix")
    # Meanwhile another phone writes a note on album 1.
    act(live_server, table, {"type": "set_album_note", "album": 1, "note": "Feast: +2"})
    settle(page, live_server, table["code"])
    page.wait_for_timeout(300)
    expect(dialog).to_be_visible()
    expect(dialog.locator(".ac-strength input[value='6']")).to_be_checked()
    expect(dialog.locator("input[name=name]")).to_have_value("Asterix")
    # The tap is refused (the dialog's form was made before that move, or the Hero is a
    # second Asterix): the sentence shows in the dialog, in sight, announced.
    error = "#ac-play .form-error"
    for _ in range(2):
        dialog.locator(".ac-types").get_by_role("button", name="Hero", exact=True).click()
        expect(page.locator(error)).not_to_be_empty()
        expect(page.locator(error)).to_have_attribute("role", "alert")
        page.wait_for_timeout(200)
        assert inside(page, error, "#ac-play"), "the refusal is out of sight"
        expect(dialog).to_be_visible()
        if "identical Hero" in page.locator(error).inner_text():
            break
    expect(page.locator(error)).to_contain_text("identical Hero")
    page.screenshot(path=tmp_path / f"shell-dialog-refusal-{size['width']}.png")


def test_a_refusal_on_the_page_shows_next_to_the_tapped_button(live_server, new_phone):
    table, page = attacking(live_server, new_phone, ux.PHONE_320)
    # The button sits at the foot of the screen; its form's version is made stale.
    page.eval_on_selector(RED, "el => el.scrollIntoView({block: 'end'})")
    page.eval_on_selector(RED, "el => { el.form.querySelector('[data-live-version]').value = '0'; }")
    page.locator(RED).click()
    error = page.locator(RED).locator("xpath=ancestor::form").locator(".form-error")
    expect(error).not_to_be_empty()
    page.wait_for_timeout(200)
    box = error.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= ux.PHONE_320["height"], box
    assert ux.top_of(page, RED) > 0, "the tapped button went off screen"


# -- a tap made without a connection ---------------------------------------------------------

@pytest.mark.network_failures
def test_a_tap_made_offline_is_sent_when_the_connection_is_back(live_server, new_phone):
    table, page = attacking(live_server, new_phone, ux.PHONE_390)
    before = api(live_server, "GET", f"/api/tables/{table['code']}")["state_version"]
    page.context.set_offline(True)
    page.locator(RED).click()
    note = page.locator(RED).locator("xpath=ancestor::form").locator(".form-error")
    expect(note).to_have_text("Not sent yet: no connection. It will be sent when the connection is back.")
    banner = page.locator("#connection")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No connection")
    expect(banner).to_contain_text("sent when it is back")
    expect(banner).to_contain_text("1 move waits to be sent.")
    page.wait_for_timeout(1000)
    assert api(live_server, "GET", f"/api/tables/{table['code']}")["state_version"] == before
    page.context.set_offline(False)
    expect(page.locator("#board")).to_contain_text("beaten so far: 1", timeout=10_000)
    expect(page.locator(RED).locator("xpath=ancestor::form").locator(".form-error")).to_have_text("Sent.")
    expect(banner).to_be_hidden(timeout=10_000)
    page.wait_for_timeout(1000)
    assert sum("red legionary" in text for text in log_texts(live_server, table)) == 1


@pytest.mark.network_failures
def test_a_score_typed_offline_says_sent_and_clears_once_it_went_out(live_server, new_phone):
    table = create_table(live_server, "scorepad", ["Lena", "Jonas", "Mama", "Papa"])
    page = seated(new_phone, live_server, table["code"], "Mama", ux.PHONE_390, locale="de-DE")
    form = page.locator("form.score-entry")
    page.context.set_offline(True)
    form.locator("input[name=points]").fill("5")
    form.get_by_role("button", name="Punkte speichern").click()
    expect(form.locator(".form-error")).to_contain_text("Noch nicht gesendet")
    page.context.set_offline(False)
    # Within the poll's next few seconds: a short word, the field empty, the sheet caught up.
    expect(page.locator("form.score-entry .form-error")).to_have_text("Gesendet.", timeout=8_000)
    expect(page.locator("form.score-entry input[name=points]")).to_have_value("")
    expect(page.locator('#scoresheet button.cell[data-player="Mama"][data-round="1"]')).to_contain_text("5")
    assert log_texts(live_server, table).count("Mama wrote down 5 points in round 1.") == 1


@pytest.mark.network_failures
def test_the_offline_banner_leaves_the_form_whose_tap_waits_in_sight(live_server, new_phone, german_shots):
    table = create_table(live_server, "scorepad", ["Lena", "Jonas", "Mama"])
    page = seated(new_phone, live_server, table["code"], "Mama", ux.PHONE_320, locale="de-DE")
    form = page.locator("form.score-entry")
    form.evaluate("el => el.scrollIntoView({block: 'start'})")  # right under the top bar
    page.context.set_offline(True)
    form.locator("input[name=points]").fill("5")
    form.get_by_role("button", name="Punkte speichern").click()
    expect(page.locator("#connection")).to_be_visible()
    expect(form.locator(".form-error")).to_contain_text("Noch nicht gesendet")
    page.wait_for_timeout(300)
    banner, box = page.locator("#connection").bounding_box(), form.bounding_box()
    assert box["y"] >= banner["y"] + banner["height"], f"the banner covers the form: {banner} over {box}"
    assert box["y"] + box["height"] <= ux.PHONE_320["height"]
    page.screenshot(path=german_shots / "offline-form-320.png")
    page.context.set_offline(False)
    expect(form.locator(".form-error")).to_have_text("Gesendet.", timeout=8_000)


@pytest.mark.network_failures
def test_a_tap_made_offline_is_refused_when_the_table_moved_on_meanwhile(live_server, new_phone):
    table, page = attacking(live_server, new_phone, ux.PHONE_390)
    page.context.set_offline(True)
    page.locator(RED).click()
    form = page.locator(RED).locator("xpath=ancestor::form")
    expect(form.locator(".form-error")).to_contain_text("Not sent yet")
    # Another phone turns a feast meanwhile: the waiting tap was made against the old table.
    act(live_server, table, {"type": "reveal_card", "kind": "feast"})
    page.context.set_offline(False)
    expect(page.locator(RED).locator("xpath=ancestor::form").locator(".form-error")).to_contain_text(
        "Not done:", timeout=10_000)
    settle(page, live_server, table["code"])
    assert not any("red legionary" in text for text in log_texts(live_server, table))


@pytest.mark.network_failures
def test_a_tap_whose_answer_was_lost_counts_once_when_it_is_sent_again(live_server, new_phone):
    table, page = attacking(live_server, new_phone, ux.PHONE_390)
    tapped = f"**/t/{table['code']}/act*"
    keys = []
    page.on("request", lambda request: keys.append(request.headers.get("idempotency-key"))
            if "/act" in request.url and request.method == "POST" else None)

    def arrive_but_lose_the_answer(route):
        route.abort()  # the phone hears nothing back ...
        page.context.request.fetch(route.request)  # ... but the tap reached the server
        page.unroute(tapped)

    page.route(tapped, arrive_but_lose_the_answer)
    page.locator(RED).click()
    # The phone sends the tap again by itself, with the same key; the server knows it and
    # records nothing again (the board shows the one change, from the stream or the answer).
    expect(page.locator("#board")).to_contain_text("beaten so far: 1", timeout=15_000)
    sent_again(page, keys)
    # The tap was sent twice, with the same key (the browser's own try, then the retry).
    assert len(keys) >= 2 and keys[0] and len(keys[0]) == 32 and keys[1] == keys[0], keys
    page.wait_for_timeout(500)
    assert sum("red legionary" in text for text in log_texts(live_server, table)) == 1
    note = page.locator(RED).locator("xpath=ancestor::form").locator(".form-error")
    assert "Not" not in note.inner_text()  # neither "Not done" nor "Not sent"


@pytest.mark.network_failures
@pytest.mark.parametrize("status, body", [
    (503, "The companion is too busy to answer just now."),  # out of database connections
    (502, "Bad Gateway"),  # nginx in front: the table's server died during the tap
])
def test_a_tap_answered_too_busy_or_server_away_is_sent_again_and_counts_once(
        live_server, new_phone, status, body):
    """The change may have been recorded before the answer failed. The phone keeps the tap
    and sends it again with its key (nginx then passes it to a server that is up)."""
    table, page = attacking(live_server, new_phone, ux.PHONE_390)
    tapped = f"**/t/{table['code']}/act*"
    keys = []
    page.on("request", lambda request: keys.append(request.headers.get("idempotency-key"))
            if "/act" in request.url and request.method == "POST" else None)

    def recorded_but_answered_busy(route):
        page.context.request.fetch(route.request)  # the change is recorded ...
        route.fulfill(status=status, headers={"Retry-After": "2"}, body=body)  # ... not answered
        page.unroute(tapped)

    page.route(tapped, recorded_but_answered_busy)
    page.locator(RED).click()
    expect(page.locator("#board")).to_contain_text("beaten so far: 1", timeout=15_000)
    sent_again(page, keys)
    assert len(keys) >= 2 and keys[0] and keys[1] == keys[0], keys
    page.wait_for_timeout(500)
    assert sum("red legionary" in text for text in log_texts(live_server, table)) == 1
    expect(page.locator("#connection")).to_be_hidden()


@pytest.mark.network_failures
def test_a_tap_whose_form_was_redrawn_before_its_busy_answer_is_still_kept(live_server, new_phone):
    """The stream brings the change (redrawing the tapped form) before the tap's own answer,
    a 503, comes: the tap is kept and sent again all the same, once, with its key."""
    table, page = attacking(live_server, new_phone, ux.PHONE_390)
    tapped = f"**/t/{table['code']}/act*"
    keys = []
    page.on("request", lambda request: keys.append(request.headers.get("idempotency-key"))
            if "/act" in request.url and request.method == "POST" else None)
    page.evaluate("() => { window.tappedForm = null; document.addEventListener('submit', "
                  "(e) => { window.tappedForm = e.target; }, true); }")

    def recorded_then_answered_busy_late(route):
        page.context.request.fetch(route.request)  # recorded: the stream redraws the board ...
        time.sleep(1.5)  # ... well before this answer, which says busy
        route.fulfill(status=503, headers={"Retry-After": "2"},
                      body="The companion is too busy to answer just now.")
        page.unroute(tapped)

    page.route(tapped, recorded_then_answered_busy_late)
    page.locator(RED).click()
    expect(page.locator("#board")).to_contain_text("beaten so far: 1", timeout=15_000)
    page.wait_for_function("() => window.tappedForm && !window.tappedForm.isConnected",
                           timeout=5000)  # the tapped form was redrawn while the tap was out
    sent_again(page, keys)
    assert len(keys) >= 2 and keys[0] and keys[1] == keys[0], keys
    page.wait_for_timeout(500)
    assert sum("red legionary" in text for text in log_texts(live_server, table)) == 1


@pytest.mark.network_failures
def test_a_waiting_tap_survives_a_reload_of_the_page(live_server, new_phone):
    table, page = attacking(live_server, new_phone, ux.PHONE_390)
    # Only the taps fail to arrive (the Wi-Fi drops them); the page itself still loads.
    dropped = f"**/t/{table['code']}/act*"
    page.route(dropped, lambda route: route.abort())
    page.locator(RED).click()
    expect(page.locator(RED).locator("xpath=ancestor::form").locator(".form-error")).to_contain_text("Not sent yet")
    page.reload()
    expect(page.locator(RED).locator("xpath=ancestor::form").locator(".form-error")).to_contain_text(
        "Not sent yet")
    assert not any("red legionary" in text for text in log_texts(live_server, table))
    page.unroute(dropped)
    expect(page.locator("#board")).to_contain_text("beaten so far: 1", timeout=10_000)
    assert sum("red legionary" in text for text in log_texts(live_server, table)) == 1
    assert page.evaluate("() => Object.keys(sessionStorage).filter(k => k.startsWith('companion-unsent')).length") == 0


# -- installable, awake, and a top bar that fits ------------------------------------------------

def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def test_the_companion_can_be_installed_with_its_icons(live_server, new_phone):
    page = new_phone(viewport=ux.PHONE_390)
    page.goto(live_server + "/")
    manifest_url = page.eval_on_selector('link[rel="manifest"]', "el => el.href")
    status, kind, body = fetch(manifest_url)
    assert status == 200 and kind.startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["name"] == "Table companion" and manifest["short_name"]
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"]
    sizes = {}
    for icon in manifest["icons"]:
        status, kind, data = fetch(live_server + icon["src"])
        assert status == 200 and kind.startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = png_size(data)
        else:
            assert b"<svg" in data
    assert sizes["192x192"] == (192, 192) and sizes["512x512"] == (512, 512)
    touch = page.eval_on_selector('link[rel="apple-touch-icon"]', "el => el.href")
    assert png_size(fetch(touch)[2]) == (180, 180)
    status, kind, data = fetch(live_server + "/favicon.ico")
    assert status == 200 and kind.startswith("image/") and png_size(data) == (32, 32)


FAKE_WAKE_LOCK = """
    window.wakeLog = {requests: 0, releases: 0};
    Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
        request: async (type) => {
            wakeLog.requests += 1;
            const sentinel = new EventTarget();
            sentinel.type = type;
            sentinel.released = false;
            sentinel.release = async () => {
                if (sentinel.released) return;
                sentinel.released = true;
                wakeLog.releases += 1;
                sentinel.dispatchEvent(new Event('release'));
            };
            wakeLog.current = sentinel;
            return sentinel;
        }}});
"""


def test_keep_the_screen_on_holds_a_wake_lock_and_is_remembered(live_server, new_phone):
    table = create_table(live_server, "scorepad", ["Ann"])
    page = new_phone(viewport=ux.PHONE_320)
    page.add_init_script(FAKE_WAKE_LOCK)
    join(page, live_server, table["code"], "Ann")
    switch = page.get_by_role("button", name="Keep screen on")
    expect(switch).to_be_visible()
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("wakeLog.requests") == 0
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("wakeLog.requests") == 1
    # The browser lets go of the lock when the page is hidden; showing it again takes it back.
    page.evaluate("wakeLog.current.release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("wakeLog.requests === 2")
    # The phone remembers: the next page holds it at once.
    page.reload()
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("wakeLog.requests === 1")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("wakeLog.releases") == 1
    page.reload()
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("wakeLog.requests") == 0


# Each video started on the page: whether it was muted when it began to play.
PLAYS_RECORDED = """window.playedMuted = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () { window.playedMuted.push(this.muted); return play.call(this); };"""


def test_over_plain_http_the_switch_keeps_the_screen_on_with_nosleep(live_server, lan_phone):
    make, server = lan_phone
    table = create_table(live_server, "scorepad", ["Ann"])
    page = make(viewport=ux.PHONE_390, locale="de-DE")
    page.add_init_script(PLAYS_RECORDED)
    join(page, server, table["code"], "Ann")
    assert page.evaluate("isSecureContext") is False and page.evaluate("'wakeLock' in navigator") is False
    switch = page.get_by_role("button", name="Bildschirm an lassen")
    expect(switch).to_be_visible()
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    # Held: NoSleep.js's silent video plays (the switch is "held" only while it does).
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(switch).to_have_class(re.compile(r"\bheld\b"))
    expect(page.locator("#awake-note")).to_be_hidden()
    # Muted, so it takes no phone's sound from the table's music; it says so in a word ("an").
    assert page.evaluate("playedMuted") == [True]
    assert switch.evaluate("el => getComputedStyle(el, '::after').content") == '"an"'
    # A page opened again remembers the choice: a muted video may start without a tap.
    page.reload()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(switch).to_have_class(re.compile(r"\bheld\b"))
    expect(page.locator("#awake-note")).to_be_hidden()
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect(switch).not_to_have_class(re.compile(r"\bheld\b"))


def test_over_plain_http_nosleep_comes_only_with_the_switch_turned_on(live_server, lan_phone):
    """NoSleep.js (6.9 KB gzipped) is no part of a first load: a phone that never turns the
    switch on never downloads it; the tap that does fetches it and starts its video."""
    make, server = lan_phone
    table = create_table(live_server, "scorepad", ["Ann"])
    page = make(viewport=ux.PHONE_390, locale="de-DE")
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    join(page, server, table["code"], "Ann")
    page.wait_for_load_state("networkidle")
    assert not [url for url in asked if "NoSleep" in url]
    switch = page.get_by_role("button", name="Bildschirm an lassen")
    switch.click()
    expect(switch).to_have_class(re.compile(r"\bheld\b"))
    assert len([url for url in asked if "NoSleep" in url]) == 1


def test_the_switch_says_in_words_when_the_screen_cannot_be_kept_on(live_server, lan_phone):
    make, server = lan_phone
    table = create_table(live_server, "scorepad", ["Ann"])
    page = make(viewport=ux.PHONE_320, locale="de-DE")
    page.route("**/NoSleep.min.js*", lambda route: route.abort())
    join(page, server, table["code"], "Ann")
    page.get_by_role("button", name="Bildschirm an lassen").click()
    expect(page.locator("#awake-note")).to_have_text(
        "Dieses Handy kann den Bildschirm hier nicht an lassen (sein Hilfsprogramm wurde nicht "
        "geladen); eine längere Bildschirmzeit in seinen Einstellungen hilft.")


TOP_BAR = """(minimum) => {
    const bar = document.querySelector('.topbar');
    const out = [];
    if (bar.scrollWidth > bar.clientWidth + 1) out.push(`the bar is ${bar.scrollWidth}px wide in ${bar.clientWidth}px`);
    for (const el of bar.querySelectorAll('a, button')) {
        const style = getComputedStyle(el);
        if (el.hidden || style.display === 'none') continue;
        const r = el.getBoundingClientRect();
        if (r.width < minimum - 0.5 || r.height < minimum - 0.5) out.push(`${el.className} ${Math.round(r.width)}x${Math.round(r.height)}`);
        if (r.right > innerWidth + 1 || r.left < -1) out.push(`${el.className} sticks out`);
    }
    for (const el of bar.querySelectorAll('*')) {
        const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (own && el.getBoundingClientRect().width > 1 && parseFloat(getComputedStyle(el).fontSize) < 12) out.push(`${el.className} text too small`);
    }
    return out;
}"""


@pytest.mark.parametrize("size", [ux.PHONE_320, ux.PHONE_390, ux.TABLET], ids=["320", "390", "1024"])
def test_the_top_bar_fits_reads_right_and_can_be_hit(live_server, new_phone, size, tmp_path):
    table = create_table(live_server, "asterix-obelix", ["Ann", "Ben"])
    page = new_phone(viewport=size)
    page.add_init_script(FAKE_WAKE_LOCK)  # every control the bar can show
    join(page, live_server, table["code"], "Ann")
    expect(page.locator("#keep-awake")).to_be_visible()
    assert page.evaluate(TOP_BAR, ux.MIN_TARGET) == []
    # The name reads "Table companion" in full, or gives way to the icon; never cut in half.
    brand = page.get_by_role("link", name="Table companion")
    expect(brand).to_be_visible()
    name = page.locator(".topbar .brand-name")
    shown = name.evaluate("el => el.getBoundingClientRect().width > 2")
    if size["width"] >= 430:  # below, the code, screen switch, language and Rules fill the bar
        assert shown, "the name is hidden with room to spare"
    if shown:
        assert name.inner_text() == "Table companion"
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the name is cut"
    page.screenshot(path=tmp_path / f"shell-topbar-{size['width']}.png",
                    clip={"x": 0, "y": 0, "width": size["width"], "height": 70})
    # Without a table code beside it the name fits on every phone.
    page.goto(live_server + "/")
    assert page.evaluate(TOP_BAR, ux.MIN_TARGET) == []
    assert name.evaluate("el => el.getBoundingClientRect().width > 2 && el.scrollWidth <= el.clientWidth + 1")
    assert name.inner_text().split() == ["Table", "companion"]


@SIZES
def test_the_rules_dialog_can_be_hit_and_read(live_server, new_phone, size):
    table = create_table(live_server, "asterix-obelix", ["Ann", "Ben"])
    page = new_phone(viewport=size)
    join(page, live_server, table["code"], "Ann")
    page.locator(".topbar .rules-button").click()
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    page.locator("#rules-q").fill("pirate")
    expect(page.locator("#rules-dialog-body a").first).to_be_visible()
    targets = page.evaluate("""(minimum) => [...document.querySelectorAll('#rules-dialog a[href], #rules-dialog button, #rules-dialog input')]
        .filter(el => el.getBoundingClientRect().width > 0)
        .filter(el => { const r = el.getBoundingClientRect(); return r.width < minimum - 0.5 || r.height < minimum - 0.5; })
        .map(el => el.outerHTML.slice(0, 80))""", ux.MIN_TARGET)
    assert targets == []
    text = page.evaluate("""() => [...document.querySelectorAll('#rules-dialog *')]
        .filter(el => [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
        .filter(el => el.getBoundingClientRect().width > 0 && parseFloat(getComputedStyle(el).fontSize) < 12)
        .map(el => el.outerHTML.slice(0, 80))""")
    assert text == []
