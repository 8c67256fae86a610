"""Asterix & Obelix in a real browser: one tap per card on one phone, the board live on the other."""

from playwright.sync_api import expect

from tests.browser.conftest import create_table, join, settle


def test_two_phones_play_an_attack_and_see_the_same_board(live_server, new_phone, tmp_path):
    table = create_table(live_server, "asterix-obelix", ["Ann", "Ben"])
    ann, ben = new_phone(), new_phone()
    join(ann, live_server, table["code"], "Ann")
    join(ben, live_server, table["code"], "Ben")

    expect(ann.locator("#board")).to_contain_text("Who attacks first?")
    ann.get_by_role("button", name="Ann attacks first").click()
    expect(ben.locator("#board")).to_contain_text("Ann attacks", timeout=3000)
    # Ben's phone waits: Ann's moves are tapped on her phone and show up on his; her controls
    # show on his phone too, disabled, with the reason.
    expect(ben.locator("#board #ao-now")).to_contain_text("It is Ann's turn")
    expect(ben.get_by_role("button", name="Attack row 2 from the right")).to_be_disabled()

    # Ann stands her figure at the right end of row 2 and turns three cards, one tap each.
    ann.get_by_role("button", name="Attack row 2 from the right").click()
    expect(ann.get_by_role("button", name="Red legionary")).to_be_visible()
    ann.get_by_role("button", name="Red legionary").click()
    expect(ann.locator("#board")).to_contain_text("beaten so far: 1")
    ann.get_by_role("button", name="Village feast").click()
    expect(ann.locator("#board .ao-track li.on")).to_have_count(1)
    ann.get_by_role("button", name="Purple centurion").click()
    expect(ben.locator("#board")).to_contain_text("Ann attacks row 2 from the right", timeout=3000)
    expect(ben.get_by_role("img", name="Row 2, column 2: defeated: purple centurion")).to_be_visible(
        timeout=3000)
    expect(ben.locator("#board .ao-track li.on")).to_have_count(1)

    ann.get_by_role("button", name="End attack and secure 2 cards").click()
    expect(ben.locator("#piles")).to_contain_text("+C", timeout=3000)
    expect(ben.locator("#history .log")).to_contain_text(
        "Ann ended the attack and secured 2 cards: a red legionary, the purple centurion.")

    # Ann blocks column 3; Ben's phone offers every line but that one.
    ann.get_by_role("button", name="Block column 3").click()
    expect(ben.locator("#board")).to_contain_text("Column 3 is blocked for Ben's next attack", timeout=3000)
    expect(ben.get_by_role("button", name="Attack column 3 from the top")).to_have_count(0)
    expect(ben.get_by_role("button", name="Attack column 2 from the top")).to_be_visible()

    # Ben attacks; a wrong tap is taken back with undo on Ann's phone.
    ben.get_by_role("button", name="Attack column 2 from the top").click()
    ben.get_by_role("button", name="Pirate").click()
    expect(ann.locator("#board")).to_contain_text("beaten so far: 1", timeout=3000)
    ann.get_by_role("button", name="↶ Undo").click()
    expect(ben.locator("#board")).to_contain_text("beaten so far: 0", timeout=3000)
    ben.get_by_role("button", name="Yellow legionary").click()
    expect(ann.get_by_role("img", name="Row 1, column 2: defeated: yellow legionary")).to_be_visible(
        timeout=3000)

    # A "?" opens the rule in place; the board stays.
    ben.locator("#board .ao-specials a.help").first.click()
    dialog = ben.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("three pirates")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    # Nothing sticks out of a 360 px screen.
    assert ben.evaluate("document.documentElement.scrollWidth") <= 360
    ben.screenshot(path=tmp_path / "asterix-obelix-board.png", full_page=True)
    settle(ben, live_server, table["code"])
    ben.locator("#board").screenshot(path=tmp_path / "asterix-obelix-board-region.png")


def test_the_quick_score_page_in_the_browser(live_server, new_phone):
    page = new_phone()
    page.goto(f"{live_server}/games/asterix-obelix/score")
    page.locator("input[name=name_1]").fill("Ann")
    page.locator("input[name=name_2]").fill("Ben")
    page.locator("input[name=legionaries_1_red]").fill("2")
    page.get_by_label("Player 2 holds the red centurion").check()
    page.locator("input[name=legionaries_2_red]").fill("1")
    page.get_by_role("button", name="Score it").click()
    expect(page.locator("#result")).to_contain_text("Red: Ann and Ben have 2 cards each; Ben holds the red "
                                                    "centurion and takes the red token.")
    expect(page.locator("#result")).to_contain_text("Ben wins!")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
