"""Glue between Flask and the tables: blueprints, CSRF, cookies, regions and error pages."""

from __future__ import annotations

import hashlib
import io
import os
import random
import re
import threading
import time
import zlib
from contextlib import ExitStack, contextmanager
from urllib.parse import parse_qs

from flask import (Flask, Response, current_app, has_request_context, render_template, request,
                   session, url_for)
from flask_babel import gettext as _
from flask_compress import Compress
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf
from jinja2.ext import Extension
from jinja2.runtime import Context
from jinja2_fragments.flask import render_block
from markupsafe import Markup, escape
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import SecurityError

from .games.text import say
from .i18n import one_catalogue
from .inputs import quote, text_problem
from .limits import Limited, check_request
from .tables import Invalid, TableProblem

csrf = CSRFProtect()
compress = Compress()

# -- which phone is this? ------------------------------------------------------


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
    from .tables import find_device

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


# -- full page or the regions htmx asked for ----------------------------------------


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


_HELP_LINKS: dict[tuple, Markup] = {}


def help_link(game_id: str, section: str, label=None) -> Markup:
    """``help(game_id, section, label)`` in templates: a "?" that opens the rules section a
    control depends on, in place. The same few links recur in every region of every change;
    each is drawn once per address and label (its words, in the phone's language)."""
    shown = escape(label or _("How does this work?"))
    key = (request.script_root if has_request_context() else "", game_id, section, str(shown))
    link = _HELP_LINKS.get(key)
    if link is None:
        if len(_HELP_LINKS) > 5000:  # labels are the templates' own words: never reached
            _HELP_LINKS.clear()
        link = _HELP_LINKS[key] = Markup(
            '<a class="help" href="{}#{}"\nhx-get="{}"\nhx-target="#rules-dialog-body" '
            'data-open-dialog="rules-dialog" aria-label="{}" title="{}">?</a>').format(
            url_for("rules.game", game_id=game_id), section,
            url_for("rules.section", game_id=game_id, section_id=section), shown, shown)
    return link


def region(name: str) -> Markup:
    """The attributes of a live region's root element (its hash is filled in after render)."""
    return Markup(f'id="{name}" data-region="{name}" data-hash="@@{name}@@"')


# Parts of a region that differ between renders of the same state: the CSRF token (signed
# with a timestamp) and the version in action forms (app.js keeps those current).
_VOLATILE = re.compile(r'data-live-version value="\d+"')


def _finish(html: str, name: str, oob: bool, token: str | None = None) -> tuple[str, str]:
    """The region with its hash filled in; ``token``: the CSRF token in it (default: this
    request's), left out of the hash. Shared renders carry none ("")."""
    if token is None:
        token = generate_csrf()
    stable = _VOLATILE.sub("", html.replace(token, "") if token else html)
    digest = hashlib.blake2b(stable.encode(), digest_size=6).hexdigest()
    extra = ' hx-swap-oob="true"' if oob else ""
    return html.replace(f'data-hash="@@{name}@@"', f'data-hash="{digest}"{extra}', 1), digest


def render_page_with_regions(page_template: str, regions: list[tuple[str, str]],
                             context: dict) -> str:
    """The full page, each region carrying the same hash a later update will compute."""
    with one_catalogue():
        page = render_template(page_template, **context)
        for template, name in regions:
            _html, digest = _finish(render_block(template, name, **context), name, oob=False)
            page = page.replace(f'data-hash="@@{name}@@"', f'data-hash="{digest}"', 1)
    return page


class Unindented(Extension):
    """The templates are indented for reading; the phones need none of it. Each line's leading
    spaces and tabs go as a template is compiled (the line breaks stay, so words still part
    where they did; no template holds a multi-line string, a <pre> or a textarea's text on a
    line of its own): pages and live updates are 5-8 % smaller, compressed too."""

    INDENT = re.compile(r"\n[ \t]+")

    def preprocess(self, source, name, filename=None):
        return self.INDENT.sub("\n", source)


# -- one render per kind of viewer -----------------------------------------------------------
# A region is rendered from the table's shared data plus a few facts about the phone looking
# at it (its seat, whether it may act, whether it hosts). Which of those facts a region
# actually reads is recorded while it renders; any later phone that agrees on those facts
# gets the same render. So a board that never asks whose phone it is renders once per
# version for everybody, and a seat's own controls once per seat.

_reads = threading.local()


class TrackingContext(Context):
    """Jinja's context, noting which names a template looks up (see ``regions_for``)."""

    def resolve_or_missing(self, key):
        seen = getattr(_reads, "names", None)
        if seen is not None:
            seen.add(key)
        return super().resolve_or_missing(key)


