"""Asterix & Co. in real browsers: one phone plays an album battle, the other sees it live."""

from playwright.sync_api import expect

from tests.browser.conftest import create_table, join, settle


def play(page, album, faction, strength, character_type, name=""):
    """Open the side's play dialog and enter a character with one tap per choice."""
    page.locator(f'a[data-open-dialog="play-{album}-{faction}"]').click()
    dialog = page.locator(f"#play-{album}-{faction}")
    expect(dialog).to_be_visible()
    dialog.locator(".ac-strength label.chip").filter(has_text=str(strength)).click()
    dialog.locator(".ac-types label.chip").filter(has_text=character_type).click()
    if name:
        dialog.locator("input[name=name]").fill(name)
    dialog.get_by_role("button", name=f"Play it on album {album}").click()
    return dialog


def test_an_album_battle_on_two_phones(live_server, new_phone):
    table = create_table(live_server, "asterix-co", ["Matthew", "Laura"])
    matthew, laura = new_phone(), new_phone()
    join(matthew, live_server, table["code"], "Matthew")
    join(laura, live_server, table["code"], "Laura")

    # Each phone knows its albums and sides.
    expect(laura.locator("#albums .ac-mine")).to_contain_text(
        "Album 1 on your right: you play the R Roman side against Matthew")

    # Matthew plays Asterix on his Gaul side of album 1; Laura's phone shows the total.
    dialog = play(matthew, 1, "gaul", 6, "Hero", "Asterix")
    expect(dialog).to_be_hidden()
    gaul_on_laura = laura.locator("#album-1 .ac-side-gaul")
    expect(gaul_on_laura.locator(".ac-total")).to_contain_text("6", timeout=3000)
    expect(gaul_on_laura).to_contain_text("needs 9 more", timeout=3000)
    expect(gaul_on_laura).to_contain_text("Asterix")

    # The Hero rule: a second visible Asterix is refused with its sentence, in the dialog.
    dialog = play(laura, 2, "gaul", 6, "Hero", "Asterix")
    expect(dialog.locator(".form-error")).to_have_text(
        "Asterix is already visible on album 1; an identical Hero cannot join while it is.")
    dialog.get_by_role("button", name="Close").click()

    # Laura K.O.s Asterix with one tap; Matthew's phone sees the Gaul side drop to 0.
    laura.locator("#char-c1").get_by_role("button", name="K.O.", exact=True).click()
    gaul_on_matthew = matthew.locator("#album-1 .ac-side-gaul")
    expect(gaul_on_matthew.locator(".ac-total")).to_contain_text("0", timeout=3000)
    expect(matthew.locator("#char-c1")).to_contain_text("face down, counts 0")

    # Undo on Matthew's phone brings him back on Laura's.
    matthew.locator("#albums .ac-last").get_by_role("button", name="↶ Undo").click()
    expect(gaul_on_laura.locator(".ac-total")).to_contain_text("6", timeout=3000)

    # A Potion and a strength 4 Rebel take the album: 12 + 4 = 16.
    matthew.locator("#char-c1").get_by_role("button", name="🧪 Potion").click()
    expect(gaul_on_laura.locator(".ac-total")).to_contain_text("12", timeout=3000)
    dialog = play(laura, 1, "roman", 4, "Centurion", "Crismus Bonus")
    expect(dialog).to_be_hidden()
    expect(matthew.locator("#album-1 .ac-side-roman .ac-total")).to_contain_text("4", timeout=3000)
    laura.locator("#album-1").screenshot(path="/tmp/asterix-co-board.png")
    play(matthew, 1, "gaul", 4, "Rebel", "Dogmatix")
    announcement = laura.locator("#resolution")
    expect(announcement).to_contain_text("Album 1 falls!", timeout=3000)
    expect(announcement).to_contain_text("Matthew takes album 1")
    expect(announcement).to_contain_text("1 centurion helmet (+3)")
    expect(announcement).to_contain_text("Laura: pick a consolation bonus token")

    # Laura picks her Potion; both phones move on to the new album's orientation.
    announcement.get_by_role("button", name="Potion").click()
    expect(matthew.locator("#resolution")).to_contain_text("Laura reveals album 3", timeout=3000)
    expect(matthew.locator("#ledger .ac-player.mine .ac-purse")).to_contain_text("19 sesterces")

    laura.screenshot(path="/tmp/asterix-co-page.png", full_page=True)
    # Wait for Matthew's page to catch up (regions are swapped in place) before the picture.
    settle(matthew, live_server, table["code"])
    matthew.locator("#albums").screenshot(path="/tmp/asterix-co-board-matthew.png")
