"""Fair share: per-client limits on actions, live requests, table creation and lookups by code.

One client (an address: a phone, a household behind one router, a script) may make so many
requests of each kind per minute, a few at once and then at an even pace; past that it is
answered 429 with ``Retry-After`` and nothing is done.

Each limit is a bucket (the generic cell rate algorithm): a kind allowed ``L`` a minute refills
one request every ``60/L`` seconds and holds at most ``burst(L)`` (a tenth of a minute's worth,
at least 10), so a client that was quiet may send that many at once, and one that hammers gets
one request every ``60/L`` seconds, spread out, never a minute's worth at the turn of a minute.
The buckets live in the app's database (``rate_bucket``: one row per client and kind, the
moment its bucket is full again, moved on with an upsert), so every worker process and every
server on one PostgreSQL shares them. A worker writes a bucket at once when its own view of it
is more than half full, else at most every ``WRITE_EVERY`` seconds with every request since
(see ``count``).

The kinds (``kind_of`` decides from the endpoint):
- ``code``: every request that looks a table or group up by its code: pages, live updates,
  the API, joins, misses included (a guesser's misses are what the limit is for);
- ``action``: changes: game actions, undo and redo, the host's and the group's powers;
- ``live``: live updates (the poll that brings changes, the stream's opening);
- ``create``: new tables (also rematches) and new groups.

``RATE_LIMITS`` (config or environment, e.g. ``"code=600,action=300,live=300,create=30"``)
sets them per minute; a kind set to 0 is not limited. Tests and the bench raise them.

A refusal is cheap (no database write when the worker's own view of the bucket already
refuses) and slow: the answer waits ``RATE_LIMIT_TARPIT`` seconds (1; a sleeping greenlet), so one
client with many requests in flight gets few answers per second, and the others' requests go
first.
"""

from __future__ import annotations

import math
import random
import time
import weakref
from dataclasses import dataclass

from flask import current_app, request
from sqlalchemy import Engine, text

from .database import WRITE

DEFAULTS = {"code": 600, "action": 300, "live": 300, "create": 30}
WRITE_EVERY = 0.5  # seconds (see ``count``)
# database -> {(client, kind): this worker's view of the bucket} (see ``count``).
_seen: weakref.WeakKeyDictionary[Engine, dict[tuple[str, str], "_View"]] = (
    weakref.WeakKeyDictionary())

# One statement per kind counted, the same on SQLite and PostgreSQL, written once: built with
# the expression language each time it cost more than the write itself. ``due``: the moment
# the bucket is full again. An allowed request moves it one ``step`` on (from now, if past),
# as long as that stays within ``span`` (burst steps) from now; a refused one leaves it
# (``allowed`` false). SET reads the row as it was, so both agree.
# ``before``: the steps of requests this worker let through since it last wrote (see
# ``count``); they happened, so they are added whatever this one's fate.
# ``{now}``: the moment of the count. On PostgreSQL it is the database's clock when SET runs,
# after the row's lock is had: a client's requests on several workers queue for its row, and
# one that waited there seconds would otherwise be measured against a bucket that later ones
# moved on meanwhile, and refused as a burst it never was. (SQLite's writers queue before the
# transaction begins, so the moment passed in is taken after that wait.)


def _upsert(now: str):
    base = f"(CASE WHEN rate_bucket.due > {now} THEN rate_bucket.due ELSE {now} END) + :before"
    moved = f"{base} + :step"
    return text(f"""
    INSERT INTO rate_bucket (client, kind, due, hits, allowed)
    VALUES (:client, :kind, {now} + :before + :step, :requests, TRUE)
    ON CONFLICT (client, kind) DO UPDATE SET
        due = CASE WHEN {moved} <= {now} + :span THEN {moved} ELSE {base} END,
        allowed = {moved} <= {now} + :span,
        hits = rate_bucket.hits + :requests
    RETURNING due, allowed""")


_UPSERT = _upsert(":now")
_UPSERT_POSTGRES_CLOCK = _upsert("CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)")
_FORGET = text("DELETE FROM rate_bucket WHERE due < :before")
# database -> the same engine bound to write (SQLite: through the writers' queue)
_writers: weakref.WeakKeyDictionary[Engine, Engine] = weakref.WeakKeyDictionary()

_CREATE = {"api.create", "api.create_group_view", "groups.create", "rematch.start",
           "api.rematch_view"}
_LIVE = {"table.live", "table.events"}


def parse_limits(text: str | None) -> dict[str, int]:
    """``"code=600,action=300"`` over the defaults; a bad entry is a start-up error."""
    limits = dict(DEFAULTS)
    for part in (text or "").split(","):
        if not part.strip():
            continue
        kind, _, value = part.partition("=")
        kind = kind.strip()
        if kind not in DEFAULTS or not value.strip().isdigit():
            raise ValueError(f"RATE_LIMITS: '{part.strip()}' is not kind=number with a kind of "
                             f"{', '.join(DEFAULTS)}")
        limits[kind] = int(value)
    return limits


def kinds_of(endpoint: str | None, method: str, view_args: dict | None) -> list[str]:
    """The kinds a request counts toward (possibly none: static files, rules, the home page)."""
    kinds = []
    if endpoint in _CREATE or (endpoint == "pages.new_table" and method == "POST"):
        kinds.append("create")
    if view_args and "code" in view_args or endpoint == "pages.join_by_code":
        kinds.append("code")
    if endpoint in _LIVE:
        kinds.append("live")
    elif method == "POST" and "code" in (view_args or {}) and endpoint not in _CREATE:
        kinds.append("action")
    return kinds


