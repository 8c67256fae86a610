"""The group pages in the hand: a group with plays, its statistics (charts with their tables),
and the new-group form, at phone sizes and on a tablet: big targets, readable text, nothing
sideways, no axe violations; and a screenshot of the statistics to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import api
from tests.browser.ux import PHONE_320, PHONE_390, TABLET, axe_violations, overflowing, small_targets, small_text


OWNER_KEYS: dict[str, str] = {}  # each group's, as its maker keeps it


def a_group_with_plays(live_server) -> str:
    group = api(live_server, "POST", "/api/groups", {"name": "Friday <night>", "players": []})
    plays = []
    for number, (winner, loser, game) in enumerate([
            ("Katrin", "Ben", "scorepad"), ("Ben", "Cem", "scorepad"), ("Katrin", "Cem", "kartenspiel"),
            ("Cem", "Katrin", "asterix-obelix"), ("Katrin", "Ben", "scorepad")]):
        plays.append({"uid": f"p{number}", "game": game,
                      "started_at": f"2026-11-{10 + number}T19:00:00+00:00",
                      "ended_at": f"2026-11-{10 + number}T20:10:00+00:00",
                      "players": [{"name": winner, "score": 40 + number, "winner": True},
                                  {"name": loser, "score": 20 + number, "winner": False}]})
    plays.append({"uid": "z1", "game": "zaubertrank", "started_at": "2026-11-20T19:00:00+00:00",
                  "ended_at": "2026-11-20T20:00:00+00:00", "cooperative": True, "result": "won",
                  "players": [{"name": "Ben", "winner": True}, {"name": "Cem", "winner": True}],
                  "facts": {"difficulty": "normal", "roman_spaces_left": 4, "result": "won"}})
    api(live_server, "POST", f"/api/groups/{group['code']}/plays", {"plays": plays},
        token=group["owner_key"])
    OWNER_KEYS[group["code"]] = group["owner_key"]
    return group["code"]


@pytest.mark.parametrize("size", [PHONE_390, PHONE_320, TABLET], ids=["390", "320", "tablet"])
def test_the_group_pages_fit_the_hand(live_server, new_phone, size, tmp_path):
    code = a_group_with_plays(live_server)
    page = new_phone(size)
    # A visitor's page, then (the owner link opened) an owner's, with its forms and its QR.
    for path in (f"/g/{code}", f"/g/{code}/stats", "/groups/new", f"/g/{code}/own/{OWNER_KEYS[code]}"):
        page.goto(live_server + path)
        found = {"small targets": small_targets(page), "small text": small_text(page),
                 "overflow": overflowing(page), "axe": axe_violations(page)}
        assert found == {"small targets": [], "small text": [], "overflow": [], "axe": []}, path
    assert page.locator("#owners").get_by_text("This phone is an owner").is_visible()
    page.locator("#owners summary").click()  # sharing ownership: the warning, the QR, the link
    assert page.locator("#owners .warning").is_visible()
    assert overflowing(page) == [] and small_targets(page) == []
    page.locator("#owners").screenshot(path=tmp_path / f"owners-{size['width']}.png")
    page.goto(f"{live_server}/g/{code}/stats")
    assert "Friday <night>" in page.locator("h1").inner_text()  # escaped, shown as typed
    assert page.locator("figure svg[role=img]").count() >= 2
    assert page.locator("figure table").count() == page.locator("figure svg[role=img]").count()
    page.screenshot(path=tmp_path / f"stats-{size['width']}.png")


def test_a_german_phone_reads_the_win_rates_without_scrolling_sideways(live_server, new_phone):
    """At 360 px in German, where the column is "Siegquote", the win-rate chart's table of four
    columns fits its box, and its rates are written the German way ("75 %")."""
    code = a_group_with_plays(live_server)
    page = new_phone(locale="de-DE")
    page.goto(f"{live_server}/g/{code}/stats")
    box = page.locator("figure .stats-table-box").first
    text = box.text_content()
    assert "Siegquote" in text and "75\u00a0%" in text  # Katrin: 3 wins in 4 plays
    scroll, visible = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert scroll <= visible, f"the table is {scroll} px wide in a box of {visible} px"


def test_a_german_phone_reads_each_play_with_its_day_year_and_time(live_server, new_phone, tmp_path):
    code = a_group_with_plays(live_server)
    page = new_phone(PHONE_390, locale="de-DE", timezone_id="Europe/Berlin")
    page.goto(f"{live_server}/g/{code}")
    # The last play ended 20:00 UTC on 20 November: 21:00 in Berlin.
    assert page.locator("#plays time").first.inner_text() == "20. Nov. 2026, 21:00"
    page.screenshot(path=tmp_path / "plays-de-390.png")
    # The CSV is written in the phone's zone, for a German spreadsheet.
    with page.expect_download() as download:
        page.get_by_role("link", name="Partien als CSV (Tabellenkalkulation)").click()
    assert download.value.url.endswith("tz=Europe%2FBerlin")
    rows = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert rows[0].startswith("Partie;Spiel;") and ";20.11.2026 21:00;" in rows[1]


@pytest.mark.parametrize("size", [PHONE_390, PHONE_320], ids=["390", "320"])
def test_a_statistics_table_that_cannot_fit_says_swipe_and_one_that_fits_does_not(live_server, new_phone, size):
    code = a_group_with_plays(live_server)
    page = new_phone(size, locale="de-DE")
    page.goto(f"{live_server}/g/{code}/stats")
    boxes = page.evaluate("""() => [...document.querySelectorAll('.sheet-scroll, .stats-table-box')].map(box => {
        const hint = box.querySelector('.swipe-hint');
        return [box.scrollWidth > box.clientWidth, !!hint && hint.getClientRects().length > 0,
                hint ? hint.textContent : null];
    })""")
    assert boxes and all(scrolls == shown for scrolls, shown, _ in boxes), boxes
    assert all(words == "wischen für mehr ⇆" for _, _, words in boxes)
    # The group's own table (plays, wins, rate, streak) fits a 390 px phone in German.
    if size == PHONE_390:
        assert boxes[1][0] is False, "the table of every game together scrolls at 390 px"
