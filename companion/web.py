"""Glue between Flask and the tables: blueprints, CSRF, cookies, regions and error pages."""

from __future__ import annotations

import hashlib
import re
from urllib.parse import parse_qs

from flask import Flask, Response, render_template, request, session
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf
from jinja2_fragments.flask import render_block
from markupsafe import Markup

from .tables import TableProblem

csrf = CSRFProtect()

# -- which phone is this? ------------------------------------------------------


def device_token(code: str) -> str | None:
    """The token this browser holds for table ``code`` (kept in the signed session cookie)."""
    return (session.get("tables") or {}).get(code)


def remember_device(code: str, token: str) -> None:
    tables = dict(session.get("tables") or {})
    tables[code] = token
    # Phones join a few tables an evening; keep the newest few so the cookie stays small.
    session["tables"] = dict(list(tables.items())[-20:])
    session.permanent = True


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


def region(name: str) -> Markup:
    """The attributes of a live region's root element (its hash is filled in after render)."""
    return Markup(f'id="{name}" data-region="{name}" data-hash="@@{name}@@"')


# Parts of a region that differ between renders of the same state: the CSRF token (signed
# with a timestamp) and the version in action forms (app.js keeps those current).
_VOLATILE = re.compile(r'data-live-version value="\d+"')


def _finish(html: str, name: str, oob: bool) -> tuple[str, str]:
    stable = _VOLATILE.sub("", html.replace(generate_csrf(), ""))
    digest = hashlib.blake2b(stable.encode(), digest_size=6).hexdigest()
    extra = ' hx-swap-oob="true"' if oob else ""
    return html.replace(f'data-hash="@@{name}@@"', f'data-hash="{digest}"{extra}', 1), digest


def render_regions(regions: list[tuple[str, str]], context: dict,
                   have: dict[str, str] | None = None) -> str:
    """The regions whose content differs from what the phone has, as out-of-band swaps.

    ``regions`` lists (template, block) pairs: a block is rendered from the template that
    defines it (jinja2-fragments does not follow ``extends``)."""
    parts = []
    for template, name in regions:
        html, digest = _finish(render_block(template, name, **context), name, oob=True)
        if have is None or have.get(name) != digest:
            # Stripped, so that nothing but the message is left for the form's error line.
            parts.append(html.strip())
    return "".join(parts)


def render_page_with_regions(page_template: str, regions: list[tuple[str, str]],
                             context: dict) -> str:
    """The full page, each region carrying the same hash a later poll will compute."""
    page = render_template(page_template, **context)
    for template, name in regions:
        _html, digest = _finish(render_block(template, name, **context), name, oob=False)
        page = page.replace(f'data-hash="@@{name}@@"', f'data-hash="{digest}"', 1)
    return page


def parse_have(raw: str | None) -> dict[str, str]:
    """``name:hash,name:hash`` as sent by app.js: what each region on the phone shows."""
    have = {}
    for part in (raw or "").split(",")[:50]:
        name, _, digest = part.partition(":")
        if name and digest:
            have[name] = digest
    return have


# -- the hot path ------------------------------------------------------------------------


class NothingChangedShortcut:
    """WSGI middleware: answer the "nothing changed" poll before Flask is involved.

    Every phone asks once a second; almost always the answer is an empty 204. Answering it
    here (one indexed read, no request context, no cookie decoding) leaves the Flask route
    for the polls that have something to send. Any other request, or a poll whose version
    differs, goes on to Flask unchanged."""

    def __init__(self, app, engine):
        self.app = app
        self.engine = engine

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") == "GET" and path.startswith("/t/") and path.endswith("/live"):
            seen = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
            code = path[3:-5]
            if seen.isdigit() and "/" not in code:
                from .tables import table_version

                if table_version(self.engine, code) == int(seen):
                    start_response("204 No Content", [("Vary", "HX-Request")])
                    return []
        return self.app(environ, start_response)


# -- set-up ----------------------------------------------------------------------------


def init_web(app: Flask) -> None:
    from .views import api, health, pages, rules, table

    csrf.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the API takes bearer tokens only, never the cookie
    app.jinja_env.globals["region"] = region
    app.wsgi_app = NothingChangedShortcut(app.wsgi_app, app.extensions["engine"])

    @app.cli.command("init-db")
    def init_db_command():
        """Create the database tables that do not exist yet."""
        from .database import init_db

        init_db(app.extensions["engine"])
        print("Database ready.")
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError):
        message = ("This page was open too long or came from elsewhere, so the change was "
                   "not made. Reload the page and try again.")
        if is_fragment_request():
            return message, 400
        return render_template("error.html", title="Change not made", message=message), 400

    @app.errorhandler(TableProblem)
    def table_problem(problem: TableProblem):
        if request.path.startswith("/api/"):
            return {"error": problem.message}, problem.status
        if is_fragment_request():
            return problem.message, problem.status
        return render_template("error.html", title="Sorry", message=problem.message,
                               show_code_box=problem.status == 404), problem.status

    @app.errorhandler(404)
    def not_found(_error):
        if request.path.startswith("/api/"):
            return {"error": f"There is nothing at {request.path}."}, 404
        return render_template("error.html", title="Not here",
                               message="There is no page at this address.",
                               show_code_box=True), 404

    @app.errorhandler(405)
    def wrong_method(_error):
        if request.path.startswith("/api/"):
            return {"error": f"{request.method} is not accepted at {request.path}."}, 405
        return render_template("error.html", title="Not like that",
                               message="This address does not accept that kind of request."), 405

    @app.errorhandler(500)
    def server_error(_error):
        if request.path.startswith("/api/"):
            return {"error": "Something went wrong on the companion; nothing was changed."}, 500
        return render_template("error.html", title="Something went wrong",
                               message="The companion hit a problem; nothing was changed. "
                                       "Reload the page to carry on."), 500
