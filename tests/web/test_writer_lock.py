"""SQLite's writers take turns through a file lock shared by every process of the server
(database.WriterQueue); a gevent worker waiting for it must not stop its other phones for
long."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import sqlite3
import subprocess
import sys
import textwrap

import pytest

# A gevent worker in miniature: one greenlet waits for the write lock, another says when it
# gets to run.
WORKER = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import os, sys
    import gevent
    from companion.database import _wait_for_lock

    def other_phone():
        print("other greenlet ran", flush=True)

    gevent.spawn(other_phone)
    fd = os.open(sys.argv[1], os.O_RDWR)
    _wait_for_lock(fd)
    print("writer has the lock", flush=True)
""")


def next_line(worker, seconds=60.0) -> str:
    """The worker's next line; "" when it says nothing for ``seconds`` (it is stuck)."""
    ready, _, _ = select.select([worker.stdout], [], [], seconds)
    return worker.stdout.readline().strip() if ready else ""


@pytest.fixture
def held_lock(tmp_path):
    path = tmp_path / "companion.db.writers"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    yield path, fd
    os.close(fd)


def test_a_worker_waiting_for_a_long_held_write_lock_lets_its_other_phones_go_on(held_lock):
    """Another process holds the lock and frees it only once the waiting worker's other
    greenlet has run: a worker that stopped everything until the lock was free would wait
    for ever here (a minute, then the test fails)."""
    path, fd = held_lock
    worker = subprocess.Popen([sys.executable, "-c", WORKER, str(path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    try:
        assert next_line(worker) == "other greenlet ran"
        fcntl.flock(fd, fcntl.LOCK_UN)
        assert next_line(worker) == "writer has the lock"
        assert worker.wait(timeout=60) == 0, worker.stderr.read()
    finally:
        worker.kill()
        worker.wait()
        worker.stdout.close()
        worker.stderr.close()


# -- the lock and the transaction -----------------------------------------------------------


@pytest.fixture
def engine(tmp_path):
    from companion.database import make_engine

    engine = make_engine(f"sqlite:///{tmp_path}/companion.db")
    with engine.connect() as connection:
        connection.exec_driver_sql("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        connection.exec_driver_sql(
            "CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id)"
            " DEFERRABLE INITIALLY DEFERRED)")
        connection.commit()
    yield engine
    engine.dispose()


def writing(engine):
    from companion.database import WRITE

    return engine.connect().execution_options(**WRITE)


def can_write_now(path) -> bool:
    """Whether another writer would find SQLite free the moment it has the lock (no wait)."""
    probe = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:  # "database is locked": a writer's transaction is open
        return False
    finally:
        probe.close()


def test_the_next_writer_finds_the_change_committed_when_it_gets_the_lock(engine, monkeypatch):
    """Freed before COMMIT, the lock let the next writer meet the transaction still open:
    SQLite's busy handler then stopped that whole worker for 1-6 ms."""
    from companion.database import WriterQueue

    path = engine.url.database
    found = []
    release = WriterQueue.release

    def noting_release(queue):
        found.append(can_write_now(path))
        release(queue)

    monkeypatch.setattr(WriterQueue, "release", noting_release)
    with writing(engine) as connection:
        with connection.begin():
            connection.exec_driver_sql("INSERT INTO parent (id) VALUES (1)")
        with connection.begin():  # a change that is dropped frees the lock the same way
            connection.exec_driver_sql("INSERT INTO parent (id) VALUES (2)")
            connection.rollback()
    assert found == [True, True]
    with contextlib.closing(sqlite3.connect(path)) as database:
        assert database.execute("SELECT id FROM parent").fetchall() == [(1,)]


def test_a_commit_that_fails_reports_it_keeps_nothing_and_frees_the_lock(engine):
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError, match="FOREIGN KEY"):
        with writing(engine) as connection, connection.begin():
            connection.exec_driver_sql("INSERT INTO child (parent_id) VALUES (42)")
    lock = os.open(engine.url.database + ".writers", os.O_RDWR)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises when still held
        fcntl.flock(lock, fcntl.LOCK_UN)
    finally:
        os.close(lock)
    with writing(engine) as connection, connection.begin():
        connection.exec_driver_sql("INSERT INTO parent (id) VALUES (7)")
        connection.exec_driver_sql("INSERT INTO child (parent_id) VALUES (7)")
    with contextlib.closing(sqlite3.connect(engine.url.database)) as database:
        assert database.execute("SELECT parent_id FROM child").fetchall() == [(7,)]
