"""The table page every phone shows, its live updates and the changes made from it."""

from __future__ import annotations

import json
from types import SimpleNamespace

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    get_template_attribute,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.globals import request_ctx
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import JSON
from sqlmodel import Session

from ..database import close_db, done_writing, get_db
from ..i18n import select_language
from ..live import Snapshot
from ..models import GameTable
from ..network import listen_host, phone_root, unreachable_reason
from ..qr import qr_svg
from ..tables import (
    AlreadyDone,
    NotFound,
    TableProblem,
    act,
    can_act,
    clean_request_key,
    delete_table,
    devices,
    find_table,
    free_seat,
    game_of,
    log_entries,
    parse_expected,
    read_table,
    set_locked,
    set_read_only,
    undo_or_redo,
)
from ..web import (
    client_address,
    find_phone,
    gzip_stream,
    live_hub,
    forget_device,
    is_fragment_request,
    keep_session_alive,
    parse_have,
    render_page_with_regions,
    regions_for,
    vary,
)

bp = Blueprint("table", __name__, url_prefix="/t")

# Regions of templates/table.html shared by every game; each game adds its own.
COMMON_REGIONS = ("status", "me", "seats", "history", "host")
# Of those, the ones drawn from the phones and the lock alone: a move in the game leaves them
# as they were, so their renders carry over to the next version (see load_snapshot).
PHONE_REGIONS = ("me", "seats", "host")
LOG_SHOWN = 40
FORM_CONTROL_FIELDS = {"csrf_token", "expected_version", "have"}


def join_url(code: str) -> str:
    """The address the QR code carries: the LAN address phones can reach (a loopback one
    when the server listens on loopback only: the invite then says phones cannot join)."""
    return phone_root() + url_for("pages.join", code=code)


def region_names(table: GameTable) -> list[tuple[str, str]]:
    """(template, block) of every live region of this table's page."""
    game = game_of(table)
    return [("table.html", name) for name in COMMON_REGIONS] + [
        (game.template, name) for name in game.regions
    ]


class LogLines:
    """The lines of HTML of some log entries, in the language of the phone being drawn for.

    An entry never changes, so each is drawn once per language and kept in ``drawn`` (by its
    seq), which the next version of the same table's snapshot takes over: the history region
    of a new version draws only the entries it has not seen."""

    def __init__(self, entries: list, previous: "LogLines | None" = None):
        self.entries = entries
        shown = {entry.seq for entry in entries}
        self.drawn: dict[tuple[int, str], str] = {
            key: html for key, html in (previous.drawn.items() if previous else ())
            if key[0] in shown}
        self.joined: dict[str, Markup] = {}

    def __iter__(self):
        lang = select_language()
        line = None
        for entry in self.entries:
            key = (entry.seq, lang)
            html = self.drawn.get(key)
            if html is None:
                if line is None:
                    line = get_template_attribute("macros.html", "log_line")
                html = self.drawn[key] = line(entry)
            yield html

    def __html__(self) -> str:
        """Every line, put together once per language (``{{ log_lines }}`` in a template:
        a loop over forty lines in the template cost more than drawing the one new line)."""
        lang = select_language()
        joined = self.joined.get(lang)
        if joined is None:
            joined = self.joined[lang] = Markup("".join(self))
        return joined


def _newest_log(newest: list, previous: dict | None) -> list:
    """The newest LOG_SHOWN log entries. The log only grows: given the previous version's
    context of the same table, ``newest`` holds only the entries past it."""
    if previous is not None:
        return (newest + previous["log"])[:LOG_SHOWN]
    return newest


def shared_context(db, table: GameTable) -> dict:
    """What every phone's view of this table version shares: the game, the log, the phones."""
    return _shared(table, devices(db, table), log_entries(db, table, LOG_SHOWN), None)


def _shared(table, joined: list, newest_log: list, previous: dict | None) -> dict:
    game = game_of(table)
    log = _newest_log(newest_log, previous)
    return {
        "table": table,
        "game": game,
        "state": table.state,
        "view": game.view(table.state),
        "status": game.status(table.state),
        "scores": game.scores(table.state),
        "winners": game.winners(table.state),
        "devices": joined,
        "watchers": sum(1 for d in joined if not d.seat and not d.is_host),
        "log": log,
        "log_lines": LogLines(log, previous["log_lines"] if previous is not None else None),
        "expected_version": table.state_version,
        "act_url": url_for("table.act_view", code=table.code),
        "oob": False,
    }


