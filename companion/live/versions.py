"""One version of one table as every phone's view of it is drawn: loaded once per process for
all its streams (``load``), or made from what the writer of that version has in hand
(``from_writer``), and the few facts about one phone that a region may depend on
(``viewer_context``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from collections.abc import Callable
from typing import Any

from flask import current_app, get_template_attribute
from flask_babel import get_locale
from markupsafe import Markup
from sqlalchemy import JSON

from ..service.models import GameTable
from ..games.coach import SHORT_AFTER
from ..service.tables import (can_act, devices, follows_rematch, game_of, log_entries, moves_made,
                              read_entry, read_table)

# Regions of templates/table.html shared by every game; each game adds its own.
COMMON_REGIONS = ("coach", "status", "me", "seats", "history", "host", "lastmove")
# Of those, the ones drawn from the phones and the lock alone: a move leaves their renders valid.
PHONE_REGIONS = ("me", "seats", "host")
LOG_SHOWN = 40
_ACT_URL: dict = {}  # the web layer's address of a table's moves (use_act_url)


def use_act_url(address: Callable[[str], str]) -> None:
    """Install what the action forms post to, by table code (the web layer's route)."""
    _ACT_URL["of"] = address


@dataclass
class TableVersion:
    """One version of one table as loaded for display; ``renders`` caches its regions,
    ``events`` the stream events made of them."""

    version: int
    data: Any
    renders: dict = field(default_factory=dict)
    events: dict = field(default_factory=dict)


def language() -> str:
    """The language of the phone being drawn for."""
    return str(get_locale() or "en")


def region_names(table: GameTable) -> list[tuple[str, str]]:
    """(template, block) of every live region of this table's page."""
    game = game_of(table)
    return [("table.html", name) for name in COMMON_REGIONS] + [
        (game.template, name) for name in game.regions
    ]


class LogLines:
    """The lines of HTML of some log entries, in the language of the phone being drawn for.

    An entry never changes, so each is drawn once per language and kept in ``drawn`` (by its
    seq), which the next version of the same table's version takes over: the history region
    of a new version draws only the entries it has not seen."""

    def __init__(self, entries: list, previous: "LogLines | None" = None):
        self.entries = entries
        shown = {entry.seq for entry in entries}
        self.drawn: dict[tuple[int, str], str] = {
            key: html for key, html in (previous.drawn.items() if previous else ())
            if key[0] in shown}
        self.joined: dict[str, Markup] = {}

    def __iter__(self):
        lang = language()
        line = None
        for entry in self.entries:
            key = (entry.seq, lang)
            html = self.drawn.get(key)
            if html is None:
                if line is None:
                    line = get_template_attribute("macros.html", "log_line")
                html = self.drawn[key] = line(entry)
            yield html

    def __html__(self) -> str:
        """Every line, put together once per language (``{{ log_lines }}`` in a template:
        a loop over forty lines in the template cost more than drawing the one new line)."""
        lang = language()
        joined = self.joined.get(lang)
        if joined is None:
            joined = self.joined[lang] = Markup("".join(self))
        return joined


def shared_context(db, table: GameTable) -> dict:
    """What every phone's view of this table version shares: the game, the log, the phones."""
    return _shared(table, devices(db, table), log_entries(db, table, LOG_SHOWN), None)


def _shared(table, joined: list, newest_log: list, previous: dict | None) -> dict:
    """``newest_log``: the newest entries; given the previous version's context of the same
    table, only those past it (the log only grows)."""
    game = game_of(table)
    log = (newest_log + previous["log"])[:LOG_SHOWN] if previous is not None else newest_log
    return {
        "table": table,
        "game": game,
        "state": table.state,
        "view": game.view(table.state),
        "status": game.status(table.state),
        "scores": game.scores(table.state),
        "winners": game.winners(table.state),
        "devices": joined,
        "watchers": sum(1 for d in joined if not d.seat and not d.is_host),
        "log": log,
        "log_lines": LogLines(log, previous["log_lines"] if previous is not None else None),
        "last_move": _last_move(table, log),
        "expected_version": table.state_version,
        "act_url": _ACT_URL["of"](table.code),
        "oob": False,
        **_coaching(table, game, newest_log, previous),
    }


def _coaching(table, game, newest_log: list, previous: dict | None) -> dict:
    """The teaching mode's card (games/coach.py), and the players it shortens for: those who
    have made the move it names SHORT_AFTER times (counted from the log, on from the version
    before when there is one)."""
    if not table.coach:
        return {"coach": None, "intro": None, "coach_short_for": (), "moves_made": None}
    made = previous.get("moves_made") if previous is not None else None
    if made is None or len(newest_log) >= LOG_SHOWN:
        made = moves_made(current_app.extensions["engine"], table.id)
    else:
        made = dict(made)
        for entry in newest_log:
            if entry.kind == "action":
                key = (entry.actor, entry.payload.get("type"))
                made[key] = made.get(key, 0) + 1
    coach = game.coach(table.state)
    short_for = (coach.player,) if made.get((coach.player, coach.control), 0) >= SHORT_AFTER else ()
    return {"coach": coach, "intro": game.intro(table.state), "coach_short_for": short_for,
            "moves_made": made}


def _last_move(table, log: list):
    """The log entry of the move the next undo takes back (None: nothing to undo); among the
    newest entries nearly always, else read."""
    seq = table.last_action_seq
    if seq is None:
        return None
    found = next((entry for entry in log if entry.seq == seq), None)
    return found if found is not None else read_entry(current_app.extensions["engine"], table.id, seq)


def viewer_context(shared: dict, device_id: int | None, lang: str | None = None) -> dict:
    """The few facts about one phone that a region may depend on (``lang``: its language,
    default this request's)."""
    joined = shared["devices"]
    device = next((d for d in joined if d.id == device_id), None)
    holders = {d.seat: d.id for d in joined if d.seat}
    seat = device.seat if device else None
    # What this seat may do now, from the game's table of moves (one computation per seat, and
    # the host's phone apart: it may make some moves for any seat).
    legal_by_seat = shared.setdefault("legal_by_seat", {})
    host = bool(device and device.is_host)
    if (seat, host) not in legal_by_seat:
        legal_by_seat[(seat, host)] = shared["game"].legal_actions(shared["state"], seat, host)
    return {
        "lang": lang or language(),
        "phone": device.id if device else None,
        "seat": seat,
        "legal": legal_by_seat[(seat, host)],
        "can_act": can_act(device),
        "follows": follows_rematch(device),
        "is_host": bool(device and device.is_host),
        "read_only": bool(device and device.read_only),
        "seats": [{"name": name, "taken": name in holders,
                   "mine": device is not None and holders.get(name) == device.id}
                  for name in shared["table"].players],
    }


def table_context(db, table: GameTable, device) -> dict:
    """Everything the table template needs, derived from the table row and the phone."""
    shared = shared_context(db, table)
    return {**shared, **viewer_context(shared, device.id if device else None)}


def _phones_key(shared: dict) -> tuple:
    table = shared["table"]
    return (table.locked, table.coach, table.group_id, tuple(table.players),
            tuple((d.id, d.seat, d.is_host, d.read_only) for d in shared["devices"]))


def _carry_phone_regions(previous: TableVersion, current: TableVersion) -> TableVersion:
    """With the phones and the lock as before, the renders of PHONE_REGIONS still hold (a move
    in the game does not redraw every seat's "You are …" line)."""
    if _phones_key(previous.data) == _phones_key(current.data):
        for name in PHONE_REGIONS:
            if name in previous.renders:
                current.renders[name] = previous.renders[name]
    return current


def load(code: str, previous: TableVersion | None = None) -> TableVersion | None:
    """One table version as every stream of this process shares it (None: no such table).

    Read as plain rows (no ORM objects: this runs once per change per process), building on
    ``previous``: only the log entries past it are read."""
    before = previous.data if previous is not None else None
    rows = read_table(current_app.extensions["engine"], code, LOG_SHOWN,
                      log_after=before["table"].version if before else None)
    if rows is None:
        return None
    table, joined, newest_log = rows
    if before is not None and before["table"].id != table.id:  # another table, same code
        return load(code)
    current = TableVersion(table.version, _shared(table, joined, newest_log, before))
    return _carry_phone_regions(previous, current) if previous is not None else current


def from_writer(written: tuple, previous: TableVersion) -> TableVersion | None:
    """The version a move, an undo or a redo of this process just committed, made from the
    table and the log entry the writer has in hand (``written``) on top of ``previous``, the
    version before it: what ``load`` would read back, without reading it (the phones are
    those of ``previous``: a move does not change them). None when they do not fit together
    (another table under the same code, another entry)."""
    table, entry = written
    before = previous.data
    if before["table"].id != table.id or entry.table_id != table.id or entry.seq != table.version:
        return None
    fresh = _as_read(table)
    current = TableVersion(fresh.version, _shared(fresh, before["devices"], [_as_read(entry)], before))
    return _carry_phone_regions(previous, current)


def _as_read(written) -> SimpleNamespace:
    """A row as the database gives it back after ``written`` was stored: its columns' values,
    each JSON column copied through JSON as the database would (a tuple comes back as a
    list, a number key as text), so that nothing drawn from it can differ."""
    values = {}
    for column in written.__table__.columns:
        value = getattr(written, column.key)
        if value is not None and isinstance(column.type, JSON):
            value = json.loads(json.dumps(value))
        values[column.key] = value
    return SimpleNamespace(**values)
