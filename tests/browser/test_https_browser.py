"""The companion over HTTPS, behind Caddy as docs/operating.md configures it, in a Chromium that
trusts Caddy's local authority (tests/browser/proxies.py): a secure context, with live streams,
`Secure` cookies and the rate limits counting the client Caddy passed on; the service worker
keeps the table for a reload without the network, and the taps made meanwhile are sent once;
Chromium finds the app installable; the invite's button shares or copies the link. The same
checks over plain HTTP (a phone on the table's Wi-Fi: LAN_HOST) find no worker and the
behaviour from before."""

from __future__ import annotations

import re
import subprocess
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from tests.browser import ux
from tests.browser.proxies import NGINX, SITE, free_port6, nginx_conf, stop_process
from tests.browser.conftest import (CHROMIUM, CHROMIUM_ARGS, HTTPS_RULE, LAN_HOST, Server, api,
                                    create_table, free_port, https_site_of, join, needed, phones_of,
                                    settle, wait_until_up)
from tests.conftest import room_in_this_minute

SCORE_FORM = "form.score-entry"


def enter_score(page, player: str, round_: int, points: int, save: str = "Save score") -> None:
    form = page.locator(SCORE_FORM)
    form.locator("select[name=player]").select_option(player)
    form.locator("input[name=round]").fill(str(round_))
    form.locator("input[name=points]").fill(str(points))
    form.get_by_role("button", name=save).click()


def cell(page, player: str, round_: int):
    return page.locator(f'#scoresheet button.cell[data-player="{player}"][data-round="{round_}"]')


def log_texts(server_url: str, code: str) -> list[str]:
    return [line["text"] for line in api(server_url, "GET", f"/api/tables/{code}")["log"]]


