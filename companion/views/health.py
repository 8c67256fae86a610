"""The trivial health check: the yardstick of `make bench` and a probe for hosted servers."""

from flask import Blueprint

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """Answer at once, touching nothing."""
    return {"ok": True}
