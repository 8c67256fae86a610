"""Groups: the people who play together, their plays and what can be said about them.

No accounts: a group is a code (and a QR) like a table. Its players are names; a table can
belong to a group, each seat linked to one of its players by name, and when such a table ends
its result becomes a *play* of the group (``sync_play``; a result changed at the table after its
end is marked corrected). An owner may delete a play; that too can be undone.
Renaming a player or merging two spellings of one person are group changes that can be
undone. Plays travel between servers as JSON (``exports.export_plays``, ``imports.import_plays``): an import
is all or nothing, and importing the same file twice adds nothing (plays keep their ``uid``).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

from sqlalchemy import and_, func, or_
from sqlmodel import Session, delete, select

from ..games import get_game
from ..games.text import gettext as _
from .codes import GROUP_CODE_LENGTH, normalise_code, random_code
from . import pending
from .errors import Forbidden, Invalid, NotFound, Stale
from .inputs import NAME_MAX, name_key, quote, stored_id, tidy_name
from .models import GameTable, GroupChange, GroupPlayer, PendingImport, Play, PlayerGroup, now
from .stats.facts import facts_of
from .stats.plays import PlayRow, prepare
from .stats.results import paced

GROUP_NAME_MAX = 40
# BoardGameGeek's ids of the games, for the export (the score pad is no game of its own).
BGG_IDS = {"asterix-obelix": None, "kartenspiel": None, "asterix-co": None, "zaubertrank": None}


# -- groups and players -----------------------------------------------------------------------


def shown(column):
    """Rows an import is still writing (``imports``) are nobody's yet: the condition that
    leaves them out."""
    return or_(column.is_(None), column.not_in(select(PendingImport.key)))


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
    return list(db.exec(select(GroupPlayer).where(GroupPlayer.group_id == group.id,
                                                  shown(GroupPlayer.pending))
                        .order_by(GroupPlayer.name)))


def player_named(db: Session, group: PlayerGroup, name: str) -> GroupPlayer | None:
    wanted = name_key(tidy_name(name))
    return next((p for p in players_of(db, group) if name_key(p.name) == wanted), None)


def _pending_named(db: Session, group: PlayerGroup, name: str) -> GroupPlayer | None:
    """The row of this very name that an import still pending (or a killed one) wrote: the
    group's players are unique by name, so nobody else can have it meanwhile."""
    found = db.exec(select(GroupPlayer).where(GroupPlayer.group_id == group.id,
                                              GroupPlayer.name == name)).first()
    return found if found is not None and found.pending is not None else None


def _make_way(db: Session, group: PlayerGroup, name: str) -> None:
    """Before a player takes ``name``: refused while an import is adding it; what a dead
    import left is cleared."""
    held = _pending_named(db, group, name)
    writer = pending.holder(db, held.pending) if held is not None else None
    if writer is None:
        return
    if pending.alive(db, writer.key, writer.started_at):
        raise Stale(_("An import is adding a player called %(name)s just now; try again when "
                      "it is done.", name=name))
    pending.forget(db, writer.key)


def add_player(db: Session, group: PlayerGroup, name: str) -> GroupPlayer:
    """The group's player of this name (any case), added if new. A name an import is still
    adding (or a killed one left) is that player, the group's from now on: the import's plays
    name it as well, and it stays if the import fails."""
    name = clean_name(name)
    hold(db, group)
    found = player_named(db, group, name)
    if found is not None:
        return found
    held = _pending_named(db, group, name)
    if held is not None:
        held.pending, held.created_at = None, now()
        return held
    player = GroupPlayer(group_id=group.id, name=name)
    db.add(player)
    db.flush()
    return player  # no play names them yet: the group's version (its statistics) stays


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
    _make_way(db, group, name)
    db.add(GroupChange(group_id=group.id, kind="rename",
                       payload={"player": player.id, "old": player.name, "new": name}))
    player.name = name
    group.version += 1
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
    return keep


def last_change(db: Session, group: PlayerGroup) -> GroupChange | None:
    """The change an undo takes back: the group's last one still in effect."""
    return db.exec(select(GroupChange).where(GroupChange.group_id == group.id,
                                             GroupChange.undone == False)  # noqa: E712
                   .order_by(GroupChange.id.desc())).first()


