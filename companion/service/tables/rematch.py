"""The rematch of an ended game, and every phone of the table following it to the new one."""

from __future__ import annotations

import base64
import hashlib
import hmac

from sqlmodel import Session, select

from ...games.text import N_, Sentence
from ...games.text import gettext as _
from ..errors import Forbidden, Invalid, NotFound
from ..models import Device, GameTable
from .play import require_actor
from .reading import find_table, game_of, hash_token
from .record import write_log
from .seats import Joined, new_code, seat_holder


# -- the rematch --------------------------------------------------------------------


def rematch(db: Session, table: GameTable, device: Device | None, rotate: bool) -> GameTable:
    """Start the same game again with the same seats, group and options (with ``rotate``, the
    next player in the seat order starts). Any phone that may act starts it, once the game has
    ended; a second tap, from any phone, finds the rematch already started. Every phone of the
    table then follows (``follow_rematch``). ``table`` was found with ``for_update``."""
    actor = require_actor(device)
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
    write_log(db, new, "admin", Sentence("A rematch for %(players)s.", players=players), None)
    new.state_version = new.version
    table.next_code = new.code
    write_log(db, table, "admin",
              Sentence("%(player)s started a rematch.", player=actor) if actor
              else Sentence("The host started a rematch."), actor)
    return new


# What rematches logged before: older logs still read these, in each phone's language.
EARLIER_SENTENCES = (N_("Rematch of table %(code)s for %(players)s."),
                     N_("%(player)s started a rematch at table %(code)s."),
                     N_("The host started a rematch at table %(code)s."))


def _follow_token(device: Device, new: GameTable, secret: str) -> str:
    """The token of ``device``'s place at the rematch ``new``: made from the two with the
    server's ``secret`` (as unguessable as a random one), so following again finds that place."""
    mac = hmac.new(secret.encode(), f"{device.id} {device.token_hash} {new.code}"
                   .encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


def follows_rematch(device: Device | None) -> bool:
    """Whether this phone goes along to the rematch (and is told its code): a player's or
    the host's. A watcher is not: whoever learns a finished table's code may watch it, and
    must not reach, through it, the free seats of the new table."""
    return device is not None and (device.seat is not None or device.is_host)


def follow_rematch(db: Session, table: GameTable, device: Device | None, secret: str) -> Joined:
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
    token = _follow_token(device, new, secret)
    again = db.exec(select(Device).where(Device.table_id == new.id,
                                         Device.token_hash == hash_token(token))).first()
    if again is not None:  # followed before (a retried call, a second tab): the same place
        return Joined(new, again, token)
    seat = device.seat if device.seat in new.players else None
    if seat is not None and seat_holder(db, new, seat) is not None:
        seat = None
    joined = Device(table_id=new.id, token_hash=hash_token(token), seat=seat,
                    is_host=device.is_host, read_only=device.read_only,
                    label=seat or ("Host" if device.is_host else "Watcher"))
    db.add(joined)
    write_log(db, new, "admin", Sentence("A phone took %(seat)s's seat.", seat=seat) if seat
              else Sentence("A phone joined to watch."), seat)
    return Joined(new, joined, token)


