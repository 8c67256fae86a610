"""Mission Zaubertrank!'s newcomer robot in Chromium: two German phones (390 and 320 px)
tapping only what coach.js marks, menus opened by their marked openers, from set-up to the end
(tests/robots/zaubertrank.py)."""

from __future__ import annotations

import pytest

from tests.browser import ux
from tests.robots.harness import browser_table
from tests.robots.zaubertrank import PotionNight

pytestmark = pytest.mark.browser


def test_a_family_following_the_coach_plays_to_the_end_in_a_browser(new_phone, live_server):
    night = PotionNight(seed=3, players=("Papa", "Lena"), spaces=2)
    snapshot = browser_table(new_phone, live_server, night, (ux.PHONE_390, ux.PHONE_320)).play()
    assert snapshot["finished"] and snapshot["state"]["result"] == night.result
