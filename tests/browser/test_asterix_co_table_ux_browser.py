"""Asterix & Co. in the hand, mid-game (four players, a fallen album, a battle on every album):
a turn played by taps leaves the page where it was, an open menu or dialog outlives another
phone's move, a refusal shows inside its dialog, controls that wait say why, everything is big
enough and fits the width, axe-core finds nothing, and a tablet puts the scores beside the
albums."""

import pytest
from playwright.sync_api import expect

from tests.browser import ux
from tests.browser.conftest import act, api, create_table, join, settle

PLAYERS = ["Matthew", "Laura", "Ann", "Bob"]

# Album 1 falls to Matthew, Laura takes a Fish and turns album 5 towards her; then a battle on
# every album (a Potion, a Fish K.O., an album note, a helmet). Matthew's turn at the end.
MID_GAME = [
    {"type": "play_character", "player": "Matthew", "album": 1, "strength": 8, "character_type": "Diehard", "colour": "Gaul", "name": "Obelix"},
    {"type": "play_character", "player": "Laura", "album": 1, "strength": 5, "character_type": "Legionary", "colour": "Roman"},
    {"type": "play_character", "player": "Ann", "album": 2, "strength": 6, "character_type": "Centurion", "colour": "Roman", "name": "Caius Bonus"},
    {"type": "play_character", "player": "Bob", "album": 3, "strength": 4, "character_type": "Legionary", "colour": "Roman"},
    {"type": "play_character", "player": "Matthew", "album": 1, "strength": 7, "character_type": "Hero", "colour": "Gaul", "name": "Asterix"},
    {"type": "take_consolation", "bonus": "fish"},
    {"type": "orient_album", "faction": "gaul", "note": "No Fish bonus on this album"},
    {"type": "play_character", "player": "Laura", "album": 2, "strength": 5, "character_type": "Chief", "colour": "Gaul", "name": "Vitalstatistix"},
    {"type": "play_character", "player": "Ann", "album": 3, "strength": 3, "character_type": "Rebel", "colour": "Neutral"},
    {"type": "play_character", "player": "Bob", "album": 4, "strength": 6, "character_type": "Swindler", "colour": "Gaul", "name": "Unhygienix"},
    {"type": "play_character", "player": "Matthew", "album": 4, "strength": 4, "character_type": "Legionary", "colour": "Roman", "name": "Fortis"},
    {"type": "play_character", "player": "Laura", "album": 5, "strength": 6, "character_type": "Rebel", "colour": "Gaul", "name": "Cacofonix"},
    {"type": "use_potion", "player": "Ann", "character": "c3"},
    {"type": "play_character", "player": "Bob", "album": 3, "strength": 5, "character_type": "Centurion", "colour": "Roman", "name": "Gracchus"},
    {"type": "play_character", "player": "Matthew", "album": 5, "strength": 3, "character_type": "Legionary", "colour": "Roman"},
    {"type": "use_fish", "player": "Laura", "character": "c11"},
    {"type": "play_character", "player": "Ann", "album": 2, "strength": 2, "character_type": "Swindler", "colour": "Roman"},
    {"type": "gain_helmet", "player": "Bob", "helmet": "centurion"},
    {"type": "play_character", "player": "Bob", "album": 4, "strength": 2, "character_type": "Hero", "colour": "Gaul", "name": "Getafix"},
]


@pytest.fixture
def mid_game(live_server, new_phone):
    """Matthew's phone at a table in the middle of a game, his turn: make(viewport) -> (page, table)."""

    def make(viewport, lang=None):
        table = create_table(live_server, "asterix-co", PLAYERS)
        for seat in PLAYERS[1:]:  # everyone else has a phone too (here: an API token)
            api(live_server, "POST", f"/api/tables/{table['code']}/join", {"seat": seat})
        for move in MID_GAME:
            if lang == "de" and move.get("note"):  # a German table writes its notes in German
                move = dict(move, note="Kein Fisch-Bonus an diesem Album")
            act(live_server, table, move)
        page = new_phone(viewport=viewport)
        if lang:  # the phone's choice in the top bar
            page.context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        join(page, live_server, table["code"], "Matthew")
        settle(page, live_server, table["code"])
        turn = "▶ du bist dran" if lang == "de" else "▶ your turn"
        expect(page.locator("#albums .ac-mine .ac-turn")).to_have_text(turn)
        return page, table

    return make


