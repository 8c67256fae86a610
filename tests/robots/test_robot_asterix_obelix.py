"""Asterix & Obelix played by a newcomer family that does only what the coach says
(tests/robots/asterix_obelix.py): seeds over HTTP, each with other table settings (four in
`make test`, five in `make test-long`; one more in Chromium)."""

from __future__ import annotations

import pytest

from tests.robots import harness
from tests.robots.asterix_obelix import LightPhone, Tortoise

SETTINGS = {
    1: {},
    2: {"blocking__present": "1"},  # no block after an attack: the turn passes at once
    3: {"fight_cards_out": "end"},  # an empty draw pile ends the game
    4: {"block_lasts": "turn"},
    5: {},
}


@pytest.mark.parametrize("seed", harness.over_http(sorted(SETTINGS), long_only=5))  # 5: the settings of 1
def test_a_family_following_the_coach_plays_to_the_end_and_counts_every_token(app, monkeypatch, seed):
    monkeypatch.setattr(harness, "HttpPhone", LightPhone)  # the same pages, parsed in half the time
    table = Tortoise(seed, SETTINGS[seed])
    harness.http_table(app, table).play()
