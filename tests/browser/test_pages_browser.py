"""The pages around the table as a phone and a tablet show them: the host's first minute
(the invite first, the share button), an invite that works or says why it cannot, the delete
control the host can see, history numbers that are not cut off, the tablet's two columns, and
taps, text, width and axe-core on the home, set-up, join, history, rules and error pages."""

from __future__ import annotations

import re
import socket
import subprocess
import urllib.request

import pytest
from playwright.sync_api import expect

from companion.web.network import lan_addresses
from tests.browser import ux
from tests.browser.conftest import Server, api, create_table, join, seated, settle


# WCAG contrast of a text's colour against the first opaque background behind it.
CONTRAST = """el => {
    const rgb = c => c.match(/[\\d.]+/g).map(Number);
    const lum = ([r, g, b]) => {
        const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    let back = el;
    while (back && (rgb(getComputedStyle(back).backgroundColor)[3] ?? 1) === 0) back = back.parentElement;
    const fg = lum(rgb(getComputedStyle(el).color));
    const bg = lum(rgb(back ? getComputedStyle(back).backgroundColor : 'rgb(255,255,255)'));
    return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}"""

# Each list item's number against the room its list leaves for it: a list that scrolls
# cuts off whatever of a marker sticks out past its padding.
CLIPPED_NUMBERS = """list => {
    const style = getComputedStyle(list);
    const room = parseFloat(style.paddingLeft);
    const canvas = document.createElement('canvas').getContext('2d');
    const items = [...list.children];
    const reversed = list.hasAttribute('reversed');
    const start = list.hasAttribute('start') ? +list.getAttribute('start') : (reversed ? items.length : 1);
    const out = [];
    items.forEach((li, i) => {
        const number = reversed ? start - i : start + i;
        const font = getComputedStyle(li);
        canvas.font = `${font.fontStyle} ${font.fontWeight} ${font.fontSize} ${font.fontFamily}`;
        const width = canvas.measureText(number + '. ').width;
        if (width > room) out.push(`${number}. needs ${width.toFixed(1)}px, has ${room.toFixed(1)}px`);
    });
    return {count: items.length, first: start, clipped: out.slice(0, 5)};
}"""


def shot(page, shots, name: str) -> None:
    page.screenshot(path=shots / f"{name}.png", full_page=True)


def my_row(page, number: int):
    """The "me" choice of player row ``number`` (1 = the first), by its accessible name."""
    return page.get_by_role("radio", name=re.compile(rf"^me\W+player {number}$"))


def start_table(page, live_server: str, game: str, players: list[str], me: int | None) -> str:
    """Fill the set-up form as the host does; ``me``: the row marked "me" (None: host only)."""
    page.goto(f"{live_server}/new/{game}")
    add = page.locator("[data-add-player]")
    for i, name in enumerate(players):
        row = page.locator(".player-row").nth(i)
        if not row.is_visible():
            add.click()
        row.locator("input[name=player]").fill(name)
    if me is None:
        page.get_by_label("I only host or watch").check()
    else:
        my_row(page, me + 1).check()
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url("**/t/*")
    return page.url.rsplit("/", 1)[-1]


def checks(page) -> dict:
    return {"small targets": ux.small_targets(page), "small text": ux.small_text(page),
            "overflowing": ux.overflowing(page), "axe": ux.axe_violations(page)}


# -- the host's first minute ----------------------------------------------------------------


