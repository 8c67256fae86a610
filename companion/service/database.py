"""Engine and sessions. SQLite under instance/ by default; PostgreSQL through DATABASE_URL."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from .migrations import upgrade

WRITE = {"companion_write": True}
SCHEMA_LOCK = "hashtext('companion schema')"  # PostgreSQL's advisory lock key for migrations


def _use_wal(cursor) -> None:
    """Switch a new database file to WAL once. The switch needs the file to itself and SQLite
    does not wait for that, so processes starting together on a fresh file take a few tries."""
    for attempt in range(100):
        try:
            if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError:
            if attempt == 99:
                raise
            time.sleep(0.05)


class _WithoutTraceback(logging.Filter):
    """The pool logs a connection it could not reset (its database went away) with the
    driver's traceback: one line says it, and the request that met it answered 503."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text = None, None
        return True


def make_engine(url: str) -> Engine:
    """Create the engine; SQLite gets WAL, a busy timeout and write transactions that lock early."""
    if not url.startswith("sqlite"):
        # All kept open: closing those that came back started a backend per request. A server
        # that does not answer is given up on in 5 s (the answer: 503), not the system's minutes.
        engine = create_engine(url, pool_pre_ping=True, pool_size=25, max_overflow=0,
                               pool_timeout=10, connect_args={"connect_timeout": 5})
    else:
        engine = _sqlite_engine(url)
    pool_log = engine.pool.logger
    if isinstance(pool_log, logging.Logger) and not any(
            isinstance(kept, _WithoutTraceback) for kept in pool_log.filters):
        pool_log.addFilter(_WithoutTraceback())
    return engine


def _sqlite_engine(url: str) -> Engine:
    in_memory = url in ("sqlite://", "sqlite:///:memory:")
    # Writers hold a connection while they queue for the lock: a bounded pool would starve readers.
    pool = {"poolclass": StaticPool} if in_memory else {"pool_size": 20, "max_overflow": -1}
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        **pool,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # We emit BEGIN ourselves (below), so the driver must not open transactions on its own.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=30000")
        if not in_memory:
            _use_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    _begin_writes_immediately(engine)
    return engine


def _begin_writes_immediately(engine: Engine) -> None:
    """A write transaction (``WRITE``) begins with BEGIN IMMEDIATE: it holds SQLite's write lock
    from its start, so a writer that read first cannot fail half-way (SQLITE_BUSY_SNAPSHOT)."""

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        write = connection.get_execution_options().get("companion_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    @event.listens_for(engine, "commit")
    def _commit_or_roll_back(connection):
        # A COMMIT SQLite refuses (a deferred foreign key) leaves its transaction open: ended
        # here, or the pooled connection's next BEGIN would fail.
        sqlite = connection.connection.driver_connection
        try:
            sqlite.commit()
        except sqlite3.Error as error:  # reported as SQLAlchemy reports a failed COMMIT
            sqlite.rollback()
            raise DBAPIError.instance("COMMIT", (), error, sqlite3.Error) from error


_WRITERS: dict[str, threading.Lock] = {}  # SQLite: each database file's one writer of this process


def _writer(engine: Engine):
    """What a write waits for before its transaction begins: on SQLite, the one writer of this
    process at a time (waiting here, not in SQLite's busy handler, lets the process's other
    greenlets go on); PostgreSQL locks rows instead."""
    if engine.dialect.name != "sqlite":
        return nullcontext()
    return _WRITERS.setdefault(str(engine.url), threading.Lock())


def init_db(engine: Engine) -> str:
    """Bring the database to the newest schema (Alembic revisions in companion/migrations) and
    say what was done: tables created, tables from before migrations adopted, or upgraded.

    Every server process calls this as it starts; one at a time does the work and the others
    then find the database up to date."""
    with schema_lock(engine) as connection:
        return upgrade(connection)


@contextmanager
def schema_lock(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that no other process migrates beside: PostgreSQL's
    advisory lock (freed at commit), SQLite's write lock."""
    with engine.connect() as connection:
        if engine.dialect.name != "sqlite":
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
                yield connection
            return
        # A table copy's drop would cascade with foreign keys on; checked by hand before COMMIT.
        sqlite = connection.connection.driver_connection
        sqlite.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.execution_options(**WRITE).begin():
                yield connection
                orphans = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if orphans:
                    raise RuntimeError(f"The migration left rows pointing nowhere: {orphans[:5]}")
        finally:
            sqlite.execute("PRAGMA foreign_keys=ON")


@contextmanager
def writing(engine: Engine) -> Iterator[Session]:
    """One write, all or nothing: a session of its own whose transaction locks early
    (``WRITE``); the end of the block commits it, a refusal raised inside rolls it back. On
    SQLite the block is this process's one writer: taken before its BEGIN IMMEDIATE, freed
    after its COMMIT. What it loaded stays readable after the commit."""
    with _writer(engine), Session(engine.execution_options(**WRITE), expire_on_commit=False) as db:
        yield db
        db.commit()
