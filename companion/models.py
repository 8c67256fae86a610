"""Tables of the database: a game table, the phones joined to it, and its action log."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel


def now() -> datetime:
    return datetime.now(timezone.utc)


class GameTable(SQLModel, table=True):
    """One real game on one real table; the state is a cache of replaying its log."""

    __tablename__ = "game_table"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(index=True, unique=True, max_length=6)
    game_id: str = Field(max_length=40)
    players: list = Field(sa_column=Column(JSON, nullable=False))
    options: dict = Field(sa_column=Column(JSON, nullable=False))
    state: dict = Field(sa_column=Column(JSON, nullable=False))
    # Every change (game or seats) bumps version; state_version is the version of the last
    # change to the game itself, the one an action must have seen to be accepted.
    version: int = 0
    state_version: int = 0
    undo_depth: int = 0
    redo_depth: int = 0
    finished: bool = False
    locked: bool = False
    created_at: datetime = Field(default_factory=now)
    updated_at: datetime = Field(default_factory=now)


class Device(SQLModel, table=True):
    """A phone, tablet or script joined to a table: a seat, a watcher or the host."""

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, ondelete="CASCADE")
    token_hash: str = Field(index=True, unique=True, max_length=64)
    seat: str | None = Field(default=None, max_length=24)
    is_host: bool = False
    read_only: bool = False
    label: str = Field(default="", max_length=40)
    created_at: datetime = Field(default_factory=now)


class LogEntry(SQLModel, table=True):
    """One line of a table's history: an action, an undo, a redo, or a seat/lock change."""

    __tablename__ = "log_entry"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, ondelete="CASCADE")
    seq: int  # the table version this entry produced: two writers can never share one
    kind: str = Field(max_length=10)
    payload: dict = Field(sa_column=Column(JSON, nullable=False))
    actor: str | None = Field(default=None, max_length=40)
    sentence: str = Field(max_length=500)
    created_at: datetime = Field(default_factory=now)


class JoinAttempt(SQLModel, table=True):
    """A join or code lookup by one client address, kept briefly to rate-limit guessing."""

    __tablename__ = "join_attempt"

    id: int | None = Field(default=None, primary_key=True)
    client: str = Field(index=True, max_length=64)
    at: datetime = Field(default_factory=now, index=True)
