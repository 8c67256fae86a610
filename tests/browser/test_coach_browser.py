"""Teaching mode in a real browser: the control the coach card names is the one highlighted,
on the phone that may tap it; "I've got it" hides the card on that phone only."""

import pytest
from playwright.sync_api import expect

from tests.browser import ux
from tests.browser.conftest import api, create_table, host_score_pad, seated, settle
from tests.browser.test_pages_browser import checks

GERMAN = "de-DE"


def highlighted(page) -> list[str]:
    """The moves of the highlighted controls (forms, and what opens a form's dialog)."""
    return page.eval_on_selector_all(".coach-target", "marked => marked.map(m => m.dataset.coachFor)")


def test_the_highlighted_control_is_the_one_the_card_names(live_server, new_phone, tmp_path):
    table = create_table(live_server, "asterix-co", ["Ann", "Ben"], coach=True)
    code = table["code"]
    ann, ben = (seated(new_phone, live_server, code, name, locale=GERMAN) for name in ("Ann", "Ben"))
    for acting, other, name in ((ann, ben, "Ann"), (ben, ann, "Ben")):
        settle(acting, live_server, code)
        settle(other, live_server, code)
        card = acting.locator("#coach")
        control = card.get_attribute("data-control")
        assert control == "play_character"
        expect(card.locator(".coach-say")).to_contain_text(name)
        # The move's form is in a dialog: what opens it is marked, on the acting phone only.
        expect(acting.locator(f'.coach-target[data-coach-for="{control}"]:visible').first).to_be_visible()
        assert set(highlighted(acting)) == {control}
        assert highlighted(other) == [], "the other phone's greyed controls are not marked"
        assert "Hier tippen" in acting.locator(".coach-target:visible").first.evaluate(
            "f => getComputedStyle(f, '::before').content")
        acting.screenshot(path=tmp_path / f"coach-co-{name}.png", full_page=True)
        api(live_server, "POST", f"/api/tables/{code}/actions", {
            "type": "play_character", "player": name, "album": 1, "strength": 3,
            "character_type": "Legionary", "colour": "Roman" if name == "Ben" else "Gaul"},
            token=table["token"])
        # Its power: entered on the phone of whoever played it, marked there only.
        settle(acting, live_server, code)
        settle(other, live_server, code)
        assert card.get_attribute("data-control") == "end_power"
        expect(acting.locator('.coach-target[data-coach-for="end_power"]:visible').first).to_be_visible()
        assert highlighted(other) == [], "another player's power is not marked on this phone"
        api(live_server, "POST", f"/api/tables/{code}/actions", {"type": "end_power"},
            token=table["token"])


def test_an_asterix_obelix_attack_followed_by_tapping_what_the_card_highlights(live_server,
                                                                               new_phone, tmp_path):
    table = create_table(live_server, "asterix-obelix", ["Lena", "Ben"], coach=True)
    code = table["code"]
    lena, ben = (seated(new_phone, live_server, code, name, locale=GERMAN) for name in ("Lena", "Ben"))
    # Set-up is the whole table's: both phones are shown who-attacks-first.
    expect(lena.locator("#coach .coach-say")).to_contain_text("wer zuerst angreift")
    assert set(highlighted(lena)) == set(highlighted(ben)) == {"start_game"}
    lena.locator(".coach-target").get_by_role("button", name="Lena greift zuerst an").click()

    # The arrows around the tortoise are outlined on Lena's phone, each one, and not labelled
    # one by one; Ben's phone marks nothing.
    expect(lena.locator("#coach .coach-say")).to_contain_text("Lena: du greifst zuerst an")
    settle(ben, live_server, code)
    assert highlighted(lena) == ["choose_line"] * 16
    assert highlighted(ben) == []
    assert lena.locator(".coach-target").first.evaluate(
        "b => getComputedStyle(b, '::before').content") == "none"
    lena.locator(".coach-target").first.click()

    expect(lena.locator("#coach .coach-say")).to_contain_text("deck die erste Karte von Spalte 1")
    assert set(highlighted(lena)) == {"reveal_card"}
    lena.locator(".coach-target").get_by_role("button", name="Pirat", exact=True).click()
    expect(lena.locator("#coach .coach-say")).to_contain_text("Lena: ein Pirat!")
    expect(ben.locator("#coach .coach-say")).to_contain_text("Lena: ein Pirat!")
    settle(ben, live_server, code)
    assert highlighted(ben) == []
    lena.screenshot(path=tmp_path / "coach-ao-lena.png", full_page=True)