def shown_version(page) -> int:
    return int(page.locator("#live-meta").get_attribute("data-version"))


def caught_up(page, live_server, table):
    return lambda: settle(page, live_server, table["code"])


def fits_the_hand(page, where, shots):
    """Nothing sticks out sideways, every visible control is at least 44 × 44 px and no text
    is below 12 px; a picture of the state to look at."""
    page.screenshot(path=shots / f"{where}.png")
    assert ux.overflowing(page) == [], (where, ux.overflowing(page))
    assert ux.small_targets(page) == [], (where, ux.small_targets(page))
    assert ux.small_text(page) == [], (where, ux.small_text(page))


@pytest.mark.parametrize("size", list(ux.SMALLEST))
def test_a_turn_played_by_taps_leaves_the_page_where_it_was(mid_game, live_server, size, tmp_path):
    page, table = mid_game(ux.SIZES[size])
    # His two albums come first (the one on his right, then on his left): the turn's controls
    # are no more than two screen heights of scrolling away, the other albums and the scores
    # come after them.
    height = ux.SIZES[size]["height"]
    below = page.eval_on_selector("#album-2", "el => el.getBoundingClientRect().top + scrollY")
    for album in (4, 5):
        bottom = page.eval_on_selector(f"#album-{album} .ac-side-roman .ac-add",
                                       "el => el.getBoundingClientRect().bottom + scrollY")
        assert bottom <= 3 * height and bottom < below, (album, bottom)
    fits_the_hand(page, f"turn-{size}-start", tmp_path)

    # Three taps: "+ Play a character" on his Roman side of album 5, its strength, its type.
    play = "#album-5 .ac-side-roman .ac-add"
    dialog = page.locator("#ac-play")

    def open_and_play():
        page.locator(play).click()
        expect(dialog).to_be_visible()
        fits_the_hand(page, f"turn-{size}-play-dialog", tmp_path)
        expect(dialog.locator('.ac-colours input[value="Roman"]')).to_be_checked()  # the side's own
        dialog.locator(".ac-strength label.chip").filter(has_text="5").click()
        dialog.locator(".ac-types").get_by_role("button", name="Legionary", exact=True).click()
        expect(dialog).to_be_hidden()

    ux.kept_in_place(page, play, open_and_play, caught_up(page, live_server, table))
    side = page.locator("#album-5 .ac-side-roman")
    expect(side.locator(".ac-total")).to_have_text("8/15")
    # Laura's turn now: his "+ Play" waits, and says why (from the game's table of moves).
    waiting = page.locator(play)
    expect(waiting).to_be_disabled()
    expect(waiting).to_contain_text("It is Laura's turn.")
    fits_the_hand(page, f"turn-{size}-after-play", tmp_path)

    # A power is nobody's turn: Gracchus (K.O.'d on album 3) comes back from his "⋯" menu.
    gracchus = "#char-c11 .ac-char-line"
    menu = page.locator("#ac-moves")

    def reinvigorate():
        page.locator(gracchus).click()
        expect(menu).to_be_visible()
        menu.get_by_role("button", name="↺ Reinvigorate", exact=True).click()
        expect(menu).to_be_hidden()

    ux.kept_in_place(page, gracchus, reinvigorate, caught_up(page, live_server, table))
    expect(page.locator("#char-c11")).not_to_contain_text("face down")

    # Undo under the thumb, beside the latest move: the page stays where it was.
    undo = "#lastmove button[type=submit]"
    version = shown_version(page)
    ux.kept_in_place(page, undo, lambda: page.locator(undo).click(), caught_up(page, live_server, table))
    assert shown_version(page) > version
    expect(page.locator("#char-c11")).to_contain_text("face down")
    fits_the_hand(page, f"turn-{size}-end", tmp_path)


@pytest.mark.parametrize("size", list(ux.SMALLEST))
def test_another_phones_move_above_leaves_what_the_player_looks_at_in_place(mid_game, live_server, size):
    page, table = mid_game(ux.SIZES[size])
    # Album 4 (above, on screen or not) grows by a note and a K.O.; album 5 stays put.
    looked_at = "#album-5 .ac-side-roman .ac-side-head"

    def elsewhere():
        act(live_server, table, dict(type="set_album_note", album=4, note="At most 1 Neutral per player"))
        act(live_server, table, dict(type="knock_out", character="c8"))

    ux.kept_in_place(page, looked_at, elsewhere, caught_up(page, live_server, table))
    expect(page.locator("#album-4 .ac-note")).to_contain_text("At most 1 Neutral per player")
    expect(page.locator("#char-c8")).to_contain_text("face down")


