"""A change to a table, from the phone's tap to every phone at the table, one call each.

The pages (``web/views``) and the JSON API (``web/views/api.py``) call the same functions, and
every one of them goes through ``_change``, which runs the same steps, top to bottom:

1. a unit of work of its own (``database.writing``: on SQLite it first waits for this
   process's one writer, then begins with ``BEGIN IMMEDIATE``);
2. find and lock the table, and the phone making the change (``_locked``);
3. the table service makes the change (``service.tables``): who may, the version the phone
   saw, the game's rules, the log entry, which is the table's next version;
4. other server processes are told inside the transaction (``Hub.notify``: PostgreSQL's
   ``NOTIFY``, delivered at commit); the end of the ``with`` block commits and frees the writer;
5. this process's streams of the table wake (``Hub.changed``), taking the new version from
   what was just written instead of reading it back, and send it before the tap's own
   answer is drawn.

A refusal (``service.errors``) leaves the ``with`` block: the session rolls back and nothing of
the change stays.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from dataclasses import dataclass, field

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
class Caller:
    """Who makes a change: what a browser's signed cookie holds for the table (its device's id)
    or a script's bearer token (``by_token``: a token no device of the table holds is refused
    as such)."""

    held: int | str | None
    by_token: bool = False


@dataclass
class Changed:
    """What a change left: the table as committed, the phone that made it (or joined), a new
    phone's bearer token, the log entry of a move, a group the table now counts in, other
    tables it changed (``also``: a rematch's new table), whether it deleted the table."""

    table: GameTable
    device: Device | None = None
    token: str | None = None
    entry: LogEntry | None = None
    group: PlayerGroup | None = None
    also: list[GameTable] = field(default_factory=list)
    deleted: bool = False

    def tables(self) -> list[GameTable]:
        return [self.table, *self.also]


def act(code: str, phone: Caller, payload: dict, expected: int | None,
        key: str | None) -> Changed:
    """One game action (a retry of one already recorded raises AlreadyDone)."""
    return _change(code, phone, lambda db, table, device: Changed(
        table, device, entry=tables.act(db, table, device, payload, expected, key)))


def undo_or_redo(code: str, phone: Caller, kind: str, expected: int | None,
                 key: str | None) -> Changed:
    """Undo the last action in effect, or redo the last undone one."""
    return _change(code, phone, lambda db, table, device: Changed(
        table, device, entry=tables.undo_or_redo(db, table, device, kind, expected, key)))


def host_power(code: str, phone: Caller, power: str, seat: str = "",
               device_id: int = -1) -> Changed:
    """The host's powers: "lock", "unlock", "coach-on", "coach-off" (teaching mode), "free"
    (``seat``), "read-only" and "read-write" (the phone ``device_id``)."""
    def change(db: Session, table: GameTable, device: Device | None) -> Changed:
        if power in ("lock", "unlock"):
            tables.set_locked(db, table, device, power == "lock")
        elif power in ("coach-on", "coach-off"):
            tables.set_coach(db, table, device, power == "coach-on")
        elif power == "free":
            tables.free_seat(db, table, device, seat)
        else:
            tables.set_read_only(db, table, device, device_id, power == "read-only")
        return Changed(table, device)
    return _change(code, phone, change)


def join(code: str, seat: str | None, watch: bool) -> Changed:
    """A new phone takes a free seat, or watches."""
    def change(db: Session, table: GameTable, _nobody: None) -> Changed:
        joined = tables.join_table(db, table, seat, watch)
        return Changed(table, joined.device, joined.token)
    return _change(code, None, change)


def take_seat(code: str, phone: Caller, seat: str | None) -> Changed:
    """A joined phone changes seat, or watches (``seat`` None)."""
    def change(db: Session, table: GameTable, device: Device | None) -> Changed:
        tables.take_seat(db, table, device, seat)
        return Changed(table, device)
    return _change(code, phone, change)


def start_rematch(code: str, phone: Caller, rotate: bool) -> GameTable:
    """The rematch of an ended game (found when it was started already)."""
    return _change(code, phone, lambda db, table, device: Changed(
        table, also=[tables.rematch(db, table, device, rotate)])).also[0]


def follow_rematch(code: str, phone: Caller) -> Changed:
    """This phone's place at the rematch of ``code``: its seat, host if it hosted."""
    def change(db: Session, table: GameTable, device: Device | None) -> Changed:
        joined = tables.follow_rematch(db, table, device, current_app.secret_key)
        return Changed(joined.table, joined.device, joined.token)
    return _change(code, phone, change)


def delete(code: str, phone: Caller) -> None:
    """The host deletes the table and its history; its phones are sent home."""
    def change(db: Session, table: GameTable, device: Device | None) -> Changed:
        tables.delete_table(db, table, device)
        return Changed(table, deleted=True)
    _change(code, phone, change)


def link_group(code: str, phone: Caller, group_code: str, group_name: str) -> Changed:
    """The host counts a table set up without a group in a group's plays: one known by
    ``group_code``, else a new one named ``group_name``. An ended table becomes a play."""
    def change(db: Session, table: GameTable, device: Device | None) -> Changed:
        try:
            group = groups.find_group(db, group_code) if group_code else groups.create_group(db, group_name)
        except NotFound as missing:  # a code typed into the form: the form's problem
            raise Invalid(missing.message) from None
        tables.count_in_group(db, table, device, group.name)
        groups.link_table(db, table, group, {seat: seat for seat in table.players})
        groups.sync_play(db, table)
        return Changed(table, device, group=group)
    return _change(code, phone, change)


def create_table(game_id: str, players: list, options: dict | None,
                 group_code: str | None = None, new_group: str | None = None,
                 seat_players: dict[str, str] | None = None, my_row: int | None = None,
                 coach: bool = False) -> Changed:
    """A new table (its creating phone hosts it), counting in a group known by ``group_code``
    or a ``new_group`` of that name, each seat the group player ``seat_players`` names (default:
    the seat's own name); ``my_row``: the seat the creating phone takes; ``coach``: teaching
    mode on. All or nothing."""
    def change(db: Session, _none: None, _nobody: None) -> Changed:
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
        return Changed(table, joined.device, joined.token, group=group)
    return _change(None, None, change)


def change_group(group_code: str, operation: Callable[[Session, PlayerGroup], Any]) -> Any:
    """A change of a group's history (players, a merge, a deleted play, an undo, the group
    deleted) in one unit of work, answering what ``operation`` answers. A table it takes out of
    the group's plays, or puts back, is a changed table: its log says so, its phones see it."""
    hub = _hub()
    with writing(current_app.extensions["engine"]) as db:
        group = groups.find_group(db, group_code)
        name, before = group.name, groups.linked_tables(db, group.id)
        said = operation(db, group)
        db.flush()
        moved = [db.get(GameTable, table_id) for table_id in
                 sorted(before ^ groups.linked_tables(db, group.id))]
        for table in moved:
            tables.group_link_changed(db, table, name)
            hub.notify(db, table.code, table.version)
    CHANGES.inc(len(moved))
    for table in moved:
        hub.changed(table.code, table.version)
    return said


# -- the one path of every change ------------------------------------------------------------


Change = Callable[[Session, "GameTable | None", "Device | None"], Changed]


def _change(code: str | None, phone: Caller | None, change: Change) -> Changed:
    """Make ``change`` to the table ``code`` for ``phone`` (None: a phone that has not joined;
    ``code`` None: a new table), commit it and tell every phone."""
    hub = _hub()
    with writing(current_app.extensions["engine"]) as db:  # SQLite: this process's one writer
        table, device = (None, None) if code is None else _locked(db, code, phone)
        changed = change(db, table, device)
        for each in changed.tables():
            hub.notify(db, each.code, DELETED if changed.deleted else each.version)
    # Committed, and the writer free for the next change: now the phones.
    CHANGES.inc(len(changed.tables()))
    if changed.deleted:
        hub.changed(changed.table.code, DELETED)
        return changed
    written = (changed.table, changed.entry) if changed.entry is not None else None
    woke = hub.changed(changed.table.code, changed.table.version, written)
    for table in changed.also:
        woke = hub.changed(table.code, table.version) or woke
    if woke:
        time.sleep(0)  # under gevent: the woken streams send the change before this answer
    return changed


def _hub() -> Hub:
    return current_app.extensions["live"]


def _locked(db: Session, code: str, phone: Caller | None) -> tuple[GameTable, Device | None]:
    """The table, its row locked until the commit, and the phone's device there (None: the
    phone has not joined; the table service says what it may not do then)."""
    table = tables.find_table(db, code, for_update=True)
    if phone is None:
        return table, None
    device = tables.find_device(db, table, phone.held)
    if device is None and phone.by_token:
        raise Forbidden(_("That token gives no rights on this table."))
    return table, device
