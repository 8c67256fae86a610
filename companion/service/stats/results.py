"""Shared pieces of every statistic: plain dataclasses that a template reads by attribute and
``as_dict()`` turns into JSON-ready data, and the few numbers every statistic rounds alike."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from ...games import GAMES

Item = TypeVar("Item")
PAUSE_EVERY = 200  # plays between two pauses of a long computation


@dataclass
class Data:
    def as_dict(self) -> dict:
        """JSON-ready: dicts, lists, strings, numbers, booleans and None."""
        return plain(self)


def plain(value):
    """``value`` with every ``Data`` in it as a dict of its fields (in their order); what
    dataclasses.asdict does, without its deep copy of every number and string, which took
    seconds for the head-to-heads of a big group."""
    if isinstance(value, Data):
        return {name: plain(item) for name, item in vars(value).items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item) for item in value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def rounded(value: float, digits: int) -> float:
    """``round(value, digits)``; a whole number as it is (round works its exact digits out
    slowly, and most averages of a big group's pairs are whole)."""
    return value if value.is_integer() else round(value, digits)


def ratio(part: float, whole: float, digits: int = 4) -> float | None:
    """part / whole rounded, or None when there is nothing to divide by."""
    return rounded(part / whole, digits) if whole else None


def average(values: list[float], digits: int = 2) -> float | None:
    return rounded(sum(values) / len(values), digits) if values else None


def game_name(game_id: str) -> str:
    """The game's name from the registry; an unknown id (an imported play) stays as it is."""
    game = GAMES.get(game_id)
    return game.name if game else game_id


def paced(items: Iterable[Item]) -> Iterator[Item]:
    """``items`` one by one, pausing (``time.sleep(0)``) every PAUSE_EVERY: in the server
    (gevent) the other requests go in between while a big group's statistics are made."""
    for number, item in enumerate(items, start=1):
        yield item
        if number % PAUSE_EVERY == 0:
            time.sleep(0)
