"""Table operations shared by the browser views and the JSON API.

Each change checks who may make it and the version the phone saw, applies the game's pure rules,
appends to the log and bumps the version, all on a table row the caller has locked; the caller
(``live.changes``) commits and tells the phones. Errors are exceptions carrying a sentence for
the player (``errors``).
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import operator
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta, timezone

from flask import current_app, has_app_context
from flask_babel import gettext as _
from sqlalchemy import Engine, Row, bindparam, delete, func
from sqlalchemy import select as sa_select
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, select

from ..games import GameError, get_game
from ..games.base import Game
from ..games.text import N_, Name, Sentence, as_sentence, say
from .codes import normalise_code, random_code
from .errors import AlreadyDone, Forbidden, Invalid, NotFound, RuleRefused, Stale
from .groups import sync_play
from .history import stacks
from .inputs import NAME_MAX, name_key, quote, stored_id, text_problem, tidy_name
from .models import Device, GameTable, LogEntry, StateCheckpoint, now

KEY_MAX = 100


def clean_request_key(raw: str | None) -> str | None:
    """An Idempotency-Key as sent (None: none sent); Invalid when it cannot be one."""
    if raw is None or raw == "":
        return None
    if len(raw) > KEY_MAX or not (raw.isascii() and raw.isprintable()):
        raise Invalid(_("The Idempotency-Key must be up to %(most)d plain characters "
                        "(letters, digits, dashes).", most=KEY_MAX))
    return raw


def _check_request_key(db: Session, table: GameTable, key: str | None) -> None:
    """Before anything else (the retry carries the version it was first sent with): a key
    seen before means the change is in the log already."""
    if key is None:
        return
    seq = db.exec(_SEQ_OF_KEY, params={"table_id": table.id, "key": key}).first()
    if seq is not None:
        raise AlreadyDone(seq)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_players(game: Game, names: list) -> list[str]:
    """Validate the seat names for ``game``; raise Invalid with a sentence. Names are tidied
    (``inputs.tidy_name``: invisible and control characters go); two names that read the same
    (``inputs.name_key``: case and Unicode forms aside) are refused as one name twice."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Invalid(_("Players must be a list of names."))
    if len(names) > 2 * game.max_players:  # far too many: no need to read every one
        raise Invalid(_("%(game)s is played by %(least)d to %(most)d players, not %(count)d.",
                        game=say(Name(game.name)), least=game.min_players,
                        most=game.max_players, count=len(names)))
    players = [tidy_name(name) for name in names]
    players = [name for name in players if name]
    if len(players) < len(names):
        raise Invalid(_("Every player needs a name; one of them is empty or only invisible characters."))
    if not game.min_players <= len(players) <= game.max_players:
        if game.min_players == game.max_players:
            raise Invalid(_("%(game)s is played by exactly %(players)d players, not %(count)d.",
                            game=say(Name(game.name)), players=game.min_players,
                            count=len(players)))
        raise Invalid(_("%(game)s is played by %(least)d to %(most)d players, not %(count)d.",
                        game=say(Name(game.name)), least=game.min_players,
                        most=game.max_players, count=len(players)))
    for name in players:
        if len(name) > NAME_MAX:
            raise Invalid(_("The name '%(name)s…' is longer than %(most)d characters.",
                            name=name[:30], most=NAME_MAX))
    seen: set[str] = set()
    for name in players:
        if name_key(name) in seen:
            raise Invalid(_("Two players are called '%(name)s'; give each player a different name.",
                            name=name))
        seen.add(name_key(name))
    return players


@dataclass
class Joined:
    table: GameTable
    device: Device
    token: str


# -- reading -------------------------------------------------------------------


# Statements of every tap and live update, built once: building one costs more than running it.
_TABLE_BY_CODE = select(GameTable).where(GameTable.code == bindparam("code"))
# Lock the row and re-read it: an object loaded earlier in this request may be stale.
_TABLE_BY_CODE_FOR_UPDATE = _TABLE_BY_CODE.with_for_update().execution_options(
    populate_existing=True)
_SEQ_OF_KEY = select(LogEntry.seq).where(LogEntry.table_id == bindparam("table_id"),
                                         LogEntry.request_key == bindparam("key"))


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