def test_ive_got_it_hides_the_card_on_this_phone_only(live_server, new_phone, tmp_path):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"], coach=True)
    code = table["code"]
    ann, ben = (seated(new_phone, live_server, code, name, locale=GERMAN) for name in ("Ann", "Ben"))
    expect(ann.locator("#coach .coach-say")).to_contain_text("Nach der ersten Runde")
    assert highlighted(ann), "the score boxes are marked"
    ann.screenshot(path=tmp_path / "coach-scorepad-de-360.png", full_page=True)

    ann.locator("#coach .coach-intro-again > summary").click()
    ann.get_by_role("button", name="Ich kann's: Karte ausblenden").click()
    expect(ann.locator("#coach .coach-say")).to_be_hidden()
    assert highlighted(ann) == []
    expect(ben.locator("#coach .coach-say")).to_be_visible()
    ann.reload()
    expect(ann.locator("#coach .coach-say")).to_be_hidden()
    # Ben's entry reaches Ann's page; her card stays folded, Ben's follows the table.
    form = ben.locator("form.score-entry")
    form.locator("select[name=player]").select_option("Ben")
    form.locator("input[name=points]").fill("7")
    form.locator("button[type=submit]").click()
    expect(ben.locator("#coach .coach-say")).to_contain_text("Runde 1 von Ann")
    expect(ann.locator("#coach .coach-say")).to_be_hidden()
    ann.get_by_role("button", name="Erklärungen zeigen").click()
    expect(ann.locator("#coach .coach-say")).to_contain_text("Runde 1 von Ann")


@pytest.mark.parametrize("size", ["390x844", "320x568"])
@pytest.mark.parametrize("game,players,words", [
    ("scorepad", ["Ann", "Ben"], "Runde"), ("asterix-co", ["Ann", "Ben", "Cem"], "Ann"),
    ("asterix-obelix", ["Ann", "Ben"], "wer zuerst angreift"),
    ("kartenspiel", ["Ann", "Ben", "Cem"], "Alle: mischt"),
    ("zaubertrank", ["Ann", "Ben"], "Alle: baut auf")])
def test_the_coach_card_has_big_targets_readable_text_no_overflow_and_no_axe_violations(
        live_server, new_phone, game, players, words, size, tmp_path):
    table = create_table(live_server, game, players, coach=True)
    page = seated(new_phone, live_server, table["code"], "Ann", ux.SIZES[size], GERMAN)
    expect(page.locator("#coach .coach-say")).to_contain_text(words)
    assert checks(page) == {"small targets": [], "small text": [], "overflowing": [], "axe": []}
    page.locator("#coach .coach-say").screenshot(path=tmp_path / f"coach-{game}-{size}.png")


PHONE_640 = {"width": 320, "height": 640}
# Whole on the screen, or (a tall board) over half of the screen's height.
ON_SCREEN = """el => { const r = el.getBoundingClientRect();
    return (r.top >= 0 && r.bottom <= innerHeight) || Math.min(r.bottom, innerHeight) - Math.max(r.top, 0) > innerHeight / 2; }"""
FIRST_GAMES = [("scorepad", ["Ann", "Ben"]), ("asterix-co", ["Ann", "Ben", "Cem"]),
               ("asterix-obelix", ["Ann", "Ben"]), ("kartenspiel", ["Ann", "Ben", "Cem"]),
               ("zaubertrank", ["Ann", "Ben"])]


