"""The last move and its undo under the thumb, in every game, on German phones: a bar fixed at
the foot of the screen names the move an undo takes back (never a seat change); taking back
another player's move asks once, naming whose it is; on the score pad a player may take back
their own last entry instead, after others entered since."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import ux
from tests.browser.conftest import act, api, create_table, seated, settle
from tests.web.test_migrations import OPENINGS

GERMAN = "de-DE"


def dock_sits_under_the_thumb(page) -> None:
    """The bar spans the foot of the screen; its undo is a whole, big target on it."""
    box = page.locator("#lastmove").bounding_box()
    height = page.viewport_size["height"]
    assert abs(box["y"] + box["height"] - height) <= 1 and box["x"] == 0, box
    undo = page.locator("#lastmove button[type=submit]").bounding_box()
    assert undo["y"] >= box["y"] and undo["height"] >= ux.MIN_TARGET and undo["width"] >= ux.MIN_TARGET


@pytest.mark.parametrize("game", sorted(OPENINGS))
def test_every_game_names_the_last_move_beside_its_undo_under_the_thumb(
        live_server, new_phone, game, german_shots):
    players, moves = OPENINGS[game]
    table = create_table(live_server, game, players)
    page = seated(new_phone, live_server, table["code"], players[0], ux.PHONE_320, GERMAN)
    expect(page.locator("#lastmove")).to_be_hidden()  # nothing to undo yet
    act(live_server, table, moves[0][1])
    settle(page, live_server, table["code"])
    dock = page.locator("#lastmove")
    newest = page.locator("#history .log li").first.inner_text().split(" ", 1)[1]  # past its time
    expect(dock.locator(".last-move")).to_have_text(f"Zuletzt: {newest}")
    dock_sits_under_the_thumb(page)
    page.screenshot(path=german_shots / f"undo-dock-{game}-320.png")
    assert ux.overflowing(page) == [] and ux.small_targets(page) == []
    # A phone joining is no move: the bar still names the host's.
    other = seated(new_phone, live_server, table["code"], players[1], ux.PHONE_390, GERMAN)
    settle(page, live_server, table["code"])
    expect(dock.locator(".last-move")).to_have_text(f"Zuletzt: {newest}")
    # The host's move is another's: asked once, naming whose; kept, nothing happens.
    version = api(live_server, "GET", f"/api/tables/{table['code']}")["version"]
    dock.get_by_role("button", name="Rückgängig").click()
    ask = page.locator("#undo-confirm")
    expect(ask.get_by_role("heading")).to_have_text("Den Zug des Gastgebers zurücknehmen?")
    expect(ask.locator(".undo-confirm-move")).to_have_text(newest)
    ask.get_by_role("button", name="Behalten").click()
    expect(ask).to_be_hidden()
    assert api(live_server, "GET", f"/api/tables/{table['code']}")["version"] == version
    dock.get_by_role("button", name="Rückgängig").click()
    ask.get_by_role("button", name="↶ Zurücknehmen").click()
    expect(dock).to_be_hidden()  # nothing left to undo
    expect(other.locator("#lastmove")).to_be_hidden()
    assert api(live_server, "GET", f"/api/tables/{table['code']}")["can_undo"] is False


def test_a_player_takes_back_their_own_entry_after_another_phone_entered(
        live_server, new_phone, german_shots):
    table = create_table(live_server, "scorepad", ["Lena", "Jonas"])
    lena = seated(new_phone, live_server, table["code"], "Lena", ux.PHONE_390, GERMAN)
    jonas = seated(new_phone, live_server, table["code"], "Jonas", ux.PHONE_390, GERMAN)

    def enter(page, round_: str, points: str) -> None:
        form = page.locator("form.score-entry")
        form.locator("input[name=round]").fill(round_)
        form.locator("input[name=points]").fill(points)
        form.locator("button[type=submit]").click()

    enter(lena, "1", "10")
    expect(lena.locator("#lastmove .last-move")).to_contain_text("10")
    enter(lena, "2", "80")
    expect(lena.locator("#lastmove .last-move")).to_contain_text("80")
    enter(jonas, "2", "5")
    expect(jonas.locator("#lastmove .last-move")).to_contain_text("5")
    enter(jonas, "3", "7")
    expect(jonas.locator("#lastmove .last-move")).to_contain_text("Runde 3")
    settle(jonas, live_server, table["code"])
    # Jonas takes back his own last move: nothing asked (round 3 is gone again).
    jonas.locator("#lastmove").get_by_role("button", name="Rückgängig").click()
    cell = '#scoresheet [data-player="{}"][data-round="{}"]'
    expect(jonas.locator(cell.format("Jonas", 3))).to_have_count(0)
    expect(jonas.locator("#undo-confirm")).to_be_hidden()
    # Lena's undo would take back Jonas's 5: asked, she takes back her own 80 instead.
    settle(lena, live_server, table["code"])
    expect(lena.locator("#lastmove .last-move")).to_contain_text("Jonas")
    lena.locator("#lastmove").get_by_role("button", name="Rückgängig").click()
    ask = lena.locator("#undo-confirm")
    expect(ask.get_by_role("heading")).to_have_text("Den Zug von Jonas zurücknehmen?")
    instead = ask.get_by_role("button", name="↶ Stattdessen deine Eingabe zurücknehmen: 80 für Lena, Runde 2")
    expect(instead).to_be_visible()
    # Her own entry is the first and big button, the one a quick tap meets; Jonas's comes second.
    expect(instead).to_be_focused()
    expect(instead).to_have_class(re.compile(r"\bprimary\b"))
    expect(ask.get_by_role("button", name="↶ Zurücknehmen")).to_have_class(re.compile(r"\bsecondary\b"))
    lena.screenshot(path=german_shots / "undo-ask-scorepad-390.png")
    instead.click()
    expect(ask).to_be_hidden()
    expect(lena.locator(cell.format("Lena", 2))).to_have_text("–")
    expect(lena.locator(cell.format("Jonas", 2))).to_have_text("5")
    expect(jonas.locator(cell.format("Lena", 2))).to_have_text("–")
    entries = api(live_server, "GET", f"/api/tables/{table['code']}")["state"]["entries"]
    assert entries == {"Lena": {"1": 10}, "Jonas": {"2": 5}}
    # The log stays true: the take-back is a move of its own, the last one now.
    expect(lena.locator("#history .log li").first).to_contain_text(
        "Lena nimmt 80 für Lena in Runde 2 zurück.")
    expect(jonas.locator("#lastmove .last-move")).to_contain_text("Lena nimmt 80")
