"""Every refusal and failure as the request expects it (``answer``): JSON under /api/, the
sentence alone to htmx and to a stream, else a page. Never a stack trace, never silence; in
the log, a failure is one line and its traceback (``log_failure``)."""

from __future__ import annotations

import math
import random
import time
import traceback

from flask import Flask, current_app, g, render_template, request
from flask_babel import gettext as _
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import SecurityError

from ..service.errors import TableProblem
from ..service.inputs import quote
from .guards import BrokenChunks, DatabaseAway
from .phone import is_fragment_request


def answer(status: int, message: str, title: str = "", *, kind: str, api: str | None = None,
           page: str | None = None, headers: dict | None = None,
           template: str = "error.html", **context):
    """``message`` as JSON to the API (``api`` instead, when given) with its ``kind`` (one of
    service.errors.KINDS), alone to htmx and to a stream, else in a page (``page`` instead,
    when given) under ``title``."""
    headers = headers or {}
    if request.path.startswith("/api/"):
        return {"error": api or message, "kind": kind}, status, headers
    if is_fragment_request() or request.endpoint == "table.events":
        return message, status, headers
    return render_template(template, title=title, message=page or message,
                           **context), status, headers


def untrusted_host(_error):
    # Every address the app draws asks for the name again: the page is drawn without one.
    message = _("This companion does not answer to the name %(host)s. Open it by the address "
                "on its invite or its QR code.", host=quote(request.environ.get("HTTP_HOST", "")))
    return answer(400, message, kind="forbidden", template="host_refused.html")


def too_many(_error: RateLimitExceeded):
    # A tarpit of random length: refusals sent back to back must not all wake together.
    limit = current_app.extensions["rate_limiter"].current_limit
    seconds = max(1, math.ceil(limit.window.reset_time - time.time())) if limit else 60
    tarpit = min(float(current_app.config["RATE_LIMIT_TARPIT"]), seconds)
    time.sleep(tarpit * random.uniform(0.5, 1.5))
    message = _("Too many requests from this device; wait %(seconds)d seconds and try again.",
                seconds=seconds)
    return answer(429, message, _("Slow down"), kind="rate_limited",
                  headers={"Retry-After": str(seconds)})


def too_large(_error):
    message = _("The request is larger than %(kb)d KB, far more than anything the companion "
                "takes; nothing was read or changed.", kb=(request.max_content_length or 0) // 1024)
    return answer(413, message, _("Too large"), kind="too_large")


def too_slow(_error):
    message = _("The request body did not arrive within %(seconds)d seconds; nothing was read "
                "or changed.", seconds=current_app.config["BODY_SECONDS"])
    return answer(408, message, _("Too slow"), kind="too_slow", headers={"Connection": "close"})


def broken_chunks(_error):
    return answer(400, _("The request body's chunks could not be read (a chunk's size is not a "
                         "number, or a chunk has no end); nothing was read or changed."),
                  _("Change not made"), kind="invalid")


def csrf_refused(_error: CSRFError):
    return answer(400, _("This page was open too long or came from elsewhere, so the change was "
                         "not made. Reload the page and try again."), _("Change not made"),
                  kind="forbidden")


def table_problem(problem: TableProblem):
    return answer(problem.status, problem.message, _("Sorry"), kind=problem.kind,
                  headers={"Retry-After": "5"} if problem.status == 503 else None,
                  show_code_box=problem.status == 404)


def not_found(_error):
    return answer(404, _("There is no page at this address."), _("Not here"), kind="not_found",
                  api=_("There is nothing at %(path)s.", path=quote(request.path)),
                  show_code_box=True)


def wrong_method(error):
    # The methods the address does accept, as RFC 9110 asks of a 405.
    allow = {"Allow": ", ".join(getattr(error, "valid_methods", None) or ())}
    return answer(405, _("This address does not accept that kind of request."), _("Not like that"),
                  kind="method_not_allowed",
                  api=_("%(method)s is not accepted at %(path)s.", method=quote(request.method),
                        path=quote(request.path)), headers=allow)


def busy(_error):
    # A change recorded before this answer counts once when sent again with its Idempotency-Key.
    return answer(503, _("The companion is too busy to answer just now; try again in a few "
                         "seconds."), _("Busy"), kind="busy",
                  api=_("The companion is too busy to answer just now; try again in a few "
                        "seconds. A change sent again with the same Idempotency-Key is "
                        "recorded once."),
                  page=_("The companion is too busy to answer just now; reload the page in a "
                         "few seconds."), headers={"Retry-After": "2"})


def database_gone(_error):
    # The database refused the connection or dropped it: it is expected back, so 503, not 500.
    return answer(503, _("The companion cannot reach its database just now; try again in a few "
                         "seconds."), _("Back in a moment"), kind="busy",
                  api=_("The database cannot be reached just now; nothing was changed. Try "
                        "again after the Retry-After seconds: a change sent again with the same "
                        "Idempotency-Key is recorded once."),
                  page=_("The companion cannot reach its database just now; reload the page in "
                         "a few seconds."), headers={"Retry-After": "5"})


def server_error(_error):
    return answer(500, _("The companion hit a problem; nothing was changed. Reload the page to "
                         "carry on."), _("Something went wrong"), kind="server_error",
                  api=_("Something went wrong on the companion; nothing was changed."))


def log_failure(exc_info) -> None:
    """A failure in the log: one line naming the route's pattern and the error's type, then the
    traceback's frames. Never the error's own words, nor the address: they hold tables' and
    groups' codes, players' names and SQL parameters."""
    _kind, error, trace = exc_info
    rule = request.url_rule.rule if request.url_rule else "-"
    chain = []
    while error is not None and len(chain) < 5:
        chain.append(f"{type(error).__module__}.{type(error).__qualname__}")
        error = error.__cause__ or error.__context__
    current_app.logger.error("%s %s failed: %s\nTraceback (most recent call last):\n%s%s",
                             request.method, rule, chain[0], "".join(traceback.format_tb(trace)),
                             " <- ".join(chain))
    g.failure_logged = True  # metrics.count_and_log adds no line of its own


def init_errors(app: Flask) -> None:
    for error, handler in ((SecurityError, untrusted_host), (RateLimitExceeded, too_many),
                           (413, too_large), (408, too_slow), (BrokenChunks, broken_chunks),
                           (CSRFError, csrf_refused),
                           (TableProblem, table_problem), (404, not_found),
                           (405, wrong_method), (PoolTimeout, busy),
                           (OperationalError, database_gone), (DatabaseAway, database_gone),
                           (500, server_error)):
        app.register_error_handler(error, handler)
    app.log_exception = log_failure
