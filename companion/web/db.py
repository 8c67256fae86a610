"""The request's session, for reading; a change writes in a unit of work of its own
(``service.database.writing``, which commits it), never in this one."""

from __future__ import annotations

from contextlib import AbstractContextManager

from flask import current_app, g
from sqlmodel import Session

from ..service.database import writing


def get_db() -> Session:
    """The request's session (closed when the request ends)."""
    if "db" not in g:
        g.db = Session(current_app.extensions["engine"], expire_on_commit=False)
    return g.db


def write() -> AbstractContextManager[Session]:
    """A unit of work on the app's database: committed at the end of the ``with`` block."""
    return writing(current_app.extensions["engine"])


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()
