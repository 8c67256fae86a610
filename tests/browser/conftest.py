"""Real-browser fixtures: a production server (gunicorn) on loopback and headless Chromium.

Chromium comes from Debian's package (/usr/bin/chromium); nothing is downloaded. Locally the
tests skip when it is missing; under CI (CI=true) a missing browser is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sys
import urllib.request
from pathlib import Path

import pytest

from bench.server import ServerProcess, wait_until_up  # noqa: F401 - the tests import it from here
from tests.browser.proxies import CADDY, CERTUTIL, SITE, Caddy, trusting_home
from tests.conftest import PG_URL, bearer

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# The phones: Chromium's headless shell (Debian's chromium-headless-shell, what Playwright runs
# headless by default), the same engine without the full browser's window drawing, much lighter
# on the CPU. The full browser stays for what only it has (HTTPS: its certificate store,
# installability, the share sheet).
HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL", "/usr/lib/chromium/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
PHONE = {"width": 360, "height": 740}
SHARED_ASSETS = Path(__file__).resolve().parents[2] / "build" / "test-assets"


# Files whose behaviour depends on the database (live push, several servers): `make test-pg`
# runs them on PostgreSQL too.
DATABASE_FILES = ("test_live_push_browser.py", "test_several_servers_browser.py")


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)
            if Path(item.fspath).name in DATABASE_FILES:
                item.add_marker(pytest.mark.database)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# `companion` as on Windows: gunicorn and the rest hidden, so `serve` chooses gevent's server.
AS_ON_WINDOWS = [sys.executable, str(Path(__file__).resolve().parent.parent / "as_on_windows.py")]


class Server(ServerProcess):
    """`companion serve` on a fresh database (``command``: another `companion`, e.g.
    AS_ON_WINDOWS or an installed wheel's, run in ``cwd``); can be stopped and restarted."""

    def __init__(self, instance: Path, host: str = "127.0.0.1", env: dict | None = None,
                 command: list[str] | None = None, cwd: Path | None = None):
        port = free_port()
        super().__init__(instance, port, instance / f"server-{port}.log", host=host, env=env,
                         command=command, cwd=cwd)

    def start(self) -> None:
        # Every browser of the suite comes from 127.0.0.1, faster than any phone taps.
        env = self.environment({"RATE_LIMITS": "code=0,action=0,live=0,create=0"})
        if PG_URL and "DATABASE_URL" not in self.env:  # the suite's PostgreSQL
            env["DATABASE_URL"] = PG_URL
        self.instance.mkdir(parents=True, exist_ok=True)
        # Scripts and styles minified and compressed once for all the suite's servers (kept by
        # their content, as a server's workers share them): not again in every fresh instance.
        if not (self.instance / "assets").exists():
            SHARED_ASSETS.mkdir(parents=True, exist_ok=True)
            (self.instance / "assets").symlink_to(SHARED_ASSETS, target_is_directory=True)
        self.launch(env)
        self.wait_until_up()

    def __enter__(self) -> "Server":
        self.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("browser-instance")) as srv:
        yield srv


@pytest.fixture(scope="session")
def live_server(server) -> str:
    return server.url