@pytest.mark.parametrize("size", ["390x844", "320x568"])
def test_the_host_is_seated_and_meets_the_invite_which_folds_once_all_have_phones(
        live_server, new_phone, size, tmp_path):
    host = new_phone(viewport=ux.SIZES[size])
    code = start_table(host, live_server, "kartenspiel", ["Ann", "Ben", "Cleo"], me=0)
    expect(host.locator("#me")).to_contain_text("You are Ann (host)")
    invite = host.locator("details.invite")
    expect(invite).to_have_attribute("open", "")
    # The invite is what the host sees first: its code on the first screen, above the game.
    box = host.locator("#invite .big-code").bounding_box()
    assert box["y"] + box["height"] <= ux.SIZES[size]["height"], box
    assert box["y"] < host.locator("#status").bounding_box()["y"]
    shot(host, tmp_path, f"invite-first-{size}")

    ben, cleo = new_phone(viewport=ux.SIZES[size]), new_phone(viewport=ux.SIZES[size])
    join(ben, live_server, code, "Ben")
    expect(host.locator("#seats .seat-list")).to_have_attribute("data-free-seats", "1")
    assert invite.bounding_box()["y"] < host.locator("#status").bounding_box()["y"]
    join(cleo, live_server, code, "Cleo")
    # Live, without a reload: every seat has a phone, the invite leaves the top of the page.
    expect(host.locator("#seats .seat-list")).to_have_attribute("data-free-seats", "0")
    host.evaluate("scrollTo(0, 0)")
    assert invite.bounding_box()["y"] > host.locator("#seats").bounding_box()["y"]
    assert host.locator("#status").bounding_box()["y"] < 200
    # Opened again, the page keeps the invite folded at its foot, one tap away.
    host.reload()
    expect(invite).not_to_have_attribute("open", "")
    assert invite.bounding_box()["y"] > host.locator("#seats").bounding_box()["y"]
    # The code in the top bar opens it.
    host.locator("header .code-chip").click()
    expect(invite).to_have_attribute("open", "")
    expect(host.locator("#invite .big-code")).to_be_in_viewport()
    expect(host.locator("#invite .big-code")).to_have_text(code)


def test_a_host_who_only_watches_is_invited_until_every_seat_has_a_phone(live_server, new_phone):
    host = new_phone(viewport=ux.PHONE_390)
    code = start_table(host, live_server, "scorepad", ["Ann", "Ben"], me=None)
    expect(host.locator("#me")).to_contain_text("You are the host")
    expect(host.locator("details.invite")).to_have_attribute("open", "")
    ann = new_phone()
    join(ann, live_server, code, "Ann")
    expect(host.locator("#seats .seat-list")).to_have_attribute("data-free-seats", "1")
    # Ann's phone is not the host's: her page leads with the game, the invite folded below.
    expect(ann.locator("details.invite")).not_to_have_attribute("open", "")
    assert ann.locator("details.invite").bounding_box()["y"] > ann.locator("#seats").bounding_box()["y"]


def test_a_me_on_an_empty_row_is_refused_and_the_form_keeps_everything(live_server, new_phone):
    page = new_phone(viewport=ux.PHONE_390)
    page.goto(f"{live_server}/new/scorepad")
    page.locator("input[name=player]").nth(0).fill("Ann")
    page.locator("input[name=player]").nth(1).fill("Ben")
    my_row(page, 4).check()
    page.get_by_label("Number of rounds (optional)").fill("7")
    page.get_by_role("button", name="Start the table").click()
    expect(page.locator("p.error")).to_contain_text('You chose "me" on row 4, which has no name')
    assert page.locator("input[name=player]").nth(0).input_value() == "Ann"
    assert page.locator("input[name=player]").nth(1).input_value() == "Ben"
    assert page.get_by_label("Number of rounds (optional)").input_value() == "7"
    expect(my_row(page, 4)).to_be_checked()
    # The row to type a name in is in view, and once named, the table starts.
    page.locator("input[name=player]").nth(3).fill("Dora")
    page.locator("input[name=player]").nth(2).fill("Cleo")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url("**/t/*")
    expect(page.locator("#me")).to_contain_text("You are Dora (host)")


# -- the invite: an address that answers, a share button -------------------------------------


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory):
    if not lan_addresses():
        pytest.skip("this machine has no network address besides loopback")
    server = Server(tmp_path_factory.mktemp("lan-instance"), host="0.0.0.0")  # as `make run`
    server.start()
    yield server
    server.stop()


def test_the_qr_code_names_an_address_the_server_answers_on(lan_server, new_phone, tmp_path):
    table = create_table(lan_server.url, "scorepad", ["Ann", "Ben"])
    page = new_phone(viewport=ux.PHONE_390)
    join(page, lan_server.url, table["code"], "Ann")
    qr = page.locator("#invite .qr svg")
    page.locator("details.invite > summary").click()
    qr.scroll_into_view_if_needed()
    image = tmp_path / "qr.png"
    qr.screenshot(path=str(image))
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(image)], capture_output=True,
                             text=True, check=True).stdout.strip()
    assert re.fullmatch(rf"http://[\d.]+:{lan_server.port}/j/{table['code']}", decoded), decoded
    assert not decoded.startswith("http://127.")
    assert answers(decoded), f"nothing answers at {decoded}"
    assert page.locator("#invite .big-code").inner_text() == table["code"]
    assert page.locator("#invite .join-url a").get_attribute("href") == decoded


