"""The trivial health check: the yardstick of `make bench` and a probe for hosted servers."""

from typing import Literal

from flask import Blueprint
from pydantic import BaseModel

from ..openapi import documented, reply

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