@pytest.mark.parametrize("size", list(ux.SMALLEST))
def test_a_move_made_elsewhere_while_a_menu_is_open_leaves_the_page_behind_it_in_place(mid_game, live_server, size):
    """The "⋯" menu of Cacofonix (album 5) is open when album 4, above, grows by a note and a
    K.O. from another phone: closing the menu, the player finds Cacofonix where it was."""
    page, table = mid_game(ux.SIZES[size])
    opener = "#char-c10 .ac-char-line"
    menu = page.locator("#ac-moves")

    def elsewhere_while_open():
        page.locator(opener).click()
        expect(menu).to_be_visible()
        act(live_server, table, dict(type="set_album_note", album=4, note="At most 1 Neutral per player"))
        act(live_server, table, dict(type="knock_out", character="c8"))
        settle(page, live_server, table["code"])
        page.wait_for_timeout(300)
        expect(menu).to_be_visible()
        menu.get_by_role("button", name="Close").click()

    ux.kept_in_place(page, opener, elsewhere_while_open)
    expect(page.locator("#char-c8")).to_contain_text("face down")


@pytest.mark.parametrize("size", list(ux.SMALLEST))
def test_an_open_menu_and_dialog_outlive_another_phones_moves(mid_game, live_server, size, tmp_path):
    page, table = mid_game(ux.SIZES[size])
    # The "⋯" menu of Caius Bonus (the Fish and Boar are in it), open while two moves come in.
    page.locator("#char-c3 .ac-char-line").click()
    menu = page.locator("#ac-moves")
    expect(menu).to_be_visible()
    expect(menu.locator("h2")).to_have_text("Caius Bonus")
    before = shown_version(page)
    act(live_server, table, dict(type="gain_bonus", player="Ann", bonus="boar"))
    act(live_server, table, dict(type="set_album_note", album=3, note="Romans +2"))
    page.wait_for_function("v => +document.getElementById('live-meta').dataset.version > v", arg=before)
    page.wait_for_timeout(1500)  # later pushes too
    expect(menu).to_be_visible()
    expect(menu.locator("h2")).to_have_text("Caius Bonus")
    expect(menu.get_by_role("button", name="✖ Eliminate")).to_be_visible()
    # The page behind it did take the moves in.
    expect(page.locator("#album-3 .ac-note")).to_contain_text("Romans +2")
    page.screenshot(path=tmp_path / f"menu-kept-{size}.png")
    menu.get_by_role("button", name="Close").click()
    expect(menu).to_be_hidden()

    # The play dialog with a name half typed, while the host hands the turn on and back.
    page.locator("#album-4 .ac-side-roman .ac-add").click()
    dialog = page.locator("#ac-play")
    dialog.locator(".ac-strength label.chip").filter(has_text="6").click()
    dialog.locator("input[name=name]").fill("Crismus Bo")
    before = shown_version(page)
    act(live_server, table, dict(type="gain_helmet", player="Laura", helmet="legionary"))
    page.wait_for_function("v => +document.getElementById('live-meta').dataset.version > v", arg=before)
    page.wait_for_timeout(1500)
    expect(dialog).to_be_visible()
    assert dialog.locator("input[name=name]").input_value() == "Crismus Bo"
    expect(dialog.locator(".ac-strength input[value='6']")).to_be_checked()
    page.screenshot(path=tmp_path / f"dialog-kept-{size}.png")

    # "How the sesterces add up", opened under the scores, stays open through a move.
    dialog.get_by_role("button", name="Close").click()
    sums = page.locator("#ledger details.ac-sums")
    sums.locator("summary").click()
    expect(sums).to_have_attribute("open", "")
    before = shown_version(page)
    act(live_server, table, dict(type="gain_helmet", player="Matthew", helmet="centurion"))
    page.wait_for_function("v => +document.getElementById('live-meta').dataset.version > v", arg=before)
    page.wait_for_timeout(1500)
    expect(sums).to_have_attribute("open", "")
    expect(sums).to_contain_text("Matthew: 20 sesterces", timeout=3000)