def test_on_loopback_the_invite_says_phones_cannot_join_and_names_no_dead_address(
        live_server, new_phone):
    """The suite's server listens on 127.0.0.1 only, like `make run HOST=127.0.0.1`."""
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    port = int(live_server.rsplit(":", 1)[1])
    for address in lan_addresses():  # where the old QR code pointed: nothing listens there
        with socket.socket() as probe:
            probe.settimeout(1)
            assert probe.connect_ex((address, port)) != 0
    page = new_phone(viewport=ux.PHONE_390)
    join(page, live_server, table["code"], "Ann")
    page.locator("details.invite > summary").click()
    invite = page.locator("details.invite")
    expect(invite.locator(".invite-problem")).to_contain_text("Other phones cannot join")
    expect(invite.locator(".invite-problem")).to_contain_text("make run")
    assert invite.locator("svg").count() == 0
    link = invite.locator(".join-url a").get_attribute("href")
    assert link.startswith("http://127.0.0.1:") and answers(link)
    assert ux.axe_violations(page, "details.invite") == []


def test_share_uses_the_share_sheet_where_the_phone_has_one(lan_server, new_phone):
    table = create_table(lan_server.url, "scorepad", ["Ann", "Ben"])
    page = new_phone(viewport=ux.PHONE_390)
    page.add_init_script(
        "navigator.share = data => { window.shared = data; return Promise.resolve(); };")
    join(page, lan_server.url, table["code"], "Ann")
    page.locator("details.invite > summary").click()
    page.get_by_role("button", name="Share the link").click()
    expect(page.locator("#invite .share-done")).to_have_text("Shared")
    shared = page.evaluate("window.shared")
    assert shared["url"] == page.locator("#invite .join-url a").get_attribute("href")
    assert table["code"] in shared["title"]


def test_share_copies_the_link_where_there_is_no_share_sheet(lan_server, new_phone):
    table = create_table(lan_server.url, "scorepad", ["Ann", "Ben"])
    page = new_phone(viewport=ux.PHONE_390)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=lan_server.url)
    join(page, lan_server.url, table["code"], "Ann")
    assert page.evaluate("typeof navigator.share") == "undefined"  # headless Chromium on Linux
    page.locator("details.invite > summary").click()
    page.get_by_role("button", name="Share the link").click()
    expect(page.locator("#invite .share-done")).to_have_text("Link copied")
    expect(page.locator("#invite .share-done")).to_be_visible()
    link = page.locator("#invite .join-url a").get_attribute("href")
    assert page.evaluate("navigator.clipboard.readText()") == link


# -- the host's controls and the history ---------------------------------------------------


def test_delete_this_table_is_readable_for_the_host(live_server, new_phone, tmp_path):
    page = new_phone(viewport=ux.PHONE_390)
    code = start_table(page, live_server, "scorepad", ["Ann", "Ben"], me=0)
    summary = page.locator("#host details.danger-zone > summary")
    summary.scroll_into_view_if_needed()
    expect(summary).to_have_text(re.compile("Delete this table"))
    assert page.eval_on_selector("#host details.danger-zone > summary", CONTRAST) >= 4.5
    summary.click()
    button = page.get_by_role("button", name=f"Delete table {code}")
    expect(button).to_be_visible()
    assert page.eval_on_selector("#host button.danger", CONTRAST) >= 4.5
    assert ux.axe_violations(page, "#host") == []
    page.locator("#host").screenshot(path=tmp_path / "host-region.png")
    button.click()
    page.wait_for_url(f"{live_server}/")
    expect(page.locator(".flash")).to_contain_text(f"Table {code} and its history were deleted")


