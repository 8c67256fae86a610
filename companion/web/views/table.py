"""The table page every phone shows, its live updates and the changes made from it."""

from __future__ import annotations

from flask import (Blueprint, Response, current_app, flash, redirect, render_template, request,
                   session, url_for)
from flask.ctx import RequestContext
from flask_babel import gettext as _

from ...live import changes
from ...live.hub import Hub
from ...live.regions import parse_have, regions_for, render_page_with_regions
from ...live.versions import language, region_names, table_context, viewer_context
from ...live.stream import Stream, gzip_stream, meta
from ..db import close_db, get_db
from ...service.codes import normalise_code
from ...service.errors import AlreadyDone, NotFound, TableProblem
from ...service.tables import (clean_request_key, find_table, game_of, log_entries,
                               parse_expected, table_version)
from ..limits import rate_key
from ..network import listen_host, phone_root, unreachable_reason
from ..phone import (find_phone, forget_device, is_fragment_request,
                     keep_session_alive, phone_at, vary)
from ..qr import qr_svg

bp = Blueprint("table", __name__, url_prefix="/t")

FORM_CONTROL_FIELDS = {"csrf_token", "expected_version", "have"}


def join_url(code: str) -> str:
    """The address the QR code carries: the LAN address phones can reach (a loopback one
    when the server listens on loopback only: the invite then says phones cannot join)."""
    return phone_root() + url_for("pages.join", code=code)


def live_hub() -> Hub:
    return current_app.extensions["live"]


def _page_context(db, table, device) -> dict:
    context = table_context(db, table, device)
    url = join_url(table.code)
    # No QR code that no phone could open: the invite says why and what to start instead.
    problem = unreachable_reason(url, listen_host())
    qr = None if problem else qr_svg(url, _("QR code of the join address"))
    context.update(join_url=url, qr=qr, invite_problem=problem,
                   listening=listen_host(), poll_ms=int(current_app.config["POLL_SECONDS"] * 1000))
    # The host's page opens on the invite until every seat has a phone (then it folds away).
    context["invite_first"] = context["is_host"] and not all(s["taken"] for s in context["seats"])
    return context


@bp.get("/<code>")
def show(code: str):
    """The live table: board, seats, history; first-time visitors go to the join page."""
    db = get_db()
    table = find_table(db, code)
    if table.code != code:
        return redirect(url_for("table.show", code=table.code), 303)
    device = find_phone(db, table)
    if device is None:
        return redirect(url_for("pages.join", code=table.code), 303)
    game = game_of(table)
    html = render_page_with_regions(game.template, region_names(table),
                                    _page_context(db, table, device))
    keep_session_alive()
    return vary(Response(html))


def _follow_url(table) -> str | None:
    return url_for("rematch.follow", code=table.code) if table.next_code else None


def _live_response(code: str, device_id: int | None, status: int = 200,
                   message: str = "") -> Response:
    """The regions that changed for this phone, the new version, and a message for the form."""
    current = live_hub().newest(code)
    if current is None:
        return vary(Response(_("This table no longer exists."), status=404))
    fresh = current.data["table"]
    viewer = viewer_context(current.data, device_id)
    have = parse_have(request.values.get("have"))
    body = message + "".join(html for name, digest, html
                             in regions_for(current, region_names(fresh), viewer)
                             if have.get(name) != digest)
    body += meta(fresh.version, fresh.state_version,
                 _follow_url(fresh) if viewer["follows"] else None)
    return vary(Response(body, status=status))


@bp.get("/<code>/live")
def live(code: str):
    """The poll: nothing (204) while the table is at version ``v``, else the regions that
    changed since."""
    seen = request.args.get("v", "")
    if seen.isascii() and seen.isdigit() and len(seen) <= 18 and table_version(
            current_app.extensions["engine"], code) == int(seen):
        return vary(Response(status=204))  # one indexed read: the usual answer, once a second
    db = get_db()
    try:
        table = find_table(db, code)
    except TableProblem:
        return Response(_("This table no longer exists."), status=404)
    device = find_phone(db, table)
    return _live_response(table.code, device.id if device else None)


@bp.get("/<code>/events")
def events(code: str):
    """The phone's stream: each change of the table as the regions that changed for it.

    Opens with a "ready" event; a phone that reconnects after a gap (``Last-Event-ID``)
    or whose page is older than the table gets everything it missed in one event."""
    db = get_db()
    try:
        table = find_table(db, code)
    except TableProblem:
        return Response(_("There is no table with this code."), status=404, mimetype="text/plain")
    device = find_phone(db, table)
    # Counted per phone, as its rate limits are: a café's phones share one public address.
    hub, client = live_hub(), rate_key()
    feed = hub.subscribe(table.code, client)
    if feed is None:
        return Response(_("Too many live connections from this device; close some pages "
                          "and try again."), status=429, headers={"Retry-After": "30"},
                        mimetype="text/plain")
    last_id = request.headers.get("Last-Event-ID", "")
    if last_id.isascii() and last_id.isdigit() and len(last_id) <= 18:
        # the browser reconnecting by itself: what it had is unknown
        seen, have = int(last_id), {}
    else:
        seen, have = request.args.get("v", -1, type=int), parse_have(request.args.get("have"))
    # The stream renders later, outside this request: a context like it (its request and session,
    # the real objects behind Flask's proxies), copied for each event that must render.
    like_this = RequestContext(current_app._get_current_object(), request.environ,
                               request=request._get_current_object(),
                               session=session._get_current_object())
    stream = Stream(feed, like_this.copy, device.id if device else None,
                    language(), seen, have,
                    {"home": url_for("pages.home"),
                     "follow": url_for("rematch.follow", code=table.code)},
                    {"retry_ms": current_app.config["LIVE_RETRY_MS"],
                     "heartbeat": current_app.config["LIVE_HEARTBEAT_SECONDS"]})
    close_db()  # a stream holds no database connection while it waits
    left = []

    def leave() -> None:
        if not left:
            left.append(True)
            hub.unsubscribe(feed, client)

    def body():
        try:
            yield from stream.events()
        finally:
            leave()

    headers = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}
    chunks = body()
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        chunks, headers["Content-Encoding"] = gzip_stream(chunks), "gzip"
    response = Response(chunks, mimetype="text/event-stream", headers=headers)
    response.vary.add("Accept-Encoding")
    response.call_on_close(leave)  # also when the phone left before the first event
    return response


