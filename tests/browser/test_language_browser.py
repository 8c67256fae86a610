"""Each phone in its own language: the switch in the top bar, remembered, fitting at 320 px,
and a table shared by a German and an English phone where a live change reaches each phone's
log in its own language."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import api, create_table, join
from tests.browser.ux import PHONE_320, PHONE_390, overflowing, small_targets


def test_a_german_and_an_english_phone_share_a_table_each_in_its_language(live_server, new_phone):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"])
    ann, ben = new_phone(PHONE_320), new_phone(PHONE_390)
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")

    switch = ann.locator(".lang-switch button")
    expect(switch).to_have_text("DE")
    switch.click()
    ann.wait_for_url(f"**/t/{table['code']}")
    expect(ann.locator("html")).to_have_attribute("lang", "de")
    expect(ann.locator(".rules-button")).to_have_text("Regeln")
    expect(ann.locator(".log")).to_contain_text("Der Tisch wurde für Ann, Ben angelegt.")
    assert overflowing(ann) == [], overflowing(ann)
    assert [t for t in small_targets(ann) if "lang" in t or "rules" in t] == []
    expect(ben.locator("html")).to_have_attribute("lang", "en")

    # A change arrives on both streams: each phone reads it in its own language.
    api(live_server, "POST", f"/api/tables/{table['code']}/join", {"watch": True})
    expect(ann.locator(".log")).to_contain_text("Ein Handy schaut jetzt zu.")
    expect(ben.locator(".log")).to_contain_text("A phone joined to watch.")
    expect(ben.locator(".log")).not_to_contain_text("Ein Handy")

    # The choice is the phone's: it stays after a reload, and switches back with one tap.
    ann.reload()
    expect(ann.locator("html")).to_have_attribute("lang", "de")
    ann.locator(".lang-switch button").click()
    ann.wait_for_url(f"**/t/{table['code']}")
    expect(ann.locator("html")).to_have_attribute("lang", "en")
    expect(ann.locator(".log")).to_contain_text("A phone joined to watch.")


def test_the_longer_german_undo_and_redo_words_are_never_broken_inside(live_server, new_phone, tmp_path):
    table = create_table(live_server, "scorepad", ["Ann", "Ben", "Cid"])
    for seat, size in zip(("Ann", "Ben", "Cid"), (PHONE_320, {"width": 360, "height": 740}, PHONE_390)):
        page = new_phone(size)
        join(page, live_server, table["code"], seat)
        page.locator(".lang-switch button").click()
        page.wait_for_url(f"**/t/{table['code']}")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        buttons = page.locator(".history .undo-bar button")
        expect(buttons.first).to_have_text("↶ Rückgängig")
        expect(buttons.last).to_have_text("Wiederholen ↷")
        for index in range(buttons.count()):
            button = buttons.nth(index)
            whole = button.evaluate(
                "el => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().height < 80")
            assert whole, (size, button.inner_text(), button.bounding_box())
        assert overflowing(page) == [], (size, overflowing(page))
        page.locator(".history").screenshot(path=tmp_path / f"undo-de-{size['width']}.png")
