"""Groups: the people who play together, their plays and what can be said about them.

No accounts: a group is a code (and a QR) like a table. Its players are names; a table can
belong to a group, each seat linked to one of its players by name, and when such a table ends
its result becomes a *play* of the group (``sync_play``; a result changed at the table after its
end is marked corrected). An owner may delete a play; that too can be undone.
Renaming a player or merging two spellings of one person are group changes that can be
undone. Plays travel between servers as JSON (``export_plays`` / ``import_plays``): an import
is all or nothing, and importing the same file twice adds nothing (plays keep their ``uid``).
"""

from __future__ import annotations

import csv
import io
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo

from flask import current_app
from flask_babel import gettext as _
from itsdangerous import BadSignature, URLSafeSerializer
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from sqlalchemy import and_, func, insert, or_
from sqlmodel import Session, delete, select

from ..games import GAMES, get_game
from ..games.base import explain
from ..games.text import N_, say
from .codes import GROUP_CODE_LENGTH, normalise_code, random_code
from .errors import Forbidden, Invalid, NotFound
from .inputs import NAME_MAX, name_key, quote, stored_id, text_problem, tidy_name
from .models import GameTable, GroupChange, GroupPlayer, Play, PlayerGroup, now
from .stats.facts import facts_of

GROUP_NAME_MAX = 40
PLAYS_MAX = 5000  # plays in one import: a decade of weekly game nights, and a bound on the work
# BoardGameGeek's ids of the games, for the export (the score pad is no game of its own).
BGG_IDS = {"asterix-obelix": None, "kartenspiel": None, "asterix-co": None, "zaubertrank": None}


# -- groups and players -----------------------------------------------------------------------


def _new_group_code(db: Session) -> str:
    while True:
        code = random_code(GROUP_CODE_LENGTH)
        if db.exec(select(PlayerGroup.id).where(PlayerGroup.code == code)).first() is None:
            return code


def clean_name(raw, most: int = NAME_MAX, what: str = "player") -> str:
    """A name with its spaces tidied; Invalid with a sentence when empty or too long."""
    if not isinstance(raw, str):
        raise Invalid(_("A name must be text."))
    name = tidy_name(raw)
    if not name:
        raise Invalid(_("The group needs a name.") if what == "group"
                      else _("A player needs a name."))
    if len(name) > most:
        raise Invalid(_("The name '%(name)s…' is longer than %(most)d characters.",
                        name=name[:30], most=most))
    return name


def create_group(db: Session, name: str, players: list[str] = ()) -> PlayerGroup:
    """A new group, owned: the caller hands its creator the owner key (and commits)."""
    group = PlayerGroup(code=_new_group_code(db), name=clean_name(name, GROUP_NAME_MAX, "group"),
                        owned=True)
    db.add(group)
    db.flush()
    for player in players:
        add_player(db, group, player)
    return group


def _owner_keys() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="group owner")


def owner_key(group: PlayerGroup) -> str:
    """The key that changes the group's history: the group's code signed with the server's
    secret, so it is made again for an owner's page and needs no storing (the creator's phone,
    a shared owner link and the recovery link all carry it)."""
    return _owner_keys().dumps(group.code)


def is_owner_key(group: PlayerGroup, key: str | None) -> bool:
    try:
        return bool(key) and _owner_keys().loads(key) == group.code
    except BadSignature:
        return False


def require_owner(group: PlayerGroup, owner: bool) -> None:
    """Refused unless the group is open to all (from before owners) or this is its owner."""
    if group.owned and not owner:
        raise Forbidden(_("Only the group's owners can change its history (import, rename, "
                          "merge, undo, delete). An owner can share the owner link with you."))


def find_group(db: Session, code: str) -> PlayerGroup:
    code = normalise_code(code)
    group = db.exec(select(PlayerGroup).where(PlayerGroup.code == code)).first()
    if group is None:
        raise NotFound(_("There is no group with the code %(code)s.", code=code or "–"))
    return group


def hold(db: Session, group: PlayerGroup) -> None:
    """Changes to one group's players take turns (PostgreSQL: the group's row is locked until
    the commit; SQLite's writers take turns already): two imports or phones adding "Newbie"
    and "newbie" at once make one player, the second seeing the first's."""
    db.exec(select(PlayerGroup.id).where(PlayerGroup.id == group.id).with_for_update())


def players_of(db: Session, group: PlayerGroup) -> list[GroupPlayer]:
    return list(db.exec(select(GroupPlayer).where(GroupPlayer.group_id == group.id)
                        .order_by(GroupPlayer.name)))


