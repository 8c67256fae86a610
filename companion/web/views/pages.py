"""Home page, starting a table and joining one."""

from __future__ import annotations

from flask import Blueprint, current_app, abort, redirect, render_template, request, url_for
from flask_babel import force_locale, gettext as _

from ...games import GAMES, GameError, get_game
from ...games.text import Name, say
from ...live import changes
from ...service.codes import code_problem, normalise_code
from ..db import get_db
from ...service.errors import Forbidden, Invalid, NotFound
from ...service.groups import (GROUP_NAME_MAX, clean_name, find_group, players_of,
                               players_who_played)
from ...service.tables import devices, find_table, seat_barred
from ..i18n import LANGUAGES, select_language, unknown_language
from ..phone import find_phone, phone_at, remember_device
from .groups import remember_group, remembered_groups

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    """The games to start and the box for a table code."""
    return render_template("home.html", games=list(GAMES.values()), groups=_my_groups(get_db()))


@bp.post("/join")
def join_by_code():
    """Typed code from the home page: go to that table's join page."""
    raw = request.form.get("code", "")
    code = normalise_code(raw)
    problem = code_problem(code)
    if problem:
        return render_template("home.html", games=list(GAMES.values()), code_error=problem,
                               code_value=raw[:20]), 422
    try:
        find_table(get_db(), code)
    except NotFound as exc:
        return render_template("home.html", games=list(GAMES.values()),
                               code_error=exc.message, code_value=raw[:20]), exc.status
    return redirect(url_for("pages.join", code=code), 303)


def _option_fields(game) -> list[dict]:
    """Describe a game's options for the setup form, straight from its pydantic model."""
    fields = []
    for name, info in game.options_model.model_fields.items():
        annotation = info.annotation
        choices = getattr(annotation, "__args__", None)
        kind = "text"
        if annotation is bool:
            kind = "checkbox"
        elif choices and all(isinstance(c, str) for c in choices):
            kind = "select"
        elif annotation in (int, int | None) or "int" in str(annotation):
            kind = "number"
        # The game's English words (N_), printed as Names in the phone's language.
        label = Name(info.title or name.replace("_", " ").capitalize())
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        names = extra.get("choice_labels", {})
        fields.append({"name": name, "kind": kind, "label": label, "default": info.default,
                       "help": Name(info.description) if info.description else "",
                       "choices": [(c, Name(names.get(c, c))) for c in choices or ()]})
    return fields


def _options_from_form(game, form) -> dict:
    options = {}
    for field in _option_fields(game):
        name = field["name"]
        if field["kind"] == "checkbox":
            # An unticked box sends nothing; the hidden twin says the box was on the form.
            if f"{name}__present" in form:
                options[name] = name in form
        elif form.get(name, "").strip() != "":
            options[name] = form.get(name).strip()
    return options


@bp.route("/new/<game_id>", methods=["GET", "POST"])
def new_table(game_id: str):
    """Set up a table: players and options, then start."""
    game = get_game(game_id)
    if game is None:
        abort(404)
    fields = _option_fields(game)
    if request.method == "GET":
        return render_template("new.html", game=game, fields=fields, players=[],
                               values={}, me="0", groups=_my_groups(get_db(), game.id),
                               group=request.args.get("group", ""), group_name="", coach=False)
    players = [name for name in request.form.getlist("player")]
    # Blank rows at the end of the form are just unused slots, not empty names.
    while players and not players[-1].strip():
        players.pop()
    options = _options_from_form(game, request.form)
    # "This is me": the row whose seat this phone takes; "host" (or nothing) seats nobody.
    me = request.form.get("me", "host")
    # The game night it belongs to: none, a group this phone knows, or a new one (named here).
    group_choice = request.form.get("group", "")
    group_name = request.form.get("group_name", "")
    coach = request.form.get("coach") == "1"  # "Our first game"
    try:
        my_row = _my_row(me, players)
        if group_choice == "new":
            clean_name(group_name, GROUP_NAME_MAX, "group")  # refused before anything is made
        # Each seat is the group's player of that name (a new name becomes a new player).
        joined = changes.create_table(game.id, players, options,
                                      group_code=group_choice if group_choice != "new" else None,
                                      new_group=group_name if group_choice == "new" else None,
                                      my_row=my_row, coach=coach)
    except (Invalid, NotFound) as exc:
        return render_template("new.html", game=game, fields=fields, players=players,
                               values=options, me=me, error=exc.message,
                               groups=_my_groups(get_db(), game.id), group=group_choice,
                               group_name=group_name, coach=coach), exc.status
    if group_choice == "new":
        remember_group(joined.group.code)
    remember_device(joined.table.code, joined.device.id)
    return redirect(url_for("table.show", code=joined.table.code), 303)


