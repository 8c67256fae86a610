"""Das Kartenspiel played by a newcomer family that does only what the coach says (robots/):
evenings over HTTP, from the set-up form to the final scores (four in `make test`, the fifth
in Chromium: tests/browser/test_robot_kartenspiel_browser.py; all five in `make test-long`)."""

from __future__ import annotations

import pytest

from tests.robots.harness import http_table, over_http
from tests.robots.kartenspiel import CardNight

# Seed: the players at the table, who has a phone (the host's first), the round played without
# the phones and typed in afterwards (0: none). Two players keep a seed's taps few: ~100 taps.
FAMILIES = {
    1: (("Mama", "Lena"), ("Mama", "Lena"), 0),
    2: (("Mama", "Lena"), ("Lena", "Mama"), 2),
    3: (("Papa", "Ben"), ("Papa", "Ben"), 0),
    4: (("Mama", "Papa", "Lena"), ("Lena", "Papa"), 3),  # Mama has no phone: the host taps for her
    5: (("Oma", "Ben"), ("Oma", "Ben"), 0),
}


def evening(seed: int) -> CardNight:
    players, phones, typed = FAMILIES[seed]
    return CardNight(seed, players, phones, typed_round=typed)


@pytest.mark.parametrize("seed", over_http(sorted(FAMILIES), long_only=2))  # 2: in Chromium too
def test_a_family_following_the_coach_plays_four_rounds_to_the_right_totals(app, seed):
    night = evening(seed)
    robot = http_table(app, night)
    night.robot_phones = robot.phones
    robot.play()