def player_named(db: Session, group: PlayerGroup, name: str) -> GroupPlayer | None:
    wanted = name_key(tidy_name(name))
    return next((p for p in players_of(db, group) if name_key(p.name) == wanted), None)


def add_player(db: Session, group: PlayerGroup, name: str) -> GroupPlayer:
    """The group's player of this name (any case), added if new."""
    name = clean_name(name)
    hold(db, group)
    found = player_named(db, group, name)
    if found is not None:
        return found
    player = GroupPlayer(group_id=group.id, name=name)
    db.add(player)
    db.flush()
    group.version += 1
    return player


def _player(db: Session, group: PlayerGroup, player_id) -> GroupPlayer:
    player_id = stored_id(player_id)
    player = db.get(GroupPlayer, player_id) if player_id is not None else None
    if player is None or player.group_id != group.id:
        raise NotFound(_("That player is not in this group."))
    return player


def rename_player(db: Session, group: PlayerGroup, player_id: int, new_name: str) -> GroupPlayer:
    """Give a player another name (undoable); a name another player has is refused: merge."""
    hold(db, group)
    player = _player(db, group, player_id)
    name = clean_name(new_name)
    other = player_named(db, group, name)
    if other is not None and other.id != player.id:
        raise Invalid(_("%(name)s is already a player of this group; to make them one "
                        "person, merge the two.", name=other.name))
    if name == player.name:
        raise Invalid(_("%(name)s already has this name.", name=player.name))
    db.add(GroupChange(group_id=group.id, kind="rename",
                       payload={"player": player.id, "old": player.name, "new": name}))
    player.name = name
    group.version += 1
    db.commit()
    return player


def merge_players(db: Session, group: PlayerGroup, keep_id: int, drop_id: int) -> GroupPlayer:
    """Make two spellings one person: every play and seat of ``drop`` becomes ``keep``'s
    (undoable: the change remembers exactly which entries it moved)."""
    hold(db, group)
    keep, drop = _player(db, group, keep_id), _player(db, group, drop_id)
    if keep.id == drop.id:
        raise Invalid(_("Choose two different players to merge."))
    moved_plays = []
    for play in db.exec(select(Play).where(Play.group_id == group.id)):
        places = [i for i, entry in enumerate(play.players) if entry.get("player") == drop.id]
        if any(entry.get("player") == keep.id for entry in play.players) and places:
            raise Invalid(_("%(keep)s and %(drop)s played together in one game, so they are "
                            "two people; they cannot be merged.", keep=keep.name, drop=drop.name))
        if places:
            play.players = [{**entry, "player": keep.id} if i in places else entry
                            for i, entry in enumerate(play.players)]
            moved_plays.append([play.id, places])
    moved_seats = []
    for table in db.exec(select(GameTable).where(GameTable.group_id == group.id)):
        seats = [seat for seat, player in (table.seat_players or {}).items() if player == drop.id]
        if seats:
            table.seat_players = {seat: keep.id if seat in seats else player
                                  for seat, player in table.seat_players.items()}
            moved_seats.append([table.id, seats])
    db.add(GroupChange(group_id=group.id, kind="merge", payload={
        "keep": keep.id, "drop": drop.id, "drop_name": drop.name,
        "plays": moved_plays, "seats": moved_seats}))
    db.delete(drop)
    group.version += 1
    db.commit()
    return keep


def last_change(db: Session, group: PlayerGroup) -> GroupChange | None:
    """The change an undo takes back: the group's last one still in effect."""
    return db.exec(select(GroupChange).where(GroupChange.group_id == group.id,
                                             GroupChange.undone == False)  # noqa: E712
                   .order_by(GroupChange.id.desc())).first()


