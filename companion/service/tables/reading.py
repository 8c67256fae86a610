"""Finding a table and its phones, and reading it: for a change (locked), for the pages and
the streams (rows read at once, without the ORM), and as the API's JSON (``table_json``)."""

from __future__ import annotations

import hashlib
from datetime import timedelta, timezone

from sqlalchemy import Engine, Row, bindparam, func
from sqlalchemy import select as sa_select
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, select

from ...games import get_game
from ...games.base import Game
from ...games.text import say
from ...games.text import gettext as _
from ..codes import normalise_code
from ..errors import NotFound
from ..inputs import stored_id
from ..models import Device, GameTable, LogEntry, now


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# -- reading -------------------------------------------------------------------


# Statements of every tap and live update, built once: building one costs more than running it.
_TABLE_BY_CODE = select(GameTable).where(GameTable.code == bindparam("code"))
# Lock the row and re-read it: an object loaded earlier in this request may be stale.
_TABLE_BY_CODE_FOR_UPDATE = _TABLE_BY_CODE.with_for_update().execution_options(
    populate_existing=True)


def find_table(db: Session, code: str, for_update: bool = False) -> GameTable:
    code = normalise_code(code)
    query = _TABLE_BY_CODE_FOR_UPDATE if for_update else _TABLE_BY_CODE
    table = db.exec(query, params={"code": code}).first()
    if table is None:
        raise NotFound(_("There is no table with the code %(code)s.", code=code or "–"))
    if is_archived(table):
        raise NotFound(_("The table %(code)s had no activity for %(days)d days and was put "
                         "away; its plays stay in its group.", code=code, days=archive_days()))
    return table


ARCHIVE_DAYS = 30
_put_away = {"days": ARCHIVE_DAYS}  # the server's setting (put_away_after)


def put_away_after(days: int) -> None:
    """Days without activity after which a table is out of reach of its code (0: never): the
    app's ARCHIVE_DAYS, set as the app is made."""
    _put_away["days"] = int(days)


def archive_days() -> int:
    return _put_away["days"]


def is_archived(table) -> bool:
    days = archive_days()
    if not days:
        return False
    updated = table.updated_at
    if updated.tzinfo is None:  # SQLite gives the stored UTC time back without its zone
        updated = updated.replace(tzinfo=timezone.utc)
    return now() - updated > timedelta(days=days)


def table_version(engine: Engine, code: str) -> int | None:
    """The current version alone: the whole cost of a "nothing changed" poll.

    One indexed read on a pooled driver connection, past the ORM and the explicit BEGIN of
    the engine's transactions: this runs once a second for every phone at every table."""
    marker = "?" if engine.dialect.paramstyle == "qmark" else "%s"
    driver = engine.dialect.loaded_dbapi
    try:
        connection = engine.raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute(f"SELECT version FROM game_table WHERE code = {marker}",
                           (normalise_code(code),))
            row = cursor.fetchone()
            cursor.close()
        finally:
            connection.close()  # back to the pool, which ends any transaction the driver opened
    except driver.Error as error:  # as SQLAlchemy reports any query's (a database gone: 503)
        raise DBAPIError.instance("SELECT version", (), error, driver.Error) from error
    return row[0] if row else None


def device_with_token(engine: Engine, token: str) -> int | None:
    """The id of the device holding the bearer token ``token`` (the rate limits count a
    script's requests for it)."""
    with engine.connect() as connection:
        return connection.execute(_DEVICE_ID_BY_TOKEN, {"hash": hash_token(token)}).scalar()


_DEVICE_ID_BY_TOKEN = (sa_select(Device.__table__.c.id)
                       .where(Device.__table__.c.token_hash == bindparam("hash")))


# Every request from a phone looks its device up: built once (Session.get builds its query anew).
_DEVICE_BY_ID = select(Device).where(Device.id == bindparam("id"))
_DEVICE_BY_TOKEN = select(Device).where(Device.token_hash == bindparam("hash"))


def find_device(db: Session, table: GameTable, token: str | int | None) -> Device | None:
    """The device of ``table`` holding ``token`` (an API bearer token), or with the id ``token``
    (what a browser's signed session cookie holds; see web.phone.device_token)."""
    if not token or isinstance(token, bool):
        return None
    if isinstance(token, int):
        device = (db.exec(_DEVICE_BY_ID, params={"id": token}).first()
                  if stored_id(token) is not None else None)
    else:
        device = db.exec(_DEVICE_BY_TOKEN, params={"hash": hash_token(token)}).first()
    if device is None or device.table_id != table.id:
        return None  # a token of another table gives no rights here
    return device


def devices(db: Session, table: GameTable) -> list[Device]:
    return list(db.exec(select(Device).where(Device.table_id == table.id).order_by(Device.id)))


