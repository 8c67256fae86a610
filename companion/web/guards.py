"""What every request passes before its view: a host name this server answers to, a body of
a size it takes that arrives in time, and text a database can store. A refusal names the
problem (``errors``) and nothing is read further or changed."""

from __future__ import annotations

import io
import threading

import gevent
from flask import Flask, current_app, g, request
from flask_babel import gettext as _
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, RequestTimeout

from ..games.text import say
from ..service.database import init_db
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


class BrokenChunks(BadRequest):
    """A chunked body whose framing the server could not read (a chunk size that is no number,
    a chunk without its end)."""


def body_in_time() -> None:
    """The body arrives whole within BODY_SECONDS or the answer is 408: gunicorn times a
    request's headers (its keep-alive), not its body, and a client trickling one byte every
    few seconds would hold its connection for good."""
    if request.content_length or request.headers.get("Transfer-Encoding"):
        with gevent.Timeout(current_app.config["BODY_SECONDS"], BodyTooSlow):
            if request.content_length is None:
                count_chunked_body()
            request.get_data(cache=True)


CHUNK_READ = 64 * 1024


def count_chunked_body() -> None:
    """A body without a length (``Transfer-Encoding: chunked``) is counted as it arrives and
    refused with 413 once past the route's limit: Werkzeug's own stream stops at the limit and
    hands on what it read, so the view would see a body cut short without a word."""
    limit = request.max_content_length or 0
    source, body = request.environ["wsgi.input"], bytearray()
    while True:
        try:
            piece = source.read(min(CHUNK_READ, limit + 1 - len(body)))
        except BodyTooSlow:
            raise
        # The server's reader raises its own error for broken framing (gunicorn: its
        # ParseException; gevent's server: ValueError or IOError).
        except Exception:  # noqa: BLE001
            raise BrokenChunks() from None
        if not piece:
            break
        body += piece
        if len(body) > limit:
            raise RequestEntityTooLarge()
    # What Werkzeug reads from now on: the body as it came, whole.
    request.environ["wsgi.input"] = io.BytesIO(bytes(body))


# What answers without the database: the trivial health check, files, an operator's metrics
# (/readyz brings the schema up itself, to answer 503 in its own words).
WITHOUT_DATABASE = {"health.healthz", "health.readyz", "static", "metrics.metrics"}


def database_ready() -> None:
    """A server that started while its database could not be reached brings the schema up to
    date at the first request that finds the database back; until then, every request that
    needs it is answered 503 (``errors.database_gone``)."""
    if "database_problem" in current_app.extensions and request.endpoint not in WITHOUT_DATABASE:
        prepare_schema()


class DatabaseAway(Exception):
    """The database has not answered yet, and another request is asking it just now."""


def prepare_schema() -> None:
    """The schema brought up to date, once (init_db raises OperationalError while the
    database cannot be reached). One request asks at a time; the others meanwhile are
    answered at once (DatabaseAway), not queued behind a connection that may take seconds."""
    app = current_app
    gate = app.extensions["schema_gate"]
    if not gate.acquire(blocking=False):
        raise DatabaseAway()
    try:
        if "database_problem" in app.extensions:
            app.extensions["schema_upgrade"] = init_db(app.extensions["engine"])
            del app.extensions["database_problem"]
    finally:
        gate.release()


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
    """In this order: the name, the database (when it was away), the size, the client's limits
    (a client past one is not read at all), an import's owner, the body's time, its text; then
    the CSRF check, which reads the form."""
    app.extensions["import_gate"] = threading.Semaphore(1)
    app.extensions["schema_gate"] = threading.Lock()
    app.teardown_request(open_import_gate)
    app.before_request(trusted_host)
    app.before_request(database_ready)
    app.before_request(limit_body)
    limiter.init_app(app)
    app.before_request(owners_import_alone)
    app.before_request(body_in_time)
    app.before_request(storable_text)
