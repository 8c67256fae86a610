"""Fair share, by Flask-Limiter: each phone may make so many requests of each kind a minute, a
few at once and then at an even pace; past that the answer is 429 with ``Retry-After`` (see
``errors``) and nothing is done.

A request is counted for its phone when it carries one (the device the signed cookie names at
the table in the address, or a bearer token some device holds), else for its client address:
a phone's limits are its own, however many phones share a household's or a café's public
address. An address has the same minute's worth but no burst cap, so twenty tables of phones
scanning their codes behind one router together still get in.

Each request counts toward one kind (``kind_of`` decides from the endpoint, the first that
fits):
- ``create``: new tables (also rematches) and new groups;
- ``live``: live updates (the poll, the stream's opening);
- ``action``: changes: game actions, undo and redo, joins, the host's and the group's powers;
- ``code``: any other request that looks a table or group up by its code: pages, the API,
  misses included (a guesser's misses are what the limit is for).

``RATE_LIMITS`` (e.g. ``"code=600,action=300,live=300,create=30"``) sets them per minute; 0
turns a kind off. The counts live in this process's memory; several servers share them through
Redis: ``RATELIMIT_STORAGE_URI=redis://host:6379``.
"""

from __future__ import annotations

import math

from flask import Flask, current_app, g, request
from flask_limiter import ApplicationLimit, Limiter

from ..service.tables import device_with_token
from .phone import bearer_token, client_address, device_token

DEFAULTS = {"code": 600, "action": 300, "live": 300, "create": 30}
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


def kind_of(endpoint: str | None, method: str, view_args: dict | None) -> str | None:
    """The kind a request counts toward (None: static files, rules, the home page)."""
    named = bool(view_args and "code" in view_args)
    if endpoint in _CREATE or (endpoint == "pages.new_table" and method == "POST"):
        return "create"
    if endpoint in _LIVE:
        return "live"
    if method == "POST" and named:
        return "action"
    if named or endpoint == "pages.join_by_code":
        return "code"
    return None


def burst(per_minute: int) -> int:
    """How many requests of a kind a phone may send at once: a tenth of a minute's worth."""
    return min(per_minute, max(10, per_minute // 10))


def rate_key() -> str:
    """The phone this request comes from, else its client address."""
    if "rate_key" not in g:
        code = (request.view_args or {}).get("code")
        held = device_token(code) if code else None
        if not isinstance(held, int):
            token = bearer_token()
            held = device_with_token(current_app.extensions["engine"], token) if token else None
        g.rate_key = f"phone {held}" if held else f"address {client_address()}"
    return g.rate_key


def _limits_now() -> str:
    """This request's kind: a phone a tenth of its minute's worth in a tenth of a minute (so
    never the whole minute's at once), an address its minute's worth."""
    kind = _kind_now()
    per_minute = current_app.extensions["rate_limits"][kind] if kind else 0
    if not per_minute:
        return ""
    if not rate_key().startswith("phone"):
        return f"{per_minute}/minute"
    at_once = burst(per_minute)
    return f"{at_once}/{math.ceil(60 * at_once / per_minute)} seconds"


def _kind_now(_endpoint: str = "") -> str | None:
    if "rate_kind" not in g:
        g.rate_kind = kind_of(request.endpoint, request.method, request.view_args)
    return g.rate_kind


def make_limiter(app: Flask) -> Limiter:
    """This app's limiter (the caller registers it among the checks before every view): one
    limit, whose bucket is the request's kind (its scope)."""
    limits = app.config["RATE_LIMITS"]
    app.extensions["rate_limits"] = (dict(limits) if isinstance(limits, dict)
                                     else parse_limits(limits))
    by_kind = ApplicationLimit(_limits_now, key_function=rate_key, scope=_kind_now)
    # Sliding-window counters: the in-memory store sweeps every key, and moving windows cost more.
    return Limiter(rate_key, application_limits=[by_kind], strategy="sliding-window-counter",
                   storage_uri=app.config["RATELIMIT_STORAGE_URI"])
