"""Server push in real browsers: changes arrive on the stream, the poll only stands in for it,
and a dropped stream catches up (several servers: test_several_servers_browser.py). Every check
runs on both servers `companion serve` may choose: gunicorn, and gevent's own server where
gunicorn cannot run (Windows; here tests/as_on_windows.py hides what Windows lacks); on
PostgreSQL (`make test-pg`) on gunicorn only."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (AS_ON_WINDOWS, Server, api, create_table, host_score_pad, join,
                                    settle)


@pytest.fixture(scope="module", params=["gunicorn", "gevent-as-on-windows"])
def server(request, tmp_path_factory):
    if request.param != "gunicorn" and os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("gevent's own server is the platform's part, not the database's: once, on SQLite")
    with Server(tmp_path_factory.mktemp("live-push-instance"),
                command=AS_ON_WINDOWS if request.param == "gevent-as-on-windows" else None) as srv:
        yield srv


@pytest.fixture(scope="module")
def live_server(server) -> str:
    return server.url


def count_requests(page, fragment: str, method: str = "GET") -> list:
    seen = []
    page.on("request", lambda request: seen.append(request.url)
            if fragment in request.url and request.method == method else None)
    return seen


def block(page, pattern: str) -> None:
    page.route(pattern, lambda route: route.abort())


def enter_score(page, player: str, round_: int, points: int) -> None:
    form = page.locator("form.score-entry")
    form.locator("select[name=player]").select_option(player)
    form.locator("input[name=round]").fill(str(round_))
    form.locator("input[name=points]").fill(str(points))
    page.get_by_role("button", name="Save score").click()


def test_a_change_reaches_the_other_phone_on_the_stream_without_a_poll(live_server, new_phone):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    ann, ben = new_phone(), new_phone()
    for page in (ann, ben):
        block(page, "**/live?*")  # no poll can carry anything: only the stream can
    polls = count_requests(ben, "/live?")
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")
    ben.wait_for_function("() => !!document.getElementById('live-stream')")
    enter_score(ann, "Ann", 1, 23)
    expect(ben.locator("#scoresheet tfoot")).to_contain_text("23", timeout=3000)
    expect(ben.locator("#history .log")).to_contain_text("Ann wrote down 23 points")
    # Ann's own sheet shows it too (her stream brought it back), and her tap was counted once.
    expect(ann.locator("#scoresheet tfoot")).to_contain_text("23")
    assert api(live_server, "GET", f"/api/tables/{table['code']}")["scores"]["Ann"] == 23
    ben.wait_for_timeout(1500)  # the poll's once-a-second tick has come and gone at least once
    assert polls == [], f"the page polled while its stream was open: {polls[:3]}"
    expect(ben.locator("#connection")).to_be_hidden()


@pytest.mark.network_failures
def test_when_the_stream_cannot_be_opened_the_poll_carries_the_changes(live_server, new_phone):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    ann, ben = new_phone(), new_phone()
    block(ben, "**/events*")  # a proxy that will not pass the stream
    polls = count_requests(ben, "/live?")
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")
    enter_score(ann, "Ann", 1, 31)
    expect(ben.locator("#scoresheet tfoot")).to_contain_text("31", timeout=4000)
    assert polls, "the fallback poll ran"
    expect(ben.locator("#connection")).to_be_hidden()
    # Ben's own taps are answered with the regions, as the stream is not there to bring them.
    enter_score(ben, "Ben", 1, 12)
    expect(ben.locator("#scoresheet tfoot")).to_contain_text("12", timeout=3000)


@pytest.mark.network_failures
def test_a_dropped_stream_reconnects_by_itself_and_catches_up(server, new_phone):
    table = create_table(server.url, "scorepad", ["Ann", "Ben"])
    ben = new_phone()
    block(ben, "**/live?*")  # only the stream may bring the changes
    join(ben, server.url, table["code"], "Ben")
    settle(ben, server.url, table["code"])
    server.stop()  # every stream drops
    try:
        ben.wait_for_timeout(500)
    finally:
        server.start()
    # Changes made while the phone is still reconnecting: it gets them all when it is back.
    for round_, points in ((1, 5), (2, 6), (3, 7)):
        api(server.url, "POST", f"/api/tables/{table['code']}/actions",
            {"type": "enter_score", "player": "Ann", "round": round_, "points": points},
            token=table["token"])
    expect(ben.locator("#scoresheet tfoot")).to_contain_text("18", timeout=8000)
    expect(ben.locator("#history .log")).to_contain_text("7 points for Ann in round 3")
    settle(ben, server.url, table["code"])


def test_the_phones_of_a_deleted_table_are_sent_home(live_server, new_phone):
    host = new_phone()
    code = host_score_pad(host, live_server)
    ben = new_phone()
    join(ben, live_server, code, "Ben")
    host.locator("details.danger-zone summary").click()
    host.get_by_role("button", name=f"Delete table {code}").click()
    expect(ben.locator("#notice")).to_contain_text("deleted", timeout=3000)
    ben.wait_for_url(f"{live_server}/", timeout=5000)


def test_counting_the_table_in_a_group_shows_on_the_other_phone_without_a_reload(live_server,
                                                                                new_phone):
    """Linking is a change like a move (issue 41): the other phone's history says it at once,
    and the host's panel no longer offers it."""
    host = new_phone()
    code = host_score_pad(host, live_server)
    ben = new_phone()
    join(ben, live_server, code, "Ben")
    ben.wait_for_function("() => !!document.getElementById('live-stream')")
    loads = count_requests(ben, f"/t/{code}", method="GET")
    host.locator("details.group-link summary").click()
    host.locator("#link-group-name").fill("Friday")
    host.get_by_role("button", name="Count it in the group").click()
    expect(ben.locator("#history .log")).to_contain_text(
        "The host counted this table in the plays of Friday.", timeout=3000)
    assert not [url for url in loads if url.rstrip("/").endswith(f"/t/{code}")], "Ben's page was reloaded"
    expect(host.locator("details.group-link")).to_have_count(0)
