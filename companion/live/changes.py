"""A change to a table, from the phone's tap to every phone at the table, one call each.

The pages (``web/views``) and the JSON API (``web/views/api.py``) call the same functions, and
every one of them runs the same steps, top to bottom:

1. a session of its own, whose transaction locks early (``database.writing``: on SQLite,
   one writer of this process at a time, with ``BEGIN IMMEDIATE``);
2. find and lock the table, and the phone making the change (``_locked``);
3. the table service makes the change (``service.tables``): who may, the version the phone
   saw, the game's rules, the log;
4. other server processes are told inside the transaction (``Hub.notify``: PostgreSQL's
   ``NOTIFY``, delivered at commit), then the transaction commits (``_commit``);
5. this process's streams of the table wake (``Hub.changed``), taking the new version from
   what was just written instead of reading it back, and send it before the tap's own
   answer is drawn.

A refusal (``service.errors``) leaves the ``with`` block: the session rolls back and nothing of
the change stays.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from flask import current_app
from flask_babel import gettext as _
from sqlmodel import Session

from ..service import groups, tables
from ..service.database import writing
from ..service.errors import Forbidden, Invalid, NotFound
from ..service.models import Device, GameTable, LogEntry, PlayerGroup
from ..service.metrics import CHANGES
from .hub import DELETED, Hub


@dataclass(frozen=True)
class Phone:
    """Who makes a change: what a browser's signed cookie holds for the table (its device's id)
    or a script's bearer token (``by_token``: a token no device of the table holds is refused
    as such)."""

    held: int | str | None
    by_token: bool = False


@dataclass
class Changed:
    """What a change left: the table as committed, the phone that made it (or joined), a new
    phone's bearer token, the log entry of a move, a group the table now counts in."""

    table: GameTable
    device: Device | None = None
    token: str | None = None
    entry: LogEntry | None = None
    group: PlayerGroup | None = None


def act(code: str, phone: Phone, payload: dict, expected: int | None,
        key: str | None) -> Changed:
    """One game action (a retry of one already recorded raises AlreadyDone)."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        entry = tables.act(db, table, device, payload, expected, key)
        return _commit(db, Changed(table, device, entry=entry))


def undo_or_redo(code: str, phone: Phone, kind: str, expected: int | None,
                 key: str | None) -> Changed:
    """Undo the last action in effect, or redo the last undone one."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        entry = tables.undo_or_redo(db, table, device, kind, expected, key)
        return _commit(db, Changed(table, device, entry=entry))


def host_power(code: str, phone: Phone, power: str, seat: str = "",
               device_id: int = -1) -> Changed:
    """The host's powers: "lock", "unlock", "coach-on", "coach-off" (teaching mode), "free"
    (``seat``), "read-only" and "read-write" (the phone ``device_id``)."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        if power in ("lock", "unlock"):
            tables.set_locked(db, table, device, power == "lock")
        elif power in ("coach-on", "coach-off"):
            tables.set_coach(db, table, device, power == "coach-on")
        elif power == "free":
            tables.free_seat(db, table, device, seat)
        else:
            tables.set_read_only(db, table, device, device_id, power == "read-only")
        return _commit(db, Changed(table, device))


def join(code: str, seat: str | None, watch: bool) -> Changed:
    """A new phone takes a free seat, or watches."""
    with _writing() as db:
        table = tables.find_table(db, code, for_update=True)
        joined = tables.join_table(db, table, seat, watch)
        return _commit(db, Changed(table, joined.device, joined.token))


def take_seat(code: str, phone: Phone, seat: str | None) -> Changed:
    """A joined phone changes seat, or watches (``seat`` None)."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        tables.take_seat(db, table, device, seat)
        return _commit(db, Changed(table, device))


def start_rematch(code: str, phone: Phone, rotate: bool) -> GameTable:
    """The rematch of an ended game (found when it was started already)."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        new = tables.rematch(db, table, device, rotate)
        _commit(db, Changed(table), new)
        return new


def follow_rematch(code: str, phone: Phone) -> Changed:
    """This phone's place at the rematch of ``code``: its seat, host if it hosted."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        joined = tables.follow_rematch(db, table, device)
        return _commit(db, Changed(joined.table, joined.device, joined.token))


def delete(code: str, phone: Phone) -> None:
    """The host deletes the table and its history; its phones are sent home."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        tables.delete_table(db, table, device)
        _hub().notify(db, table.code, DELETED)
        db.commit()
    _hub().changed(table.code, DELETED)


def link_group(code: str, phone: Phone, group_code: str, group_name: str) -> Changed:
    """The host counts a table set up without a group in a group's plays: one known by
    ``group_code``, else a new one named ``group_name``. An ended table becomes a play."""
    with _writing() as db:
        table, device = _locked(db, code, phone)
        try:
            group = groups.find_group(db, group_code) if group_code else groups.create_group(db, group_name)
        except NotFound as missing:  # a code typed into the form: the form's problem
            raise Invalid(missing.message) from None
        tables.count_in_group(db, table, device, group.name)
        groups.link_table(db, table, group, {seat: seat for seat in table.players})
        groups.sync_play(db, table)
        return _commit(db, Changed(table, device, group=group))


def create_table(game_id: str, players: list, options: dict | None,
                 group_code: str | None = None, new_group: str | None = None,
                 seat_players: dict[str, str] | None = None, my_row: int | None = None,
                 coach: bool = False) -> Changed:
    """A new table (its creating phone hosts it), counting in a group known by ``group_code``
    or a ``new_group`` of that name, each seat the group player ``seat_players`` names (default:
    the seat's own name); ``my_row``: the seat the creating phone takes; ``coach``: teaching
    mode on. All or nothing."""
    with _writing() as db:
        group = groups.find_group(db, group_code) if group_code else None
        joined = tables.create_table(db, game_id, players, options, coach)
        table = joined.table
        if new_group is not None:
            group = groups.create_group(db, new_group)
        if group is not None:
            names = {seat: (seat_players or {}).get(seat, seat) for seat in table.players}
            groups.link_table(db, table, group, names)
        if my_row is not None:
            tables.take_seat(db, table, joined.device, table.players[my_row])
        db.commit()
        return Changed(table, joined.device, joined.token, group=group)


# -- the steps every change shares ----------------------------------------------------------


def _hub() -> Hub:
    return current_app.extensions["live"]


@contextmanager
def _writing() -> Iterator[Session]:
    with writing(current_app.extensions["engine"]) as db:
        yield db


def _locked(db: Session, code: str, phone: Phone) -> tuple[GameTable, Device | None]:
    """The table, its row locked until the commit, and the phone's device there (None: the
    phone has not joined; the table service says what it may not do then)."""
    table = tables.find_table(db, code, for_update=True)
    device = tables.find_device(db, table, phone.held)
    if device is None and phone.by_token:
        raise Forbidden(_("That token gives no rights on this table."))
    return table, device


def _commit(db: Session, changed: Changed, *also: GameTable) -> Changed:
    """Tell other processes (at commit), commit, wake this process's streams of every table
    changed (``also``: a rematch's new table beside the old one)."""
    hub = _hub()
    for table in (changed.table, *also):
        hub.notify(db, table.code, table.version)
    db.commit()
    CHANGES.inc(1 + len(also))
    written = (changed.table, changed.entry) if changed.entry is not None else None
    woke = hub.changed(changed.table.code, changed.table.version, written)
    for table in also:
        woke = hub.changed(table.code, table.version) or woke
    if woke:
        time.sleep(0)  # under gevent: the woken streams send the change before this answer
    return changed
