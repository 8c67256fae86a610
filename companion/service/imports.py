"""Importing a group's plays from an export, without stalling the tables.

The file is read as a stream (ijson), play by play, each checked as it comes; new plays and
new names are written a few at a time, in short transactions that other tables' writes get in
between, marked ``pending`` with the import's key. Until the whole file is in, those rows are
nobody's (``shown`` leaves them out); one short transaction then deletes the import's
``PendingImport`` row and they are the group's. A refusal, an error or a killed process leaves
the group as it was: the pending rows are deleted (at once, or as stale by a later import).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime

import ijson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from sqlalchemy import Engine, insert, or_, select, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, delete

from ..games import GAMES
from ..games.refusals import explain
from ..games.text import N_, say
from ..games.text import gettext as _
from .database import writing
from .errors import Invalid, NotFound, Stale
from .groups import as_utc, clean_name, find_group, hold, shown
from .pending import STALE_AFTER, alive, forget, forget_dead, holder, under_way
from .inputs import NAME_MAX, name_key, quote, text_problem, tidy_name
from .models import GroupPlayer, PendingImport, Play, PlayerGroup, now

PLAYS_MAX = 5000  # plays in one import: a decade of weekly game nights, and a bound on the work
# Plays written per transaction: SQLite's one writer makes a table's move wait for one such;
# PostgreSQL's writers do not wait for each other, and each transaction is a round trip.
PLAYS_AT_ONCE = {"sqlite": 10, "postgresql": 20}
# Seconds the import pauses after each transaction, so the tables come first (SQLite's writers
# queue behind it; PostgreSQL's only share the process).
GIVE_WAY = {"sqlite": 0.005, "postgresql": 0.002}
# Seconds an import waits for another under way that adds one of its names or play ids.
WAIT_FOR_OTHERS = 30
WAIT_STEP = 0.1


class _ImportedPlayer(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = Field(min_length=1, max_length=NAME_MAX)
    score: int | None = Field(None, ge=-10**6, le=10**6)
    winner: bool = False


class _ImportedPlay(BaseModel):
    model_config = ConfigDict(extra="ignore")
    uid: str = Field(min_length=1, max_length=40)
    game: str
    started_at: datetime
    ended_at: datetime
    players: list[_ImportedPlayer] = Field(min_length=1, max_length=12)
    cooperative: bool = False
    result: str | None = None
    facts: dict = Field(default_factory=dict)
    corrected_at: datetime | None = None

    @field_validator("started_at", "ended_at", "corrected_at")
    @classmethod
    def in_utc(cls, value: datetime | None) -> datetime | None:
        if value is None:
            return None
        try:
            value = as_utc(value)  # a time without a zone is taken as UTC
        except OverflowError:  # e.g. the year 1 east of UTC
            value = None
        if value is None or not 1970 <= value.year <= 2999:
            raise ValueError(N_("a play's time lies between the years 1970 and 2999"))
        return value

    @model_validator(mode="after")
    def ends_after_start(self) -> "_ImportedPlay":
        if self.ended_at < self.started_at:
            raise ValueError("a play cannot end before it started")
        return self

    @field_validator("game")
    @classmethod
    def known_game(cls, value: str) -> str:
        if value not in GAMES:
            raise ValueError(f"there is no game called '{quote(value, 40)}' here")
        return value

    @field_validator("players")
    @classmethod
    def different_names(cls, value: list[_ImportedPlayer]) -> list[_ImportedPlayer]:
        names = [name_key(tidy_name(p.name)) for p in value]
        if len(set(names)) < len(names):
            raise ValueError("two players of one play have the same name")
        return value

    @field_validator("result")
    @classmethod
    def known_result(cls, value: str | None) -> str | None:
        if value not in (None, "won", "lost"):
            raise ValueError("a cooperative result is 'won' or 'lost'")
        return value

    def told(self) -> tuple:
        """What the play says, to compare with the group's play of the same id (to the second,
        names in any case)."""
        result = self.result if GAMES[self.game].cooperative else None  # as it is kept
        return (self.game, _second(self.started_at), _second(self.ended_at), result,
                sorted((name_key(e.name), e.score, e.winner) for e in self.players))


def _second(moment: datetime) -> datetime:
    return as_utc(moment).replace(microsecond=0)


@dataclass
class Imported:
    added: int = 0  # plays new to the group
    # Ids the group had already, told otherwise by the file: left as they are.
    conflicts: list[str] = field(default_factory=list)


_HIGH = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}")  # an escaped UTF-16 first half
_LOW = re.compile(rb"\\u[dD][c-fC-F][0-9a-fA-F]{2}")  # and its second


def _lone_surrogate(raw: bytes) -> bool:
    """Whether the file escapes a UTF-16 half without its other half (the parser would turn
    it into "?" unsaid). Found by bytes.find, fast: a regular expression over megabytes is not."""
    for marker in (b"\\ud", b"\\uD"):
        at = raw.find(marker)
        while at != -1:
            if _HIGH.match(raw, at):
                if not _LOW.match(raw, at + 6):
                    return True
                at += 6  # the pair's second half is checked here, not again
            elif _LOW.match(raw, at) and not _HIGH.match(raw, at - 6):
                return True
            at = raw.find(marker, at + 1)
    return False


def _plays_in(raw: bytes):
    """The export's plays, one at a time as the parser reaches them, each checked: the first
    problem is refused with the play and field named."""
    if raw.startswith(b"\xef\xbb\xbf"):  # a byte order mark, as some editors write
        raw = raw[3:]
    if not raw.lstrip()[:1] == b"{" or not _has_plays(raw):
        raise Invalid(_("This is not a play export: it needs a list called \"plays\"."))
    if _lone_surrogate(raw):
        raise Invalid(_("The file holds a broken character (a lone surrogate); send it as "
                        "proper UTF-8."))
    try:
        # Numbers as the C parser reads them (use_float): a longer one is an error, not a crash.
        yield from _checked(ijson.items(raw, "plays.item", use_float=True))
    except (ijson.JSONError, UnicodeDecodeError):
        raise _unreadable(raw) from None


def _checked(plays):
    """Each play checked as it comes; the first problem refused with the play and field named."""
    first_with: dict[str, int] = {}
    for number, data in enumerate(plays, start=1):
        if number > PLAYS_MAX:
            raise Invalid(_("An import holds at most %(most)d plays; this one has more.",
                            most=PLAYS_MAX))
        problem = text_problem(data)
        if problem:
            raise Invalid(_("Play %(number)d: %(problem)s", number=number, problem=say(problem)))
        try:
            play = _ImportedPlay.model_validate(data)
        except ValidationError as exc:
            raise Invalid(_("Play %(number)d: %(problem)s", number=number,
                            problem=say(explain(exc)))) from None
        # Two plays of one file with one id: which is the play? Said, not one of them skipped.
        earlier = first_with.setdefault(play.uid, number)
        if earlier != number:
            raise Invalid(_("Play %(number)d has the id '%(uid)s' of play %(earlier)d; each "
                            "play of a file needs an id of its own.", number=number,
                            uid=quote(play.uid), earlier=earlier))
        for entry in play.players:
            entry.name = clean_name(entry.name)
        yield play


def _unreadable(raw: bytes) -> Invalid:
    """Why the stream parser stopped: JSON's own line, or, for a number beyond its reach that
    JSON allows, the play and field (read the slow way: this file is refused anyway)."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError, or 5,000 digits
        line = getattr(exc, "lineno", None)
        return Invalid(_("The file is not valid JSON (line %(line)s).", line=line) if line
                       else _("The file is not valid JSON."))
    plays = data.get("plays") if isinstance(data, dict) else None
    if not isinstance(plays, list):
        return Invalid(_("This is not a play export: it needs a list called \"plays\"."))
    try:
        for _play in _checked(plays):
            pass
    except Invalid as problem:
        return problem
    return Invalid(_("The file holds a number that JSON does not allow or that is too long "
                     "to read (NaN, Infinity, or dozens of digits)."))


