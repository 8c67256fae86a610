"""A group's statistics and exports, made once per change of what they show and kept, gzipped,
in this process: loops of requests for them cost the server little.

A group's ``version`` counts every change its statistics and exports can see (plays, and the
names of the players in them; a new player, who has no play yet, changes neither); the JSON
export, which lists every player, also names how many there are. What is made is made in
pieces, the greenlet giving way between them (the tables' requests go first), and one request
makes it while the others asking for the same wait for it. Answers are streamed: as kept to a
client that takes gzip, unpacked piece by piece to one that does not.
"""

from __future__ import annotations

import gc
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import tzinfo

import orjson
from flask import Response, current_app, request
from sqlalchemy import func, select
from zlib_ng import zlib_ng

from ..service.exports import EXPORT_FORMAT, export_csv, export_plays
from ..service.groups import play_records, play_rows, players_of, shown
from ..service.models import GroupPlayer
from ..service.stats import PlayRow, Statistics, statistics
from ..service.stats.results import Data

KEPT_MOST = 64  # things kept per process (a group's statistics, its charts, its exports)
KEPT_BYTES = 64 * 2**20  # and what they take together (bodies gzipped; statistics, about)
PIECE = 64 * 1024  # an answer is sent, and made, about this much at a time
ITEMS_AT_ONCE = 500  # items of a long list of JSON written at once


class Kept:
    """What was made, by key, the newest used last; one maker per key at a time."""

    def __init__(self):
        self.things: OrderedDict = OrderedDict()
        self.making: dict = {}
        self.lock = threading.Lock()  # the bookkeeping only, never while making

    def get(self, key, make: Callable):
        while True:
            with self.lock:
                if key in self.things:
                    self.things.move_to_end(key)
                    return self.things[key]
                busy = self.making.get(key)
                if busy is None:
                    done = self.making[key] = threading.Event()
                    break
            busy.wait()  # another request makes it: this one takes it when it is done
        try:
            with collector_paused():
                made = make()
            with self.lock:
                self.things[key] = made
                while len(self.things) > KEPT_MOST or (
                        len(self.things) > 1 and sum(map(_weight, self.things.values())) > KEPT_BYTES):
                    self.things.popitem(last=False)
            return made
        finally:
            with self.lock:
                del self.making[key]
            done.set()