@pytest.mark.parametrize("size", list(ux.SMALLEST))
def test_a_refusal_shows_inside_the_open_dialog_next_to_its_button(mid_game, live_server, size, tmp_path):
    page, table = mid_game(ux.SIZES[size])
    # Getafix lies on album 4; a second Getafix is refused where the player is looking.
    page.locator("#album-5 .ac-side-roman .ac-add").click()
    dialog = page.locator("#ac-play")
    dialog.locator(".ac-strength label.chip").filter(has_text="4").click()
    dialog.locator("input[name=name]").fill("Getafix")
    button = dialog.locator(".ac-types").get_by_role("button", name="Hero", exact=True)
    button.click()
    error = dialog.locator(".form-error")
    expect(error).to_have_text(
        "Getafix is already visible on album 4; an identical Hero cannot join while it is.")
    expect(dialog).to_be_visible()
    # Seen: inside the dialog's visible box and the screen, right under the type buttons.
    box, line, tapped = dialog.bounding_box(), error.bounding_box(), dialog.locator(".ac-types").bounding_box()
    viewport = ux.SIZES[size]
    assert box["y"] <= line["y"] and line["y"] + line["height"] <= box["y"] + box["height"]
    assert 0 <= line["y"] and line["y"] + line["height"] <= viewport["height"]
    assert 0 <= line["y"] - (tapped["y"] + tapped["height"]) <= 48
    page.screenshot(path=tmp_path / f"refusal-{size}.png")


def test_waiting_controls_are_disabled_with_the_reason(mid_game, live_server, tmp_path):
    page, table = mid_game(ux.PHONE_390)
    # Album 4 falls to Bob (Gaul side 8 + 8 = 16): Matthew, its loser, picks a token first.
    act(live_server, table, dict(type="hand_turn", player="Bob"))
    act(live_server, table, dict(type="play_character", player="Bob", album=4, strength=8,
                                 character_type="Rebel", colour="Gaul"))
    settle(page, live_server, table["code"])
    expect(page.locator("#resolution")).to_contain_text("Matthew: pick a consolation bonus token")
    waiting = page.locator("#album-5 .ac-side-roman .ac-add")
    expect(waiting).to_be_disabled()
    expect(waiting).to_contain_text("Not now: Matthew picks a consolation bonus token.")
    assert ux.axe_violations(page) == []
    # A token in a character's menu waits too, with the same sentence, before any tap.
    page.locator("#char-c10 .ac-char-line").click()
    potion = page.locator("#ac-moves form[data-action=use_potion]")
    expect(potion.get_by_role("button")).to_be_disabled()
    expect(potion.locator(".why-not")).to_have_text("Not now: Matthew picks a consolation bonus token.")
    fits_the_hand(page, "waiting-menu", tmp_path)


def test_no_accessibility_violations_mid_game_and_with_a_dialog_open(mid_game):
    page, _table = mid_game(ux.PHONE_390)
    assert ux.axe_violations(page) == []
    page.locator("#char-c3 .ac-char-line").click()
    expect(page.locator("#ac-moves")).to_be_visible()
    assert ux.axe_violations(page) == []
    page.locator("#ac-moves").get_by_role("button", name="Close").click()
    page.locator("[data-ac-powers='Matthew']").click()
    expect(page.locator("#ac-powers")).to_be_visible()
    assert ux.axe_violations(page) == []
    page.locator("#ac-powers").get_by_role("button", name="Close").click()
    page.locator("#album-5 .ac-side-roman .ac-add").click()
    expect(page.locator("#ac-play")).to_be_visible()
    assert ux.axe_violations(page) == []


def test_a_landscape_tablet_shows_the_scores_beside_the_albums(mid_game, tmp_path):
    page, _table = mid_game(ux.TABLET)
    albums, ledger = page.locator("#albums").bounding_box(), page.locator("#ledger").bounding_box()
    assert ledger["x"] >= albums["x"] + albums["width"], (albums, ledger)
    assert ledger["y"] < ux.TABLET["height"] and albums["y"] < ux.TABLET["height"]
    # Every player's score is on the first screen, beside the battle.
    for row in page.locator("#ledger .ac-player").all():
        assert row.bounding_box()["y"] + row.bounding_box()["height"] <= ux.TABLET["height"]
    fits_the_hand(page, "tablet", tmp_path)
    assert ux.axe_violations(page) == []


