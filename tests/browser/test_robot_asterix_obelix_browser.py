"""Asterix & Obelix's newcomer robot in Chromium: Lena and Ben on German phones (390 and 320
px), tapping only what coach.js marks or the card names (tests/robots/asterix_obelix.py);
at the end each phone's page still fits its screen, the final scoring and the undo whole."""

from __future__ import annotations

import pytest

from tests.browser import ux
from tests.robots.asterix_obelix import Tortoise
from tests.robots.harness import browser_table

pytestmark = pytest.mark.browser


def test_a_family_following_the_coach_plays_to_the_end_in_a_browser(new_phone, live_server, tmp_path):
    robot = browser_table(new_phone, live_server, Tortoise(seed=11), (ux.PHONE_390, ux.PHONE_320))
    robot.play()
    for seat, phone in robot.phones.items():
        page = phone.page
        page.locator("#scoring").scroll_into_view_if_needed()
        page.screenshot(path=tmp_path / f"robot-end-{seat}.png")
        assert ux.overflowing(page) == [], seat
        width = page.evaluate("() => document.documentElement.clientWidth")
        undo = page.locator(".last-move-dock button").bounding_box()
        assert undo["x"] >= 0 and undo["x"] + undo["width"] <= width, (seat, undo, width)