def controlled(page) -> None:
    """Waits until the service worker answers this page's requests."""
    for _ in range(100):
        if page.evaluate("() => navigator.serviceWorker.controller !== null"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("no service worker answers the page's requests")


# The page's copy in the worker's cache holds ``text`` in ``selector`` (read as a page).
COPY_HOLDS = """async ([selector, text]) => {
    for (const name of await caches.keys()) {
        const copy = await (await caches.open(name)).match(location.href);
        if (!copy) continue;
        const page = new DOMParser().parseFromString(await copy.text(), "text/html");
        const el = page.querySelector(selector);
        if (el && el.textContent.includes(text)) return true;
    }
    return false;
}"""


def wait_for_copy(page, selector: str, text: str) -> None:
    """Waits until the worker keeps the page's copy showing ``text`` in ``selector``."""
    for _ in range(100):
        if page.evaluate(COPY_HOLDS, [selector, text]):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the worker keeps no copy of the page with {text!r} in {selector}")


# -- HTTPS through Caddy ----------------------------------------------------------------

def plays_a_table_over_https(make, site: str, server: str, invite: str):
    """A phone opening a table at ``site`` (HTTPS, the app behind it at ``server``) is in a
    secure context: another phone's move comes on its stream, its cookies are ``Secure``, the
    invite names the HTTPS address (``invite``), and the browser's own wake lock is there."""
    table = create_table(server, "scorepad", ["Ann", "Ben"])
    page = make(viewport=ux.PHONE_390)
    page.route("**/live?*", lambda route: route.abort())  # only the stream may bring changes
    page.goto(site + "/")
    page.locator(".lang-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    join(page, site, table["code"], "Ann")
    assert page.url == f"{site}/t/{table['code']}"
    assert page.evaluate("isSecureContext") is True
    api(server, "POST", f"/api/tables/{table['code']}/actions",
        {"type": "enter_score", "player": "Ben", "round": 1, "points": 7}, token=table["token"])
    expect(cell(page, "Ben", 1)).to_contain_text("7", timeout=5000)
    # The app learnt the scheme from the proxy: its cookies are Secure, the invite's link HTTPS.
    assert {cookie["name"]: cookie["secure"] for cookie in page.context.cookies()} == {
        "session": True, "lang": True}
    expect(page.locator("#invite .join-url a")).to_have_text(f"{invite}/j/{table['code']}")
    # The browser's own wake lock keeps the screen on; NoSleep.js is never fetched.
    assert page.evaluate("'wakeLock' in navigator") is True
    page.locator("#keep-awake").click()
    expect(page.locator("#keep-awake")).to_have_class(re.compile(r"\bheld\b"))
    assert page.evaluate("performance.getEntriesByType('resource').some(r => r.name.includes('NoSleep'))") is False
    return page


def test_a_table_behind_caddy_is_a_secure_context_with_its_stream_and_secure_cookies(https_site, https_phone):
    make, site = https_phone
    plays_a_table_over_https(make, site, https_site.server.url, site)


def test_the_readme_nginx_serves_the_table_over_https_too(https_site, https_phone, tmp_path):
    """README's nginx block, its certificate the one Caddy's authority made for the site."""
    needed(NGINX, "nginx")
    certificates = https_site.data / "certificates" / "local" / SITE
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    port, tls_port = free_port(), free_port6()
    upstream = https_site.server.url.removeprefix("http://")
    (prefix / "nginx.conf").write_text(nginx_conf(
        prefix, port, [upstream, upstream],
        (tls_port, certificates / f"{SITE}.crt", certificates / f"{SITE}.key")))
    with open(prefix / "error.log", "a") as output:
        nginx = subprocess.Popen([NGINX, "-p", str(prefix), "-e", str(prefix / "error.log"),
                                  "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
                                 stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", nginx, prefix / "error.log")
        make, _caddy = https_phone
        # nginx passes the name without the port on (the README's `Host $host`): on 443 it is.
        page = plays_a_table_over_https(make, f"https://{SITE}:{tls_port}", https_site.server.url,
                                        f"https://{SITE}")
        page.close()  # before nginx goes: its stream would end in an error
    finally:
        stop_process(nginx)


def test_the_rate_limits_count_the_client_caddy_passed_on(tmp_path):
    """Caddy comes from 127.0.0.1, the client from ::1: the limit is the client's. A header the
    client wrote itself names no other address."""
    site = https_site_of(tmp_path, {"RATE_LIMITS": "code=20", "RATE_LIMIT_TARPIT": "0"})
    try:
        missing = "/j/ZZZZZZ"  # a code no table has: a guess, counted for its address
        room_in_this_minute(15)
        answers = [site.get(missing)[0] for _ in range(20)]
        assert answers == [404] * 20
        assert site.get(missing, {"X-Forwarded-For": "203.0.113.9"})[0] == 429
        # Caddy's own address (a request straight to the app) has used none of its share.
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(site.server.url + missing, timeout=10)
        assert refused.value.code == 404
        refused.value.close()
    finally:
        site.stop()
        site.server.stop()


# -- the service worker ------------------------------------------------------------------

@pytest.mark.network_failures
def test_a_table_reloaded_without_the_network_shows_its_last_state_and_sends_the_taps_once(
        https_site, https_phone):
    make, site = https_phone
    server = https_site.server.url
    table = create_table(server, "scorepad", ["Ann", "Ben"])
    page = make(viewport=ux.PHONE_390)
    join(page, site, table["code"], "Ann")
    controlled(page)
    # Ben's score comes in while Ann looks on; her phone keeps the page as it shows now.
    api(server, "POST", f"/api/tables/{table['code']}/actions",
        {"type": "enter_score", "player": "Ben", "round": 1, "points": 9}, token=table["token"])
    expect(cell(page, "Ben", 1)).to_contain_text("9", timeout=5000)
    wait_for_copy(page, '#scoresheet button.cell[data-player="Ben"][data-round="1"]', "9")
    # The Wi-Fi drops; Ann enters her score, then reloads the page. The proxy goes away with
    # it: the browser's offline switch does not reach the worker's own requests.
    page.context.set_offline(True)
    https_site.stop()
    try:
        offline_then_back(page, https_site, server, table)
    finally:
        if https_site.process is None:
            https_site.start()


def offline_then_back(page, https_site, server: str, table: dict) -> None:
    """Ann's taps while the network is down, a reload between them, then the network back."""
    enter_score(page, "Ann", 1, 5)
    expect(page.locator(f"{SCORE_FORM} .form-error")).to_contain_text("Not sent yet")
    page.reload()
    # The table as her phone last saw it, marked offline, her score still waiting.
    banner = page.locator("#connection")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No connection")
    expect(banner).to_contain_text("The page as this phone last saw it.")
    expect(banner).to_contain_text("1 move waits to be sent.")
    expect(cell(page, "Ben", 1)).to_contain_text("9")
    # A score entered on the copy waits too.
    enter_score(page, "Ann", 2, 6)
    expect(banner).to_contain_text("2 moves wait to be sent.")
    assert log_texts(server, table["code"]).count("Ann wrote down 5 points in round 1.") == 0
    https_site.start()
    page.context.set_offline(False)
    expect(cell(page, "Ann", 2)).to_contain_text("6", timeout=15_000)
    expect(cell(page, "Ann", 1)).to_contain_text("5")
    expect(page.locator(f"{SCORE_FORM} .form-error")).to_have_text("Sent.")
    expect(banner).to_be_hidden(timeout=10_000)
    expect(page.locator("#offline-copy")).to_be_hidden()
    settle(page, server, table["code"])
    texts = log_texts(server, table["code"])
    assert texts.count("Ann wrote down 5 points in round 1.") == 1, texts
    assert texts.count("Ann wrote down 6 points in round 2.") == 1, texts


@pytest.mark.network_failures
def test_over_plain_http_there_is_no_worker_and_a_reload_offline_fails_as_before(live_server, lan_phone):
    make, lan = lan_phone
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    page = make(viewport=ux.PHONE_390)
    workers = []
    page.on("request", lambda request: workers.append(request.url) if "worker.js" in request.url else None)
    join(page, lan, table["code"], "Ann")
    assert page.evaluate("isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    page.context.set_offline(True)
    enter_score(page, "Ann", 1, 5)
    expect(page.locator(f"{SCORE_FORM} .form-error")).to_contain_text("Not sent yet")
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()
    page.context.set_offline(False)
    # Back on the table's page, the waiting score goes out, once.
    page.goto(f"{lan}/t/{table['code']}")
    expect(cell(page, "Ann", 1)).to_contain_text("5", timeout=10_000)
    settle(page, live_server, table["code"])
    assert log_texts(live_server, table["code"]).count("Ann wrote down 5 points in round 1.") == 1
    assert workers == []


def test_chromium_finds_the_companion_installable_over_https_only(playwright, https_site, https_home,
                                                                  live_server, tmp_path):
    """Chromium's own check (DevTools' Page.getInstallabilityErrors), in a profile of its own
    (a private window is never installable), over HTTPS and over the table's Wi-Fi."""
    browser = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules={HTTPS_RULE}, MAP {LAN_HOST} 127.0.0.1"],
        env={"HOME": str(https_home)}, viewport=ux.PHONE_390)
    try:
        page = browser.new_page()
        devtools = browser.new_cdp_session(page)
        page.goto(https_site.url + "/")
        controlled(page)
        assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        page.goto(live_server.replace("127.0.0.1", LAN_HOST) + "/")
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert "not-from-secure-origin" in [error["errorId"] for error in errors], errors
    finally:
        browser.close()


# -- the invite's "Share the link" ----------------------------------------------------------

FAKE_SHARE_SHEET = """
    window.shared = [];
    navigator.share = async (data) => { window.shared.push(data); };
"""


def share_button(page):
    page.locator("details.invite > summary").click()
    return page.locator("#invite [data-share-url]")


def test_share_opens_the_share_sheet_where_the_phone_has_one(https_site, https_phone):
    make, site = https_phone
    table = create_table(https_site.server.url, "scorepad", ["Ann", "Ben"])
    page = make(viewport=ux.PHONE_390, locale="de-DE")
    page.add_init_script(FAKE_SHARE_SHEET)
    join(page, site, table["code"], "Ann")
    button = share_button(page)
    expect(button).to_have_text("Link teilen")
    button.click()
    expect(page.locator("#invite .share-done")).to_have_text("Geteilt")
    shared = page.evaluate("window.shared")
    assert [item["url"] for item in shared] == [f"{site}/j/{table['code']}"]


def copied_link(page, server: str) -> str:
    """What the phone's clipboard holds, read on a secure page of the same browser (a page
    over plain HTTP may not read it)."""
    reader = page.context.new_page()
    try:
        reader.goto(server + "/healthz")
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        return reader.evaluate("navigator.clipboard.readText()")
    finally:
        reader.close()


def test_without_a_share_sheet_the_link_is_copied_over_https(https_site, https_phone):
    """Chromium on Linux has no share sheet: the link goes to the clipboard (its API)."""
    make, site = https_phone
    table = create_table(https_site.server.url, "scorepad", ["Ann", "Ben"])
    page = make(viewport=ux.PHONE_390, locale="de-DE")
    join(page, site, table["code"], "Ann")
    assert page.evaluate("typeof navigator.share") == "undefined"
    share_button(page).click()
    expect(page.locator("#invite .share-done")).to_have_text("Link kopiert")
    assert copied_link(page, https_site.server.url) == f"{site}/j/{table['code']}"


@pytest.fixture(scope="module")
def lan_named_server(tmp_path_factory):
    """A laptop whose invites name it by LAN_HOST, as phones on the table's Wi-Fi reach it."""
    server = Server(tmp_path_factory.mktemp("lan-named"))
    server.env["PUBLIC_URL"] = f"http://{LAN_HOST}:{server.port}"
    server.start()
    yield server
    server.stop()


def test_without_a_share_sheet_the_link_is_copied_over_plain_http(lan_named_server, lan_browser,
                                                                  console_errors):
    """No clipboard API over plain HTTP: the older copy command does it, as before."""
    make, contexts = phones_of(lan_browser, console_errors)
    table = create_table(lan_named_server.url, "scorepad", ["Ann", "Ben"])
    site = lan_named_server.env["PUBLIC_URL"]
    try:
        page = make(viewport=ux.PHONE_390, locale="de-DE")
        join(page, site, table["code"], "Ann")
        assert page.evaluate("isSecureContext") is False
        share_button(page).click()
        expect(page.locator("#invite .share-done")).to_have_text("Link kopiert")
        assert copied_link(page, lan_named_server.url) == f"{site}/j/{table['code']}"
    finally:
        for context in contexts:
            context.close()