def test_a_seated_phone_plays_the_turn_of_a_player_without_a_phone(live_server, new_phone, tmp_path):
    table = create_table(live_server, "asterix-co", ["Matthew", "Laura"])
    page = new_phone(viewport=ux.PHONE_390)
    join(page, live_server, table["code"], "Matthew")
    dialog = page.locator("#ac-play")
    # His own turn first, on his Gaul side of album 1.
    page.locator("#album-1 .ac-side-gaul .ac-add").click()
    dialog.locator(".ac-strength label.chip").filter(has_text="6").click()
    dialog.locator(".ac-types").get_by_role("button", name="Rebel", exact=True).click()
    expect(dialog).to_be_hidden()
    # Laura has no phone: his phone enters her move, and says so; his own sides wait.
    expect(page.locator("#albums .ac-mine")).to_contain_text("Laura has no phone, enter the move here")
    expect(page.locator("#album-2 .ac-side-roman .ac-add")).to_be_disabled()
    for_laura = "#album-1 .ac-side-roman .ac-add"
    expect(page.locator(for_laura)).to_have_text("+ Play a character for Laura")

    def play_for_laura():
        page.locator(for_laura).click()
        expect(dialog).to_contain_text("Laura plays a character here")
        dialog.locator(".ac-strength label.chip").filter(has_text="4").click()
        dialog.locator(".ac-types").get_by_role("button", name="Centurion", exact=True).click()
        expect(dialog).to_be_hidden()

    ux.kept_in_place(page, "#album-1 .ac-side-roman .ac-side-head", play_for_laura,
                     caught_up(page, live_server, table))
    expect(page.locator("#album-1 .ac-side-roman .ac-total")).to_have_text("4/15")
    expect(page.locator("#albums .ac-mine .ac-turn")).to_have_text("▶ your turn")
    page.screenshot(path=tmp_path / "for-laura.png")
    assert api(live_server, "GET", f"/api/tables/{table['code']}")["state"]["turn"] == "Matthew"


@pytest.mark.parametrize("size", ["390x844", "320x568"])
def test_a_german_phone_fits_the_hand_and_its_dialogs_speak_german(
        mid_game, live_server, size, german_shots, tmp_path):
    """The longer German words still fit: nothing sticks out, every control is big enough; the
    dialogs the script fills in read German too."""
    page, table = mid_game(ux.SIZES[size], lang="de")
    albums = page.locator("#albums")
    expect(albums).to_contain_text("Deine Alben, Matthew")
    expect(page.locator("#album-5 .ac-side-roman .ac-side-name")).to_contain_text("Römerseite")
    expect(page.locator("#char-c11")).to_contain_text("verdeckt, zählt 0")
    page.screenshot(path=german_shots / f"de-asterix-co-{size.split('x')[0]}.png", full_page=True)
    fits_the_hand(page, f"de-{size}-start", tmp_path)

    # A character's menu: its title and the album in German words.
    page.locator("#char-c3 .ac-char-line").click()
    menu = page.locator("#ac-moves")
    expect(menu).to_be_visible()
    expect(menu.locator("h2")).to_have_text("Caius Bonus")
    expect(menu.locator("[data-ac-what]")).to_contain_text("Zenturio")
    expect(menu.locator("[data-ac-what]")).to_contain_text("· Album 2")
    expect(menu.get_by_role("button", name="✖ Eliminieren")).to_be_visible()
    fits_the_hand(page, f"de-{size}-moves", tmp_path)
    menu.get_by_role("button", name="Schließen").click()

    # A player's powers.
    page.locator("[data-ac-powers='Laura']").click()
    powers = page.locator("#ac-powers")
    expect(powers).to_be_visible()
    expect(powers).to_contain_text("Eine Fähigkeit gibt Laura einen Helm")
    fits_the_hand(page, f"de-{size}-powers", tmp_path)
    powers.get_by_role("button", name="Schließen").click()

    # Playing a character, by taps on German chips.
    page.locator("#album-5 .ac-side-roman .ac-add").click()
    dialog = page.locator("#ac-play")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-ac-title]")).to_have_text("Album 5 · Römerseite")
    expect(dialog.locator("[data-ac-what]")).to_have_text(
        "Matthew spielt hier eine Figur aus; trag sie so ein, wie sie auf dem Tisch liegt.")
    fits_the_hand(page, f"de-{size}-play-dialog", tmp_path)
    dialog.locator(".ac-strength label.chip").filter(has_text="5").click()
    dialog.locator(".ac-types").get_by_role("button", name="Unbeugsamer", exact=True).click()
    expect(dialog).to_be_hidden()
    settle(page, live_server, table["code"])
    expect(page.locator("#album-5 .ac-side-roman .ac-total")).to_have_text("8/15")
    expect(page.locator("#lastmove")).to_contain_text(
        "Matthew spielt eine Figur (Unbeugsamer, Römer, Stärke 5) an Album 5 aus.")
    expect(page.locator("#album-5 .ac-side-roman .ac-add")).to_contain_text("Laura ist am Zug.")
    fits_the_hand(page, f"de-{size}-after-play", tmp_path)