def test_history_numbers_of_two_and_three_digits_are_not_cut_off(live_server, new_phone, tmp_path):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    for n in range(104):
        api(live_server, "POST", f"/api/tables/{table['code']}/actions",
            {"type": "enter_score", "player": "Ann", "round": n + 1, "points": 1},
            token=table["token"])
    for size in ("390x844", "320x568"):
        page = seated(new_phone, live_server, table["code"], None, ux.SIZES[size])
        version = api(live_server, "GET", f"/api/tables/{table['code']}")["version"]
        on_table = page.eval_on_selector("#history ol.log", CLIPPED_NUMBERS)
        # The newest 40, numbered as the history page numbers them: 106 down to 67.
        assert on_table["first"] == version and on_table["count"] == 40
        assert on_table["clipped"] == [], on_table
        assert ux.axe_violations(page, "#history") == []
        page.goto(f"{live_server}/t/{table['code']}/history")
        whole = page.eval_on_selector("ol.log", CLIPPED_NUMBERS)
        assert whole["count"] == version and whole["clipped"] == [], whole
        assert checks(page) == {"small targets": [], "small text": [], "overflowing": [], "axe": []}
        shot(page, tmp_path, f"history-{size}")


# -- every page: taps, text, width, axe-core -------------------------------------------------


PAGES = ["home", "set-up", "set-up with options", "join", "history", "rules", "rules of a game",
         "rules search", "rule section", "error"]


@pytest.fixture(scope="module")
def a_table(live_server):
    table = create_table(live_server, "kartenspiel", ["Ann", "Ben", "Cleo"])
    return table


def open_page(page, live_server: str, table: dict, name: str) -> None:
    code = table["code"]
    paths = {"home": "/", "set-up": "/new/scorepad", "set-up with options": "/new/asterix-co",
             "join": f"/j/{code}", "rules": "/rules/", "rules of a game": "/rules/kartenspiel",
             "rules search": "/rules/search?q=centurion+tie",
             "rule section": "/rules/kartenspiel/turn",
             "error": "/t/ZZZZZZ"}
    if name == "history":
        join(page, live_server, code, None)
        page.goto(f"{live_server}/t/{code}/history")
        return
    page.goto(live_server + paths[name])
    if name == "set-up with options" and page.locator("details.options[open]").count() == 0:
        page.locator("details.options > summary").click()


@pytest.mark.parametrize("size", ["390x844", "320x568"])
@pytest.mark.parametrize("name", PAGES)
def test_every_page_has_big_targets_readable_text_no_overflow_and_no_axe_violations(
        live_server, new_phone, a_table, name, size, tmp_path):
    page = new_phone(viewport=ux.SIZES[size])
    open_page(page, live_server, a_table, name)
    assert checks(page) == {"small targets": [], "small text": [], "overflowing": [], "axe": []}
    shot(page, tmp_path, f"{name.replace(' ', '-')}-{size}")


# -- the tablet ---------------------------------------------------------------------------


def test_on_a_landscape_tablet_the_board_and_the_side_column_sit_side_by_side(live_server,
                                                                              new_phone, tmp_path):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    api(live_server, "POST", f"/api/tables/{table['code']}/actions",
        {"type": "enter_score", "player": "Ann", "round": 1, "points": 8}, token=table["token"])
    tablet = new_phone(viewport=ux.TABLET)
    join(tablet, live_server, table["code"], "Ann")
    main, side = (tablet.locator(s).bounding_box() for s in (".table-main", ".table-side"))
    # Two columns: the board on the left, history and seats on the right, both at the top.
    assert main["x"] + main["width"] <= side["x"], (main, side)
    assert abs(main["y"] - side["y"]) < 40 and main["width"] > side["width"] > 300
    assert side["x"] + side["width"] <= ux.TABLET["width"]
    assert tablet.locator("#scoresheet").bounding_box()["x"] < side["x"]
    assert tablet.locator("#history").bounding_box()["x"] >= side["x"]
    assert ux.overflowing(tablet) == []
    for part in ("#status", "#history", "#seats", "details.invite"):
        assert ux.axe_violations(tablet, part) == [], part
    shot(tablet, tmp_path, "table-1024x768")
    # On a phone the same page is one column.
    phone = new_phone(viewport=ux.PHONE_390)
    join(phone, live_server, table["code"], "Ben")
    main, side = (phone.locator(s).bounding_box() for s in (".table-main", ".table-side"))
    assert side["y"] >= main["y"] + main["height"] and side["x"] == main["x"]