def undo_change(db: Session, group: PlayerGroup) -> GroupChange:
    """Take back the group's last rename or merge that is still in effect."""
    hold(db, group)
    change = last_change(db, group)
    if change is None:
        raise Invalid(_("There is no renaming, merging or deleted play to undo."))
    data = change.payload
    if change.kind == "delete":
        _bring_back(db, group, data)
    elif change.kind == "rename":
        player = _player(db, group, data["player"])
        if player_named(db, group, data["old"]) not in (None, player):
            raise Invalid(_("%(name)s is the name of another player now.", name=data["old"]))
        player.name = data["old"]
    else:
        if player_named(db, group, data["drop_name"]) is not None:
            raise Invalid(_("%(name)s is the name of another player now.", name=data["drop_name"]))
        # Back under an id of its own: SQLite may have given the old one to a newer player.
        restored = GroupPlayer(group_id=group.id, name=data["drop_name"])
        db.add(restored)
        db.flush()
        for play_id, places in data["plays"]:
            play = db.get(Play, play_id)
            if play is not None:
                play.players = [{**entry, "player": restored.id} if i in places else entry
                                for i, entry in enumerate(play.players)]
        for table_id, seats in data["seats"]:
            table = db.get(GameTable, table_id)
            if table is not None and table.seat_players:
                table.seat_players = {seat: restored.id if seat in seats else player
                                      for seat, player in table.seat_players.items()}
        for earlier in db.exec(select(GroupChange).where(GroupChange.group_id == group.id,
                                                         GroupChange.undone == False)):  # noqa: E712
            if earlier.kind != "merge":  # its renames and deleted plays, undoable still
                earlier.payload = _renumbered(earlier.payload, data["drop"], restored.id)
    change.undone = True
    group.version += 1
    db.commit()
    return change


def _renumbered(payload: dict, old: int, new: int) -> dict:
    """A change's payload with group player ``old`` called ``new``."""
    if "player" in payload:
        return {**payload, "player": new if payload["player"] == old else payload["player"]}
    return {**payload,
            "play": {**payload["play"], "players": [
                {**entry, "player": new} if entry.get("player") == old else entry
                for entry in payload["play"]["players"]]},
            "seats": {seat: new if player == old else player
                      for seat, player in (payload.get("seats") or {}).items()}}


def delete_play(db: Session, group: PlayerGroup, uid: str) -> Play:
    """Remove one play from the group (undoable). Its table, if still here, stops counting in
    the group, so that ending it again does not bring the play back."""
    hold(db, group)
    play = find_play(db, group, uid)
    table = db.get(GameTable, play.table_id) if play.table_id else None
    seats = None
    if table is not None and table.group_id == group.id:
        seats, table.group_id, table.seat_players = table.seat_players, None, None
    kept = {column: getattr(play, column) for column in (
        "uid", "table_id", "game_id", "players", "cooperative", "result", "facts", "reopened")}
    for column in ("started_at", "ended_at", "corrected_at"):
        moment = getattr(play, column)
        kept[column] = _iso(moment) if moment else None
    db.add(GroupChange(group_id=group.id, kind="delete", payload={"play": kept, "seats": seats}))
    db.delete(play)
    group.version += 1
    db.commit()
    return play


def _bring_back(db: Session, group: PlayerGroup, data: dict) -> None:
    """Undo a play's deletion: the play as it was, and its table counting in the group again."""
    kept = dict(data["play"])
    if db.exec(select(Play.id).where(Play.group_id == group.id, Play.uid == kept["uid"])).first():
        raise Invalid(_("The deleted play is back already (imported again)."))
    for column in ("started_at", "ended_at", "corrected_at"):
        kept[column] = datetime.fromisoformat(kept[column]) if kept[column] else None
    table = db.get(GameTable, kept["table_id"]) if kept["table_id"] else None
    if table is None:
        kept["table_id"] = None
    elif table.group_id is None and data.get("seats") is not None:
        table.group_id, table.seat_players = group.id, data["seats"]
    db.add(Play(group_id=group.id, **kept))


def delete_group(db: Session, group: PlayerGroup, typed_code: str) -> None:
    """Remove the group with its players and plays (its tables stay, without a group); the
    code must be typed as a check."""
    if normalise_code(typed_code or "") != group.code:
        raise Invalid(_("Type the group's code (%(code)s) to delete it.", code=group.code))
    for table in db.exec(select(GameTable).where(GameTable.group_id == group.id)):
        table.group_id, table.seat_players = None, None
    db.exec(delete(Play).where(Play.group_id == group.id))
    db.exec(delete(GroupChange).where(GroupChange.group_id == group.id))
    db.exec(delete(GroupPlayer).where(GroupPlayer.group_id == group.id))
    db.delete(group)
    db.commit()


# -- tables of a group and their plays ------------------------------------------------------------


def link_table(db: Session, table: GameTable, group: PlayerGroup, seats: dict[str, str]) -> None:
    """Make ``table`` a table of ``group``: each seat to the group player of the given name
    (new names become players). Seats without a name stay unlinked."""
    links = {}
    for seat in table.players:
        name = (seats.get(seat) or "").strip()
        if name:
            links[seat] = add_player(db, group, name).id
    table.group_id, table.seat_players = group.id, links