def log_entries(db: Session, table: GameTable, limit: int | None = None,
                after: int | None = None, before: int | None = None) -> list[LogEntry]:
    """The table's log, newest first; ``after``/``before``: only the entries past / before
    that version."""
    query = select(LogEntry).where(LogEntry.table_id == table.id).order_by(LogEntry.seq.desc())
    if after is not None:
        query = query.where(LogEntry.seq > after)
    if before is not None:
        query = query.where(LogEntry.seq < before)
    if limit:
        query = query.limit(limit)
    return list(db.exec(query))


def read_table(engine: Engine, code: str, log_limit: int, log_after: int | None = None
               ) -> tuple[Row, list[Row], list[Row]] | None:
    """A table, its phones and its newest log entries (past ``log_after``) as plain rows read
    in one transaction; None when there is no such table. For display only: rows have the
    models' attributes but are not tracked by a session."""
    with engine.connect() as connection:
        table = connection.execute(_READ_TABLE, {"code": normalise_code(code)}).first()
        if table is None:
            return None
        joined = connection.execute(_READ_PHONES, {"table_id": table.id}).all()
        # Up to the version read: on PostgreSQL a later entry would come again with its version.
        entries = connection.execute(_READ_LOG, {
            "table_id": table.id, "after": -1 if log_after is None else log_after,
            "upto": table.version, "most": log_limit}).all()
    return table, list(joined), list(entries)


def moves_made(engine: Engine, table_id: int) -> dict[tuple[str | None, str], int]:
    """How often each seat made each kind of move at a table (undone ones too), by
    (seat, action type): the teaching mode shortens its card for a seat that knows a step."""
    with engine.connect() as connection:
        return {(actor, kind): count for actor, kind, count in
                connection.execute(_MOVES_MADE, {"table_id": table_id})}


def read_entry(engine: Engine, table_id: int, seq: int) -> Row | None:
    """One log entry of a table as a plain row (for display), or None."""
    with engine.connect() as connection:
        return connection.execute(_READ_ENTRY, {"table_id": table_id, "seq": seq}).first()


_READ_TABLE = sa_select(GameTable.__table__).where(GameTable.__table__.c.code == bindparam("code"))
_READ_PHONES = (sa_select(Device.__table__).where(Device.__table__.c.table_id == bindparam("table_id"))
                .order_by(Device.__table__.c.id))
_READ_ENTRY = sa_select(LogEntry.__table__).where(LogEntry.__table__.c.table_id == bindparam("table_id"),
                                                  LogEntry.__table__.c.seq == bindparam("seq"))
_MOVE_TYPE = LogEntry.__table__.c.payload["type"].as_string()
_MOVES_MADE = (sa_select(LogEntry.__table__.c.actor, _MOVE_TYPE, func.count())
               .where(LogEntry.__table__.c.table_id == bindparam("table_id"),
                      LogEntry.__table__.c.kind == "action")
               .group_by(LogEntry.__table__.c.actor, _MOVE_TYPE))
_READ_LOG = (sa_select(LogEntry.__table__)
             .where(LogEntry.__table__.c.table_id == bindparam("table_id"),
                    LogEntry.__table__.c.seq > bindparam("after"),
                    LogEntry.__table__.c.seq <= bindparam("upto"))
             .order_by(LogEntry.__table__.c.seq.desc()).limit(bindparam("most")))


def game_of(table: GameTable) -> Game:
    game = get_game(table.game_id)
    if game is None:  # a game removed from the registry: the table cannot be played here
        raise NotFound(_("This companion does not know the game '%(game)s'.", game=table.game_id))
    return game

# -- reading for display --------------------------------------------------------------------


# Log entries in a snapshot: the newest ones; older ones are read page by page (log_next).
LOG_PAGE = 50


def table_json(db: Session, table: GameTable, log_limit: int = LOG_PAGE,
             log_before: int | None = None) -> dict:
    """The table as JSON: what the API returns and what tests compare. The log holds the
    newest ``log_limit`` entries (before version ``log_before``); ``log_next`` is where the
    next page starts (None: nothing older), so a long game's answer stays small."""
    game = game_of(table)
    entries = log_entries(db, table, log_limit + 1, before=log_before)
    older = len(entries) > log_limit
    entries = entries[:log_limit]
    return {
        "code": table.code,
        "game": table.game_id,
        "version": table.version,
        "state_version": table.state_version,
        "players": list(table.players),
        "options": table.options,
        "state": table.state,
        "scores": game.scores(table.state),
        "finished": table.finished,
        "winners": game.winners(table.state),
        "status": say(game.status(table.state)),
        "locked": table.locked,
        "coach": table.coach,
        "can_undo": table.undo_depth > 0,
        "can_redo": table.redo_depth > 0,
        "log": [
            {"seq": e.seq, "kind": e.kind, "actor": e.actor, "text": e.sentence,
             "at": e.created_at.isoformat()}
            for e in entries
        ],
        "log_next": entries[-1].seq if older and entries else None,
    }

