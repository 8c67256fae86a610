"""What every change of a table writes: its log entry (the table's next version), the new
state, a checkpoint of it now and then, and the Idempotency-Key that makes a retry safe."""

from __future__ import annotations


from sqlalchemy import bindparam
from sqlmodel import Session, select

from ...games.base import Game
from ...games.text import Sentence, as_sentence
from ...games.text import gettext as _
from ..errors import AlreadyDone, Invalid
from ..groups import sync_play
from ..models import Device, GameTable, LogEntry, StateCheckpoint, now


KEY_MAX = 100


def clean_request_key(raw: str | None) -> str | None:
    """An Idempotency-Key as sent (None: none sent); Invalid when it cannot be one."""
    if raw is None or raw == "":
        return None
    if len(raw) > KEY_MAX or not (raw.isascii() and raw.isprintable()):
        raise Invalid(_("The Idempotency-Key must be up to %(most)d plain characters "
                        "(letters, digits, dashes).", most=KEY_MAX))
    return raw


def check_request_key(db: Session, table: GameTable, key: str | None) -> None:
    """Before anything else (the retry carries the version it was first sent with): a key
    seen before means the change is in the log already."""
    if key is None:
        return
    seq = db.exec(_SEQ_OF_KEY, params={"table_id": table.id, "key": key}).first()
    if seq is not None:
        raise AlreadyDone(seq)

_SEQ_OF_KEY = select(LogEntry.seq).where(LogEntry.table_id == bindparam("table_id"),
                                         LogEntry.request_key == bindparam("key"))


def write_log(db: Session, table: GameTable, kind: str, sentence: str | Sentence,
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

def store_state(db: Session, table: GameTable, game: Game, state: dict) -> None:
    """The table's new game state, as of the log entry just written."""
    table.state = state
    table.finished = game.is_over(state)
    table.state_version = table.version
    sync_play(db, table)  # a table of a group that ends becomes one of the group's plays


def entry_sentence(entry) -> Sentence:
    """What a log entry says (a row or a dict of one), as a sentence each phone renders in its
    language."""
    message = entry["message"] if isinstance(entry, dict) else entry.message
    sentence = entry["sentence"] if isinstance(entry, dict) else entry.sentence
    return Sentence.from_json(message) if message else as_sentence(sentence)


# An undo replays at most this many actions, however long the game (``StateCheckpoint``).
CHECKPOINT_EVERY = 50


def checkpoint(db: Session, table: GameTable, depth: int, last_seq: int, state: dict) -> None:
    """Keep ``state`` as the state after the first ``depth`` actions in effect (the last of
    them the log entry ``last_seq``), when ``depth`` is a multiple of CHECKPOINT_EVERY."""
    if depth <= 0 or depth % CHECKPOINT_EVERY:
        return
    old = db.get(StateCheckpoint, (table.id, depth))
    if old is not None:
        db.delete(old)
        db.flush()
    db.add(StateCheckpoint(table_id=table.id, depth=depth, last_seq=last_seq, state=state))