def sync_play(db: Session, table: GameTable) -> None:
    """Keep the group's play of ``table`` in step with it: recorded when it ends, marked
    reopened if the end is undone (its result stays counted until the table ends again), and
    marked corrected when the table changes its result after the end. No group: nothing to do."""
    if table.group_id is None:
        return
    recorded = db.exec(select(Play).where(Play.table_id == table.id)).first()
    if not table.finished:
        if recorded is not None and not recorded.reopened:
            recorded.reopened = True
            _changed(db, table.group_id)
        return
    game = get_game(table.game_id)
    scores = game.scores(table.state) or {}
    winners = set(game.winners(table.state))
    links = table.seat_players or {}
    players = [{"player": links.get(seat), "seat": seat, "score": scores.get(seat),
                "winner": seat in winners} for seat in table.players]
    result = ("won" if winners else "lost") if game.cooperative else None
    fields = dict(game_id=table.game_id, started_at=table.created_at, ended_at=now(),
                  players=players, cooperative=game.cooperative, result=result,
                  facts=facts_of(table.game_id, table.state), reopened=False)
    if recorded is None:
        db.add(Play(group_id=table.group_id, uid=str(uuid.uuid4()), table_id=table.id, **fields))
    else:
        fields.pop("ended_at")  # the end moved (a score fixed after the end): keep when it was
        if (recorded.players, recorded.result) != (players, result):
            fields["corrected_at"] = now()
        for key, value in fields.items():
            setattr(recorded, key, value)
    _changed(db, table.group_id)


def _changed(db: Session, group_id: int) -> None:
    """A play of the group changed: its statistics are computed again."""
    group = db.get(PlayerGroup, group_id)
    if group is not None:
        group.version += 1


def plays_of(db: Session, group: PlayerGroup, limit: int | None = None,
             older_than: Play | None = None) -> list[Play]:
    """The group's plays, newest first; ``older_than``: only those after that play in this
    order (a page's link names its last play, so it shows the same plays however many come)."""
    query = select(Play).where(Play.group_id == group.id)
    if older_than is not None:
        query = query.where(or_(Play.ended_at < older_than.ended_at,
                                and_(Play.ended_at == older_than.ended_at, Play.id < older_than.id)))
    query = query.order_by(Play.ended_at.desc(), Play.id.desc())
    return list(db.exec(query.limit(limit) if limit else query))


def play_count(db: Session, group: PlayerGroup) -> int:
    return db.exec(select(func.count()).select_from(Play).where(Play.group_id == group.id)).one()


def find_play(db: Session, group: PlayerGroup, uid: str) -> Play:
    play = db.exec(select(Play).where(Play.group_id == group.id, Play.uid == uid)).first()
    if play is None:
        raise NotFound(_("This group has no play %(uid)s.", uid=quote(uid)))
    return play


def play_records(db: Session, group: PlayerGroup, plays: list[Play] | None = None) -> list[dict]:
    """The plays as the statistics and the export read them: players by their group names."""
    names = {p.id: p.name for p in players_of(db, group)}
    records = []
    for play in plays if plays is not None else plays_of(db, group):
        records.append({
            "uid": play.uid,
            "game": play.game_id,
            "bgg_id": BGG_IDS.get(play.game_id),
            "started_at": _iso(play.started_at),
            "ended_at": _iso(play.ended_at),
            "duration_minutes": max(0, round((_utc(play.ended_at) - _utc(play.started_at))
                                             .total_seconds() / 60)),
            "players": [{"name": names.get(entry.get("player")) or entry.get("seat"),
                         "score": entry.get("score"), "winner": bool(entry.get("winner"))}
                        for entry in play.players],
            "cooperative": play.cooperative,
            "result": play.result,
            "facts": play.facts,
            "corrected_at": _iso(play.corrected_at) if play.corrected_at else None,
            "reopened": play.reopened,
            "table": play.table_id,
        })
    return records


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _iso(moment: datetime) -> str:
    return _utc(moment).isoformat()


# -- export and import ---------------------------------------------------------------------------

EXPORT_FORMAT = "table-companion-plays/1"


def export_plays(db: Session, group: PlayerGroup) -> dict:
    """The group as JSON: its name, players and every play (the import reads the same)."""
    records = play_records(db, group)
    for record in records:
        record.pop("table")
    return {"format": EXPORT_FORMAT, "group": group.name,
            "players": [p.name for p in players_of(db, group)], "plays": records}