@pytest.mark.parametrize("game,players", FIRST_GAMES, ids=[game for game, _ in FIRST_GAMES])
def test_before_the_first_move_the_card_is_small_and_its_control_one_tap_away(
        live_server, new_phone, game, players, tmp_path):
    table = create_table(live_server, game, players, coach=True)
    code = table["code"]
    watcher = seated(new_phone, live_server, code, None, PHONE_640)
    acting = watcher.locator("#coach").get_attribute("data-player") or players[0]
    page = seated(new_phone, live_server, code, acting, PHONE_640, GERMAN)
    card = page.locator("#coach")
    # The introduction is folded behind "How the game goes": a third of the screen at most.
    expect(card.locator(".coach-intro-again > summary")).to_have_text("So geht das Spiel")
    height = card.evaluate("el => el.getBoundingClientRect().height")
    assert height <= PHONE_640["height"] / 3, f"the card is {height:.0f} px tall on a 640 px screen"
    # The control it marks is on screen, or "Tap here" brings it there in one tap.
    target = page.locator(".coach-target:visible").first
    expect(target).to_be_visible()
    way = card.locator("[data-coach-goto]")
    if not target.evaluate(ON_SCREEN):
        expect(way).to_be_visible()
        expect(way).to_have_text("↓ Hier tippen")
        way.click()
        page.wait_for_function(ON_SCREEN, arg=target.element_handle(), timeout=3000)
        expect(way).to_be_hidden()
    else:
        expect(way).to_be_hidden()
    page.screenshot(path=tmp_path / f"first-{game}-320x640.png")


def test_a_finished_games_card_shows_the_count_with_a_button_a_thumb_hits(live_server, new_phone):
    table = create_table(live_server, "scorepad", ["Ann", "Ben"], coach=True)
    page = seated(new_phone, live_server, table["code"], "Ann", ux.PHONE_320, GERMAN)
    for name, points in (("Ann", 12), ("Ben", 9)):
        api(live_server, "POST", f"/api/tables/{table['code']}/actions",
            {"type": "enter_score", "player": name, "round": 1, "points": points}, token=table["token"])
    api(live_server, "POST", f"/api/tables/{table['code']}/actions", {"type": "finish_game"},
        token=table["token"])
    settle(page, live_server, table["code"])
    expect(page.locator("#coach .coach-say")).to_have_text("Ann gewinnt mit 12 Punkten!")
    show = page.locator("#coach .coach-after").get_by_role("link", name="Zeig's mir")
    expect(show).to_be_visible()
    assert checks(page) == {"small targets": [], "small text": [], "overflowing": [], "axe": []}
    show.click()
    page.wait_for_function("() => location.hash === '#scoresheet'")


def test_the_coach_script_comes_only_with_the_card_also_when_switched_on_mid_game(live_server,
                                                                                 lan_phone):
    """coach.js is not in the bundle (issue 42: a first load within 40 KB): a phone on the
    Wi-Fi at a table without the coach loads neither it nor offline.js (no worker over plain
    HTTP); the host switching the coach on brings the card, its script, and the marked control
    to the other phone without a reload."""
    make, address = lan_phone
    host = make()
    asked = []
    host.on("request", lambda request: asked.append(request.url))
    code = host_score_pad(host, address)
    ben = make()
    ben.on("request", lambda request: asked.append(request.url))
    ben.goto(f"{address}/j/{code}")
    ben.get_by_role("button", name="Ben").click()
    ben.wait_for_function("() => !!document.getElementById('live-stream')")
    assert not [url for url in asked if "/coach.js" in url or "/offline.js" in url]
    host.get_by_role("button", name="Switch on the coach (Our first game)").click()
    expect(ben.locator("#coach")).to_be_visible(timeout=3000)
    expect(ben.locator(".coach-target")).not_to_have_count(0, timeout=3000)  # coach.js marked it
    assert len([url for url in asked if "/static/coach.js?v=" in url]) == 2  # once per phone
    assert not [url for url in asked if "/offline.js" in url]