def viewer_context(shared: dict, device_id: int | None, lang: str | None = None) -> dict:
    """The few facts about one phone that a region may depend on (``lang``: its language,
    default this request's)."""
    joined = shared["devices"]
    device = next((d for d in joined if d.id == device_id), None)
    holders = {d.seat: d.id for d in joined if d.seat}
    seat = device.seat if device else None
    # What this seat may do now, from the game's table of moves (one computation per seat).
    legal_by_seat = shared.setdefault("legal_by_seat", {})
    if seat not in legal_by_seat:
        legal_by_seat[seat] = shared["game"].legal_actions(shared["state"], seat)
    return {
        "lang": lang or select_language(),
        "phone": device.id if device else None,
        "seat": seat,
        "legal": legal_by_seat[seat],
        "can_act": can_act(device),
        "is_host": bool(device and device.is_host),
        "read_only": bool(device and device.read_only),
        "seats": [{"name": name, "taken": name in holders,
                   "mine": device is not None and holders.get(name) == device.id}
                  for name in shared["table"].players],
    }


def table_context(db, table: GameTable, device) -> dict:
    """Everything the table template needs, derived from the table row and the phone."""
    shared = shared_context(db, table)
    return {**shared, **viewer_context(shared, device.id if device else None)}


def _phones_key(shared: dict) -> tuple:
    table = shared["table"]
    return (table.locked, tuple(table.players),
            tuple((d.id, d.seat, d.is_host, d.read_only) for d in shared["devices"]))


def load_snapshot(code: str, previous: Snapshot | None = None) -> Snapshot | None:
    """One table version as every stream of this process shares it (None: no such table).

    Read as plain rows (no ORM objects: this runs once per change per process), building on
    ``previous``: only the log entries past it are read, and when the phones and the lock
    are as before, its renders of PHONE_REGIONS are kept (a move in the game does not
    redraw every seat's "You are …" line)."""
    before = previous.data if previous is not None else None
    rows = read_table(current_app.extensions["engine"], code, LOG_SHOWN,
                      log_after=before["table"].version if before else None)
    if rows is None:
        return None
    table, joined, newest_log = rows
    if before is not None and before["table"].id != table.id:  # another table, same code
        return load_snapshot(code)
    snapshot = Snapshot(table.version, _shared(table, joined, newest_log, before))
    if before is not None and _phones_key(before) == _phones_key(snapshot.data):
        for name in PHONE_REGIONS:
            if name in previous.renders:
                snapshot.renders[name] = previous.renders[name]
    return snapshot


def snapshot_from_writer(written, previous: Snapshot) -> Snapshot | None:
    """The version a move, an undo or a redo of this process just committed, made from the
    table and the log entry the writer has in hand (``written``) on top of ``previous``, the
    version before it: what ``load_snapshot`` would read back, without reading it (the
    phones are those of ``previous``: a move does not change them). None when they do not
    fit together (another table under the same code, another entry)."""
    table, entry = written
    before = previous.data
    if before["table"].id != table.id or entry.table_id != table.id or entry.seq != table.version:
        return None
    fresh = _as_read(table)
    snapshot = Snapshot(fresh.version, _shared(fresh, before["devices"], [_as_read(entry)], before))
    if _phones_key(before) == _phones_key(snapshot.data):
        for name in PHONE_REGIONS:
            if name in previous.renders:
                snapshot.renders[name] = previous.renders[name]
    return snapshot


def _as_read(written) -> SimpleNamespace:
    """A row as the database gives it back after ``written`` was stored: its columns' values,
    each JSON column copied through JSON as the database would (a tuple comes back as a
    list, a number key as text), so that nothing drawn from it can differ."""
    values = {}
    for column in written.__table__.columns:
        value = getattr(written, column.key)
        if value is not None and isinstance(column.type, JSON):
            value = json.loads(json.dumps(value))
        values[column.key] = value
    return SimpleNamespace(**values)


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


def _me(db, table):
    return find_phone(db, table)


@bp.get("/<code>")
def show(code: str):
    """The live table: board, seats, history; first-time visitors go to the join page."""
    db = get_db()
    table = find_table(db, code)
    if table.code != code:
        return redirect(url_for("table.show", code=table.code), 303)
    device = _me(db, table)
    if device is None:
        return redirect(url_for("pages.join", code=table.code), 303)
    game = game_of(table)
    html = render_page_with_regions(game.template, region_names(table),
                                    _page_context(db, table, device))
    keep_session_alive()
    return vary(Response(html))


def _meta(version: int, state_version: int, follow: str | None = None) -> str:
    """The version the phone now shows; once a rematch is started, where its phones go."""
    rematch = f' data-next="{follow}"' if follow else ""
    return (f'<div id="live-meta" hx-swap-oob="true" hidden data-version="{version}"'
            f' data-state-version="{state_version}"{rematch}></div>')


