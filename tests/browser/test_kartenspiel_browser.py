"""Asterix: Das Kartenspiel in a real browser: taps reach the other phone, the chart is drawn."""

from playwright.sync_api import expect

from tests.browser.conftest import api, create_table, join, settle


def test_taps_reach_the_other_phone_and_the_chart_draws_a_line_per_player(live_server, new_phone, tmp_path):
    table = create_table(live_server, "kartenspiel", ["Ann", "Ben", "Cid"])
    code, host = table["code"], table["token"]
    ann, ben = new_phone(), new_phone()
    join(ann, live_server, code, "Ann")
    join(ben, live_server, code, "Ben")
    expect(ben.locator("#deck .ks-deck-count")).to_contain_text("50 of 50")

    # One trick: the face-up Roman is a 7 and Ben won it; then Ann's Dogmatix (an English phone) keeps a 12.
    trick = ann.locator("form.ks-trick").first
    trick.locator("label.ks-chip", has_text="7").first.click()
    trick.get_by_role("button", name="Ben Obelix").click()
    expect(ben.locator("#deck .ks-deck-count")).to_contain_text("49 of 50", timeout=3000)
    expect(ben.locator("#piles .ks-pile", has_text="Ben").locator(".ks-cards")).to_have_text("7", timeout=3000)
    expect(ben.locator("#history .log")).to_contain_text("Ben won a Roman worth 7")

    ann.locator("summary", has_text="Dogmatix looked at the top card").click()
    look = ann.locator("form", has=ann.locator('input[name="roman"]'))
    look.locator("label.ks-chip", has_text="Ann").click()
    look.locator('label.ks-chip:has(input[name="roman"][value="12"])').click()
    look.get_by_role("button", name="Kept it").click()
    expect(ann.locator("#deck .ks-deck-count")).to_contain_text("48 of 50", timeout=5000)
    expect(ben.locator("#deck .ks-deck-count")).to_contain_text("48 of 50", timeout=3000)
    expect(ben.locator("#deck .ks-hands")).to_contain_text("9 Gauls", timeout=3000)
    # Regions are swapped in place by live updates, so scroll by script rather than by element.
    ann.evaluate("window.scrollTo(0, document.getElementById('deck').offsetTop - 60)")
    ann.screenshot(path=tmp_path / "kartenspiel-board.png")
    ann.screenshot(path=tmp_path / "kartenspiel-full.png", full_page=True)

    # Two rounds typed in (through the API), closed on Ben's phone.
    for values in ({"Ann": "10 10 7", "Ben": "5 5 5", "Cid": "1 2"}, {"Ann": "14", "Ben": "", "Cid": "9 9"}):
        for name, romans in values.items():
            api(live_server, "POST", f"/api/tables/{code}/actions",
                {"type": "enter_romans", "player": name, "values": romans}, token=host)
        close = ben.get_by_role("button", name="Close round")
        expect(close).to_be_visible(timeout=3000)
        # Ben taps once his phone shows every pile typed in (an older view would get a 409).
        settle(ben, live_server, code)
        close.click()
        # The next round's close button waits, disabled, until its tricks are over.
        expect(ben.locator("#scoring .why-not")).to_contain_text("Not now: Round", timeout=3000)
        expect(close).to_be_disabled()

    # Ann's phone has caught up with both closed rounds: no swap is pending under the chart.
    expect(ann.locator("#totals tfoot")).to_contain_text("61", timeout=3000)
    settle(ann, live_server, code)
    # The chart folds away under the sheet; one tap opens it.
    ann.locator("#ks-chart-menu > summary").click()
    chart = ann.locator("#totals figure.ks-chart > svg")
    expect(chart).to_be_visible(timeout=3000)
    ann.evaluate("document.querySelector('#totals figure').scrollIntoView()")
    box = chart.bounding_box()
    assert box and box["width"] >= 300 and box["height"] >= 180
    lines = chart.locator("polyline")
    expect(lines).to_have_count(3)
    for index in range(3):
        expect(lines.nth(index)).to_be_visible()
    # Each line is told apart by its marker shape and a name label, not colour alone.
    markers = chart.locator("g.ks-line").evaluate_all("gs => gs.map(g => g.dataset.marker)")
    assert len(set(markers)) == 3
    expect(chart.locator("text.ks-label")).to_have_text(["Ann 61", "Ben 65", "Cid 41"])
    expect(ann.locator("#totals tfoot")).to_contain_text("61")
    settle(ann, live_server, table["code"])
    ann.locator("#totals").screenshot(path=tmp_path / "kartenspiel-chart.png")
