"""Playing: who may act, the version a tap was made against (merged when it touches nothing
the changes since touched), and one game action applied and logged."""

from __future__ import annotations


from sqlmodel import Session, select

from ...games import GameError
from ...games.base import Game
from ...games.text import say
from ...games.text import gettext as _
from ..errors import AlreadyDone, Forbidden, Invalid, RuleRefused, Stale
from ..inputs import text_problem
from ..models import Device, GameTable, LogEntry
from .reading import game_of
from .record import check_request_key, checkpoint, entry_sentence, store_state, write_log


# -- playing ---------------------------------------------------------------------------


def can_act(device: Device | None) -> bool:
    """Seated players and the host change the game; watchers and read-only phones do not."""
    return device is not None and not device.read_only and (device.is_host or device.seat is not None)


def require_actor(device: Device | None) -> str | None:
    if device is None:
        raise Forbidden(_("Join this table first: scan its QR code or type its code."))
    if device.read_only:
        raise Forbidden(_("The host made this phone read-only."))
    if not can_act(device):
        raise Forbidden(_("You are watching this table; take a seat to make changes."))
    return device.seat


# How many changes a tap may have missed and still be merged (beyond: refused as stale).
MERGE_MOST = 50


def check_version(db: Session, table: GameTable, expected: int | None, device: Device,
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
                  change=say(entry_sentence(conflict))))


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


def act(db: Session, table: GameTable, device: Device | None, payload: dict,
        expected: int | None, key: str | None = None) -> LogEntry:
    """Apply one game action for ``device`` to ``table`` (found with ``for_update``);
    ``key``: the request's Idempotency-Key (a retry, or a move that changes nothing, raises
    AlreadyDone). Answers the log entry."""
    actor = require_actor(device)
    check_request_key(db, table, key)
    game = game_of(table)
    problem = text_problem(payload)
    if problem:
        raise Invalid(say(problem))
    try:
        action = game.parse_action(payload)
    except GameError as exc:
        check_version(db, table, expected, device)  # a stale tap is stale first
        raise Invalid(say(exc.sentence)) from None
    check_version(db, table, expected, device, game, action)
    try:
        if action.type == "hand_turn" and not device.is_host:
            raise Forbidden(_("Only the host hands the turn to another player."))
        new_state, sentence = game.play(table.state, action, actor, host=device.is_host)
    except GameError as exc:
        raise RuleRefused(say(exc.sentence)) from None
    if new_state == table.state:  # e.g. 5 points written over 5: the table shows it already
        raise AlreadyDone(None)
    entry = write_log(db, table, "action", sentence, actor, action.model_dump(mode="json"), key, device)
    store_state(db, table, game, new_state)
    table.undo_depth += 1
    table.redo_depth = 0
    table.last_action_seq = entry.seq
    checkpoint(db, table, table.undo_depth, table.version, new_state)
    return entry


