"""The Content-Security-Policy (companion/security.py) in a real browser: the home page, the
set-up forms, a table of every game played a tap or two, the history, the rules dialog and a
group's statistics charts, with no violation reported and htmx's swaps and live updates
working (htmx without eval and without its inline <style>)."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import expect

from companion.games import GAMES
from tests.browser.conftest import act, api, create_table, join, settle

# Recorded from the first moment of every page (an init script is not subject to the policy).
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => {
    window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} ${e.sample || ''}`);
}, true);
"""


class Watched:
    """Every violation a page reports: its event, and the console's complaint."""

    def __init__(self):
        self.seen: list[str] = []

    def watch(self, page):
        page.add_init_script(WATCH)
        page.on("console", lambda message: "Content Security Policy" in message.text
                and self.seen.append(f"console: {message.text}"))
        page.on("pageerror", lambda error: "Content Security Policy" in str(error)
                and self.seen.append(f"error: {error}"))
        return page

    def check(self, page, where: str) -> None:
        """No violation so far, by the console or by the page's events."""
        try:
            events = page.evaluate("window.__csp || []")
        except Exception:  # the page is navigating: its events are gone with it, the console's not
            events = []
        found = self.seen + [f"event: {e}" for e in events]
        assert found == [], f"{where}: {found}"


@pytest.fixture
def watched(new_phone):
    """A phone whose policy violations are recorded, and the recorder."""
    record = Watched()

    def make(**kw):
        return record.watch(new_phone(**kw))

    return make, record


def no_htmx_style(page) -> None:
    # htmx's own indicator <style> is switched off; the only <style> is the charts' (stats page).
    assert page.evaluate("document.querySelectorAll('head style').length") == 0


def test_the_policy_is_what_the_browser_gets(live_server):
    with urllib.request.urlopen(live_server + "/") as answer:
        policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe" not in policy


def test_home_set_up_rules_and_a_score_pad_from_the_form_without_a_violation(live_server, watched):
    make, record = watched
    page = make()
    page.goto(live_server + "/")
    expect(page.locator("main")).to_be_visible()
    no_htmx_style(page)
    record.check(page, "home")
    for game in sorted(GAMES):
        page.goto(f"{live_server}/new/{game}")
        expect(page.get_by_role("button", name="Start the table")).to_be_visible()
        record.check(page, f"the set-up form of {game}")
    # The rules dialog: its search is an htmx GET swapped into the dialog.
    page.goto(live_server + "/")
    page.locator(".rules-button").click()
    expect(page.locator("#rules-dialog")).to_be_visible()
    page.locator("#rules-q").fill("dogmatix")
    expect(page.locator("#rules-dialog-body")).to_contain_text("Dogmatix", timeout=5000)
    record.check(page, "the rules search")
    # A score pad set up with the form, one score entered with a tap: htmx posts and swaps.
    page.goto(f"{live_server}/new/scorepad")
    for i, name in enumerate(["Ann", "Ben"]):
        row = page.locator(".player-row").nth(i)
        if not row.is_visible():
            page.locator("[data-add-player]").click()
        row.locator("input[name=player]").fill(name)
    page.get_by_label("I only host or watch").check()
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[-1]
    form = page.locator("form.score-entry")
    form.locator("select[name=player]").select_option("Ben")
    form.locator("input[name=round]").fill("1")
    form.locator("input[name=points]").fill("12")
    form.locator("button[type=submit]").click()
    expect(page.locator('#scoresheet button.cell[data-player="Ben"][data-round="1"]')).to_have_text("12")
    assert api(live_server, "GET", f"/api/tables/{code}")["scores"]["Ben"] == 12
    no_htmx_style(page)
    record.check(page, "the score pad")
    # The history page numbers its lines in the room data-digits leaves for them.
    page.goto(f"{live_server}/t/{code}/history")
    assert page.evaluate("getComputedStyle(document.querySelector('.log')).getPropertyValue('--digits').trim()") == "1"
    record.check(page, "the history")


