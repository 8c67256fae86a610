"""Das Kartenspiel's newcomer robot in Chromium: the second evening of
tests/robots/test_robot_kartenspiel.py (its second round played without the phones and typed
in afterwards) on a German 390 and 320 px phone."""

from __future__ import annotations

import pytest

from tests.browser.ux import PHONE_320, PHONE_390
from tests.robots.harness import browser_table
from tests.robots.test_robot_kartenspiel import evening

pytestmark = pytest.mark.browser


def test_the_same_evening_in_chromium_on_a_390_and_a_320_px_phone(new_phone, live_server):
    night = evening(2)
    robot = browser_table(new_phone, live_server, night, (PHONE_390, PHONE_320))
    night.robot_phones = robot.phones
    robot.play()