def _writer(engine: Engine) -> Engine:
    writer = _writers.get(engine)
    if writer is None:
        if engine.dialect.name == "postgresql":
            writer = engine.execution_options(isolation_level="AUTOCOMMIT")
        else:
            writer = engine.execution_options(**WRITE)
        _writers[engine] = writer
    return writer


def _writing(engine: Engine):
    """Where the buckets are written. PostgreSQL: each statement its own transaction, so a
    bucket's row is locked only while the database runs the statement: in a transaction
    of our own it stayed locked until this worker's greenlet came round to committing, and a
    client's requests on other workers (each holding a pooled connection) queued behind it.
    SQLite: a transaction through the writers' queue."""
    writer = _writer(engine)
    return writer.connect() if engine.dialect.name == "postgresql" else writer.begin()


def burst(limit: int) -> int:
    """How many requests of a kind allowed ``limit`` a minute a quiet client may send at once."""
    return min(limit, max(10, limit // 10))


class Limited(Exception):
    """Past a limit: ``kind`` and the seconds until the next request is allowed."""

    def __init__(self, kind: str, retry_after: int):
        super().__init__(kind)
        self.kind = kind
        self.retry_after = retry_after


@dataclass
class _View:
    """This worker's view of one client's bucket of one kind (see ``count``)."""

    due: float = 0.0  # the database's as last read, moved on by what this worker let through
    written_at: float = -math.inf  # when this worker last wrote the bucket
    unwritten: int = 0  # requests let through since, not yet added to the database's


def count(engine: Engine, client: str, kinds: list[str], limits: dict[str, int],
          moment: float | None = None) -> None:
    """Count one request of each kind for ``client``; raise Limited past a limit."""
    kinds = [kind for kind in kinds if limits.get(kind)]
    if not kinds:
        return
    now = time.time() if moment is None else moment
    client = client[:64]
    known = _seen.setdefault(engine, {})
    # This worker's own view of each bucket: the database's ``due`` as last read, moved on by
    # every request this worker let through since. The real one is as far on or further (other
    # workers count too), so a refusal by this view is a refusal by the database: no write.
    # Taken and moved on before the write, with no wait in between (one greenlet at a time),
    # so of fifty requests in flight only those the bucket still holds go to the database.
    views = []
    for kind in kinds:
        interval = 60.0 / limits[kind]
        view = known.get((client, kind)) or _View()
        if max(view.due, now) + interval > now + burst(limits[kind]) * interval + 1e-6:
            raise Limited(kind, max(1, math.ceil(view.due - (burst(limits[kind]) - 1) * interval
                                                 - now)))
        views.append(view)
    if len(known) > 10_000:
        known.clear()
    for kind, view in zip(kinds, views):
        known[client, kind] = view
        view.due = max(view.due, now) + 60.0 / limits[kind]
    # The database hears of a request at once when this worker's view holds more than half a
    # burst, and otherwise at most every WRITE_EVERY seconds (with every request let through
    # since): a client far from its limit, the usual case, costs no write per request, and
    # one past it on several workers gets at most half a burst more per worker.
    if all(now - view.written_at < WRITE_EVERY
           and view.due - now <= burst(limits[kind]) * 60.0 / limits[kind] / 2
           for kind, view in zip(kinds, views)):
        for view in views:
            view.unwritten += 1
        return
    refused: tuple[str, float] | None = None
    with _writing(engine) as connection:
        if moment is None:
            # The bucket moves on from when the write happens: a request may have waited
            # for a connection or the writers' queue, while later ones of the same client
            # were counted; from its arrival it would look like a burst it never was.
            now = time.time()
        upsert = (_UPSERT_POSTGRES_CLOCK
                  if moment is None and engine.dialect.name == "postgresql" else _UPSERT)
        for kind, view in zip(kinds, views):
            step = 60.0 / limits[kind]
            parameters = {"client": client, "kind": kind, "step": step,
                          "before": view.unwritten * step, "requests": view.unwritten + 1,
                          "span": burst(limits[kind]) * step + 1e-6}
            if upsert is _UPSERT:
                parameters["now"] = now
            row = connection.execute(upsert, parameters).one()
            view.written_at, view.unwritten = now, 0
            due, allowed = row
            if allowed:
                view.due = max(view.due, due)
                continue
            view.due = due  # the database's own, without this request's step
            until = due - (burst(limits[kind]) - 1) * step  # the next one let in
            if refused is None or until > refused[1]:
                refused = (kind, until)
        if random.random() < 0.01:  # now and then, forget buckets long full again
            connection.execute(_FORGET, {"before": now - 60})
    if refused is not None:
        raise Limited(refused[0], max(1, math.ceil(refused[1] - now)))


def check_request() -> None:
    """Count this request (see ``kinds_of``); raise Limited past a limit."""
    limits = current_app.extensions["rate_limits"]
    kinds = kinds_of(request.endpoint, request.method, request.view_args)
    if kinds:
        from .web import client_address

        count(current_app.extensions["engine"], client_address(), kinds, limits)
