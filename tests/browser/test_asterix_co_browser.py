"""Asterix & Co. in real browsers: one phone plays an album battle, the other sees it live."""

from playwright.sync_api import expect

from tests.browser.conftest import api, create_table, join, settle


def play(page, album, faction, strength, character_type, name=""):
    """Open the play dialog from the side's "+ Play" and enter a character: its strength, then
    its type, which plays it (the colour is the side's own)."""
    page.locator(f"#album-{album} .ac-side-{faction} .ac-add").click()
    dialog = page.locator("#ac-play")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_contain_text(f"Album {album} · {faction.title()} side")
    dialog.locator(".ac-strength label.chip").filter(has_text=str(strength)).click()
    if name:
        dialog.locator("input[name=name]").fill(name)
    expect(dialog.locator(".ac-types legend")).to_contain_text(f"a tap plays it on album {album}")
    dialog.locator(".ac-types").get_by_role("button", name=character_type, exact=True).click()
    return dialog


def my_turn(page):
    """Wait until the page says it is this phone's turn (the live update has arrived)."""
    expect(page.locator("#albums .ac-mine .ac-turn")).to_contain_text("your turn", timeout=3000)


def tap_move(page, character, move):
    """Tap a character, then one of the moves its menu offers."""
    page.locator(f"#char-{character} .ac-char-line").click()
    menu = page.locator("#ac-moves")
    expect(menu).to_be_visible()
    menu.get_by_role("button", name=move, exact=True).click()
    expect(menu).to_be_hidden()


def test_an_album_battle_on_two_phones(live_server, new_phone, tmp_path):
    table = create_table(live_server, "asterix-co", ["Matthew", "Laura"])
    matthew, laura = new_phone(), new_phone()
    join(matthew, live_server, table["code"], "Matthew")
    join(laura, live_server, table["code"], "Laura")

    # Each phone knows its albums and sides.
    expect(laura.locator("#album-1 .ac-album-head")).to_contain_text(
        "on your right: you play the R Roman side")

    # Matthew plays Asterix on his Gaul side of album 1; Laura's phone shows the total.
    dialog = play(matthew, 1, "gaul", 6, "Hero", "Asterix")
    expect(dialog).to_be_hidden()
    gaul_on_laura = laura.locator("#album-1 .ac-side-gaul")
    expect(gaul_on_laura.locator(".ac-total")).to_contain_text("6", timeout=3000)
    expect(gaul_on_laura).to_contain_text("needs 9 more", timeout=3000)
    expect(gaul_on_laura).to_contain_text("Asterix")

    # The Hero rule: a second visible Asterix is refused with its sentence, in the dialog.
    my_turn(laura)
    dialog = play(laura, 2, "gaul", 6, "Hero", "Asterix")
    expect(dialog.locator(".form-error")).to_have_text(
        "Asterix is already visible on album 1; an identical Hero cannot join while it is.")
    dialog.get_by_role("button", name="Close").click()

    # Asterix is the first on the album: his power has no target, Matthew says it is done.
    matthew.locator("#resolution").get_by_role("button", name="✓ Power done").click()
    expect(matthew.locator("#resolution .ac-end-power")).to_have_count(0)
    # Laura K.O.s Asterix from its menu; Matthew's phone sees the Gaul side drop to 0.
    tap_move(laura, "c1", "K.O.")
    gaul_on_matthew = matthew.locator("#album-1 .ac-side-gaul")
    expect(gaul_on_matthew.locator(".ac-total")).to_contain_text("0", timeout=3000)
    expect(matthew.locator("#char-c1")).to_contain_text("face down, counts 0")

    # Undo on Matthew's phone, asked once as it takes back Laura's move, brings him back on hers.
    matthew.locator("#lastmove").get_by_role("button", name="Undo").click()
    expect(matthew.locator("#undo-confirm h2")).to_have_text("Take back Laura’s move?")
    matthew.locator("#undo-confirm").get_by_role("button", name="↶ Take it back").click()
    expect(gaul_on_laura.locator(".ac-total")).to_contain_text("6", timeout=3000)

    # Still Laura's turn: Matthew's tokens wait, and say so.
    matthew.locator("#char-c1 .ac-char-line").click()
    potion = matthew.locator("#ac-moves form[data-action=use_potion]")
    expect(potion.locator(".why-not")).to_have_text("It is Laura's turn.")
    expect(potion.get_by_role("button")).to_be_disabled()
    matthew.locator("#ac-moves").get_by_role("button", name="Close").click()
    # Laura reinforces her hand from her powers dialog: Matthew's turn.
    laura.locator('#ledger [data-ac-powers="Laura"]').click()
    laura.locator("#ac-powers").get_by_role("button", name="Reinforce", exact=True).click()
    expect(laura.locator("#ac-powers")).to_be_hidden()

    # A Potion and a strength 4 Rebel take the album: 12 + 4 = 16.
    my_turn(matthew)
    tap_move(matthew, "c1", "🧪 Potion: strength ×2")
    expect(gaul_on_laura.locator(".ac-total")).to_contain_text("12", timeout=3000)
    # With its Potion, Asterix's menu on Laura's phone no longer offers a K.O. or a Fish.
    laura.locator("#char-c1 .ac-char-line").click()
    menu = laura.locator("#ac-moves")
    expect(menu.locator("h2")).to_have_text("Asterix")  # its name, not the page's id
    expect(menu.locator("[data-ac-what]")).not_to_contain_text("c1")
    expect(menu.get_by_role("button", name="✖ Eliminate")).to_be_visible()
    for refused in ("K.O.", "🐟 K.O. it with a Fish"):
        button = menu.get_by_role("button", name=refused, exact=True, include_hidden=True)
        expect(button).to_have_count(1)
        expect(button).to_be_hidden()
    expect(menu.get_by_role("button", name="🐗 Boar: use its power again")).to_be_visible()
    menu.get_by_role("button", name="Close").click()
    my_turn(laura)
    dialog = play(laura, 1, "roman", 4, "Centurion", "Crismus Bonus")
    expect(dialog).to_be_hidden()
    expect(matthew.locator("#album-1 .ac-side-roman .ac-total")).to_contain_text("4", timeout=3000)
    settle(laura, live_server, table["code"])  # no swap may replace the album mid-picture
    laura.locator("#album-1").screenshot(path=tmp_path / "asterix-co-board.png")
    my_turn(matthew)
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

    laura.screenshot(path=tmp_path / "asterix-co-page.png", full_page=True)
    # Wait for Matthew's page to catch up (regions are swapped in place) before the picture.
    settle(matthew, live_server, table["code"])
    matthew.locator("#albums").screenshot(path=tmp_path / "asterix-co-board-matthew.png")



