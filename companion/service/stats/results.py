"""Shared pieces of every statistic: plain dataclasses that a template reads by attribute and
``as_dict()`` turns into JSON-ready data, and the few numbers every statistic rounds alike."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ...games import GAMES


@dataclass
class Data:
    def as_dict(self) -> dict:
        """JSON-ready: dicts, lists, strings, numbers, booleans and None."""
        return asdict(self)


def ratio(part: float, whole: float, digits: int = 4) -> float | None:
    """part / whole rounded, or None when there is nothing to divide by."""
    return round(part / whole, digits) if whole else None


def average(values: list[float], digits: int = 2) -> float | None:
    return round(sum(values) / len(values), digits) if values else None


def game_name(game_id: str) -> str:
    """The game's name from the registry; an unknown id (an imported play) stays as it is."""
    game = GAMES.get(game_id)
    return game.name if game else game_id
