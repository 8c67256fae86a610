"""Rows an import is still writing (``pending``), and telling a live import from a dead one.

An import marks its rows with its key (a row of ``PendingImport``) and, while it writes, holds
a sign of life: on PostgreSQL a session advisory lock on a connection of its own, which the
database frees when the process dies (also by ``kill -9``); on SQLite its key in this
process's memory (one server process per file: ``cli.claim_sqlite``). An import without one
died with its process, and so does one older than ``STALE_AFTER`` (stuck: its next
transaction finds its row gone and stops, nothing shown). Dead imports' rows are cleared when
a server starts, when an import begins, and when a change meets one of their names.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

from sqlalchemy import Engine, delete, select, text
from sqlalchemy.exc import DBAPIError

from .models import GroupPlayer, PendingImport, Play, now

STALE_AFTER = timedelta(minutes=10)  # an import takes seconds; one this old is stuck
IMPORT_LOCKS = 0x1E9  # the class of PostgreSQL's advisory locks held by imports under way
_WRITING: set[str] = set()  # SQLite: the imports this process is writing


def _lock_number(key: str) -> int:
    """The advisory lock of an import: its key's CRC, as PostgreSQL's signed int."""
    return zlib.crc32(key.encode()) - 2**31


@contextmanager
def under_way(engine: Engine, key: str) -> Iterator[None]:
    """The import ``key`` is alive while this block runs."""
    if engine.dialect.name != "postgresql":
        _WRITING.add(key)
        try:
            yield
        finally:
            _WRITING.discard(key)
        return
    with engine.connect() as held:
        held.execute(text("SELECT pg_advisory_lock(:kind, :number)"),
                     {"kind": IMPORT_LOCKS, "number": _lock_number(key)})
        held.commit()
        try:
            yield
        finally:
            try:
                held.execute(text("SELECT pg_advisory_unlock(:kind, :number)"),
                             {"kind": IMPORT_LOCKS, "number": _lock_number(key)})
                held.commit()
            except DBAPIError:
                held.invalidate()  # its connection closed, which frees the lock too


def alive(db, key: str, started) -> bool:
    """Whether the import ``key`` (begun at ``started``) is still being written."""
    if started is not None and _in_utc(started) < now() - STALE_AFTER:
        return False
    if db.get_bind().dialect.name != "postgresql":
        return key in _WRITING
    # Free to take (until this transaction ends): nobody holds it, its writer is gone.
    return not db.execute(text("SELECT pg_try_advisory_xact_lock(:kind, :number)"),
                          {"kind": IMPORT_LOCKS, "number": _lock_number(key)}).scalar()


def _in_utc(moment: datetime) -> datetime:
    """A time read back from SQLite (which keeps no zone) as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def holder(db, key: str) -> PendingImport | None:
    """The import ``key`` if it is still pending, its row locked until the transaction ends."""
    return db.execute(select(PendingImport).where(PendingImport.key == key)
                      .with_for_update()).scalars().first()


def forget(db, key: str) -> None:
    """Delete what an import that will not finish wrote (nothing, once it is published). Its
    ``PendingImport`` row goes first: that locks it, so a transaction of the import still
    under way waits, then finds it gone."""
    if not db.execute(delete(PendingImport).where(PendingImport.key == key)).rowcount:
        return
    db.execute(delete(Play).where(Play.pending == key))
    db.execute(delete(GroupPlayer).where(GroupPlayer.pending == key))


def forget_dead(db) -> int:
    """Clear the rows of every import no process is writing any more; how many there were."""
    dead = [row.key for row in db.execute(select(PendingImport)).scalars().all()
            if not alive(db, row.key, row.started_at)]
    for key in dead:
        forget(db, key)
    return len(dead)
