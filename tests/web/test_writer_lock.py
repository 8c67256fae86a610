"""SQLite's writers in one server process take turns (database.writing): each waits for the one
before to commit, then begins with BEGIN IMMEDIATE."""

from __future__ import annotations

import contextlib
import sqlite3
import threading

import pytest


@pytest.fixture
def engine(tmp_path):
    from companion.service.database import make_engine

    engine = make_engine(f"sqlite:///{tmp_path}/companion.db")
    with engine.connect() as connection:
        connection.exec_driver_sql("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        connection.exec_driver_sql(
            "CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id)"
            " DEFERRABLE INITIALLY DEFERRED)")
        connection.commit()
    yield engine
    engine.dispose()


@contextlib.contextmanager
def writing(engine):
    """A unit of work of the service, as its connection."""
    from companion.service.database import writing as unit_of_work

    with unit_of_work(engine) as db:
        yield db.connection()


def rows(engine, query: str) -> list:
    with contextlib.closing(sqlite3.connect(engine.url.database)) as database:
        return database.execute(query).fetchall()


def test_writers_at_once_take_turns_and_every_one_is_kept(engine):
    """Twenty writers that each read, wait a moment and write: with the turns, none meets a
    transaction begun by another (SQLite would refuse it as "database is locked" or a stale
    snapshot) and every row is kept."""
    failures = []

    def writer(number: int) -> None:
        try:
            with writing(engine) as connection:
                count = connection.exec_driver_sql("SELECT COUNT(*) FROM parent").scalar()
                threading.Event().wait(0.005)  # another writer would slip in here
                connection.exec_driver_sql(f"INSERT INTO parent (id) VALUES ({number})")
                assert connection.exec_driver_sql(
                    "SELECT COUNT(*) FROM parent").scalar() == count + 1
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(repr(error))

    threads = [threading.Thread(target=writer, args=(number,)) for number in range(1, 21)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    assert len(rows(engine, "SELECT id FROM parent")) == 20


def test_a_commit_that_fails_reports_it_keeps_nothing_and_lets_the_next_writer_in(engine):
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError, match="FOREIGN KEY"):
        with writing(engine) as connection:
            connection.exec_driver_sql("INSERT INTO child (parent_id) VALUES (42)")
    done = threading.Event()

    def next_writer() -> None:
        with writing(engine) as connection:
            connection.exec_driver_sql("INSERT INTO parent (id) VALUES (7)")
            connection.exec_driver_sql("INSERT INTO child (parent_id) VALUES (7)")
        done.set()

    threading.Thread(target=next_writer, daemon=True).start()
    assert done.wait(timeout=30), "the failed writer still held the lock"
    assert rows(engine, "SELECT parent_id FROM child") == [(7,)]