@contextmanager
def _tracking():
    outer = getattr(_reads, "names", None)
    _reads.names = set()
    try:
        yield _reads.names
    finally:
        _reads.names = outer


# Per-request objects: a region that reads them cannot be shared between phones.
_PER_REQUEST = {"request", "session", "g", "get_flashed_messages"}


def _no_token() -> str:
    """Shared renders carry no CSRF token: htmx sends the page's in a header (app.js fills
    plain forms from the page's meta tag when they are submitted)."""
    return ""


def regions_for(snapshot, regions: list[tuple[str, str]], viewer: dict,
                before_render=None) -> list[tuple[str, str, str]]:
    """(name, hash, html as an out-of-band swap) of every region, for this viewer.

    ``snapshot.data`` is the shared context of one table version; ``viewer`` the facts about
    one phone. Renders are cached in ``snapshot.renders`` by the facts each region read.
    ``before_render`` is called before any render (a stream pushes its request context
    only then: most of its events are made of renders already cached)."""
    out = []
    context = None  # made (and the catalogue looked up) for the first render, if any
    with ExitStack() as rendering:
        for template, name in regions:
            cached = snapshot.renders.setdefault(name, [])
            for facts, digest, html in cached:
                if all(viewer.get(key, _MISSING) == value for key, value in facts.items()):
                    break
            else:
                if context is None:
                    if before_render is not None:
                        before_render()
                    rendering.enter_context(one_catalogue())
                    context = {**snapshot.data, **viewer, "csrf_token": _no_token}
                with _tracking() as names:
                    raw = render_block(template, name, **context)
                html, digest = _finish(raw, name, oob=True, token="")
                html = html.strip()
                if names & _PER_REQUEST:
                    facts = {"phone": viewer.get("phone")}
                else:
                    facts = {key: viewer[key] for key in names if key in viewer}
                # Words come from gettext, not the context: every render is in one language.
                facts["lang"] = viewer.get("lang")
                cached.append((facts, digest, html))
            out.append((name, digest, html))
    return out


_MISSING = object()


def parse_have(raw: str | None) -> dict[str, str]:
    """``name:hash,name:hash`` as sent by app.js: what each region on the phone shows."""
    have = {}
    for part in (raw or "").split(",")[:50]:
        name, _, digest = part.partition(":")
        if name and digest:
            have[name] = digest
    return have


# -- the stream -----------------------------------------------------------------------------


def live_hub():
    """This process's listener for the app's database (see live.py)."""
    return current_app.extensions["live"]