def _has_plays(raw: bytes) -> bool:
    """Whether the JSON object holds a list called "plays" (read until it is found)."""
    try:
        for prefix, event, value in ijson.parse(raw, use_float=True):
            if prefix == "plays":
                return event == "start_array"
    except (ijson.JSONError, UnicodeDecodeError):
        raise _unreadable(raw) from None
    return False


def import_plays(engine: Engine, code: str, raw: bytes) -> Imported:
    """Add the plays of an export file (``raw``) to the group of ``code``: the new ones; a play
    the group has already (by its id) is left as it is, and named among the conflicts if the
    file tells it otherwise. All or nothing, and the tables' requests go on meanwhile."""
    key = uuid.uuid4().hex
    with under_way(engine, key):
        with writing(engine) as db:
            forget_dead(db)
            group_id = find_group(db, code).id
            db.add(PendingImport(key=key, group_id=group_id))
        try:
            done = _write(engine, group_id, key, raw)
            _publish(engine, group_id, key, done)
        except BaseException:
            with writing(engine) as db:
                forget(db, key)
            raise
    return done


def _write(engine: Engine, group_id: int, key: str, raw: bytes) -> Imported:
    """Check the file's plays and write the new ones, pending, a few at a time."""
    with Session(engine) as db:  # what the group has: ids of plays, and names
        known = set(db.scalars(select(Play.uid).where(Play.group_id == group_id,
                                                      shown(Play.pending))))
        people = {name_key(name): player_id for player_id, name in db.execute(
            select(GroupPlayer.id, GroupPlayer.name).where(GroupPlayer.group_id == group_id,
                                                           shown(GroupPlayer.pending)))}
    done, again, batch = Imported(), {}, []

    def write_batch() -> None:
        had = _write_patiently(engine, group_id, key, batch, people)
        for play in batch:
            if play.uid in had:  # the group's since the file was read: as if known
                again[play.uid] = play.told()
        done.added += len(batch) - len(had)

    for play in _plays_in(raw):
        if play.uid in known:
            again[play.uid] = play.told()
        else:
            batch.append(play)
        if len(batch) == PLAYS_AT_ONCE[engine.dialect.name]:
            write_batch()
            batch = []
            time.sleep(GIVE_WAY[engine.dialect.name])  # under gevent: the tables' requests find the process free
        else:
            time.sleep(0)  # and go first between plays
    if batch:
        write_batch()
    done.conflicts = _told_otherwise(engine, group_id, again)
    return done