def _follow_url(table) -> str | None:
    return url_for("rematch.follow", code=table.code) if table.next_code else None


def _regions_for_phone(code: str, device_id: int | None) -> tuple[Snapshot | None, list]:
    """The newest snapshot of the table and its regions as this phone sees them."""
    snapshot = live_hub().snapshot(code)
    if snapshot is None:
        return None, []
    table = snapshot.data["table"]
    viewer = viewer_context(snapshot.data, device_id)
    return snapshot, regions_for(snapshot, region_names(table), viewer)


def _live_response(table, device, status: int = 200, message: str = "") -> Response:
    """The regions that changed for this phone, the new version, and a message for the form."""
    snapshot, regions = _regions_for_phone(table.code, device.id if device else None)
    if snapshot is None:
        return vary(Response(_("This table no longer exists."), status=404))
    have = parse_have(request.values.get("have"))
    fresh = snapshot.data["table"]
    body = message + "".join(html for name, digest, html in regions if have.get(name) != digest)
    body += _meta(fresh.version, fresh.state_version, _follow_url(fresh))
    return vary(Response(body, status=status))


@bp.get("/<code>/live")
def live(code: str):
    """The poll: the changed regions since version ``v`` (the usual "nothing changed" 204
    is answered before Flask, by NothingChangedShortcut in web.py)."""
    db = get_db()
    try:
        table = find_table(db, code)
    except TableProblem:
        return Response(_("This table no longer exists."), status=404)
    if request.args.get("v", type=int) == table.version:
        return Response(status=204)
    return _live_response(table, _me(db, table))


def _sse(event: str, data: str, event_id: int | None = None) -> str:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in data.split("\n")]
    return "\n".join(lines) + "\n\n"


class _ContextWhenNeeded:
    """A copy of a request's context, pushed the first time it is called, popped on exit."""

    def __init__(self, request_context):
        self.request_context = request_context
        self.pushed = None

    def __call__(self) -> None:
        if self.pushed is None:
            self.pushed = self.request_context.copy()
            self.pushed.push()

    def __enter__(self) -> "_ContextWhenNeeded":
        return self

    def __exit__(self, *_exc) -> None:
        if self.pushed is not None:
            self.pushed.pop()
            self.pushed = None


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
    device = _me(db, table)
    device_id = device.id if device else None
    code = table.code
    client = client_address()
    hub = live_hub()
    feed = hub.subscribe(code, client)
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
    lang = select_language()
    close_db()  # a stream holds no database connection while it waits
    heartbeat = current_app.config["LIVE_HEARTBEAT_SECONDS"]

    def changes(snapshot, context: _ContextWhenNeeded) -> str:
        fresh = snapshot.data["table"]
        viewer = viewer_context(snapshot.data, device_id, lang)
        sent = [(name, digest, html) for name, digest, html
                in regions_for(snapshot, region_names(fresh), viewer, context)
                if have.get(name) != digest]
        have.update((name, digest) for name, digest, _html in sent)
        # Phones that had the same regions get the same event: it is put together once.
        key = tuple((name, digest) for name, digest, _html in sent)
        if key not in snapshot.events:
            body = "".join(html for _name, _digest, html in sent)
            follow = follow_url if fresh.next_code else None
            snapshot.events[key] = _sse("regions",
                                        body + _meta(fresh.version, fresh.state_version, follow),
                                        fresh.version)
        return snapshot.events[key]

    # A step that loads or renders runs in a copy of this request's context (url_for,
    # templates), pushed only while it works: many streams share a worker between their
    # events, and most events are made of renders another stream already made.
    request_context = request_ctx._get_current_object()
    retry = current_app.config["LIVE_RETRY_MS"]
    home = url_for("pages.home")
    follow_url = url_for("rematch.follow", code=code)

    def step() -> tuple[str, bool]:
        """What to send next (blocking until there is something) and whether it ends here."""
        nonlocal seen
        with _ContextWhenNeeded(request_context) as context:
            snapshot = feed.current(context)
            if snapshot is None:
                return _sse("deleted", home), True
            if snapshot.version > seen:
                seen = snapshot.version
                return changes(snapshot, context), False
        if not feed.wait_newer(seen, heartbeat):
            feed.recheck()
            return ": still here\n\n", False  # keeps the connection open through routers
        return "", False

    def stream():
        nonlocal seen
        try:
            with _ContextWhenNeeded(request_context) as context:
                snapshot = feed.current(context)
            if snapshot is None:
                yield _sse("deleted", home)
                return
            if seen > snapshot.version:  # a version this table never had: send it all
                seen = -1
            yield f"retry: {retry}\n" + _sse("ready", str(snapshot.version))
            while True:
                chunk, last = step()
                if chunk:
                    yield chunk
                if last:
                    return
        finally:
            leave()

    left = False

    def leave() -> None:
        nonlocal left
        if not left:
            left = True
            hub.unsubscribe(feed, client)

    headers = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}
    body = stream()
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body, headers["Content-Encoding"] = gzip_stream(body), "gzip"
    response = Response(body, mimetype="text/event-stream", headers=headers)
    response.vary.add("Accept-Encoding")
    response.call_on_close(leave)  # also when the phone left before the first event
    return response


