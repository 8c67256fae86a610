"""Asterix & Co. played by a newcomer family that does only what the coach says (robots/);
one seed in Chromium: tests/browser/test_robot_asterix_co_browser.py."""

from __future__ import annotations

import pytest

from tests.robots.asterix_co import AlbumNight
from tests.robots.harness import http_table, over_http


@pytest.mark.parametrize("seed", over_http([1, 2, 3, 4, 5], long_only=1))  # 1: in Chromium too
def test_a_family_following_the_coach_plays_to_fifty_sesterces(app, seed):
    night = AlbumNight(seed)
    http_table(app, night).play()