class _Waiting(Exception):
    """Another import, still under way, is adding a name or a play id of this batch."""

    def __init__(self, sentence: str):
        super().__init__(sentence)
        self.sentence = sentence


def _write_patiently(engine: Engine, group_id: int, key: str, plays: list[_ImportedPlay],
                     people: dict[str, int]) -> set[str]:
    """Write a batch (``_write_some``); while another import under way adds one of its names
    or ids, wait for it (up to WAIT_FOR_OTHERS), then refused naming what clashed."""
    began = time.monotonic()
    while True:
        try:
            return _write_some(engine, group_id, key, plays, people)
        except _Waiting as other:
            if time.monotonic() - began > WAIT_FOR_OTHERS:
                raise Stale(other.sentence) from None
            time.sleep(WAIT_STEP)


STOPPED = N_("The import was stopped (the server restarted, or it took far too long); nothing "
             "was imported. Send the file again.")


def _write_some(engine: Engine, group_id: int, key: str, plays: list[_ImportedPlay],
                people: dict[str, int]) -> set[str]:
    """Write a batch; a name or play id the group got since the file was read (the database
    refuses it) is looked into, then the batch written again. Answers the ids of plays the
    group has had meanwhile (not written)."""
    had: set[str] = set()
    while True:
        try:
            people.update(_write_batch(engine, group_id, key, plays, people, had))
            return had
        except IntegrityError:
            if not _clashes(engine, group_id, plays, people, had):  # the group changed
                raise Stale(_("The group changed while the file was imported (it was deleted, "
                              "or another import came between); nothing was imported. Try "
                              "again.")) from None


