"""Mission Zaubertrank! in a real browser: the ring of locations on a 360 px phone, shared live."""

from playwright.sync_api import expect

from tests.browser.conftest import create_table, join, settle


def box(page, selector):
    found = page.locator(selector).bounding_box()
    assert found, selector
    return found


def test_the_ring_on_a_phone_and_a_second_phone_follows_the_roman(live_server, new_phone, tmp_path):
    table = create_table(live_server, "zaubertrank", ["Ann", "Bob"])
    ann, bob = new_phone(), new_phone()
    join(ann, live_server, table["code"], "Ann")
    join(bob, live_server, table["code"], "Bob")

    # The six cards lie as a ring, clockwise: 1 and 2 on top, 3 and 6 in the middle with the
    # task stack between them, 5 and 4 at the bottom; nothing is wider than the phone.
    cards = {n: box(ann, f"#timeline .zt-loc-{n}") for n in range(1, 7)}
    centre = box(ann, "#timeline .zt-centre")
    assert abs(cards[1]["y"] - cards[2]["y"]) < 2 and cards[1]["x"] < centre["x"] < cards[2]["x"]
    assert cards[6]["x"] < centre["x"] < cards[3]["x"]
    assert cards[2]["y"] < cards[3]["y"] < cards[4]["y"]
    assert cards[1]["y"] < cards[6]["y"] < cards[5]["y"]
    assert abs(cards[4]["y"] - cards[5]["y"]) < 2 and cards[5]["x"] < cards[4]["x"]
    assert ann.evaluate("document.documentElement.scrollWidth") <= 360
    for card in cards.values():
        assert card["x"] >= 0 and card["x"] + card["width"] <= 360
    roman = ann.locator("#timeline .zt-loc-1 .zt-space.roman")
    expect(roman).to_have_count(1)
    expect(ann.locator("#timeline .zt-loc-1 .zt-space").first).to_contain_text("R")

    # The opening markers, placed with the app's help, show on Bob's ring.
    ann.locator("form.zt-draw-form button[value=lightning]").click()
    ann.locator("form.zt-place", has_text="Fishmonger").locator("button").click()
    expect(bob.locator("#timeline .zt-loc-2 .zt-slot.covered")).to_have_count(1, timeout=3000)
    expect(bob.locator("#timeline .zt-loc-2")).to_contain_text("lightning ■")
    ann.locator("form.zt-draw-form button[value=skull]").click()
    ann.locator("form.zt-place", has_text="Mistletoe grove").locator("button").click()
    ann.locator("form.zt-begin button[value=Ann]").click()
    expect(bob.locator("#turn h2")).to_contain_text("Ann's turn", timeout=3000)

    # Ann moves, then ends her actions: the Roman steps on and Bob's phone follows.
    ann.locator("form.zt-move button", has_text="Druid's Cave").click()
    expect(bob.locator("#timeline .zt-loc-3 .zt-figs")).to_contain_text("Ann", timeout=3000)
    ann.locator("form.zt-advance button").click()
    expect(bob.locator("#timeline .zt-clock")).to_contain_text("23 spaces left", timeout=3000)
    expect(bob.locator("#timeline .zt-loc-1 .zt-space").nth(1)).to_have_class(
        "zt-space roman", timeout=3000)
    expect(bob.locator("#turn")).to_contain_text("Draw a mishap marker")

    # The drawn fist: the legal spaces are marked on the ring of every phone.
    ann.locator("form.zt-draw-form button[value=fist]").click()
    expect(bob.locator("#timeline .zt-slot.legal")).to_have_count(3, timeout=3000)
    settle(bob, live_server, table["code"])
    bob.locator("#timeline").screenshot(path=tmp_path / "zaubertrank-board.png")
    bob.screenshot(path=tmp_path / "zaubertrank-page.png", full_page=True)
    bob.locator("form.zt-place", has_text="Bard's Hut").locator("button").click()
    expect(ann.locator("#turn h2")).to_contain_text("Bob's turn", timeout=3000)
    expect(ann.locator("#timeline .zt-loc-5 .zt-slot.covered")).to_have_count(1)
