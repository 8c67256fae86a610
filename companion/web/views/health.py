"""Health checks: the trivial one (the yardstick of `make bench` and a probe for hosted
servers) and readiness, which asks the database."""

from typing import Literal

from flask import Blueprint, current_app
from flask_babel import gettext as _
from pydantic import BaseModel
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from ..guards import DatabaseAway, prepare_schema
from ..openapi import Error, documented, reply

bp = Blueprint("health", __name__)


class Health(BaseModel):
    """The server answers."""

    ok: Literal[True] = True


HEALTHY = Health()


@bp.get("/healthz")
@documented(responses={200: Health})
def healthz():
    """Answer at once, touching nothing."""
    return reply(HEALTHY)


@bp.get("/readyz")
@documented(responses={200: Health, 503: (Error, "The database cannot be reached")})
def readyz():
    """Whether the server can serve tables: its database answers and has its schema."""
    try:
        if "database_problem" in current_app.extensions:
            prepare_schema()  # the server started while the database could not be reached
        with current_app.extensions["engine"].connect() as connection:
            connection.execute(text("SELECT version_num FROM alembic_version")).all()
    except (SQLAlchemyError, DatabaseAway):
        return reply(Error(error=_("The database cannot be reached; the tables cannot be served "
                                   "until it is back."), kind="busy"), 503)
    return reply(HEALTHY)