def _my_groups(db, game_id: str | None = None) -> list[dict]:
    """The groups this phone opened (newest first), with their players' names for the
    suggestions of the set-up form (and, for ``game_id``, those who have played it: the form
    offers the teaching mode when a seat is new to it); a group deleted meanwhile is left out."""
    found = []
    for code in remembered_groups():
        try:
            group = find_group(db, code)
        except NotFound:
            continue
        found.append({"code": group.code, "name": group.name,
                      "players": [p.name for p in players_of(db, group)],
                      "played": players_who_played(db, group, game_id) if game_id else []})
    return found


def _my_row(me: str, players: list[str]) -> int | None:
    """The player row the creator marked as theirs (None: they only host or watch)."""
    if me == "host":
        return None
    if not me.isdigit():
        raise Invalid(_('The form did not say which player you are: choose "me" next to your '
                        'name, or "I only host or watch".'))
    row = int(me)
    if row >= len(players) or not players[row].strip():
        raise Invalid(_('You chose "me" on row %(row)d, which has no name: type your name '
                        'there, or choose "I only host or watch".', row=row + 1))
    return row


@bp.route("/j/<code>", methods=["GET", "POST"])
def join(code: str):
    """The QR code's address: pick a seat or watch."""
    db = get_db()
    normal = normalise_code(code)
    if normal != code:
        return redirect(url_for("pages.join", code=normal), 303)
    table = find_table(db, code)
    device = find_phone(db, table)
    taken = {d.seat for d in devices(db, table) if d.seat}
    if request.method == "GET":
        if device is not None and request.args.get("change") is None:
            return redirect(url_for("table.show", code=table.code), 303)
        return render_template("join.html", table=table, game=get_game(table.game_id),
                               taken=taken, device=device,
                               barred=seat_barred(table, device))
    seat = request.form.get("seat") or None
    watch = request.form.get("watch") is not None or seat == "__watch__"
    try:
        if device is not None:  # already joined: this is a change of seat
            changes.take_seat(table.code, phone_at(table.code), None if watch else seat)
        else:
            joined = changes.join(table.code, None if watch else seat, watch)
            remember_device(table.code, joined.device.id)
    except (Invalid, Forbidden) as exc:
        return render_template("join.html", table=table, game=get_game(table.game_id),
                               taken=taken, device=device, error=exc.message,
                               barred=seat_barred(table, device)), exc.status
    return redirect(url_for("table.show", code=table.code), 303)


@bp.route("/games/<game_id>/score", methods=["GET", "POST"])
def quick_score(game_id: str):
    """Score a game played without tracking: enter the final piles, see the full scoring."""
    game = get_game(game_id)
    if game is None or game.quick_score_model is None:
        abort(404)
    template = f"games/{game.id}/score.html"
    if request.method == "GET":
        return render_template(template, game=game, result=None, form={})
    form = request.form.to_dict(flat=False)
    try:
        result = game.quick_score(game.quick_score_payload(form))
    except GameError as exc:
        return render_template(template, game=game, result=None, form=form,
                               error=say(exc.sentence)), 422
    return render_template(template, game=game, result=result, form=form)


@bp.get("/manifest.webmanifest")
def web_manifest():
    """The web app manifest: a phone can put the companion on its home screen, full screen."""
    # Browsers fetch it without cookies: the page names the phone's language in the address.
    lang = request.args.get("lang", select_language())
    if lang not in LANGUAGES:
        return current_app.response_class(unknown_language(lang), status=400, mimetype="text/plain")
    with force_locale(lang):
        manifest = _manifest(lang)
    return current_app.response_class(current_app.json.dumps(manifest),
                                      mimetype="application/manifest+json")


def _manifest(lang: str) -> dict:
    def icon(filename: str, size: str, kind: str, purpose: str = "any") -> dict:
        return {"src": url_for("static", filename=f"icons/{filename}"), "sizes": size,
                "type": kind, "purpose": purpose}

    return {
        "name": _("Table companion"),
        "short_name": _("Companion"),
        "description": _("Every phone at the board-game table shares one live game."),
        "lang": lang,
        "start_url": url_for("pages.home"),
        "scope": url_for("pages.home"),
        "display": "standalone",
        "background_color": "#fffdf7",
        "theme_color": "#111111",
        # The die sits in the PNGs' safe middle: Android may crop them to its shape ("maskable").
        "icons": [
            icon("icon-192.png", "192x192", "image/png"),
            icon("icon-512.png", "512x512", "image/png"),
            icon("icon-192.png", "192x192", "image/png", "maskable"),
            icon("icon-512.png", "512x512", "image/png", "maskable"),
            icon("icon.svg", "any", "image/svg+xml"),
        ],
    }


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever the page says: the 32 px icon."""
    return current_app.send_static_file("icons/favicon-32.png")
