"""Engine and sessions. SQLite under instance/ by default; PostgreSQL through DATABASE_URL."""

from __future__ import annotations

from flask import current_app, g
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, SQLModel, create_engine

WRITE = {"companion_write": True}


def make_engine(url: str) -> Engine:
    """Create the engine; SQLite gets WAL, a busy timeout and write transactions that lock early."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    in_memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=StaticPool if in_memory else None,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # We emit BEGIN ourselves (below), so the driver must not open transactions on its own.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        # A writer takes the write lock at BEGIN so it waits its turn instead of failing
        # half-way when another phone wrote since it read (SQLITE_BUSY_SNAPSHOT).
        write = connection.get_execution_options().get("companion_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def init_db(engine: Engine) -> None:
    """Create the tables that do not exist yet (never drops anything)."""
    from . import models  # noqa: F401  (registers the tables)

    SQLModel.metadata.create_all(engine)


def get_db(write: bool = False) -> Session:
    """The request's session; ask for ``write=True`` before the first query of a change."""
    if "db" not in g:
        engine = current_app.extensions["engine"]
        # Every transaction of a writing request (there may be several) locks early.
        bind = engine.execution_options(**WRITE) if write else engine
        g.db = Session(bind, expire_on_commit=False)
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()