# -- issue 39: nothing cut off on a German phone -------------------------------------------------

CUT = """() => Array.from(document.querySelectorAll('#ac-play button, #ac-play .chip > span'))
    .filter(box => box.offsetWidth && box.scrollWidth > box.clientWidth + 1)
    .map(box => box.textContent.trim())"""


@pytest.mark.parametrize("size", ["390x844", "320x568"])
def test_a_german_phone_reads_every_type_of_character_whole(mid_game, size, tmp_path):
    page, _table = mid_game(ux.SIZES[size], lang="de")
    page.locator("#album-5 .ac-side-roman .ac-add").click()
    expect(page.locator("#ac-play")).to_be_visible()
    types = page.locator("#ac-play .ac-types")
    types.scroll_into_view_if_needed()
    page.screenshot(path=tmp_path / f"types-de-{size}.png")
    expect(types.get_by_role("button", name="Unbeugsamer", exact=True)).to_be_visible()
    assert page.evaluate(CUT) == []


# Matthew's thirteen centurion helmets and an album: 15 + 39 + 1 = 55, the game is over.
FINISH = [{"type": "gain_helmet", "player": "Matthew", "helmet": "centurion"}] * 13 + [
    {"type": "play_character", "player": "Matthew", "album": 1, "strength": 8, "character_type": "Diehard", "colour": "Gaul"},
    {"type": "play_character", "player": "Laura", "album": 1, "strength": 5, "character_type": "Legionary", "colour": "Roman"},
    {"type": "play_character", "player": "Ann", "album": 2, "strength": 6, "character_type": "Centurion", "colour": "Roman"},
    {"type": "play_character", "player": "Bob", "album": 3, "strength": 4, "character_type": "Legionary", "colour": "Roman"},
    {"type": "play_character", "player": "Matthew", "album": 1, "strength": 7, "character_type": "Rebel", "colour": "Neutral"},
]
# How many lines one part of the final breakdown takes (-1: not found).
LINES = """part => {
  const walker = document.createTreeWalker(document.getElementById('ac-final'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(part);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + part.length);
    return new Set(Array.from(range.getClientRects(), (box) => Math.round(box.top))).size;
  }
  return -1;
}"""


@pytest.mark.parametrize("size", ["390x844", "320x568"])
def test_the_final_count_reads_one_line_per_part_on_a_german_phone(live_server, new_phone, size, tmp_path):
    table = create_table(live_server, "asterix-co", PLAYERS)
    for move in FINISH[:-1]:
        act(live_server, table, move)
    page = new_phone(viewport=ux.SIZES[size])
    page.context.add_cookies([{"name": "lang", "value": "de", "url": live_server}])
    join(page, live_server, table["code"], "Laura")
    act(live_server, table, FINISH[-1])
    settle(page, live_server, table["code"])
    final = page.locator("#ac-final")
    final.scroll_into_view_if_needed()
    page.screenshot(path=tmp_path / f"final-de-{size}.png")
    for part in ("1 Album × 15 = 15", "13 Zenturiohelme × 3 = 39", "1 Legionärshelm × 1 = 1",
                 "0 Alben × 15 = 0", "0 Zenturiohelme × 3 = 0"):
        assert page.evaluate(LINES, part) == 1, part
    assert ux.overflowing(page) == []