def _write_batch(engine: Engine, group_id: int, key: str, plays: list[_ImportedPlay],
                 people: dict[str, int], had: set[str]) -> dict[str, int]:
    """One short transaction: the plays' new names as pending players, then the plays (rows
    through SQLAlchemy Core: the ORM's bookkeeping per row doubled the time the writer is held).
    Answers the new players (name key → id)."""
    keyed = [(play, [name_key(entry.name) for entry in play.players]) for play in plays]
    new = {}
    for play, keys in keyed:
        for entry, name in zip(play.players, keys):
            if name not in people:
                new.setdefault(name, entry.name)
    with writing(engine) as db:
        _still_pending(db, group_id, key)
        if engine.dialect.name == "postgresql":
            # Hidden rows need no flush to disk each: the publishing commit flushes them all.
            db.connection().exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
        made = {}
        if new:
            rows = [{"group_id": group_id, "name": name, "created_at": now(), "pending": key}
                    for name in new.values()]
            made = {name_key(name): player_id for player_id, name in _add_players(db, rows)}
        found = {**people, **made}
        written = [{
            "group_id": group_id, "uid": play.uid, "game_id": play.game,
            "started_at": play.started_at, "ended_at": play.ended_at,
            "players": [{"player": found[name], "seat": entry.name, "score": entry.score,
                         "winner": entry.winner} for entry, name in zip(play.players, keys)],
            "cooperative": GAMES[play.game].cooperative,
            "result": play.result if GAMES[play.game].cooperative else None,
            "facts": play.facts, "corrected_at": play.corrected_at, "reopened": False,
            "pending": key} for play, keys in keyed if play.uid not in had]
        if written:
            db.connection().execute(insert(Play.__table__), written)
    return made


def _still_pending(db, group_id: int, key: str) -> None:
    """The group's row and the import's, locked until the commit (a table's new player waits
    for this batch and then sees its names); refused when either is gone."""
    if db.execute(select(PlayerGroup.id).join(PendingImport, PendingImport.group_id == PlayerGroup.id)
                  .where(PlayerGroup.id == group_id, PendingImport.key == key)
                  .with_for_update()).first() is None:
        if db.get(PlayerGroup, group_id) is None:
            raise NotFound(_("The group was deleted while the file was imported."))
        raise Stale(_(STOPPED))


def _clashes(engine: Engine, group_id: int, plays: list[_ImportedPlay],
             people: dict[str, int], had: set[str]) -> bool:
    """Why the database refused a batch: names and play ids the group got since the file was
    read (a table or an import added them). Its players join ``people``, its plays ``had``;
    another import's under way raise ``_Waiting``; a dead import's are cleared. False: none."""
    names = {name_key(entry.name): entry.name for play in plays for entry in play.players}
    wanted = [name for key, name in names.items() if key not in people]
    with writing(engine) as db:
        taken = _names_taken(db, group_id, wanted)
        kept = _plays_taken(db, group_id, [play.uid for play in plays])
    people.update((name, player_id) for name, player_id in taken.items() if player_id)
    had.update(uid for uid, the_groups in kept.items() if the_groups)
    return bool(taken or kept)


def _other_import(db, mark: str | None):
    """The import still pending that wrote a row marked ``mark`` (None: the row is the group's).
    One no process is writing any more is cleared here, and None too."""
    writer = holder(db, mark) if mark else None
    if writer is None or alive(db, writer.key, writer.started_at):
        return writer
    forget(db, writer.key)
    return None


def _names_taken(db, group_id: int, names: list[str]) -> dict[str, int | None]:
    """Of these names, those someone has: name key → the group's player (None: a dead
    import's, cleared now)."""
    taken = {}
    for player_id, name, mark in db.execute(
            select(GroupPlayer.id, GroupPlayer.name, GroupPlayer.pending).where(
                GroupPlayer.group_id == group_id, GroupPlayer.name.in_(names))).all():
        if _other_import(db, mark) is not None:
            raise _Waiting(_("Another import is adding the player %(name)s just now; nothing "
                             "was imported. Try again when it is done.", name=name))
        still = db.get(GroupPlayer, player_id) is not None  # not cleared with a dead import
        taken[name_key(name)] = player_id if still else None
    return taken


