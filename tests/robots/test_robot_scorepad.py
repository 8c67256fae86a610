"""The score pad played by a newcomer family that does only what the coach says (robots/)."""

from __future__ import annotations

import pytest

from tests.robots.harness import http_table
from tests.robots.scorepad import DiceNight


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_family_following_the_coach_keeps_every_score(app, seed):
    night = DiceNight(seed, rounds=3 + seed % 3, planned=seed % 2 == 0)
    http_table(app, night).play()