def undo_change(db: Session, group: PlayerGroup) -> GroupChange:
    """Take back the group's last rename, merge or deleted play that is still in effect."""
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
        _make_way(db, group, data["old"])
        player.name = data["old"]
    else:
        if player_named(db, group, data["drop_name"]) is not None:
            raise Invalid(_("%(name)s is the name of another player now.", name=data["drop_name"]))
        _make_way(db, group, data["drop_name"])
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
    return play


def _bring_back(db: Session, group: PlayerGroup, data: dict) -> None:
    """Undo a play's deletion: the play as it was, and its table counting in the group again."""
    kept = dict(data["play"])
    if db.exec(select(Play.id).where(Play.group_id == group.id, Play.uid == kept["uid"])).first():
        return  # an import brought it back already
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


# -- tables of a group and their plays ------------------------------------------------------------


def linked_tables(db: Session, group_id: int) -> set[int]:
    """The ids of the tables that count in the group's plays."""
    return set(db.exec(select(GameTable.id).where(GameTable.group_id == group_id)))


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
    query = select(Play).where(Play.group_id == group.id, shown(Play.pending))
    if older_than is not None:
        query = query.where(or_(Play.ended_at < older_than.ended_at,
                                and_(Play.ended_at == older_than.ended_at, Play.id < older_than.id)))
    query = query.order_by(Play.ended_at.desc(), Play.id.desc())
    return list(db.exec(query.limit(limit) if limit else query))


def players_who_played(db: Session, group: PlayerGroup, game_id: str) -> list[str]:
    """The names of the group's players with a play of this game: the others are new to it."""
    ids = {entry["player"] for players in db.exec(
        select(Play.players).where(Play.group_id == group.id, Play.game_id == game_id,
                                   shown(Play.pending)))
           for entry in players}
    return [player.name for player in players_of(db, group) if player.id in ids]


def play_count(db: Session, group: PlayerGroup) -> int:
    return db.exec(select(func.count()).select_from(Play).where(Play.group_id == group.id,
                                                                shown(Play.pending))).one()


def find_play(db: Session, group: PlayerGroup, uid: str) -> Play:
    play = db.exec(select(Play).where(Play.group_id == group.id, Play.uid == uid,
                                      shown(Play.pending))).first()
    if play is None:
        raise NotFound(_("This group has no play %(uid)s.", uid=quote(uid)))
    return play


def play_records(db: Session, group: PlayerGroup, plays: list[Play] | None = None) -> list[dict]:
    """The plays as the statistics and the export read them: players by their group names."""
    names = dict(db.exec(select(GroupPlayer.id, GroupPlayer.name).where(
        GroupPlayer.group_id == group.id, shown(GroupPlayer.pending))).all())
    records = []
    for play in paced(plays if plays is not None else plays_of(db, group)):
        records.append({
            "uid": play.uid,
            "game": play.game_id,
            "bgg_id": BGG_IDS.get(play.game_id),
            "started_at": _iso(play.started_at),
            "ended_at": _iso(play.ended_at),
            "duration_minutes": max(0, round((as_utc(play.ended_at) - as_utc(play.started_at))
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


def play_rows(db: Session, group: PlayerGroup) -> list[PlayRow]:
    """The plays as the statistics read them, oldest first: the columns they need, read at
    once (a big group's 3,000 plays as records and back took a fifth of its first statistics)."""
    names = dict(db.exec(select(GroupPlayer.id, GroupPlayer.name).where(
        GroupPlayer.group_id == group.id, shown(GroupPlayer.pending))).all())
    found = db.exec(select(Play.uid, Play.game_id, Play.started_at, Play.ended_at, Play.players,
                           Play.cooperative, Play.result, Play.facts)
                    .where(Play.group_id == group.id, shown(Play.pending)))
    return prepare({
        "uid": uid, "game": game, "started_at": started, "ended_at": ended,
        "players": [{"name": names.get(entry.get("player")) or entry.get("seat"),
                     "score": entry.get("score"), "winner": bool(entry.get("winner"))}
                    for entry in players],
        "cooperative": cooperative, "result": result, "facts": facts,
    } for uid, game, started, ended, players, cooperative, result, facts in found)


def as_utc(moment: datetime) -> datetime:
    """A time read back from the database (SQLite keeps no zone) or a file, in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat()