def archive_days() -> int:
    """Days without activity after which a table is out of reach of its code (config
    ARCHIVE_DAYS; 0: never)."""
    return int(current_app.config.get("ARCHIVE_DAYS", ARCHIVE_DAYS)) if has_app_context() else ARCHIVE_DAYS


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


# -- creating and joining ----------------------------------------------------------


def new_code(db: Session) -> str:
    while True:
        code = random_code()
        if db.exec(select(GameTable.id).where(GameTable.code == code)).first() is None:
            return code


def _new_device(table: GameTable, **fields) -> tuple[Device, str]:
    token = secrets.token_urlsafe(24)
    return Device(table_id=table.id, token_hash=hash_token(token), **fields), token


def _log(db: Session, table: GameTable, kind: str, sentence: str | Sentence,
         actor: str | None, payload: dict | None = None, key: str | None = None,
         device: Device | None = None) -> LogEntry:
    """Append to the log; the sentence is kept in English and as text and values, which
    each phone reads in its own language (``entry_sentence``)."""
    table.version += 1
    table.updated_at = now()
    message = as_sentence(sentence)
    entry = LogEntry(table_id=table.id, seq=table.version, kind=kind, payload=payload or {},
                     actor=actor, sentence=str(message)[:500], message=message.to_json(),
                     request_key=key, device_id=device.id if device is not None else None)
    db.add(entry)
    return entry