def test_every_game_played_a_tap_or_two_without_a_violation(live_server, watched, tmp_path):
    make, record = watched

    # Asterix & Obelix: the formation's places come from classes, not style attributes.
    table = create_table(live_server, "asterix-obelix", ["Ann", "Ben"])
    ann, ben = make(), make()
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")
    ann.get_by_role("button", name="Ann attacks first", exact=True).click()
    arrow = ann.get_by_role("button", name="Attack row 2 from the right", exact=True)
    expect(arrow).to_be_visible()
    assert arrow.evaluate("el => [getComputedStyle(el).gridRowStart, getComputedStyle(el).gridColumnStart]") == ["3", "6"]
    arrow.click()
    red = "form:has(input[name=colour][value=red]) button[name=kind][value=legionary]"
    ann.locator(red).click()
    expect(ann.locator("#board")).to_contain_text("beaten so far: 1")
    expect(ben.locator("#board")).to_contain_text("beaten so far: 1", timeout=3000)  # live
    cell = ann.locator(".ao-grid .ao-cell").first
    assert cell.evaluate("el => getComputedStyle(el).gridRowStart") == "2"
    settle(ann, live_server, table["code"])
    ann.locator(".ao-grid").screenshot(path=tmp_path / "csp-asterix-obelix-grid.png")
    no_htmx_style(ann)
    record.check(ann, "Asterix & Obelix, Ann")
    record.check(ben, "Asterix & Obelix, Ben")

    # Asterix & Co.: the album bar is an SVG rectangle as wide as the side's share.
    table = create_table(live_server, "asterix-co", ["Matthew", "Laura"])
    matthew, laura = make(), make()
    join(matthew, live_server, table["code"], "Matthew")
    join(laura, live_server, table["code"], "Laura")
    matthew.locator("#album-1 .ac-side-gaul .ac-add").click()
    dialog = matthew.locator("#ac-play")
    expect(dialog).to_be_visible()
    dialog.locator(".ac-strength label.chip").filter(has_text="6").click()
    dialog.locator("input[name=name]").fill("Asterix")
    dialog.locator(".ac-types").get_by_role("button", name="Hero", exact=True).click()
    expect(dialog).to_be_hidden()
    gaul = laura.locator("#album-1 .ac-side-gaul")
    expect(gaul.locator(".ac-total")).to_contain_text("6", timeout=3000)
    settle(laura, live_server, table["code"])
    share = gaul.locator(".ac-bar").evaluate(
        "bar => bar.querySelector('rect').getBoundingClientRect().width / bar.clientWidth")
    assert abs(share - 6 / 15) < 0.02, share
    empty = laura.locator("#album-1 .ac-side-roman .ac-bar rect").evaluate("r => r.getBoundingClientRect().width")
    assert empty == 0
    laura.locator("#album-1").screenshot(path=tmp_path / "csp-asterix-co-album.png")
    record.check(matthew, "Asterix & Co., Matthew")
    record.check(laura, "Asterix & Co., Laura")

    # Das Kartenspiel: one trick tapped, seen on the other phone.
    table = create_table(live_server, "kartenspiel", ["Ann", "Ben", "Cid"])
    ann, ben = make(), make()
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")
    trick = ann.locator("form.ks-trick").first
    trick.locator("label.ks-chip", has_text="7").first.click()
    trick.get_by_role("button", name="Ben Obelix").click()
    expect(ben.locator("#deck .ks-deck-count")).to_contain_text("49 of 50", timeout=3000)
    record.check(ann, "Kartenspiel, Ann")
    record.check(ben, "Kartenspiel, Ben")

    # Mission Zaubertrank!: a marker drawn and placed.
    table = create_table(live_server, "zaubertrank", ["Ann", "Bob"])
    ann, bob = make(), make()
    join(ann, live_server, table["code"], "Ann")
    join(bob, live_server, table["code"], "Bob")
    ann.locator("form.zt-draw-form button[value=lightning]").click()
    ann.locator("form.zt-place", has_text="Fishmonger").locator("button").click()
    expect(bob.locator("#timeline .zt-loc-2 .zt-slot.covered")).to_have_count(1, timeout=3000)
    record.check(ann, "Zaubertrank, Ann")
    record.check(bob, "Zaubertrank, Bob")


def test_a_group_s_statistics_charts_without_a_violation(live_server, watched, tmp_path):
    make, record = watched
    group = api(live_server, "POST", "/api/groups", {"name": "Friday", "players": ["Ann", "Ben"]})
    for points in ({"Ann": 30, "Ben": 12}, {"Ann": 10, "Ben": 40}):
        table = create_table(live_server, "scorepad", list(points), group=group["code"])
        for seat, value in points.items():
            act(live_server, table, {"type": "enter_score", "player": seat, "round": 1, "points": value})
        act(live_server, table, {"type": "finish_game"})
    page = make()
    page.goto(f"{live_server}/g/{group['code']}/stats")
    chart = page.locator("figure.stats-chart svg").first
    expect(chart).to_be_visible()
    # The charts' inline <style> applies (allowed by its hash): the figure is a size container.
    assert page.locator("figure.stats-chart").first.evaluate("el => getComputedStyle(el).containerType") == "inline-size"
    page.screenshot(path=tmp_path / "csp-stats.png", full_page=True)
    record.check(page, "the statistics")
    page.goto(f"{live_server}/g/{group['code']}")
    page.locator("details.invite > summary").click()
    expect(page.locator(".qr svg")).to_be_visible()  # the group's QR code, an inline SVG
    record.check(page, "the group page")
