"""The rematch in real browsers: three phones at a finished table, one tap on one of them, and
every player's phone lands at the new table in its own seat, without a reload; the watching
phone stays, told where the players went but not the new table's code."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import api, create_table, join


def test_one_tap_starts_the_rematch_and_every_players_phone_follows_to_its_seat(live_server,
                                                                            new_phone):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    ann, ben, watcher = new_phone(), new_phone(), new_phone()
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")
    join(watcher, live_server, table["code"], None)
    for seat, points in (("Ann", 7), ("Ben", 12)):
        api(live_server, "POST", f"/api/tables/{table['code']}/actions",
            {"type": "enter_score", "player": seat, "round": 1, "points": points}, table["token"])
    api(live_server, "POST", f"/api/tables/{table['code']}/actions", {"type": "finish_game"},
        table["token"])
    expect(ben.get_by_role("button", name="Rematch")).to_be_enabled()
    expect(watcher.get_by_role("button", name="Rematch")).to_have_count(0)
    expect(watcher.locator("main")).to_contain_text("A phone with a seat starts the rematch; this one watches.")

    ben.get_by_role("button", name="Rematch").click()
    ben.wait_for_url(re.compile(r"/t/(?!%s)[A-Z0-9]{6}$" % table["code"]))
    new_code = ben.url.rsplit("/", 1)[-1]
    expect(ben.locator(".me")).to_contain_text("Ben")
    # The others follow by themselves (their streams carry the news).
    ann.wait_for_url(f"**/t/{new_code}", timeout=15_000)
    expect(ann.locator(".me")).to_contain_text("Ann")
    # A watcher may have come by the finished table's code alone: it stays, without the new one.
    expect(watcher.locator("main")).to_contain_text("The players have moved on to a rematch")
    assert watcher.url.endswith(f"/t/{table['code']}")
    assert new_code not in watcher.content()
    # Rotated: Ben starts the rematch's seat order; the game itself is fresh.
    rematch = api(live_server, "GET", f"/api/tables/{new_code}")
    assert rematch["players"] == ["Ben", "Ann"] and not rematch["finished"]