def _after_change(code: str, table, device_id: int | None,
                  problem: TableProblem | None = None) -> Response:
    """Answer a change: regions for htmx, a redirect (with any message) for plain forms.
    ``table``: the table as the change left it (None after a refusal)."""
    if not is_fragment_request():
        if problem is not None:
            flash(problem.message, "error")
        return redirect(url_for("table.show", code=code), 303)
    streamed = request.headers.get("X-Live-Stream") == "open"
    if problem is None:
        if streamed:  # the phone's open stream brings the change, as to every other phone
            return vary(Response(meta(table.version, table.state_version, _follow_url(table))))
        return _live_response(code, device_id)
    if problem.status != 409:
        return vary(Response(problem.message, status=problem.status))
    if streamed:  # stale: the stream brings the fresher state; here only the sentence
        fresh = live_hub().newest(code).data["table"]
        return vary(Response(problem.message + meta(fresh.version, fresh.state_version,
                                                    _follow_url(fresh)), status=409))
    return _live_response(code, device_id, 409, problem.message)


def _change(code: str, make) -> Response:
    """Make one change (``make(code, phone)``: a ``changes`` call) and answer the phone."""
    code = normalise_code(code)
    phone = phone_at(code)
    device_id = phone.held if isinstance(phone.held, int) else None
    try:
        changed = make(code, phone)
    except AlreadyDone:  # a retried tap (same Idempotency-Key): recorded once, shown as is
        return _after_change(code, live_hub().newest(code).data["table"], device_id)
    except NotFound:
        raise  # no such table: its page, not a note beside the form
    except TableProblem as refused:
        return _after_change(code, None, device_id, refused)
    return _after_change(code, changed.table, changed.device.id if changed.device else None)


def _request_key() -> str | None:
    """The tap's Idempotency-Key (static/app/live.js sends one per tap; unsent.js the same one
    when it retries)."""
    return clean_request_key(request.headers.get("Idempotency-Key"))


def _expected() -> int | None:
    return parse_expected(request.form.get("expected_version"), from_form=True)


def _payload(form) -> dict:
    """The form as an action payload: control fields and empty optional fields left out."""
    return {key: value for key, value in form.items()
            if key not in FORM_CONTROL_FIELDS and value.strip() != ""}


@bp.post("/<code>/act")
def act_view(code: str):
    """One game action from a phone."""
    return _change(code, lambda code, phone: changes.act(
        code, phone, _payload(request.form), _expected(), _request_key()))


@bp.post("/<code>/<any(undo, redo):kind>")
def undo_redo(code: str, kind: str):
    """Undo the last action, or redo the last undone one."""
    return _change(code, lambda code, phone: changes.undo_or_redo(
        code, phone, kind, _expected(), _request_key()))


@bp.post("/<code>/host/<any(lock, unlock, \"coach-on\", \"coach-off\", free, \"read-only\", \"read-write\"):power>")
def host(code: str, power: str):
    """The host's powers over the table and the phones joined to it."""
    target = request.form.get("device", type=int)
    return _change(code, lambda code, phone: changes.host_power(
        code, phone, power, request.form.get("seat", ""), target if target is not None else -1))


@bp.post("/<code>/delete")
def delete(code: str):
    """The host deletes the table and its whole history."""
    code = normalise_code(code)
    changes.delete(code, phone_at(code))
    forget_device(code)
    flash(_("Table %(code)s and its history were deleted.", code=code), "info")
    if is_fragment_request():
        return Response(status=204, headers={"HX-Redirect": url_for("pages.home")})
    return redirect(url_for("pages.home"), 303)


@bp.get("/<code>/qr.svg")
def qr(code: str):
    """The join QR code alone, e.g. to show on a second screen."""
    table = find_table(get_db(), code)
    return Response(str(qr_svg(join_url(table.code))), mimetype="image/svg+xml")


@bp.get("/<code>/history")
def history(code: str):
    """The table's whole log, oldest first: every action, undo, redo and seat change."""
    db = get_db()
    table = find_table(db, code)
    entries = list(reversed(log_entries(db, table)))
    return render_template("history.html", table=table, game=game_of(table), entries=entries)
