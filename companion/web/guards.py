"""What every request passes before its view: a host name this server answers to, a body of
a size it takes that arrives in time, and text a database can store. A refusal names the
problem (``errors``) and nothing is read further or changed."""

from __future__ import annotations

import threading

import gevent
from flask import Flask, current_app, g, request
from flask_babel import gettext as _
from werkzeug.exceptions import RequestTimeout

from ..games.text import say
from ..service.errors import Busy, Invalid
from ..service.inputs import text_problem

# Endpoints that take a file of plays; every other request body is an action or a form.
LARGE_BODIES = {"groups.import_view", "api.group_import"}


def trusted_host() -> None:
    """With TRUSTED_HOSTS set, a request by any other name is refused (SecurityError, see
    ``errors``) before anything reads it."""
    request.host  # noqa: B018 (Werkzeug checks the name as it reads it)


def limit_body() -> None:
    """A body above the limit is refused with 413 by Werkzeug before it is read whole (from its
    Content-Length, or as soon as a chunked body passes the limit)."""
    large = request.endpoint in LARGE_BODIES
    request.max_content_length = current_app.config[
        "IMPORT_LIMIT_BYTES" if large else "BODY_LIMIT_BYTES"]


def owners_import_alone():
    """A file of plays (megabytes) is read by one request of the process at a time, and only
    an owner's: the view's ``before_body`` (the group, its owner key) and the rate limit come
    first, so a stranger's slow upload never holds the slot. Another owner's is refused with
    503 before its body is read: a hundred large bodies at once cost the memory of one."""
    if request.endpoint not in LARGE_BODIES or request.method != "POST":
        return None
    refused = current_app.view_functions[request.endpoint].before_body(**request.view_args)
    if refused is not None:
        return refused
    if not current_app.extensions["import_gate"].acquire(blocking=False):
        raise Busy(_("Another import is being read just now; try again in a few seconds."))
    g.import_gate = True
    return None


def open_import_gate(_error: BaseException | None = None) -> None:
    if g.pop("import_gate", False):
        current_app.extensions["import_gate"].release()


class BodyTooSlow(RequestTimeout):
    pass


def body_in_time() -> None:
    """The body arrives whole within BODY_SECONDS or the answer is 408: gunicorn times a
    request's headers (its keep-alive), not its body, and a client trickling one byte every
    few seconds would hold its connection for good."""
    if request.content_length or request.headers.get("Transfer-Encoding"):
        with gevent.Timeout(current_app.config["BODY_SECONDS"], BodyTooSlow):
            request.get_data(cache=True)


def storable_text() -> None:
    """Text no database stores (a NUL, a lone surrogate) in the address, the query or a form is
    refused with a sentence before any view reads it (JSON bodies: api.body)."""
    sources = [list((request.view_args or {}).values()), request.args.to_dict(flat=False)]
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        sources.append(request.form.to_dict(flat=False))
    for source in sources:
        problem = text_problem(source)
        if problem:
            raise Invalid(say(problem))


def init_guards(app: Flask, limiter) -> None:
    """In this order: the name, the size, the client's limits (a client past one is not read
    at all), an import's owner, the body's time, its text; then the CSRF check, which reads
    the form."""
    app.extensions["import_gate"] = threading.Semaphore(1)
    app.teardown_request(open_import_gate)
    app.before_request(trusted_host)
    app.before_request(limit_body)
    limiter.init_app(app)
    app.before_request(owners_import_alone)
    app.before_request(body_in_time)
    app.before_request(storable_text)
