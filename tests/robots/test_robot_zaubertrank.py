"""Mission Zaubertrank! played by a newcomer family that does only what the coach says
(robots/): set-up to the end, won or lost, on German phones over HTTP."""

from __future__ import annotations

import pytest

from tests.robots.harness import http_table, over_http
from tests.robots.zaubertrank import PotionNight

# Two to four players; laps of 12, 18 and 24 spaces (the Roman's timeline is a table setting)
# keep a game to about a hundred taps. Seed 4 is won (Obelix delivers twice a turn), the rest
# are lost.
NIGHTS = [(1, ("Mama", "Jonas"), 3), (2, ("Mama", "Jonas", "Lena"), 2),
          (3, ("Papa", "Lena"), 2), (4, ("Mama", "Jonas"), 4),
          (5, ("Mama", "Papa", "Jonas", "Lena"), 2)]


@pytest.mark.parametrize("seed, players, spaces", over_http(NIGHTS, long_only=NIGHTS[2]))  # 3: in Chromium too
def test_a_family_following_the_coach_plays_to_the_end(app, seed, players, spaces):
    night = PotionNight(seed, players, spaces)
    snapshot = http_table(app, night).play()
    assert snapshot["finished"] and snapshot["state"]["result"] == night.result
    assert night.result == ("won" if seed == 4 else "lost")