def test_on_a_tablet_the_hosts_invite_opens_the_side_column(live_server, new_phone, tmp_path):
    tablet = new_phone(viewport=ux.TABLET)
    start_table(tablet, live_server, "scorepad", ["Ann", "Ben"], me=0)
    main, invite, side = (tablet.locator(s).bounding_box()
                          for s in (".table-main", "details.invite", ".table-side"))
    # Beside the board, at the top, above history and seats: on the first screen.
    assert invite["x"] >= main["x"] + main["width"] and invite["y"] < 120
    assert side["y"] >= invite["y"] + invite["height"]
    assert tablet.locator("#scoresheet").bounding_box()["y"] < ux.TABLET["height"]
    assert ux.overflowing(tablet) == []
    shot(tablet, tmp_path, "host-1024x768")


# -- a German phone: every page around the table in German, nothing too wide ------------------


def german(page, live_server: str) -> None:
    """Switch this phone to German with the switch in the top bar (the phone remembers it)."""
    page.goto(f"{live_server}/")
    page.locator('.lang-switch button[value="de"]').click()
    page.wait_for_url(f"{live_server}/")
    assert page.locator("html").get_attribute("lang") == "de"


def a_german_game_night(live_server: str) -> dict:
    """A group with one finished score-pad play (for its statistics) and a table mid-game."""
    group = api(live_server, "POST", "/api/groups", {"name": "Freitag", "players": ["Annabelle", "Ben", "Cleo"]})
    finished = create_table(live_server, "scorepad", ["Annabelle", "Ben", "Cleo"], group=group["code"])
    for seat, points in (("Annabelle", 31), ("Ben", 24), ("Cleo", 40)):
        api(live_server, "POST", f"/api/tables/{finished['code']}/actions",
            {"type": "enter_score", "player": seat, "round": 1, "points": points}, token=finished["token"])
    api(live_server, "POST", f"/api/tables/{finished['code']}/actions", {"type": "finish_game"},
        token=finished["token"])
    table = create_table(live_server, "scorepad", ["Annabelle", "Ben", "Cleo"], group=group["code"])
    for round_, row in enumerate(((12, 8, 15), (-3, 10, 6)), start=1):
        for seat, points in zip(("Annabelle", "Ben", "Cleo"), row):
            api(live_server, "POST", f"/api/tables/{table['code']}/actions",
                {"type": "enter_score", "player": seat, "round": round_, "points": points}, token=table["token"])
    return {"group": group["code"], "code": table["code"]}


GERMAN_WORDS = {"home": "An einen Tisch setzen", "new": "Tisch starten", "join": "Nur zuschauen",
                "history": "Der ganze Verlauf von Punkteblock", "group-stats": "Siegquote pro Spieler",
                "scorepad": "Punkte eintragen"}


@pytest.mark.parametrize("size", ["390x844", "320x568"])
def test_a_german_phone_reads_every_page_in_german_and_nothing_sticks_out(
        live_server, new_phone, size, german_shots):
    night = a_german_game_night(live_server)
    page = new_phone(viewport=ux.SIZES[size])
    german(page, live_server)
    for name in ("home", "new", "join", "scorepad", "history", "group-stats"):
        if name == "home":
            page.goto(f"{live_server}/")
        elif name == "new":
            page.goto(f"{live_server}/new/scorepad")
        elif name == "join":
            page.goto(f"{live_server}/j/{night['code']}")
        elif name == "scorepad":
            page.locator('button[name="seat"][value="Annabelle"]').click()
            page.wait_for_url(f"**/t/{night['code']}")
            settle(page, live_server, night["code"])
        elif name == "history":
            page.goto(f"{live_server}/t/{night['code']}/history")
        else:
            page.goto(f"{live_server}/g/{night['group']}/stats")
        assert page.locator("html").get_attribute("lang") == "de", name
        expect(page.locator("body")).to_contain_text(GERMAN_WORDS[name])
        assert ux.overflowing(page) == [], name
        assert ux.small_targets(page) == [], name
        suffix = "" if size == "390x844" else "-320"
        page.screenshot(path=german_shots / f"de-pages-{name}{suffix}.png", full_page=True)
