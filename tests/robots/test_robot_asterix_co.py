"""Asterix & Co. played by a newcomer family that does only what the coach says (robots/)."""

from __future__ import annotations

import pytest

from tests.browser import ux
# The real-browser fixtures (a server, Chromium, phones), for the one seed played in Chromium.
from tests.browser.conftest import (browser, console_errors, live_server,  # noqa: F401
                                    new_phone, playwright, server)
from tests.robots.asterix_co import AlbumNight
from tests.robots.harness import browser_table, http_table


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_family_following_the_coach_plays_to_fifty_sesterces(app, seed):
    night = AlbumNight(seed)
    http_table(app, night).play()


@pytest.mark.browser
def test_a_family_following_the_coach_in_chromium(new_phone, live_server):
    """One seed tapped in Chromium by hand: what coach.js really marks, dialogs opened by
    what opens them, on a German phone of 390 px (the host's) and one of 320 px."""
    night = AlbumNight(1)
    browser_table(new_phone, live_server, night, (ux.PHONE_390, ux.PHONE_320)).play()
