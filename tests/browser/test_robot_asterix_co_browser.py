"""Asterix & Co.'s newcomer robot in Chromium (tests/robots/asterix_co.py)."""

from __future__ import annotations

import pytest

from tests.browser import ux
from tests.robots.asterix_co import AlbumNight
from tests.robots.harness import browser_table

pytestmark = pytest.mark.browser


def test_a_family_following_the_coach_in_chromium(new_phone, live_server):
    """One seed tapped in Chromium by hand: what coach.js really marks, dialogs opened by
    what opens them, on a German phone of 390 px (the host's) and one of 320 px."""
    night = AlbumNight(1)
    browser_table(new_phone, live_server, night, (ux.PHONE_390, ux.PHONE_320)).play()
