"""Plays as the statistics read them: parsed once, in the order they were played.

A play arrives as the dict the group's history records (see ``companion/stats/__init__``);
``prepare`` turns a list of them into ``PlayRow``s sorted by when they ended. Pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo

from .results import paced

# A game night runs past midnight: a play starting before this hour counts for the evening before.
NIGHT_STARTS_AT_HOUR = 6
_EARLIEST = datetime.min.replace(tzinfo=timezone.utc)


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    score: int | float | None
    winner: bool


@dataclass(frozen=True, slots=True)
class PlayRow:
    """One play, parsed; the derived values are worked out once, in ``to_row``."""

    uid: str
    game: str
    started_at: datetime | None
    ended_at: datetime | None
    seats: tuple[Seat, ...]
    cooperative: bool
    result: str | None  # cooperative games: "won" or "lost"
    facts: dict = field(default_factory=dict)
    date: str | None = None  # the calendar day it ended on, ISO (2026-11-27)
    minutes: float | None = None
    names: tuple[str, ...] = ()
    lowest_wins: bool = False  # a score pad kept for a game where the lowest total wins
    order: tuple = ()  # the sort key: end (else start), start, uid

    @property
    def when(self) -> datetime:
        """The moment the play counts at: its end, else its start."""
        return self.ended_at or self.started_at or _EARLIEST

    def seat(self, name: str) -> Seat | None:
        for seat in self.seats:
            if seat.name == name:
                return seat
        return None


def parse_moment(value) -> datetime | None:
    """An ISO 8601 timestamp as an aware datetime (UTC when it names no offset); None if unreadable."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str) and value:
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    else:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _score(value) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _seats(play: dict) -> tuple[Seat, ...]:
    result = play.get("result")
    seats = []
    seen = set()
    for player in play.get("players") or ():
        name = player.get("name") if isinstance(player, dict) else None
        if not isinstance(name, str) or name in seen:
            continue  # a seat without a name cannot be counted for anyone
        seen.add(name)
        winner = bool(player.get("winner"))
        if play.get("cooperative") and result in ("won", "lost"):
            winner = result == "won"  # everybody wins or loses together
        seats.append(Seat(name=name, score=_score(player.get("score")), winner=winner))
    return tuple(seats)


def to_row(play: dict) -> PlayRow:
    facts = play.get("facts")
    facts = facts if isinstance(facts, dict) else {}
    started, ended = parse_moment(play.get("started_at")), parse_moment(play.get("ended_at"))
    seats = _seats(play)
    uid = str(play.get("uid") or "")
    moment = ended or started
    return PlayRow(
        uid=uid,
        game=str(play.get("game") or ""),
        started_at=started,
        ended_at=ended,
        seats=seats,
        cooperative=bool(play.get("cooperative")),
        result=play.get("result") if play.get("result") in ("won", "lost") else None,
        facts=facts,
        date=moment.date().isoformat() if moment else None,
        minutes=(ended - started).total_seconds() / 60 if started and ended and ended >= started else None,
        names=tuple(seat.name for seat in seats),
        lowest_wins=facts.get("winning") == "lowest",
        order=(moment or _EARLIEST, started or _EARLIEST, uid),
    )


def prepare(plays: Iterable[dict | PlayRow]) -> list[PlayRow]:
    """Plays (dicts or rows) as rows, oldest first (by end, then start, then uid)."""
    rows = [play if isinstance(play, PlayRow) else to_row(play) for play in paced(plays)]
    if any(rows[index].order > rows[index + 1].order for index in range(len(rows) - 1)):
        rows.sort(key=lambda row: row.order)
    return rows


def night_of(row: PlayRow, tz: tzinfo | None = None) -> date | None:
    """The game night a play belongs to: the day it started, the small hours counting for the
    evening before. ``tz``: the group's time zone (default: the offset the timestamp carries)."""
    moment = row.started_at or row.ended_at
    if moment is None:
        return None
    if tz is not None:
        moment = moment.astimezone(tz)
    return (moment - timedelta(hours=NIGHT_STARTS_AT_HOUR)).date()
