"""Undo and redo: the undo stacks read from the log, the state rebuilt from the nearest
checkpoint."""

from __future__ import annotations

import copy
import operator
from collections import OrderedDict

from sqlalchemy import bindparam
from sqlalchemy import select as sa_select
from sqlmodel import Session, select

from ...games import GameError
from ...games.base import Game
from ...games.text import Sentence, say
from ...games.text import gettext as _
from ..errors import Invalid
from ..history import stacks
from ..models import Device, GameTable, LogEntry, StateCheckpoint
from .play import check_version, require_actor
from .reading import game_of
from .record import check_request_key, checkpoint, entry_sentence, store_state, write_log


def undo_or_redo(db: Session, table: GameTable, device: Device | None, kind: str,
                 expected: int | None, key: str | None = None) -> LogEntry:
    """Undo the last action in effect, or redo the last undone one.

    The state is rebuilt from the nearest checkpoint (``StateCheckpoint``, every
    CHECKPOINT_EVERY actions in effect), not from the start: only the log's versions and kinds
    are read in full, the payloads of at most that many actions are replayed. A redo plays
    its action on the table as it is. ``table`` was found with ``for_update``; ``key`` as for
    ``act``."""
    actor = require_actor(device)
    check_request_key(db, table, key)
    check_version(db, table, expected, device)
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
    what = entry_sentence(_entry_at(db, table, target))
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
    entry = write_log(db, table, kind, sentence, actor, key=key, device=device)
    store_state(db, table, game, state)
    table.undo_depth = len(now_applied)
    table.redo_depth = len(now_redoable)
    table.last_action_seq = now_applied[-1] if now_applied else None
    if kind == "redo":
        checkpoint(db, table, len(now_applied), target, state)
    return entry


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