@dataclass(frozen=True)
class CsvDialect:
    """How a spreadsheet of the phone's language reads a CSV. English keeps the machine's
    shape (commas, ISO 8601 times in UTC); German Excel and LibreOffice want semicolons, the
    day and time as they write them, in the players' own time, and their own words."""

    headings: tuple[str, ...]
    delimiter: str
    yes_no: tuple[str, str]
    results: dict[str, str]
    day: str | None = None  # strftime of a day in the local zone; None: ISO 8601 in UTC
    moment: str | None = None
    byte_order_mark: str = ""  # Excel reads a file without one as its own code page


CSV_DIALECTS = {
    "en": CsvDialect(("play", "game", "bgg_id", "date", "started_at", "ended_at", "duration_minutes",
                      "player", "score", "winner", "cooperative_result"), ",", ("yes", "no"),
                     {"won": "won", "lost": "lost"}),
    "de": CsvDialect(("Partie", "Spiel", "BGG-ID", "Datum", "Beginn", "Ende", "Dauer (Minuten)",
                      "Spieler", "Punkte", "Sieger", "Ergebnis (kooperativ)"), ";", ("Ja", "Nein"),
                     {"won": "gewonnen", "lost": "verloren"}, "%d.%m.%Y", "%d.%m.%Y %H:%M", "\ufeff"),
}


# A spreadsheet runs a cell that begins with one of these as a formula (OWASP: CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _as_text(typed: str) -> str:
    """A cell someone typed, shown by a spreadsheet as typed: a leading ' keeps it text."""
    return "'" + typed if typed.startswith(FORMULA_STARTS) else typed


def export_csv(db: Session, group: PlayerGroup, lang: str = "en", zone: tzinfo | None = None) -> str:
    """One row per player per play, the shape spreadsheets and play-logging sites import, as a
    spreadsheet of ``lang`` reads it; ``zone``: the players' time zone (German times are local)."""
    dialect = CSV_DIALECTS[lang]
    out = io.StringIO()
    out.write(dialect.byte_order_mark)
    writer = csv.writer(out, delimiter=dialect.delimiter)
    writer.writerow(dialect.headings)

    def moment(iso: str, pattern: str | None) -> str:
        return datetime.fromisoformat(iso).astimezone(zone).strftime(pattern) if pattern else iso

    for record in play_records(db, group):
        for player in record["players"]:
            writer.writerow([
                _as_text(record["uid"]), record["game"], record["bgg_id"] or "",
                moment(record["ended_at"], dialect.day) if dialect.day else record["ended_at"][:10],
                moment(record["started_at"], dialect.moment), moment(record["ended_at"], dialect.moment),
                record["duration_minutes"], _as_text(player["name"]),
                "" if player["score"] is None else player["score"],
                dialect.yes_no[0] if player["winner"] else dialect.yes_no[1],
                dialect.results.get(record["result"] or "", "")])
    return out.getvalue()


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
            value = _utc(value)  # a time without a zone is taken as UTC
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


def read_export(data) -> list[_ImportedPlay]:
    """An export's plays, checked, before any database work (so that a big file's checks do
    not hold the database's writer). The first problem is refused with the play and field
    named. Yields to other requests every few plays: under gevent, checking 5,000 plays takes
    a while, and the tables' taps must not wait for it."""
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        raise Invalid(_("This is not a play export: it needs a list called \"plays\"."))
    problem = text_problem({key: value for key, value in data.items() if key != "plays"})
    if problem:  # a NUL or a broken character no database stores (the plays' are below)
        raise Invalid(say(problem))
    if len(data["plays"]) > PLAYS_MAX:
        raise Invalid(_("An import holds at most %(most)d plays; this one has %(count)d.",
                        most=PLAYS_MAX, count=len(data["plays"])))
    parsed, first_with = [], {}
    for number, raw in enumerate(data["plays"], start=1):
        if number % 50 == 0:
            time.sleep(0)
        problem = text_problem(raw)
        if problem:
            raise Invalid(_("Play %(number)d: %(problem)s", number=number, problem=say(problem)))
        try:
            parsed.append(_ImportedPlay.model_validate(raw))
        except ValidationError as exc:
            raise Invalid(_("Play %(number)d: %(problem)s", number=number,
                            problem=say(explain(exc)))) from None
        # Two plays of one file with one id: which is the play? Said, not one of them skipped.
        earlier = first_with.setdefault(parsed[-1].uid, number)
        if earlier != number:
            raise Invalid(_("Play %(number)d has the id '%(uid)s' of play %(earlier)d; each play "
                            "of a file needs an id of its own.", number=number,
                            uid=quote(parsed[-1].uid), earlier=earlier))
        for entry in parsed[-1].players:
            entry.name = clean_name(entry.name)
    return sorted(parsed, key=lambda p: p.ended_at)  # oldest first, as they were played


