"""The action log is the truth: replaying it gives the state, the undo stack and the redo stack.

Pure: no Flask, no database. Log entries are plain dicts with a ``kind`` of ``action``,
``undo``, ``redo`` or ``admin`` (seat and lock changes, shown in the log, never undone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..games.base import Game


@dataclass
class Replay:
    state: dict
    applied: list[dict] = field(default_factory=list)  # action entries in effect, oldest first
    redoable: list[dict] = field(default_factory=list)  # undone entries, the next redo last


def stacks(entries: list, kind_of: Callable = lambda entry: entry["kind"],
           item_of: Callable = lambda entry: entry,
           start: tuple[list, list] = ((), ())) -> tuple[list, list]:
    """Split the log into the actions in effect and the actions that redo would bring back.

    ``kind_of`` reads an entry's kind and ``item_of`` what goes on the stacks (entries may be
    dicts or a database's plain rows); ``start`` holds the stacks of the log before
    ``entries``, when only the entries since are read."""
    applied: list = list(start[0])
    redoable: list = list(start[1])
    for entry in entries:
        kind = kind_of(entry)
        if kind == "action":
            applied.append(item_of(entry))
            redoable.clear()  # a new action ends the redo chain, as in every editor
        elif kind == "undo" and applied:
            redoable.append(applied.pop())
        elif kind == "redo" and redoable:
            applied.append(redoable.pop())
    return applied, redoable


def replay(game: Game, players: list[str], options: dict, entries: list[dict]) -> Replay:
    """Rebuild the state from the table's setup and its whole log."""
    applied, redoable = stacks(entries)
    state = game.initial_state(players, game.parse_options(options))
    for entry in applied:
        state, _sentence = game.play(state, game.parse_action(entry["payload"]),
                                     entry.get("actor"), replaying=True)
    return Replay(state=state, applied=applied, redoable=redoable)
