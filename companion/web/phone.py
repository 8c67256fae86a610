"""The phone behind a request: its device at a table (the signed session cookie, or a script's
bearer token), its address, and whether htmx asked for a part of the page."""

from __future__ import annotations

from flask import Response, request, session

from ..live.changes import Caller
from ..service.tables import find_device


def phone_at(code: str) -> Caller:
    """This browser, making a change at table ``code``: what its cookie holds for the table."""
    return Caller(device_token(code))


def device_token(code: str) -> int | str | None:
    """What this browser holds for table ``code``: the id of its device there. The session
    cookie is signed (so the id cannot be made up or changed) but not encrypted, so it never
    holds the device's bearer token, which would let anyone who reads the cookie act through
    the API. (A cookie from before holds the token itself: still honoured, and replaced by
    the id once the device is found, see ``find_phone``.)"""
    return (session.get("tables") or {}).get(code)


def remember_device(code: str, device_id: int) -> None:
    tables = dict(session.get("tables") or {})
    tables.pop(code, None)
    tables[code] = device_id
    # Phones join a few tables an evening; keep the newest few so the cookie stays small.
    session["tables"] = dict(list(tables.items())[-20:])
    session.permanent = True


def find_phone(db, table):
    """This browser's device at ``table`` (None: it has not joined)."""
    held = device_token(table.code)
    device = find_device(db, table, held)
    if device is not None and isinstance(held, str):
        remember_device(table.code, device.id)  # an old cookie's token: keep the id instead
    return device


def keep_session_alive() -> None:
    """Start the 30 days of the phone's seats again (opening a table page counts as use)."""
    if session.permanent:
        session.modified = True


def forget_device(code: str) -> None:
    tables = dict(session.get("tables") or {})
    tables.pop(code, None)
    session["tables"] = tables


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return None


def client_address() -> str:
    return request.remote_addr or "unknown"


def is_fragment_request() -> bool:
    """htmx asked for a part of the page (not a boosted link or a history restore)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-Boosted") != "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def vary(response: Response) -> Response:
    response.vary.add("HX-Request")
    return response