IMPORT_ROWS = 500  # rows written at a time; other requests of the process run in between


@dataclass
class Imported:
    added: int  # plays new to the group
    conflicts: list[str]  # ids the group has already, with other content: left as they are


def import_plays(db: Session, group: PlayerGroup, plays: list[_ImportedPlay]) -> Imported:
    """Add the plays ``read_export`` checked to ``group``: the new ones. A play the group has
    already (by its id) is left as it is, and named among the conflicts if the file tells it
    otherwise. All or nothing, in one transaction; rows are written in bulk, a few hundred at a
    time."""
    hold(db, group)
    known = set(db.exec(select(Play.uid).where(Play.group_id == group.id)))
    fresh, again = [], []
    for play in plays:
        (again if play.uid in known else fresh).append(play)
        known.add(play.uid)
    # One read and bulk inserts for all names: a lookup and a flush per name grew with their square.
    players = GroupPlayer.__table__  # rows, not objects: a big group has thousands of players
    people = {name_key(name): (player_id, name) for player_id, name in db.connection().execute(
        select(players.c.id, players.c.name).where(players.c.group_id == group.id))}
    new_names = {}
    for play in fresh:
        for entry in play.players:
            new_names.setdefault(name_key(entry.name), entry.name)
    rows = [{"group_id": group.id, "name": name, "created_at": now()}
            for key, name in new_names.items() if key not in people]
    adding = insert(players).returning(players.c.id, players.c.name, sort_by_parameter_order=True)
    for made in _in_chunks(db, adding, rows):
        people.update((name_key(name), (player_id, name)) for player_id, name in made)

    def seat(entry: _ImportedPlayer) -> dict:
        player_id, name = people[name_key(entry.name)]
        return {"player": player_id, "seat": name, "score": entry.score, "winner": entry.winner}

    list(_in_chunks(db, insert(Play.__table__), [{
        "group_id": group.id, "uid": play.uid, "game_id": play.game,
        "started_at": play.started_at, "ended_at": play.ended_at,
        "players": [seat(entry) for entry in play.players],
        "cooperative": GAMES[play.game].cooperative,
        "result": play.result if GAMES[play.game].cooperative else None,
        "facts": play.facts, "corrected_at": play.corrected_at, "reopened": False}
        for play in fresh]))
    if fresh:
        group.version += 1
    conflicts = _told_otherwise(db, group, again)
    db.commit()
    return Imported(len(fresh), conflicts)


def _told_otherwise(db: Session, group: PlayerGroup, plays: list[_ImportedPlay]) -> list[str]:
    """The ids of ``plays`` whose game, times, players, scores or result differ from the
    group's play of that id (to the second, names in any case)."""
    if not plays:
        return []
    names = {player.id: player.name for player in players_of(db, group)}
    stored = {play.uid: play for play in db.exec(select(Play).where(
        Play.group_id == group.id, Play.uid.in_([play.uid for play in plays])))}

    def second(moment: datetime) -> datetime:
        return _utc(moment).replace(microsecond=0)

    def told(play: _ImportedPlay) -> tuple:
        result = play.result if GAMES[play.game].cooperative else None  # as import_plays keeps it
        return (play.game, second(play.started_at), second(play.ended_at), result,
                sorted((name_key(e.name), e.score, e.winner) for e in play.players))

    def kept(play: Play) -> tuple:
        return (play.game_id, second(play.started_at), second(play.ended_at), play.result,
                sorted((name_key(names.get(e.get("player")) or e.get("seat") or ""),
                        e.get("score"), bool(e.get("winner"))) for e in play.players))

    return [play.uid for play in plays if play.uid in stored and told(play) != kept(stored[play.uid])]


def _in_chunks(db: Session, statement, rows: list[dict]):
    """Execute ``statement`` for ``rows``, IMPORT_ROWS at a time, yielding each chunk's result;
    under gevent the process's other requests run between chunks (sleep(0) switches)."""
    for first in range(0, len(rows), IMPORT_ROWS):
        yield db.connection().execute(statement, rows[first:first + IMPORT_ROWS])
        time.sleep(0)