def create_table(db: Session, game_id: str, players: list, options: dict | None,
                 coach: bool = False) -> Joined:
    """Start a table (``coach``: in teaching mode); the creating device becomes its host."""
    game = get_game(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise Invalid(_("There is no game called '%(game)s' here.", game=quote(str(game_id))))
    names = clean_players(game, players)
    problem = text_problem(options)
    if problem:
        raise Invalid(say(problem))
    if options is not None and not isinstance(options, dict):
        raise Invalid(_("Options must be an object of option names and values."))
    try:
        parsed = game.parse_options(options)
        state = game.initial_state(names, parsed)
    except GameError as exc:
        raise Invalid(say(exc.sentence)) from None
    table = GameTable(code=new_code(db), game_id=game.id, players=names,
                      options=parsed.model_dump(mode="json"), state=state,
                      finished=game.is_over(state), coach=bool(coach))
    db.add(table)
    db.flush()
    device, token = _new_device(table, is_host=True, label="Host")
    db.add(device)
    _log(db, table, "admin", Sentence("The table was set up for %(players)s.", players=names), None)
    table.state_version = table.version
    return Joined(table, device, token)


def join_table(db: Session, table: GameTable, seat: str | None, watch: bool) -> Joined:
    """Take a free seat or watch; refused on a locked table or a taken seat."""
    if table.locked:
        raise Forbidden(_("The host has locked this table against new phones."))
    if not watch:
        if not isinstance(seat, str) or not seat.strip():
            raise Invalid(_("Choose a seat, or choose to watch."))
        if table.finished:
            raise Forbidden(_finished_seats())
        seat = _seat_name(table, seat)
        if _seat_holder(db, table, seat) is not None:
            raise Forbidden(_("%(seat)s's seat is already taken by another phone; the host can "
                              "free it.", seat=seat))
    device, token = _new_device(table, seat=None if watch else seat,
                                label="Watcher" if watch else seat)
    db.add(device)
    sentence = (Sentence("A phone joined to watch.") if watch
                else Sentence("A phone took %(seat)s's seat.", seat=seat))
    _log(db, table, "admin", sentence, None if watch else seat)
    return Joined(table, device, token)


def _seat_name(table: GameTable, seat: str) -> str:
    wanted = " ".join(seat.split()).casefold()
    for name in table.players:
        if name.casefold() == wanted:
            return name
    raise Invalid(_("There is no seat called '%(seat)s' at this table.", seat=quote(seat)))


def _seat_holder(db: Session, table: GameTable, seat: str) -> Device | None:
    return db.exec(
        select(Device).where(Device.table_id == table.id, Device.seat == seat)
    ).first()


def _finished_seats() -> str:
    return _("This game is over: its seats stay with the phones that played it (its result "
             "counts in a group). You can watch.")


def seat_barred(table: GameTable, device: Device | None) -> str | None:
    """Why this phone (None: one not joined yet) may not take a seat now (None: it may). A
    finished game's seats stay as they were: a phone that only knows the code must not sit
    down, undo the end and rewrite the result its group counts."""
    if device is not None and device.is_host:
        return None
    if table.finished:
        return _finished_seats()
    if device is None:
        return None
    if device.read_only:
        return _("The host made this phone read-only, so it cannot take a seat.")
    if table.locked:
        return _("The host has locked this table: only the host can change who sits where.")
    return None


def take_seat(db: Session, table: GameTable, device: Device, seat: str | None) -> None:
    """A joined phone changes seat or becomes a watcher (seat None). A phone the host made
    read-only, or any phone but the host's on a locked table, takes no seat (one whose seat
    the host freed cannot simply take it back); watching is always allowed."""
    if seat is not None:
        seat = _seat_name(table, seat)
        if seat != device.seat and seat_barred(table, device):
            raise Forbidden(seat_barred(table, device))
        holder = _seat_holder(db, table, seat)
        if holder is not None and holder.id != device.id:
            raise Forbidden(_("%(seat)s's seat is already taken by another phone; the host can "
                              "free it.", seat=seat))
    old = device.seat
    device.seat = seat
    device.label = seat or ("Host" if device.is_host else "Watcher")
    db.add(device)
    if seat:
        _log(db, table, "admin", Sentence("A phone took %(seat)s's seat.", seat=seat), seat)
    else:
        _log(db, table, "admin", Sentence("%(seat)s now watches.", seat=old) if old
             else Sentence("A phone now watches."), old)


# -- the rematch --------------------------------------------------------------------


def rematch(db: Session, table: GameTable, device: Device | None, rotate: bool) -> GameTable:
    """Start the same game again with the same seats, group and options (with ``rotate``, the
    next player in the seat order starts). Any phone that may act starts it, once the game has
    ended; a second tap, from any phone, finds the rematch already started. Every phone of the
    table then follows (``follow_rematch``). ``table`` was found with ``for_update``."""
    actor = _require_actor(device)
    if table.next_code:
        try:
            return find_table(db, table.next_code)
        except NotFound:
            pass  # the rematch was deleted: start another
    if not table.finished:
        raise Invalid(_("A rematch starts once this game has ended."))
    game = game_of(table)
    players = list(table.players)
    if rotate:
        players = players[1:] + players[:1]
    state = game.initial_state(players, game.parse_options(table.options))
    new = GameTable(code=new_code(db), game_id=game.id, players=players, options=table.options,
                    state=state, finished=game.is_over(state), group_id=table.group_id,
                    coach=table.coach,
                    seat_players=dict(table.seat_players) if table.seat_players else None)
    db.add(new)
    db.flush()
    # Neither log names the other table's code: a log is read by whoever knows one code
    # (the API's snapshot), and the rematch's is for the phones that played, who follow it.
    _log(db, new, "admin", Sentence("A rematch for %(players)s.", players=players), None)
    new.state_version = new.version
    table.next_code = new.code
    _log(db, table, "admin",
         Sentence("%(player)s started a rematch.", player=actor) if actor
         else Sentence("The host started a rematch."), actor)
    return new


# What rematches logged before: older logs still read these, in each phone's language.
EARLIER_SENTENCES = (N_("Rematch of table %(code)s for %(players)s."),
                     N_("%(player)s started a rematch at table %(code)s."),
                     N_("The host started a rematch at table %(code)s."))


def _follow_token(device: Device, new: GameTable) -> str:
    """The token of ``device``'s place at the rematch ``new``: made from the two with the
    server's secret (as unguessable as a random one), so following again finds that place."""
    mac = hmac.new(current_app.secret_key.encode(), f"{device.id} {device.token_hash} {new.code}"
                   .encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


def follows_rematch(device: Device | None) -> bool:
    """Whether this phone goes along to the rematch (and is told its code): a player's or
    the host's. A watcher is not: whoever learns a finished table's code may watch it, and
    must not reach, through it, the free seats of the new table."""
    return device is not None and (device.seat is not None or device.is_host)


def follow_rematch(db: Session, table: GameTable, device: Device | None) -> Joined:
    """This phone's place at the rematch of ``table``: the same seat (watching, if someone
    took it meanwhile), and host there if it hosted here."""
    if device is None:
        raise Forbidden(_("Join this table first: scan its QR code or type its code."))
    if not table.next_code:
        raise NotFound(_("No rematch of this table has been started."))
    if not follows_rematch(device):
        raise Forbidden(_("Only the phones that played go along to the rematch. To watch it, "
                          "scan the QR code on a player's phone."))
    new = find_table(db, table.next_code, for_update=True)
    token = _follow_token(device, new)
    again = db.exec(select(Device).where(Device.table_id == new.id,
                                         Device.token_hash == hash_token(token))).first()
    if again is not None:  # followed before (a retried call, a second tab): the same place
        return Joined(new, again, token)
    seat = device.seat if device.seat in new.players else None
    if seat is not None and _seat_holder(db, new, seat) is not None:
        seat = None
    joined = Device(table_id=new.id, token_hash=hash_token(token), seat=seat,
                    is_host=device.is_host, read_only=device.read_only,
                    label=seat or ("Host" if device.is_host else "Watcher"))
    db.add(joined)
    _log(db, new, "admin", Sentence("A phone took %(seat)s's seat.", seat=seat) if seat
         else Sentence("A phone joined to watch."), seat)
    return Joined(new, joined, token)


# -- host powers --------------------------------------------------------------------


def require_host(device: Device | None) -> None:
    if device is None or not device.is_host:
        raise Forbidden(_("Only the host (the device that started the table) can do that."))


def count_in_group(db: Session, table: GameTable, device: Device | None, group_name: str) -> None:
    """The host may count a table set up without a group in one (once); the log says which.
    The links themselves are the group service's (``groups.link_table``)."""
    require_host(device)
    if table.group_id is not None:
        raise Invalid(_("This table already counts in a group."))
    _log(db, table, "admin", Sentence("The host counted this table in the plays of %(group)s.",
                                      group=Name(group_name)), None)


def set_locked(db: Session, table: GameTable, device: Device | None, locked: bool) -> None:
    require_host(device)
    if table.locked == locked:
        return
    table.locked = locked
    _log(db, table, "admin",
         Sentence("The host locked the table against new phones.") if locked
         else Sentence("The host opened the table to new phones."), None)


def set_coach(db: Session, table: GameTable, device: Device | None, on: bool) -> None:
    require_host(device)
    if table.coach == on:
        return
    table.coach = on
    _log(db, table, "admin",
         Sentence("The host switched the teaching mode on.") if on
         else Sentence("The host switched the teaching mode off."), None)


def free_seat(db: Session, table: GameTable, device: Device | None, seat: str) -> None:
    require_host(device)
    seat = _seat_name(table, seat)
    holder = _seat_holder(db, table, seat)
    if holder is None:
        raise Invalid(_("%(seat)s's seat is already free.", seat=seat))
    holder.seat = None
    holder.label = "Host" if holder.is_host else "Watcher"
    db.add(holder)
    _log(db, table, "admin", Sentence("The host freed %(seat)s's seat.", seat=seat), None)


def set_read_only(db: Session, table: GameTable, device: Device | None, target_id: int,
                  read_only: bool) -> None:
    require_host(device)
    target_id = stored_id(target_id)
    target = db.get(Device, target_id) if target_id is not None else None
    if target is None or target.table_id != table.id:
        raise Invalid(_("That phone is not joined to this table."))
    if target.is_host:
        raise Invalid(_("The host's own device cannot be made read-only."))
    if target.read_only == read_only:
        return
    target.read_only = read_only
    db.add(target)
    if target.seat:
        sentence = (Sentence("The host made %(seat)s's phone read-only.", seat=target.seat)
                    if read_only else
                    Sentence("The host let %(seat)s's phone make changes again.", seat=target.seat))
    else:
        sentence = (Sentence("The host made a watching phone read-only.") if read_only
                    else Sentence("The host let a watching phone make changes again."))
    _log(db, table, "admin", sentence, None)


# -- playing ---------------------------------------------------------------------------


def can_act(device: Device | None) -> bool:
    """Seated players and the host change the game; watchers and read-only phones do not."""
    return device is not None and not device.read_only and (device.is_host or device.seat is not None)


def _require_actor(device: Device | None) -> str | None:
    if device is None:
        raise Forbidden(_("Join this table first: scan its QR code or type its code."))
    if device.read_only:
        raise Forbidden(_("The host made this phone read-only."))
    if not can_act(device):
        raise Forbidden(_("You are watching this table; take a seat to make changes."))
    return device.seat


# How many changes a tap may have missed and still be merged (beyond: refused as stale).
MERGE_MOST = 50


def _check_version(db: Session, table: GameTable, expected: int | None, device: Device,
                   game: Game | None = None, action=None) -> None:
    """A tap made against an older version than the game's is refused, naming a change since
    that it may depend on; unless ``action`` touches nothing the changes since then touched
    (e.g. five players entering their own scores at once, ``Game.commutes``): then it is applied
    to the table as it is now, and its rules are checked against that. The phone's own changes
    since are no conflict: it made them, so its page was behind only by what it knew."""
    if expected is None or expected >= table.state_version:
        return
    # The game's changes since (not seats and the lock) that another phone made.
    changes = db.exec(select(LogEntry.kind, LogEntry.payload, LogEntry.message, LogEntry.sentence)
                      .where(LogEntry.table_id == table.id, LogEntry.seq > expected,
                             LogEntry.kind != "admin", LogEntry.device_id.is_distinct_from(device.id))
                      .order_by(LogEntry.seq).limit(MERGE_MOST + 1)).all()
    if not changes:  # only this phone's own changes since
        return
    conflict = changes[-1]
    if action is not None and game.scope_of(action) is not None and len(changes) <= MERGE_MOST:
        conflict = _first_conflict(game, action, changes)
        if conflict is None:
            return
    raise Stale(_("The table changed a moment before your tap: %(change)s Nothing was "
                  "recorded: check and tap again if it is still needed.",
                  change=say(_entry_sentence(conflict))))


def _first_conflict(game: Game, action, changes: list):
    """The first of ``changes`` (log rows since the tap's version) that ``action`` does not
    commute with (an undo or redo may have changed anything); None: it commutes with all."""
    for change in changes:
        if change.kind != "action":
            return change
        try:
            if not game.commutes(action, [game.parse_action(change.payload)]):
                return change
        except GameError:
            return change
    return None


def parse_expected(raw, from_form: bool = False) -> int | None:
    """The version a phone saw; absent means "whatever is current" (scripts). Only a whole
    number: from JSON a number without a fraction (7 or 7.0; not "7", 1.5 or true), from a form
    plain digits."""
    if raw is None or (from_form and raw == ""):
        return None
    if from_form and isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 18:
        return int(raw)
    if not from_form and isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return raw
    if not from_form and isinstance(raw, float) and raw.is_integer() and raw >= 0:
        return int(raw)  # 7.0 is the number 7 in JSON (and to JSON Schema's "integer")
    raise Invalid(_("expected_version must be a whole number (the version of the table you saw)."))


def _stored(db: Session, table: GameTable, game: Game, state: dict) -> None:
    table.state = state
    table.finished = game.is_over(state)
    table.state_version = table.version
    sync_play(db, table)  # a table of a group that ends becomes one of the group's plays


def act(db: Session, table: GameTable, device: Device | None, payload: dict,
        expected: int | None, key: str | None = None) -> LogEntry:
    """Apply one game action for ``device`` to ``table`` (found with ``for_update``);
    ``key``: the request's Idempotency-Key (a retry, or a move that changes nothing, raises
    AlreadyDone). Answers the log entry."""
    actor = _require_actor(device)
    _check_request_key(db, table, key)
    game = game_of(table)
    problem = text_problem(payload)
    if problem:
        raise Invalid(say(problem))
    try:
        action = game.parse_action(payload)
    except GameError as exc:
        _check_version(db, table, expected, device)  # a stale tap is stale first
        raise Invalid(say(exc.sentence)) from None
    _check_version(db, table, expected, device, game, action)
    try:
        if action.type == "hand_turn" and not device.is_host:
            raise Forbidden(_("Only the host hands the turn to another player."))
        new_state, sentence = game.play(table.state, action, actor, host=device.is_host)
    except GameError as exc:
        raise RuleRefused(say(exc.sentence)) from None
    if new_state == table.state:  # e.g. 5 points written over 5: the table shows it already
        raise AlreadyDone(None)
    entry = _log(db, table, "action", sentence, actor, action.model_dump(mode="json"), key, device)
    _stored(db, table, game, new_state)
    table.undo_depth += 1
    table.redo_depth = 0
    table.last_action_seq = entry.seq
    _checkpoint(db, table, table.undo_depth, table.version, new_state)
    return entry


def _entry_sentence(entry) -> Sentence:
    """A log entry's sentence (a row or a dict of one), to render in any language."""
    message = entry["message"] if isinstance(entry, dict) else entry.message
    sentence = entry["sentence"] if isinstance(entry, dict) else entry.sentence
    return Sentence.from_json(message) if message else as_sentence(sentence)


def entry_sentence(entry) -> Sentence:
    """What a log entry says, as a sentence each phone renders in its language."""
    return _entry_sentence(entry)


def undo_or_redo(db: Session, table: GameTable, device: Device | None, kind: str,
                 expected: int | None, key: str | None = None) -> LogEntry:
    """Undo the last action in effect, or redo the last undone one.

    The state is rebuilt from the nearest checkpoint (``StateCheckpoint``, every
    CHECKPOINT_EVERY actions in effect), not from the start: only the log's versions and kinds
    are read in full, the payloads of at most that many actions are replayed. A redo plays
    its action on the table as it is. ``table`` was found with ``for_update``; ``key`` as for
    ``act``."""
    actor = _require_actor(device)
    _check_request_key(db, table, key)
    _check_version(db, table, expected, device)
    game = game_of(table)
    applied, redoable = _stacks_of(db, table)
    if kind == "undo":
        if not applied:
            raise Invalid(_("There is nothing to undo."))
        target = applied[-1]
        now_applied, now_redoable = applied[:-1], redoable + [target]
    else:
        if not redoable:
            raise Invalid(_("There is nothing to redo."))
        target = redoable[-1]
        now_applied, now_redoable = applied + [target], redoable[:-1]
    what = _entry_sentence(_entry_at(db, table, target))
    if kind == "undo":
        sentence = (Sentence("%(player)s undid: %(what)s", player=actor, what=what) if actor
                    else Sentence("The host undid: %(what)s", what=what))
    else:
        sentence = (Sentence("%(player)s redid: %(what)s", player=actor, what=what) if actor
                    else Sentence("The host redid: %(what)s", what=what))
    try:
        if kind == "redo":  # the table holds the state of ``applied``: play the one action on
            state = _replayed(db, table, game, table.state, [target])
        else:
            state = _state_of(db, table, game, now_applied)
    except GameError as exc:
        problem = say(exc.sentence)
        raise Invalid(_("That cannot be undone: %(problem)s", problem=problem) if kind == "undo"
                      else _("That cannot be redone: %(problem)s", problem=problem)) from None
    entry = _log(db, table, kind, sentence, actor, key=key, device=device)
    _stored(db, table, game, state)
    table.undo_depth = len(now_applied)
    table.redo_depth = len(now_redoable)
    table.last_action_seq = now_applied[-1] if now_applied else None
    if kind == "redo":
        _checkpoint(db, table, len(now_applied), target, state)
    return entry


# An undo replays at most this many actions, however long the game (``StateCheckpoint``).
CHECKPOINT_EVERY = 50


def _checkpoint(db: Session, table: GameTable, depth: int, last_seq: int, state: dict) -> None:
    """Keep ``state`` as the state after the first ``depth`` actions in effect (the last of
    them the log entry ``last_seq``), when ``depth`` is a multiple of CHECKPOINT_EVERY."""
    if depth <= 0 or depth % CHECKPOINT_EVERY:
        return
    old = db.get(StateCheckpoint, (table.id, depth))
    if old is not None:
        db.delete(old)
        db.flush()
    db.add(StateCheckpoint(table_id=table.id, depth=depth, last_seq=last_seq, state=state))


def _entry_at(db: Session, table: GameTable, seq: int) -> LogEntry:
    return db.exec(select(LogEntry).where(LogEntry.table_id == table.id,
                                          LogEntry.seq == seq)).one()


# Undo stacks kept as of a version: a long game's next undo reads only the log since.
_STACKS: OrderedDict[tuple[int, str], tuple[int, list[int], list[int]]] = OrderedDict()
STACKS_KEPT = 32


def _stacks_of(db: Session, table: GameTable) -> tuple[list[int], list[int]]:
    """The seqs of the actions in effect and of those redo would bring back (oldest first),
    as of ``table.version``; ``table`` was found with ``for_update``, so no entry up to its
    version is still to come."""
    key = (table.id, table.code)
    upto, applied, redoable = _STACKS.pop(key, (0, [], []))
    if upto > table.version:  # not this table's log after all
        upto, applied, redoable = 0, [], []
    rows = db.connection().execute(_LOG_KINDS, {"table_id": table.id, "after": upto,
                                                "upto": table.version}).all()
    applied, redoable = stacks(rows, kind_of=operator.itemgetter(1),
                               item_of=operator.itemgetter(0), start=(applied, redoable))
    _STACKS[key] = (table.version, applied, redoable)
    while len(_STACKS) > STACKS_KEPT:
        _STACKS.popitem(last=False)
    return list(applied), list(redoable)


def _replayed(db: Session, table: GameTable, game: Game, state: dict, seqs: list[int]) -> dict:
    """``state`` with the actions of the log entries ``seqs`` played on it, in that order."""
    if not seqs:
        return state
    rows = {row.seq: row for row in db.exec(
        select(LogEntry.seq, LogEntry.payload, LogEntry.actor)
        .where(LogEntry.table_id == table.id, LogEntry.seq.in_(seqs)))}
    for seq in seqs:
        row = rows[seq]
        state, _sentence = game.play(state, game.parse_action(row.payload), row.actor,
                                     replaying=True)
    return state


def _state_of(db: Session, table: GameTable, game: Game, applied: list[int]) -> dict:
    """The state after the actions ``applied`` (their log entries' seqs, oldest first), from
    the nearest checkpoint still true of them (a checkpoint past an undo no longer is: its
    last action differs). Only that checkpoint's state is read."""
    start, state = 0, None
    for depth, last_seq in db.connection().execute(
            _CHECKPOINTS_UP_TO, {"table_id": table.id, "depth": len(applied)}).all():
        if applied[depth - 1] == last_seq:
            start = depth
            state = copy.deepcopy(db.get(StateCheckpoint, (table.id, depth)).state)
            break
    if state is None:
        state = game.initial_state(table.players, game.parse_options(table.options))
    return _replayed(db, table, game, state, applied[start:])


_LOG_KINDS = (sa_select(LogEntry.__table__.c.seq, LogEntry.__table__.c.kind)
              .where(LogEntry.__table__.c.table_id == bindparam("table_id"),
                     LogEntry.__table__.c.seq > bindparam("after"),
                     LogEntry.__table__.c.seq <= bindparam("upto"))
              .order_by(LogEntry.__table__.c.seq))
_CHECKPOINTS_UP_TO = (sa_select(StateCheckpoint.__table__.c.depth,
                                StateCheckpoint.__table__.c.last_seq)
                      .where(StateCheckpoint.__table__.c.table_id == bindparam("table_id"),
                             StateCheckpoint.__table__.c.depth <= bindparam("depth"))
                      .order_by(StateCheckpoint.__table__.c.depth.desc()))


def delete_table(db: Session, table: GameTable, device: Device | None) -> None:
    require_host(device)
    db.exec(delete(LogEntry).where(LogEntry.table_id == table.id))
    db.exec(delete(StateCheckpoint).where(StateCheckpoint.table_id == table.id))
    db.exec(delete(Device).where(Device.table_id == table.id))
    db.delete(table)


# -- reading for display --------------------------------------------------------------------


# Log entries in a snapshot: the newest ones; older ones are read page by page (log_next).
LOG_PAGE = 50


def snapshot(db: Session, table: GameTable, log_limit: int = LOG_PAGE,
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
