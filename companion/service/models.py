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
    # version: every change; state_version: the last change to the game (what an action saw).
    version: int = 0
    state_version: int = 0
    undo_depth: int = 0
    redo_depth: int = 0
    # The log entry (its seq) that the next undo takes back: the last move in effect.
    last_action_seq: int | None = None
    finished: bool = False
    locked: bool = False
    created_at: datetime = Field(default_factory=now)
    updated_at: datetime = Field(default_factory=now)
    # The group playing here (groups.py), and which group player sits in which seat.
    group_id: int | None = Field(default=None, foreign_key="player_group.id", index=True,
                                 ondelete="SET NULL")
    seat_players: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    next_code: str | None = Field(default=None, max_length=6)  # the rematch's table, once started
    coach: bool = False  # teaching mode ("Our first game"): the coach card on every phone


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
    __table_args__ = (UniqueConstraint("table_id", "seq"),
                      UniqueConstraint("table_id", "request_key", name="uq_log_entry_request_key"))

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, ondelete="CASCADE")
    seq: int  # the table version this entry produced: two writers can never share one
    kind: str = Field(max_length=10)
    payload: dict = Field(sa_column=Column(JSON, nullable=False))
    actor: str | None = Field(default=None, max_length=40)
    sentence: str = Field(max_length=500)  # in English, as the API shows it
    # Text and values (games/text.py): each phone reads it in its language (None: older entries).
    message: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # The request's Idempotency-Key, in the change's own transaction: a retry records nothing again.
    request_key: str | None = Field(default=None, max_length=100)
    # The phone that made a move, undo or redo: its own change is no conflict for its next tap.
    device_id: int | None = Field(default=None)
    created_at: datetime = Field(default_factory=now)


class StateCheckpoint(SQLModel, table=True):
    """A table's game state after its first ``depth`` actions in effect (the last of them the
    log entry ``last_seq``), kept every few dozen actions so that an undo replays only the
    actions since (tables.record.CHECKPOINT_EVERY). A cache: the log stays the truth."""

    __tablename__ = "state_checkpoint"

    table_id: int = Field(foreign_key="game_table.id", primary_key=True, ondelete="CASCADE")
    depth: int = Field(primary_key=True)
    last_seq: int
    state: dict = Field(sa_column=Column(JSON, nullable=False))


class PlayerGroup(SQLModel, table=True):
    """The people who play together: their names, plays and statistics, without accounts.
    Anyone with its code (or QR) sees it; a phone that joined it remembers it."""

    __tablename__ = "player_group"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(index=True, unique=True, max_length=10)  # six in groups made before 0008
    name: str = Field(max_length=40)
    # Bumped by every change its statistics and exports see: plays, and names of players in them
    # (a new player, in no play yet, changes neither: web/kept.py).
    version: int = 0
    # Its history changes only with the owner key (groups.owner_key); groups from before 0009
    # are open to every phone with the code until one of them makes the group owned.
    owned: bool = False
    created_at: datetime = Field(default_factory=now)


class GroupPlayer(SQLModel, table=True):
    """One person of a group, by name ("Katrin" is the same Katrin every week)."""

    __tablename__ = "group_player"
    __table_args__ = (UniqueConstraint("group_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="player_group.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=24)
    created_at: datetime = Field(default_factory=now)
    pending: str | None = Field(default=None, max_length=32, index=True)  # see PendingImport


class GroupChange(SQLModel, table=True):
    """A group action that can be undone: a player renamed or two spellings merged."""

    __tablename__ = "group_change"

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="player_group.id", index=True, ondelete="CASCADE")
    kind: str = Field(max_length=10)  # "rename" or "merge"
    payload: dict = Field(sa_column=Column(JSON, nullable=False))
    undone: bool = False
    created_at: datetime = Field(default_factory=now)


class Play(SQLModel, table=True):
    """One finished game of a group: recorded when a table of the group ends (kept, marked
    ``reopened``, if that end is undone; ``corrected_at`` once the table changes its result),
    or imported from another server (``uid`` keeps an import from adding a play twice)."""

    __table_args__ = (UniqueConstraint("group_id", "uid"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="player_group.id", index=True, ondelete="CASCADE")
    uid: str = Field(max_length=40)
    table_id: int | None = Field(default=None, foreign_key="game_table.id", index=True,
                                 ondelete="SET NULL")
    game_id: str = Field(max_length=40)
    started_at: datetime
    ended_at: datetime
    # [{"player": group player id, "seat": name at the table, "score": int | None, "winner": bool}]
    players: list = Field(sa_column=Column(JSON, nullable=False))
    cooperative: bool = False
    result: str | None = Field(default=None, max_length=10)  # cooperative: "won" or "lost"
    facts: dict = Field(sa_column=Column(JSON, nullable=False))
    corrected_at: datetime | None = None  # the last time its table changed the result
    reopened: bool = False  # its table's end was undone: the result may change still
    pending: str | None = Field(default=None, max_length=32, index=True)  # see PendingImport


class PendingImport(SQLModel, table=True):
    """An import still being written: its plays and new players (``pending`` = ``key``) are
    nobody's until this row is deleted, in one short transaction, when the whole file is in."""

    __tablename__ = "pending_import"

    key: str = Field(primary_key=True, max_length=32)
    group_id: int = Field(foreign_key="player_group.id", ondelete="CASCADE")
    started_at: datetime = Field(default_factory=now)