def album_falls_while_laura_types(live_server, new_phone):
    """On her turn Laura types a name into the play dialog; meanwhile the host hands the turn
    back to Matthew (the real table went on) and his second 8 takes album 1."""
    table = create_table(live_server, "asterix-co", ["Matthew", "Laura"])
    matthew, laura = new_phone(), new_phone()
    join(matthew, live_server, table["code"], "Matthew")
    join(laura, live_server, table["code"], "Laura")
    play(matthew, 1, "gaul", 8, "Rebel")
    expect(matthew.locator("#ac-play")).to_be_hidden()
    my_turn(laura)
    laura.locator("#album-1 .ac-side-roman .ac-add").click()
    dialog = laura.locator("#ac-play")
    dialog.locator("input[name=name]").fill("Crismus Bo")
    expect(dialog.locator("select[name=album] option")).to_have_count(2)
    api(live_server, "POST", f"/api/tables/{table['code']}/actions",
        {"type": "hand_turn", "player": "Matthew"}, token=table["token"])
    my_turn(matthew)
    play(matthew, 1, "gaul", 8, "Diehard")  # 16: album 1 falls
    expect(laura.locator("#resolution")).to_contain_text("Album 1 falls!", timeout=3000)
    return laura, dialog


def test_a_half_typed_character_survives_an_album_falling_behind_its_dialog(live_server, new_phone):
    """An album falling changes the region of the shared dialogs (the albums they offer): while
    Laura types in the play dialog that region is held back and her text stays, and the rest
    of the page shows the fall at once."""
    laura, dialog = album_falls_while_laura_types(live_server, new_phone)
    laura.wait_for_timeout(1500)  # a further update has come and gone
    expect(dialog).to_be_visible()
    assert dialog.locator("input[name=name]").input_value() == "Crismus Bo"
    expect(dialog.locator("select[name=album] option")).to_have_count(2)  # held back
    expect(laura.locator("#album-slot-0")).to_contain_text("Matthew took album 1")


def test_the_region_held_back_behind_the_dialog_catches_up_once_it_closes(live_server, new_phone):
    laura, dialog = album_falls_while_laura_types(live_server, new_phone)
    dialog.get_by_role("button", name="Close").click()
    # The dialog caught up: album 1 is gone and Laura, who lost it, now picks her consolation.
    expect(dialog.locator(".why-not")).to_have_text(
        "Not now: Laura picks a consolation bonus token.", timeout=3000)
    expect(dialog.locator("select[name=album]")).to_have_count(0)
