"""A table's seats: creating a table, phones joining and changing seats, the host's powers,
deleting the table."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import delete
from sqlmodel import Session, select

from ...games import GameError, get_game
from ...games.base import Game
from ...games.text import Name, Sentence, say
from ...games.text import gettext as _
from ..codes import random_code
from ..errors import Forbidden, Invalid
from ..inputs import NAME_MAX, name_key, quote, stored_id, text_problem, tidy_name
from ..models import Device, GameTable, LogEntry, StateCheckpoint
from .reading import hash_token
from .record import write_log


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


# -- creating and joining ----------------------------------------------------------


def new_code(db: Session) -> str:
    while True:
        code = random_code()
        if db.exec(select(GameTable.id).where(GameTable.code == code)).first() is None:
            return code


def new_device(table: GameTable, **fields) -> tuple[Device, str]:
    token = secrets.token_urlsafe(24)
    return Device(table_id=table.id, token_hash=hash_token(token), **fields), token



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
    device, token = new_device(table, is_host=True, label="Host")
    db.add(device)
    write_log(db, table, "admin", Sentence("The table was set up for %(players)s.", players=names), None)
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
        if seat_holder(db, table, seat) is not None:
            raise Forbidden(_("%(seat)s's seat is already taken by another phone; the host can "
                              "free it.", seat=seat))
    device, token = new_device(table, seat=None if watch else seat,
                                label="Watcher" if watch else seat)
    db.add(device)
    sentence = (Sentence("A phone joined to watch.") if watch
                else Sentence("A phone took %(seat)s's seat.", seat=seat))
    write_log(db, table, "admin", sentence, None if watch else seat)
    return Joined(table, device, token)


def _seat_name(table: GameTable, seat: str) -> str:
    wanted = " ".join(seat.split()).casefold()
    for name in table.players:
        if name.casefold() == wanted:
            return name
    raise Invalid(_("There is no seat called '%(seat)s' at this table.", seat=quote(seat)))


def seat_holder(db: Session, table: GameTable, seat: str) -> Device | None:
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
        holder = seat_holder(db, table, seat)
        if holder is not None and holder.id != device.id:
            raise Forbidden(_("%(seat)s's seat is already taken by another phone; the host can "
                              "free it.", seat=seat))
    old = device.seat
    device.seat = seat
    device.label = seat or ("Host" if device.is_host else "Watcher")
    db.add(device)
    if seat:
        write_log(db, table, "admin", Sentence("A phone took %(seat)s's seat.", seat=seat), seat)
    else:
        write_log(db, table, "admin", Sentence("%(seat)s now watches.", seat=old) if old
                  else Sentence("A phone now watches."), old)


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
    write_log(db, table, "admin", Sentence("The host counted this table in the plays of %(group)s.",
                                           group=Name(group_name)), None)


def group_link_changed(db: Session, table: GameTable, group_name: str) -> None:
    """A change of the group's history (a deleted play, its undo, the group deleted) took the
    table out of its plays or put it back: the log says so, and its phones see it."""
    if table.group_id is None:
        sentence = Sentence("This table no longer counts in the plays of %(group)s.",
                            group=Name(group_name))
    else:
        sentence = Sentence("This table counts in the plays of %(group)s again.",
                            group=Name(group_name))
    write_log(db, table, "admin", sentence, None)


def set_locked(db: Session, table: GameTable, device: Device | None, locked: bool) -> None:
    require_host(device)
    if table.locked == locked:
        return
    table.locked = locked
    write_log(db, table, "admin",
              Sentence("The host locked the table against new phones.") if locked
              else Sentence("The host opened the table to new phones."), None)


def set_coach(db: Session, table: GameTable, device: Device | None, on: bool) -> None:
    require_host(device)
    if table.coach == on:
        return
    table.coach = on
    write_log(db, table, "admin",
              Sentence("The host switched the teaching mode on.") if on
              else Sentence("The host switched the teaching mode off."), None)


def free_seat(db: Session, table: GameTable, device: Device | None, seat: str) -> None:
    require_host(device)
    seat = _seat_name(table, seat)
    holder = seat_holder(db, table, seat)
    if holder is None:
        raise Invalid(_("%(seat)s's seat is already free.", seat=seat))
    holder.seat = None
    holder.label = "Host" if holder.is_host else "Watcher"
    db.add(holder)
    write_log(db, table, "admin", Sentence("The host freed %(seat)s's seat.", seat=seat), None)


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
    write_log(db, table, "admin", sentence, None)


def delete_table(db: Session, table: GameTable, device: Device | None) -> None:
    require_host(device)
    db.exec(delete(LogEntry).where(LogEntry.table_id == table.id))
    db.exec(delete(StateCheckpoint).where(StateCheckpoint.table_id == table.id))
    db.exec(delete(Device).where(Device.table_id == table.id))
    db.delete(table)


