"""Fair share: per-client limits on actions, live requests, table creation and lookups by code.

One client (an address: a phone, a household behind one router, a script) may make so many
requests of each kind per minute; past that it is answered 429 with ``Retry-After`` and
nothing is done. The counts live in the app's database (``rate_window``: one row per
client, kind and minute, counted with one upsert), so every worker process and every server
on one PostgreSQL shares them.

The kinds (``kind_of`` decides from the endpoint):
- ``code``: every request that looks a table or group up by its code: pages, live updates,
  the API, joins, misses included (a guesser's misses are what the limit is for);
- ``action``: changes: game actions, undo and redo, the host's and the group's powers;
- ``live``: live updates (the poll that brings changes, the stream's opening);
- ``create``: new tables (also rematches) and new groups.

``RATE_LIMITS`` (config or environment, e.g. ``"code=600,action=300,live=300,create=30"``)
sets them per minute; a kind set to 0 is not limited. Tests and the bench raise them.
"""

from __future__ import annotations

import math
import random
import time

from flask import current_app, request
from sqlalchemy import Engine, delete
from sqlalchemy.dialects import postgresql, sqlite

from .database import WRITE
from .models import RateWindow

DEFAULTS = {"code": 600, "action": 300, "live": 300, "create": 30}
WINDOW = 60  # seconds

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


class Limited(Exception):
    """Past a limit: ``kind`` and the seconds until the window turns."""

    def __init__(self, kind: str, retry_after: int):
        super().__init__(kind)
        self.kind = kind
        self.retry_after = retry_after


def count(engine: Engine, client: str, kinds: list[str], limits: dict[str, int],
          moment: float | None = None) -> None:
    """Count one request of each kind for ``client``; raise Limited past a limit."""
    kinds = [kind for kind in kinds if limits.get(kind)]
    if not kinds:
        return
    moment = time.time() if moment is None else moment
    window = int(moment // WINDOW)
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    table = RateWindow.__table__
    over = None
    with engine.execution_options(**WRITE).begin() as connection:
        # One statement for every kind the request counts toward.
        upsert = dialect.insert(table).values(
            [{"client": client[:64], "kind": kind, "window": window, "hits": 1} for kind in kinds])
        upsert = upsert.on_conflict_do_update(
            index_elements=["client", "kind", "window"],
            set_={"hits": table.c.hits + 1}).returning(table.c.kind, table.c.hits)
        for kind, hits in connection.execute(upsert):
            if hits > limits[kind] and over is None:
                over = kind
        if random.random() < 0.01:  # now and then, forget windows long past
            connection.execute(delete(table).where(table.c.window < window - 2))
    if over is not None:
        raise Limited(over, max(1, math.ceil((window + 1) * WINDOW - moment)))


def check_request() -> None:
    """Count this request (see ``kinds_of``); raise Limited past a limit."""
    limits = current_app.extensions["rate_limits"]
    kinds = kinds_of(request.endpoint, request.method, request.view_args)
    if kinds:
        from .web import client_address

        count(current_app.extensions["engine"], client_address(), kinds, limits)