def gzip_stream(chunks):
    """Compress a stream of events as one gzip body, flushed after every event.

    Flask-Compress compresses streams too, but holds the output until the end, and a phone
    must see each event the moment it is sent. The window (16 KB) holds a whole ordinary
    event, so the next one, mostly the same regions again, compresses to a few hundred bytes
    (with 8 KB it was 1.7 KB, and took twice the time); each stream's compressor then takes
    about 100 KB, which a few thousand open streams can afford."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + 14, 6)
    try:
        for chunk in chunks:
            yield compressor.compress(chunk.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)
        yield compressor.flush()
    finally:
        close = getattr(chunks, "close", None)
        if close:
            close()


# -- the hot path ------------------------------------------------------------------------


class NothingChangedShortcut:
    """WSGI middleware: answer the "nothing changed" poll before Flask is involved.

    Every phone asks once a second while its stream is not open (and once, with HEAD, when it
    opens: app.js's warmConnection); almost always the answer is an empty 204. Answering it
    here (one indexed read, no request context, no cookie decoding) leaves the Flask route
    for the polls that have something to send. Any other request, or a poll whose version
    differs, goes on to Flask unchanged."""

    def __init__(self, app, engine):
        self.app = app
        self.engine = engine

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        polled = path.startswith("/t/") and path.endswith("/live")
        if polled and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            seen = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
            code = path[3:-5]
            if seen.isascii() and seen.isdigit() and len(seen) <= 18 and code.isascii() and code.isalnum():
                from .tables import table_version

                if table_version(self.engine, code) == int(seen):
                    start_response("204 No Content", [("Vary", "HX-Request")])
                    return []
        return self.app(environ, start_response)


class BodyDeadline:
    """WSGI middleware: a request body must arrive whole within ``seconds``.

    The worker closes a connection whose request line and headers take longer than
    HEADER_SECONDS (gunicorn_worker.Timed), but then reads the body for as long as the client
    takes: a client sending one byte every few seconds would hold its connection for good,
    and enough of them would fill the worker. So a body (up to ``most`` bytes, as its
    Content-Length says; a larger one is refused with 413 by Flask without being read) is read
    here, under one deadline for the whole of it, and handed on from memory; past the deadline
    the answer is 408 and the connection is closed. The deadline is a gevent timeout: it
    interrupts the worker's cooperative socket reads. A chunked body (no Content-Length) is
    read the same way, up to one byte past ``most``."""

    def __init__(self, app, most: int, seconds: float):
        self.app, self.most, self.seconds = app, most, seconds

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = not length and environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked"
        if chunked or (length.isdigit() and 0 < int(length) <= self.most):
            # A chunked body has no length: read one byte past the limit at most, so that
            # Flask answers 413 for a larger one, as it does from a Content-Length.
            wanted = self.most + 1 if chunked else int(length)
            try:
                body = read_within(environ["wsgi.input"], wanted, self.seconds)
            except TooSlow:
                start_response("408 Request Timeout", [
                    ("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")])
                return [b"The request body did not arrive within %d seconds; nothing was "
                        b"read or changed.\n" % self.seconds]
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ.pop("wsgi.input_terminated", None)
        return self.app(environ, start_response)


class TooSlow(Exception):
    pass


def read_within(stream, length: int, seconds: float) -> bytes:
    """Up to ``length`` bytes of ``stream`` (fewer if it ends early), or TooSlow."""
    import gevent

    parts, left = [], length
    with gevent.Timeout(seconds, TooSlow):
        while left > 0:
            part = stream.read(min(left, 65536))
            if not part:
                break
            parts.append(part)
            left -= len(part)
    return b"".join(parts)


# -- set-up ----------------------------------------------------------------------------


def init_web(app: Flask) -> None:
    from .assets import init_assets
    from .i18n import init_i18n
    from .views import api, groups, health, language, pages, rematch, rules, table

    csrf.init_app(app)
    init_i18n(app)
    app.register_blueprint(language.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(rematch.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the API takes bearer tokens only, never the cookie
    app.jinja_env.globals["region"] = region
    app.jinja_env.globals["help"] = help_link
    app.jinja_env.add_extension(Unindented)
    app.jinja_env.context_class = TrackingContext
    engine = app.extensions["engine"]
    app.wsgi_app = NothingChangedShortcut(app.wsgi_app, engine)
    from .handoff import TableHandOff

    # A request naming a table goes, connection and all, to that table's worker (handoff.py);
    # inside BodyDeadline, so that its body has been read whole.
    app.wsgi_app = app.extensions["table_handoff"] = TableHandOff(app.wsgi_app)
    app.wsgi_app = BodyDeadline(app.wsgi_app, max(app.config["BODY_LIMIT_BYTES"],
                                                  app.config["IMPORT_LIMIT_BYTES"]),
                                app.config["BODY_SECONDS"])

    from .live import Hub
    from .tables import table_version
    from .views.table import load_snapshot, snapshot_from_writer

    app.extensions["live"] = Hub(engine, load_snapshot, lambda code: table_version(engine, code),
                                 app.config["STREAMS_PER_CLIENT"], snapshot_from_writer)
    compress.init_app(app)
    init_assets(app)

    @app.cli.command("init-db")
    def init_db_command():
        """Create or upgrade the database tables (done already when the app was built)."""
        print(f"Database ready: {app.extensions['schema_upgrade']}.")
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    # Endpoints that take a file of plays; every other request body is an action or a form.
    large_bodies = {"groups.import_view", "api.group_import"}

    def limit_body():
        """A body above the limit is refused with 413 by Werkzeug before it is read whole
        (from its Content-Length, or as soon as a chunked body passes the limit)."""
        request.max_content_length = app.config[
            "IMPORT_LIMIT_BYTES" if request.endpoint in large_bodies else "BODY_LIMIT_BYTES"]

    def fair_share():
        """Count the request toward its client's limits (limits.py); 429 past one."""
        if request.endpoint not in (None, "static", "health.healthz"):
            check_request()

    def storable_text():
        """Text no database stores (a NUL, a lone surrogate) in the address, the query or a
        form is refused with a sentence before any view reads it (JSON bodies: api.body)."""
        sources = [list((request.view_args or {}).values()), request.args.to_dict(flat=False)]
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            sources.append(request.form.to_dict(flat=False))
        for source in sources:
            problem = text_problem(source)
            if problem:
                raise Invalid(say(problem))

    def trusted_host():
        """With TRUSTED_HOSTS set, a request by any other name is refused (SecurityError,
        ``untrusted_host``) before anything reads it; the CSRF check would ask for the name
        first and answer with a page that cannot be drawn."""
        request.host  # noqa: B018 (Werkzeug checks the name as it reads it)

    # First of all: the CSRF check reads the form; a client past its limit is not read at all.
    app.before_request_funcs.setdefault(None, [])[0:0] = [trusted_host, limit_body, fair_share,
                                                          storable_text]

    @app.errorhandler(SecurityError)
    def untrusted_host(_error):
        # Every address the app draws asks for the name again, so the answer is drawn
        # without one: the sentence alone, in a page of its own.
        message = _("This companion does not answer to the name %(host)s. Open it by the "
                    "address on its invite or its QR code.",
                    host=quote(request.environ.get("HTTP_HOST", "")))
        if request.path.startswith("/api/"):
            return {"error": message}, 400
        if is_fragment_request():
            return message, 400
        return render_template("host_refused.html", message=message), 400

    @app.errorhandler(Limited)
    def too_many(limited: Limited):
        # The tarpit (limits.py): under gevent a sleeping greenlet, costing nothing. Each wait
        # is drawn between half and one and a half times the tarpit: a client that sends its
        # next request the moment a 429 comes would otherwise keep its refusals in step, all
        # of them waking together (a burst the other tables' requests waited behind).
        tarpit = min(float(app.config["RATE_LIMIT_TARPIT"]), limited.retry_after)
        time.sleep(tarpit * random.uniform(0.5, 1.5))
        message = _("Too many requests from this device; wait %(seconds)d seconds and try "
                    "again.", seconds=limited.retry_after)
        headers = {"Retry-After": str(limited.retry_after)}
        if request.path.startswith("/api/"):
            return {"error": message}, 429, headers
        if is_fragment_request() or request.endpoint == "table.events":
            return message, 429, headers
        return render_template("error.html", title=_("Slow down"), message=message), 429, headers

    @app.errorhandler(413)
    def too_large(_error):
        limit = request.max_content_length or 0
        message = _("The request is larger than %(kb)d KB, far more than anything the companion "
                    "takes; nothing was read or changed.", kb=limit // 1024)
        if request.path.startswith("/api/"):
            return {"error": message}, 413
        if is_fragment_request():
            return message, 413
        return render_template("error.html", title=_("Too large"), message=message), 413

    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError):
        message = _("This page was open too long or came from elsewhere, so the change was "
                    "not made. Reload the page and try again.")
        if is_fragment_request():
            return message, 400
        return render_template("error.html", title=_("Change not made"), message=message), 400

    @app.errorhandler(TableProblem)
    def table_problem(problem: TableProblem):
        if request.path.startswith("/api/"):
            return {"error": problem.message}, problem.status
        if is_fragment_request():
            return problem.message, problem.status
        return render_template("error.html", title=_("Sorry"), message=problem.message,
                               show_code_box=problem.status == 404), problem.status

    @app.errorhandler(404)
    def not_found(_error):
        if request.path.startswith("/api/"):
            return {"error": _("There is nothing at %(path)s.", path=quote(request.path))}, 404
        return render_template("error.html", title=_("Not here"),
                               message=_("There is no page at this address."),
                               show_code_box=True), 404

    @app.errorhandler(405)
    def wrong_method(error):
        # The methods the address does accept, as RFC 9110 asks of a 405.
        allow = {"Allow": ", ".join(getattr(error, "valid_methods", None) or ())}
        if request.path.startswith("/api/"):
            return {"error": _("%(method)s is not accepted at %(path)s.",
                               method=quote(request.method), path=quote(request.path))}, 405, allow
        return render_template("error.html", title=_("Not like that"),
                               message=_("This address does not accept that kind of "
                                         "request.")), 405, allow

    @app.errorhandler(PoolTimeout)
    def busy(_error):
        # Every database connection of this worker stayed taken for the pool's whole wait
        # (a crowd of phones on a slow PostgreSQL). A change may have been recorded before
        # its answer was drawn: sent again with its Idempotency-Key (app.js does), it counts
        # once.
        headers = {"Retry-After": "2"}
        if request.path.startswith("/api/"):
            return {"error": _("The companion is too busy to answer just now; try again in a "
                               "few seconds. A change sent again with the same "
                               "Idempotency-Key is recorded once.")}, 503, headers
        if is_fragment_request() or request.endpoint == "table.events":
            return _("The companion is too busy to answer just now; try again in a few "
                     "seconds."), 503, headers
        return render_template("error.html", title=_("Busy"),
                               message=_("The companion is too busy to answer just now; "
                                         "reload the page in a few seconds.")), 503, headers

    @app.errorhandler(500)
    def server_error(_error):
        if request.path.startswith("/api/"):
            return {"error": _("Something went wrong on the companion; nothing was changed.")}, 500
        return render_template("error.html", title=_("Something went wrong"),
                               message=_("The companion hit a problem; nothing was changed. "
                                         "Reload the page to carry on.")), 500
