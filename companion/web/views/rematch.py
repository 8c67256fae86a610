"""The rematch: one tap when a game ends starts it, and every phone of the table follows."""

from __future__ import annotations

from flask import Blueprint, Response, redirect, request, url_for

from ...live import changes
from ...service.codes import normalise_code
from ..db import get_db
from ...service.errors import NotFound
from ...service.tables import find_table
from ..phone import find_phone, is_fragment_request, phone_at, remember_device

bp = Blueprint("rematch", __name__, url_prefix="/t")


def _go(code: str) -> Response:
    target = url_for("table.show", code=code)
    if is_fragment_request():  # htmx: a full page change, not a swap
        return Response(status=204, headers={"HX-Redirect": target})
    return redirect(target, 303)


def _already_there(next_code: str) -> bool:
    """Whether this phone already holds a place at the rematch (it followed before)."""
    db = get_db()
    try:
        new = find_table(db, next_code)
    except NotFound:
        return False
    return find_phone(db, new) is not None


@bp.post("/<code>/rematch")
def start(code: str):
    """Start the rematch (or find it started) and take this phone there."""
    code = normalise_code(code)
    new = changes.start_rematch(code, phone_at(code), rotate=request.form.get("rotate") == "1")
    return _follow(code, new.code)


@bp.get("/<code>/next")
def follow(code: str):
    """Where a phone of this table goes when its rematch starts: its place at the new table."""
    table = find_table(get_db(), code)
    if not table.next_code:
        return redirect(url_for("table.show", code=table.code), 303)
    return _follow(table.code, table.next_code)


def _follow(code: str, next_code: str) -> Response:
    if _already_there(next_code):
        return _go(next_code)
    joined = changes.follow_rematch(code, phone_at(code))
    remember_device(joined.table.code, joined.device.id)
    return _go(joined.table.code)
