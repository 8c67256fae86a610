"""Prometheus metrics for an operator, at /metrics: requests by route kind and status, open
live streams, changes written, import durations. Only the server's own machine may read them,
or whoever sends the bearer METRICS_TOKEN. A 429 or 5xx is also logged, one line each, naming
the route's pattern and never a table's or group's code or a player's name.

With several server processes, ``companion serve`` points PROMETHEUS_MULTIPROC_DIR at a fresh
folder before they start: every process writes its figures there and /metrics adds them up
(prometheus_client's multiprocess mode).
"""

from __future__ import annotations

import hmac
import ipaddress
import os

from flask import Blueprint, Flask, Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest, multiprocess

from ..service.metrics import REQUESTS

bp = Blueprint("metrics", __name__)


def route_kind() -> str:
    """The part of the app a request went to: its blueprint, a few names in all."""
    if request.endpoint == "static":
        return "static"
    return request.blueprint or "unrouted"


def count_and_log(response: Response) -> Response:
    status = response.status_code
    REQUESTS.labels(route_kind(), str(status)).inc()
    if (status == 429 or status >= 500) and not g.get("failure_logged"):
        rule = request.url_rule.rule if request.url_rule else "-"  # "/t/<code>/act", no code
        current_app.logger.warning("%s %s answered %d", request.method, rule, status)
    return response


# Headers a proxy names the client or itself in: any of them means the request was passed on.
FORWARDING = {"forwarded", "via", "x-real-ip", "true-client-ip", "cf-connecting-ip",
              "x-client-ip", "x-cluster-client-ip", "fastly-client-ip"}


def _from_this_machine() -> bool:
    """Loopback, and not passed on by a proxy on this machine: no forwarding header of any
    kind (nginx, Caddy or another proxy adds one, whichever it is set up to send)."""
    try:
        loopback = ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False
    return loopback and not any(name.lower() in FORWARDING or name.lower().startswith(
        ("x-forwarded-", "x-original-")) for name in request.headers.keys())


@bp.get("/metrics")
def metrics():
    token = current_app.config.get("METRICS_TOKEN") or ""
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not (_from_this_machine() or (token and hmac.compare_digest(given, token))):
        return Response("Metrics are for this machine, or for the bearer of METRICS_TOKEN.\n",
                        403, mimetype="text/plain")
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest()
    return Response(body, mimetype=CONTENT_TYPE_LATEST)


def init_metrics(app: Flask) -> None:
    app.register_blueprint(bp)
    app.after_request(count_and_log)