@pytest.fixture(scope="session")
def playwright():
    for program in (CHROMIUM, HEADLESS_SHELL):
        if not shutil.which(program) and not os.path.exists(program):
            if os.environ.get("CI"):
                pytest.fail(f"Chromium is missing at {program}; .ci/run installs it.")
            pytest.skip(f"Chromium is not installed at {program}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright):
    chromium = playwright.chromium.launch(executable_path=HEADLESS_SHELL, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


# A name for this machine that Chromium resolves to 127.0.0.1: a page opened by it is not a
# secure context (no wake lock, no clipboard), as a phone on the table's Wi-Fi sees the laptop.
LAN_HOST = "table.lan"


@pytest.fixture(scope="session")
def lan_browser(playwright):
    chromium = playwright.chromium.launch(
        executable_path=HEADLESS_SHELL, args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"])
    yield chromium
    chromium.close()


def needed(program: str, package: str) -> None:
    """Skip without ``program`` locally; under CI (CI=true) its absence is a failure."""
    if not os.path.exists(program):
        if os.environ.get("CI"):
            pytest.fail(f"{program} is missing; .ci/run installs Debian's {package}.")
        pytest.skip(f"{program} is not installed (Debian's {package})")


class HttpsSite(Caddy):
    """Caddy over HTTPS in front of ``server`` (see tests/browser/proxies.py)."""

    def __init__(self, folder: Path, server: Server):
        super().__init__(folder, server.url.removeprefix("http://"))
        self.server = server


def https_site_of(folder: Path, env: dict | None = None) -> HttpsSite:
    """A companion believing one proxy in front, and Caddy in front of it, started."""
    needed(CADDY, "caddy")
    server = Server(folder / "instance", env={"TRUSTED_PROXIES": "1",
                                              "TRUSTED_HOSTS": f"{SITE},127.0.0.1", **(env or {})})
    server.start()
    site = HttpsSite(folder / "caddy", server)
    try:
        site.start()
    except Exception:
        server.stop()
        raise
    return site


@pytest.fixture(scope="session")
def https_site(tmp_path_factory):
    """The suite's companion over HTTPS: docs/operating.md's Caddyfile in front (one per test
    process), its certificate from Caddy's local authority; ``url`` is its address."""
    site = https_site_of(tmp_path_factory.mktemp("https"))
    yield site
    site.stop()
    site.server.stop()


@pytest.fixture(scope="session")
def https_home(https_site, tmp_path_factory) -> Path:
    """A HOME for Chromium whose certificate store trusts Caddy's local authority."""
    needed(CERTUTIL, "libnss3-tools")
    return trusting_home(tmp_path_factory.mktemp("chromium-home"), https_site.root)


# Chromium finds the site's name at ::1, where Caddy listens (see tests/browser/proxies.py).
HTTPS_RULE = f"MAP {SITE} [::1]"
HTTPS_ARGS = [*CHROMIUM_ARGS, f"--host-resolver-rules={HTTPS_RULE}"]


@pytest.fixture(scope="session")
def https_browser(playwright, https_home):
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=HTTPS_ARGS,
                                          env={**os.environ, "HOME": str(https_home)})
    yield chromium
    chromium.close()


class ConsoleErrors(list):
    """Every script error and console error of a test's phones. Chromium's own line for an
    answer that is not 2xx or a request that failed ("Failed to load resource") is no error of
    the page: refusals are tested on purpose. A test marked ``network_failures`` cuts the
    connection on purpose: then htmx's and its stream's lines about a failed request are
    expected too."""

    # What htmx and its SSE extension log when a request or the stream fails.
    NETWORK_LINES = re.compile(r"^(htmx:\w+, \[object \w+\]|Response Status Error Code \d+ from \S+, "
                               r"\[object \w+\]|\[object Event\])$")

    def __init__(self, network_failures: bool = False):
        super().__init__()
        self.network_failures = network_failures

    def watch(self, context) -> None:
        context.on("console", self._console)
        context.on("weberror", lambda error: self.append(f"script error: {error.error}"))

    def _console(self, message) -> None:
        if message.type != "error" or message.text.startswith("Failed to load resource"):
            return
        if self.network_failures and self.NETWORK_LINES.match(message.text):
            return
        self.append(f"console: {message.text} ({message.location['url']})")


def phones_of(browser, errors: ConsoleErrors | None = None):
    """A maker of phones in ``browser`` and the contexts it made (to close); ``errors``
    collects what their consoles report."""
    contexts = []

    def make(viewport: dict | None = None, locale: str | None = None, timezone_id: str | None = None):
        """``viewport``: e.g. ux.PHONE_390, ux.PHONE_320 or ux.TABLET (default: 360 × 740);
        a viewport wider than 900 px is a tablet (not is_mobile). ``locale``: the browser's
        language (e.g. "de-DE": it asks for German with Accept-Language); ``timezone_id``: its
        clock's zone (e.g. "Europe/Berlin")."""
        size = viewport or PHONE
        # Layout is in CSS pixels at any density: one device pixel to each renders fastest.
        context = browser.new_context(viewport=size, device_scale_factor=1,
                                      is_mobile=size["width"] < 900, has_touch=True,
                                      **({"locale": locale} if locale else {}),
                                      **({"timezone_id": timezone_id} if timezone_id else {}))
        context.set_default_timeout(10_000)
        if errors is not None:
            errors.watch(context)
        contexts.append(context)
        return context.new_page()

    return make, contexts


@pytest.fixture
def console_errors(request) -> ConsoleErrors:
    """What the test's phones' consoles said in error: the test fails on any."""
    errors = ConsoleErrors(request.node.get_closest_marker("network_failures") is not None)
    yield errors
    assert not errors, "the browser's console reported errors:\n" + "\n".join(errors)


@pytest.fixture
def new_phone(browser, console_errors):
    """Make a phone: a fresh browser context (its own cookies) 360 px wide."""
    make, contexts = phones_of(browser, console_errors)
    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def lan_phone(lan_browser, live_server, console_errors):
    """Make a phone on the table's Wi-Fi: it opens the server by LAN_HOST (see there); answers
    the maker and the server's address by that name (for the phone; tests call live_server)."""
    make, contexts = phones_of(lan_browser, console_errors)
    yield make, live_server.replace("127.0.0.1", LAN_HOST)
    for context in contexts:
        context.close()


@pytest.fixture
def https_phone(https_browser, https_site, console_errors):
    """Make a phone that opens the companion over HTTPS through Caddy: answers the maker and
    the site's address (tests call the app itself at ``https_site.server.url``)."""
    make, contexts = phones_of(https_browser, console_errors)
    yield make, https_site.url
    for context in contexts:
        context.close()


def api(live_server: str, method: str, path: str, body: dict | None = None,
        token: str | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **(bearer(token) if token else {})}
    request = urllib.request.Request(live_server + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def create_table(live_server: str, game: str = "scorepad", players=("Ann", "Ben"),
                 options: dict | None = None, **fields) -> dict:
    """tests.conftest.api_table over HTTP, as a real server has no Flask test client: the same
    body, the same answer (code, url, token, version, the host's bearer ``headers``)."""
    table = api(live_server, "POST", "/api/tables", {"game": game, "players": list(players),
                                                     "options": options or {}, **fields})
    return {**table, "headers": bearer(table["token"])}


def act(live_server: str, table: dict, action: dict) -> dict:
    """A move made by the host's script (the JSON API), not by any phone of the test."""
    return api(live_server, "POST", f"/api/tables/{table['code']}/actions", action, token=table["token"])


def host_score_pad(page, address: str) -> str:
    """Set up a score pad for Ann and Ben on ``page``'s own set-up form (so that it hosts the
    table, with every host control on its page); the table's code."""
    page.goto(f"{address}/new/scorepad")
    page.locator("input[name=player]").first.fill("Ann")
    page.locator("input[name=player]").nth(1).fill("Ben")
    page.get_by_role("button", name=re.compile("Start")).click()
    return page.url.rsplit("/", 1)[-1]


def join(page, live_server: str, code: str, seat: str | None = None) -> None:
    """Open the table's join page and take ``seat`` (None: watch only)."""
    page.goto(f"{live_server}/j/{code}")
    if seat is None:
        page.get_by_role("button", name="Watch only").click()
    else:
        page.locator(f'button[name="seat"][value="{seat}"]').click()
    page.wait_for_url(f"**/t/{code}")


def settle(page, live_server: str, code: str) -> None:
    """Wait until the page shows the table's current version: no live swap is pending, so
    an element can be measured or photographed without being replaced under the test."""
    version = api(live_server, "GET", f"/api/tables/{code}")["version"]
    page.wait_for_function(
        "v => { const m = document.getElementById('live-meta'); return m && +m.dataset.version >= v; }",
        arg=version, timeout=5000,
    )


def seated(new_phone, live_server: str, code: str, seat: str | None, viewport: dict | None = None,
           locale: str | None = None):
    """A ``new_phone`` that joined the table at ``seat`` (None: watching), its page settled."""
    page = new_phone(viewport=viewport, locale=locale)
    join(page, live_server, code, seat)
    settle(page, live_server, code)
    return page


@pytest.fixture(scope="session")
def german_shots(tmp_path_factory) -> Path:
    """One folder for the run's German screenshots of every game and page, to be looked at
    together (issue 13); under pytest's temporary folder (``--basetemp`` chooses it)."""
    return tmp_path_factory.mktemp("screens-de")