_pausing = {"makers": 0, "paused": False}  # makers under way; whether they turned it off
_pausing_lock = threading.Lock()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while something big is made: it would scan the
    hundreds of thousands of new objects (a big group's pairs) again and again."""
    with _pausing_lock:
        if _pausing["makers"] == 0 and gc.isenabled():
            gc.disable()
            _pausing["paused"] = True
        _pausing["makers"] += 1
    try:
        yield
    finally:
        with _pausing_lock:
            _pausing["makers"] -= 1
            if _pausing["makers"] == 0 and _pausing["paused"]:
                _pausing["paused"] = False
                gc.enable()


def _weight(thing) -> int:
    return len(thing) if isinstance(thing, (bytes, str)) else getattr(thing, "weight", 0)


def kept() -> Kept:
    return current_app.extensions.get("kept") or current_app.extensions.setdefault("kept", Kept())


# -- statistics ------------------------------------------------------------------------------


@dataclass
class GroupStatistics:
    """A version of a group's statistics: its plays as rows (for the page's charts) and the
    numbers, for every language; the page drawn per language is kept beside it."""

    rows: list[PlayRow]
    numbers: Statistics
    weight: int = 0  # bytes, about


def group_statistics(db, group) -> GroupStatistics:
    """The numbers of the group as it is now, computed once per version."""
    def make() -> GroupStatistics:
        rows = play_rows(db, group)
        numbers = statistics(rows)
        # About what its objects take: a seat of a play, a player's record, a pair's.
        things = sum(len(row.seats) for row in rows) + len(numbers.head_to_heads)
        return GroupStatistics(rows, numbers, weight=200 * things)
    return kept().get(("statistics", group.code, group.id, group.version), make)


def statistics_page(db, group, language: str, draw: Callable[[], str]) -> str:
    """What the statistics page shows of the group in ``language`` (``draw``: its HTML), once
    per version: a page of a few hundred rows and charts took 25 ms to draw each time."""
    return kept().get(("page", group.code, group.id, group.version, language), draw)


def statistics_json(db, group) -> bytes:
    """The API's statistics of the group, gzipped."""
    return kept().get(("statistics.json", group.code, group.id, group.version),
                      lambda: gzipped(json_pieces(group_statistics(db, group).numbers)))


# -- exports ---------------------------------------------------------------------------------


def plays_csv(db, group, lang: str, zone: tzinfo) -> bytes:
    """The CSV of the group's plays for a spreadsheet of ``lang`` in ``zone``, gzipped."""
    return kept().get(("plays.csv", group.code, group.id, group.version, lang, repr(zone)),
                      lambda: gzipped(piece.encode() for piece in
                                      export_csv(play_records(db, group), lang, zone)))


def plays_export(db, group) -> bytes:
    """The group's plays as exported and imported (format table-companion-plays/1), gzipped."""
    return kept().get(("plays.json", *_players_version(db, group)), lambda: gzipped(json_pieces({
        "format": EXPORT_FORMAT, "group": group.name, "players": _names(db, group),
        "plays": _plays_json(db, group)})))


def group_json(db, group, url: str) -> bytes:
    """The API's group: its code, name, address (``url``), players and plays, gzipped."""
    return kept().get(("group.json", url, *_players_version(db, group)), lambda: gzipped(json_pieces({
        "code": group.code, "name": group.name, "url": url, "players": _names(db, group),
        "plays": _plays_json(db, group)})))


def _names(db, group) -> list[str]:
    return [player.name for player in players_of(db, group)]


class Made(bytes):
    """JSON made already, written as it is."""


def _plays_json(db, group) -> Made:
    """The plays as the export lists them, as JSON, once per version: a new player makes only
    the list of names again."""
    def make() -> Made:
        made = []
        for piece in json_pieces(export_plays(db, group)):
            made.append(piece)
            time.sleep(0)  # under gevent: the tables' requests go first
        return Made(b"".join(made))
    return kept().get(("plays", group.code, group.id, group.version), make)


def _players_version(db, group) -> tuple:
    """The group's version and how many players it has, the newest last: what its list of
    players says (a new player changes no version)."""
    count, newest = db.execute(select(func.count(), func.max(GroupPlayer.id)).where(
        GroupPlayer.group_id == group.id, shown(GroupPlayer.pending))).one()
    return group.code, group.id, group.version, count, newest


# -- making and sending ------------------------------------------------------------------------


def json_pieces(value, depth: int = 0) -> Iterator[bytes]:
    """``value`` as JSON in UTF-8 (``Data`` as its fields), in pieces: the objects of the first
    levels key by key, a long list a few hundred items at a time."""
    if isinstance(value, Made):
        for start in range(0, len(value), PIECE):  # as pieces: the gzipping gives way between
            yield value[start:start + PIECE]
        return
    if isinstance(value, Data):
        value = vars(value)
    if isinstance(value, dict) and depth < 3:
        yield b"{"
        for number, (key, item) in enumerate(value.items()):
            yield (b"," if number else b"") + orjson.dumps(key) + b":"
            yield from json_pieces(item, depth + 1)
        yield b"}"
    elif isinstance(value, (list, tuple)) and 0 < len(value) <= 10 and depth < 3:
        yield b"["  # a few big things (a game's statistics): each in pieces of its own
        for number, item in enumerate(value):
            yield b"," if number else b""
            yield from json_pieces(item, depth + 1)
        yield b"]"
    elif isinstance(value, (list, tuple)) and value:
        yield b"["
        for start in range(0, len(value), ITEMS_AT_ONCE):
            part = orjson.dumps(value[start:start + ITEMS_AT_ONCE])
            yield (b"," if start else b"") + part[1:-1]
        yield b"]"
    else:
        yield orjson.dumps(value)  # compact, UTF-8 unescaped; dataclasses as their fields


def gzipped(pieces: Iterable[bytes]) -> bytes:
    """``pieces`` gzipped, by zlib-ng (faster than zlib, and smaller at the same level); between
    pieces of about PIECE, this greenlet gives way."""
    packer = zlib_ng.compressobj(6, zlib_ng.DEFLATED, 16 + zlib_ng.MAX_WBITS)
    out, waiting, size = [], [], 0
    for piece in pieces:
        waiting.append(piece)
        size += len(piece)
        if size >= PIECE:
            out.append(packer.compress(b"".join(waiting)))
            waiting, size = [], 0
            time.sleep(0)  # under gevent: the tables' requests go first
    out.append(packer.compress(b"".join(waiting)))
    out.append(packer.flush())
    return b"".join(out)


def send(body: bytes, mimetype: str, filename: str | None = None) -> Response:
    """A kept body, streamed: gzip as it is to a client that takes it, else unpacked."""
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'} if filename else {}
    if request.accept_encodings["gzip"]:
        headers.update({"Content-Encoding": "gzip", "Content-Length": str(len(body))})
        pieces: Iterable[bytes] = (body[start:start + PIECE] for start in range(0, len(body), PIECE))
    else:
        pieces = _unpacked(body)
    answer = Response(pieces, mimetype=mimetype, headers=headers)
    answer.vary.add("Accept-Encoding")
    return answer


def _unpacked(body: bytes) -> Iterator[bytes]:
    unpacker = zlib_ng.decompressobj(16 + zlib_ng.MAX_WBITS)
    for start in range(0, len(body), PIECE):
        yield unpacker.decompress(body[start:start + PIECE])
        time.sleep(0)
    yield unpacker.flush()