def _plays_taken(db, group_id: int, uids: list[str]) -> dict[str, bool]:
    """Of these play ids, those someone has: whether the group does (another import finished
    meanwhile), or a dead import did (cleared now)."""
    had = {}
    for uid, mark in db.execute(select(Play.uid, Play.pending).where(
            Play.group_id == group_id, Play.uid.in_(uids))).all():
        if _other_import(db, mark) is not None:
            raise _Waiting(_("Another import is adding the play %(uid)s just now; nothing was "
                             "imported. Try again when it is done.", uid=quote(uid)))
        had[uid] = db.scalars(select(Play.id).where(Play.group_id == group_id,
                                                    Play.uid == uid)).first() is not None
    return had


def _add_players(db, rows: list[dict]) -> list[tuple[int, str]]:
    """The new names as players: their ids and names. On PostgreSQL the ids are drawn from the
    sequence first, as psycopg parses a long INSERT … RETURNING anew each time."""
    players = GroupPlayer.__table__
    if db.get_bind().dialect.name != "postgresql":
        return list(db.connection().execute(insert(players).returning(players.c.id, players.c.name),
                                            rows))
    ids = db.scalars(text("SELECT nextval(pg_get_serial_sequence('group_player', 'id')) "
                          "FROM generate_series(1, :count)"), {"count": len(rows)}).all()
    db.connection().execute(insert(players), [{"id": player_id, **row}
                                              for player_id, row in zip(ids, rows)])
    return [(player_id, row["name"]) for player_id, row in zip(ids, rows)]


def _publish(engine: Engine, group_id: int, key: str, done: Imported) -> None:
    """The import's plays and names become the group's, in one short transaction. A name that
    became a player while the file was read (a table's, another import's) is that player."""
    with writing(engine) as db:
        group = db.get(PlayerGroup, group_id)
        if group is None:
            raise NotFound(_("The group was deleted while the file was imported."))
        hold(db, group)
        mine = holder(db, key)
        if mine is None:
            raise Stale(_(STOPPED))
        _join_twins(db, group_id, key, mine.started_at)
        db.delete(mine)
        if done.added:
            group.version += 1


def _join_twins(db, group_id: int, key: str, started: datetime) -> None:
    """Pending players whose name a player of the group has now: their places in the
    import's plays go to that player (rare: someone added the same newcomer meanwhile)."""
    made = select(GroupPlayer.id).where(GroupPlayer.pending == key).limit(1)
    if db.scalars(made).first() is None:
        return  # this import made no new player
    # Players of the group made by others since this import, or one running beside it, began.
    since = {name_key(name): player_id for player_id, name in db.execute(
        select(GroupPlayer.id, GroupPlayer.name).where(
            GroupPlayer.group_id == group_id, GroupPlayer.created_at >= started - STALE_AFTER,
            or_(GroupPlayer.pending.is_(None), GroupPlayer.pending != key),
            shown(GroupPlayer.pending)))}
    if not since:
        return
    twins = {player_id: since[name_key(name)] for player_id, name in db.execute(
        select(GroupPlayer.id, GroupPlayer.name).where(GroupPlayer.pending == key))
        if name_key(name) in since}
    if not twins:
        return
    for play in db.scalars(select(Play).where(Play.pending == key)):
        if any(entry.get("player") in twins for entry in play.players):
            play.players = [{**entry, "player": twins.get(entry.get("player"), entry.get("player"))}
                            for entry in play.players]
    db.execute(delete(GroupPlayer).where(GroupPlayer.id.in_(list(twins))))


def _told_otherwise(engine: Engine, group_id: int, told: dict[str, tuple]) -> list[str]:
    """The ids of plays the group has whose game, times, players, scores or result differ from
    what the file tells (``told``: id → ``_ImportedPlay.told``)."""
    if not told:
        return []
    with Session(engine) as db:
        names = {player_id: name for player_id, name in db.execute(
            select(GroupPlayer.id, GroupPlayer.name).where(GroupPlayer.group_id == group_id))}
        differ = set()
        for play in db.scalars(select(Play).where(Play.group_id == group_id,
                                                  Play.uid.in_(list(told)), shown(Play.pending))):
            kept = (play.game_id, _second(play.started_at), _second(play.ended_at), play.result,
                    sorted((name_key(names.get(e.get("player")) or e.get("seat") or ""),
                            e.get("score"), bool(e.get("winner"))) for e in play.players))
            if kept != told[play.uid]:
                differ.add(play.uid)
    return [uid for uid in told if uid in differ]  # in the file's order
