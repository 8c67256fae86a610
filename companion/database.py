"""Engine and sessions. SQLite under instance/ by default; PostgreSQL through DATABASE_URL."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import current_app, g
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from .live import offer_written, streams_first

WRITE = {"companion_write": True}
SCHEMA_LOCK = "hashtext('companion schema')"  # PostgreSQL's advisory lock key for migrations


class WriterQueue:
    """One SQLite writer at a time, across the threads of a process and across processes.

    Writers wait here, woken the moment the previous one finishes, instead of in SQLite's
    busy handler, whose growing sleeps (up to 100 ms a try) leave unlucky writers waiting
    for seconds when many phones tap at once."""

    def __init__(self, path: str | None):
        self.path = path
        self.threads = threading.Lock()
        self.fd: int | None = None
        self.pid: int | None = None

    def acquire(self) -> None:
        self.threads.acquire()
        try:
            if self.path:
                if self.pid != os.getpid():  # a forked worker opens its own descriptor
                    self.fd, self.pid = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600), os.getpid()
                _wait_for_lock(self.fd)
        except BaseException:
            self.threads.release()
            raise

    def release(self) -> None:
        try:
            if self.path:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.threads.release()


# How long a gevent worker's writer waits for the write lock before it lets the worker's
# other greenlets run (see _wait_for_lock).
HOLD_WORKER_SECONDS = 0.005


def _wait_for_lock(fd: int) -> None:
    """Take the exclusive lock on ``fd``.

    Under gevent a writer that finds it taken first waits a few milliseconds without letting
    the worker's other greenlets run, trying every 0.1 ms: the holder is nearly always
    another worker's tap, which runs to its commit without pausing, so the lock passes the
    moment it is freed. It used to sleep the gevent way at once (the worker's streams going on
    meanwhile); but each of its naps then lasted as long as the worker was busy, 10-30 ms
    in the push bench, while the other worker took the lock again and again: a tap waited for
    the lock 30-40 ms at p95, now 2-3 ms. A holder that takes longer (a migration, a batch
    import) is waited for the gevent way, as before, and the worker's streams go on.

    Either way the writer takes the lock only while it runs: a helper thread that waited for it
    would take it the moment it is free, and hold it until this worker's other greenlets let
    this one carry on (a batch of live updates: tens of milliseconds), while every writer of
    the other workers waited behind it."""
    if _try_lock(fd):
        return
    if "gevent" in sys.modules:
        from gevent import monkey, sleep

        if monkey.is_module_patched("threading"):
            hold = monkey.get_original("time", "sleep")  # sleeps without switching greenlets
            until = time.perf_counter() + HOLD_WORKER_SECONDS
            while time.perf_counter() < until:
                hold(0.0001)
                if _try_lock(fd):
                    return
            pause = 0.0005
            while True:
                sleep(pause)
                if _try_lock(fd):
                    return
                pause = min(pause * 2, 0.004)
    fcntl.flock(fd, fcntl.LOCK_EX)


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


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


def make_engine(url: str) -> Engine:
    """Create the engine; SQLite gets WAL, a busy timeout and write transactions that lock early."""
    if not url.startswith("sqlite"):
        # The server's limit on connections (100 by default) is shared by every worker of
        # every server, each also holding one LISTEN connection: 15 per worker leaves room
        # for two servers of two workers; a request waits up to 10 s for a free connection.
        # All 15 are kept once opened: overflow connections are closed as they come back, and
        # a busy worker opened a new backend for nearly every request (two servers, 100
        # tables: 180 backends started in 10 s, 40 % of the machine's CPU).
        return create_engine(url, pool_pre_ping=True, pool_size=15, max_overflow=0,
                             pool_timeout=10)
    in_memory = url in ("sqlite://", "sqlite:///:memory:")
    # SQLite connections are cheap, and a writer holds its connection while it queues for the
    # write lock: with many phones tapping at once a bounded pool would starve the readers.
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

    writer = WriterQueue(None if in_memory else engine.url.database + ".writers")

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        # A writer takes the write lock at BEGIN so it waits its turn instead of failing
        # half-way when another phone wrote since it read (SQLITE_BUSY_SNAPSHOT).
        if connection.get_execution_options().get("companion_write"):
            writer.acquire()
            connection.info["holds_writer"] = True
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            except BaseException:
                _release(connection)
                raise
        else:
            connection.exec_driver_sql("BEGIN")

    @event.listens_for(engine, "commit")
    def _commit_then_release(connection):
        # A writer's COMMIT runs here, then the next writer may go; SQLAlchemy's own COMMIT
        # that follows finds no transaction left and does nothing. Freed before its COMMIT, the
        # lock let the next writer's BEGIN IMMEDIATE meet this one's transaction still open,
        # and SQLite's busy handler then held that worker (push bench: BEGIN IMMEDIATE took over
        # 1 ms for 70 writers of 4,489, up to 6.5 ms; 38 of 4,493 since, on a machine as busy).
        # Whatever the COMMIT does, the lock is freed: a failed one ends in ROLLBACK.
        if connection.info.get("holds_writer"):
            try:
                connection.connection.driver_connection.commit()
            except sqlite3.Error as error:  # as SQLAlchemy reports a failed COMMIT
                raise DBAPIError.instance("COMMIT", (), error, sqlite3.Error) from error
            finally:
                _release(connection)

    @event.listens_for(engine, "rollback")
    def _rollback_then_release(connection):
        if connection.info.get("holds_writer"):
            try:
                connection.connection.driver_connection.rollback()
            except Exception:  # noqa: BLE001 - SQLAlchemy's ROLLBACK follows, and reports it
                pass
            finally:
                _release(connection)

    def _release(connection):
        if connection.info.pop("holds_writer", False):
            writer.release()

    return engine


def init_db(engine: Engine) -> str:
    """Bring the database to the newest schema (Alembic revisions in companion/migrations) and
    say what was done: tables created, tables from before migrations adopted, or upgraded.

    Each gunicorn worker calls this as it starts; one at a time does the work and the others
    then find the database up to date."""
    from .migrations import upgrade

    with schema_lock(engine) as connection:
        return upgrade(connection)


@contextmanager
def schema_lock(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that no other process migrates beside: PostgreSQL's
    advisory lock (freed at commit), SQLite's writer queue and write lock."""
    with engine.connect() as connection:
        if engine.dialect.name != "sqlite":
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
                yield connection
            return
        # SQLite alters a table by copying it and dropping the old one; with foreign keys on,
        # that drop would cascade to every device and log entry. The pragma only takes effect
        # outside a transaction, so it is set before BEGIN and checked by hand before COMMIT.
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


def get_db(write: bool = False) -> Session:
    """The request's session; ask for ``write=True`` before the first query of a change."""
    if "db" not in g:
        engine = current_app.extensions["engine"]
        # Every transaction of a writing request (there may be several) locks early.
        bind = engine.execution_options(**WRITE) if write else engine
        g.db = Session(bind, expire_on_commit=False)
    return g.db


def done_writing(db: Session) -> None:
    """The request's change is committed (or rolled back): what it reads now to answer runs
    outside the writers' queue. A write-bound session would begin each read with the writer
    lock (``BEGIN IMMEDIATE`` on SQLite) and hold it while the answer is drawn, so every other
    phone's change, and every request's rate-limit count, would wait for that drawing.

    The streams of this process that wait for the change get it from what was written
    (live.offer_written) and send it first (live.streams_first)."""
    if db.in_transaction():
        db.commit()
    db.bind = current_app.extensions["engine"]
    offer_written(db)
    streams_first(db)


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()
