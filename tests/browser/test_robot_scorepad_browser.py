"""The score pad's newcomer robot in Chromium: two German phones (390 and 320 px) tapping
only what coach.js marks, on an open sheet (tests/robots/scorepad.py)."""

from __future__ import annotations

import pytest

from tests.browser import ux
from tests.robots.harness import browser_table
from tests.robots.scorepad import DiceNight

pytestmark = pytest.mark.browser


def test_a_family_following_the_coach_keeps_every_score_in_a_browser(new_phone, live_server):
    night = DiceNight(seed=7, rounds=4, planned=False)
    browser_table(new_phone, live_server, night, (ux.PHONE_390, ux.PHONE_320)).play()