def _after_change(db, table: GameTable, device, problem: TableProblem | None = None):
    """Answer a change: regions for htmx, a redirect (with any message) for plain forms."""
    if not is_fragment_request():
        if problem is not None:
            flash(problem.message, "error")
        return redirect(url_for("table.show", code=table.code), 303)
    streamed = request.headers.get("X-Live-Stream") == "open"
    if streamed and (problem is None or problem.status == 409):
        # The phone's open stream brings the change (or the fresher state), as to every
        # other phone; sending regions here too could cross that stream on the way.
        message = problem.message if problem else ""
        return vary(Response(message + _meta(table.version, table.state_version,
                                             _follow_url(table)),
                             status=problem.status if problem else 200))
    if problem is None:
        return _live_response(table, device)
    if problem.status == 409:  # stale: show the fresh state along with the note
        return _live_response(table, device, 409, problem.message)
    return vary(Response(problem.message, status=problem.status))


def _payload(form) -> dict:
    """The form as an action payload: control fields and empty optional fields left out."""
    return {key: value for key, value in form.items()
            if key not in FORM_CONTROL_FIELDS and value.strip() != ""}


def _change(code: str, operation) -> Response:
    """Run ``operation(db, table, device)`` in a write transaction and answer the phone."""
    db = get_db(write=True)
    table = find_table(db, code, for_update=True)
    me = _me(db, table)
    problem = None
    try:
        operation(db, table, me)
    except AlreadyDone:  # a retried tap (same Idempotency-Key): recorded once, shown as is
        db.rollback()
    except TableProblem as refused:
        db.rollback()  # nothing of the refused change stays; the objects reload if read
        problem = refused
    done_writing(db)
    return _after_change(db, table, me, problem)


def _request_key() -> str | None:
    """The tap's Idempotency-Key (app.js sends one per tap, the same when it retries)."""
    return clean_request_key(request.headers.get("Idempotency-Key"))


def _expected() -> int | None:
    return parse_expected(request.form.get("expected_version"), from_form=True)


@bp.post("/<code>/act")
def act_view(code: str):
    """One game action from a phone."""
    return _change(code, lambda db, table, me: act(db, table, me, _payload(request.form),
                                                   _expected(), _request_key()))


@bp.post("/<code>/<any(undo, redo):kind>")
def undo_redo(code: str, kind: str):
    """Undo the last action, or redo the last undone one."""
    return _change(code, lambda db, table, me: undo_or_redo(db, table, me, kind,
                                                            _expected(), _request_key()))


@bp.post("/<code>/host/<any(lock, unlock, free, \"read-only\", \"read-write\"):power>")
def host(code: str, power: str):
    """The host's powers over the table and the phones joined to it."""

    def use_power(db, table, me):
        if power in ("lock", "unlock"):
            set_locked(db, table, me, power == "lock")
        elif power == "free":
            free_seat(db, table, me, request.form.get("seat", ""))
        else:
            target = request.form.get("device", type=int)
            set_read_only(db, table, me, target if target is not None else -1,
                          power == "read-only")

    return _change(code, use_power)


@bp.post("/<code>/delete")
def delete(code: str):
    """The host deletes the table and its whole history."""
    db = get_db(write=True)
    table = find_table(db, code, for_update=True)
    delete_table(db, table, _me(db, table))
    forget_device(code)
    flash(_("Table %(code)s and its history were deleted.", code=code), "info")
    response = redirect(url_for("pages.home"), 303)
    if is_fragment_request():
        response = Response(status=204, headers={"HX-Redirect": url_for("pages.home")})
    return response


@bp.get("/<code>/qr.svg")
def qr(code: str):
    """The join QR code alone, e.g. to show on a second screen."""
    db = get_db()
    table = find_table(db, code)
    return Response(str(qr_svg(join_url(table.code))), mimetype="image/svg+xml")



@bp.get("/<code>/history")
def history(code: str):
    """The table's whole log, oldest first: every action, undo, redo and seat change."""
    db = get_db()
    table = find_table(db, code)
    entries = list(reversed(log_entries(db, table)))
    return render_template("history.html", table=table, game=game_of(table), entries=entries)
