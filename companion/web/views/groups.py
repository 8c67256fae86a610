"""Groups: start one, open it by code or QR, its players, plays, statistics, export, import."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale, ngettext
from jinja2_fragments.flask import render_block
from markupsafe import Markup
from flask_babel import gettext as _
from sqlmodel import Session

from ...live import changes
from ...service.codes import normalise_code
from ..db import get_db, write
from ...games.text import Name, Sentence, say
from ...games import GAMES
from ...service.imports import import_plays
from ..owners import is_owner_key, owner_key
from ...service.groups import (
    GROUP_NAME_MAX,
    create_group,
    delete_group,
    delete_play,
    find_group,
    merge_players,
    add_player,
    players_of,
    play_records,
    find_play,
    last_change,
    play_count,
    require_owner,
    plays_of,
    rename_player,
    undo_change,
)
from ...service.models import GameTable
from ..network import phone_root
from ..qr import qr_svg
from ...service.stats import (
    difficulty_chart,
    pirate_chart,
    score_trends,
    sesterces_chart,
    token_chart,
    trend_chart,
    win_rate_chart,
)
from ...service.stats.lines import day
from ...service.errors import Forbidden, Invalid, NotFound, TableProblem
from ...service.inputs import NAME_MAX, quote
from ...service.tables import game_of, log_entries
from ..i18n import select_language
from ..kept import group_statistics, plays_export, send, statistics_page
from ..kept import plays_csv as kept_csv
from ...service.metrics import IMPORTS
from ..phone import phone_at

bp = Blueprint("groups", __name__)

IMPORT_BYTES_MAX = 5 * 1024 * 1024


def remembered_groups() -> list[str]:
    """The codes of the groups this phone opened, newest first."""
    return list(session.get("groups") or [])


def remember_group(code: str) -> None:
    codes = [code] + [c for c in remembered_groups() if c != code]
    session["groups"] = codes[:10]
    session.permanent = True


def group_url(code: str) -> str:
    """The group's address for its QR code: like a table's invite, one phones can open."""
    return phone_root() + url_for("groups.show", code=code)


def owns(group) -> bool:
    """Whether this phone may change the group's history: it holds the owner key (its signed
    cookie says so, which no phone can write itself), or the group has no owners yet."""
    return not group.owned or group.code in (session.get("owned") or [])


def become_owner(group) -> None:
    session["owned"] = [group.code] + [c for c in session.get("owned") or [] if c != group.code][:19]
    session.permanent = True


def owner_url(group) -> str:
    """The link that makes a phone an owner: shared by an owner, or kept from the start."""
    return phone_root() + url_for("groups.own", code=group.code, key=owner_key(group))


def _group_now(code: str):
    """The group, read in a session of its own: a change checks its owner before it reads a
    request's file, and before its own (writing) session begins."""
    with Session(current_app.extensions["engine"]) as db:
        return find_group(db, code)


@bp.get("/groups/new")
def new():
    """The form to start a group."""
    return render_template("groups/new.html", name_max=GROUP_NAME_MAX, form={})


@bp.post("/groups")
def create():
    """Start a group (its players can be added now or as tables are set up)."""
    names = [line for line in request.form.get("players", "").splitlines() if line.strip()]
    try:
        with write() as db:
            group = create_group(db, request.form.get("name", ""), names)
    except TableProblem as problem:
        return render_template("groups/new.html", name_max=GROUP_NAME_MAX, form=request.form,
                               problem=problem.message), problem.status
    remember_group(group.code)
    become_owner(group)
    return redirect(url_for("groups.show", code=group.code, new=1), 303)


PLAYS_PER_PAGE = 50


def _page(group, status: int = 200, problem: str | None = None, where: str | None = None,
          form=None, recovery: str | None = None):
    db = get_db()
    owner = owns(group)
    shared = owner_url(group) if owner and group.owned else None
    url = group_url(group.code)
    older = request.args.get("older")
    plays = plays_of(db, group, PLAYS_PER_PAGE + 1, find_play(db, group, older) if older else None)
    html = render_template(
        "groups/show.html", group=group, players=players_of(db, group),
        plays=play_records(db, group, plays[:PLAYS_PER_PAGE]), more=len(plays) > PLAYS_PER_PAGE,
        older=older, total=play_count(db, group), games=GAMES, url=url,
        qr=qr_svg(url, _("QR code of the group's address")),
        last_change=last_change(db, group), problem=problem, where=where, form=form or {},
        name_max=NAME_MAX, day=day, owner=owner, shared=shared, recovery=recovery,
        shared_qr=qr_svg(shared, _("QR code of the owner link")) if shared else None)
    return Response(html, status=status)


@bp.get("/g/<code>")
def show(code: str):
    """The group: its players, its plays newest first, and what can be done with them."""
    group = find_group(get_db(), code)
    if group.code != code:
        return redirect(url_for("groups.show", code=group.code), 303)
    remember_group(group.code)
    # Just made (or just given owners): the recovery link, once, for its owner to keep.
    fresh = request.args.get("new") and group.owned and owns(group)
    return _page(group, recovery=owner_url(group) if fresh else None)


@bp.get("/g/<code>/own/<key>")
def own(code: str, key: str):
    """An owner link: this phone becomes an owner of the group."""
    group = find_group(get_db(), code)
    if not is_owner_key(group, key):
        raise Forbidden(_("This owner link does not belong to this group; ask an owner for "
                          "the link again."))
    remember_group(group.code)
    become_owner(group)
    flash(_("This phone is now an owner of %(name)s: it can change the group's history.",
            name=group.name), "info")
    return redirect(url_for("groups.show", code=group.code), 303)


@bp.post("/g/<code>/protect")
def protect(code: str):
    """A group from before owners gets them: this phone is its first, and only owners
    change its history from now on."""
    with write() as db:
        group = find_group(db, code)
        require_owner(group, owns(group))
        group.owned = True
    become_owner(group)
    return redirect(url_for("groups.show", code=group.code, new=1), 303)


def _not_an_owner(group) -> Response | None:
    """The group page saying why, beside its owners (the form tapped is not shown to this
    phone), when this phone may not change the group's history."""
    try:
        require_owner(group, owns(group))
    except TableProblem as problem:
        return _page(group, problem.status, problem.message, "owners")
    return None


def _change(code: str, where: str, operation, owners_only: bool = True):
    """Run one change to a group; a refusal shows on the group page beside its form. A change
    of the group's history (``owners_only``) needs its owner key."""
    refused = _not_an_owner(_group_now(code)) if owners_only else None
    if refused:
        return refused
    try:
        message = changes.change_group(code, operation)
    except TableProblem as problem:
        return _page(find_group(get_db(), code), problem.status, problem.message, where,
                     request.form)
    if message:
        flash(message, "info")
    return redirect(url_for("groups.show", code=normalise_code(code)) + f"#{where}", 303)


@bp.post("/g/<code>/players")
def add(code: str):
    def operation(db, group):
        player = add_player(db, group, request.form.get("name", ""))
        return _("%(name)s is a player of the group.", name=player.name)
    return _change(code, "players", operation, owners_only=False)  # as a new table's seats do


@bp.post("/g/<code>/players/<int:player_id>/rename")
def rename(code: str, player_id: int):
    def operation(db, group):
        old = next((p.name for p in players_of(db, group) if p.id == player_id), "")
        player = rename_player(db, group, player_id, request.form.get("name", ""))
        return _("%(old)s is now called %(new)s.", old=old, new=player.name)
    return _change(code, "players", operation)


@bp.post("/g/<code>/merge")
def merge(code: str):
    def operation(db, group):
        keep, drop = request.form.get("keep", type=int), request.form.get("drop", type=int)
        names = {p.id: p.name for p in players_of(db, group)}
        if keep is None or drop is None:
            raise_invalid(_("Choose the two players to merge."))
        player = merge_players(db, group, keep, drop)
        return _("%(drop)s and %(keep)s are now one player: %(keep)s.",
                 drop=names.get(drop, "?"), keep=player.name)
    return _change(code, "players", operation)


@bp.post("/g/<code>/undo")
def undo(code: str):
    with Session(current_app.extensions["engine"]) as db:  # the change's own session writes
        change = last_change(db, find_group(db, code))
        where = "plays" if change and change.kind == "delete" else "players"  # beside its button

    def operation(db, group):
        change = undo_change(db, group)
        return {"rename": _("The renaming was undone."), "merge": _("The merge was undone."),
                "delete": _("The deleted play is back.")}[change.kind]
    return _change(code, where, operation)


@bp.post("/g/<code>/plays/<uid>/delete")
def delete_one(code: str, uid: str):
    def operation(db, group):
        play = delete_play(db, group, uid)
        return _("The play of %(game)s was deleted.", game=game_name(play.game_id))
    return _change(code, "plays", operation)


def game_name(game_id: str) -> str:
    return say(GAMES[game_id].name) if game_id in GAMES else game_id


@bp.post("/g/<code>/import")
def import_view(code: str):
    """Import a play export: read and written a few plays at a time (``imports``), so the
    tables' requests go on meanwhile; a refusal shows beside the form, nothing imported.
    Its owner was checked before the file was read (``before_body``)."""
    upload = request.files.get("file")
    raw = upload.read(IMPORT_BYTES_MAX + 1) if upload else b""
    try:
        if not raw:
            raise_invalid(_("Choose an export file (.json) to import."))
        if len(raw) > IMPORT_BYTES_MAX:
            raise_invalid(_("The file is larger than 5 MB; that is no play export."))
        with IMPORTS.time():
            done = import_plays(current_app.extensions["engine"], code, raw)
    except TableProblem as problem:
        return _page(find_group(get_db(), code), problem.status, problem.message, "import")
    said = ngettext("%(num)d new play imported.", "%(num)d new plays imported.", done.added)
    if done.conflicts:
        said += " " + ngettext(
            "The group had this play already, told otherwise; it was left as it is: "
            "%(ids)s.", "The group had these plays already, told otherwise; they were left "
            "as they are: %(ids)s.", len(done.conflicts),
            ids=", ".join(done.conflicts[:10])  # ids: 40 characters at most
            + (" …" if len(done.conflicts) > 10 else ""))
    flash(said, "info")
    return redirect(url_for("groups.show", code=find_group(get_db(), code).code) + "#import", 303)


def _owner_before_the_file(code: str):
    """An import's check before its file is read or the import slot taken (guards): the group,
    and this phone its owner; else the group page saying why."""
    return _not_an_owner(_group_now(code))


import_view.before_body = _owner_before_the_file


@bp.post("/g/<code>/delete")
def delete(code: str):
    refused = _not_an_owner(_group_now(code))
    if refused:
        return refused
    try:
        group = changes.change_group(code, lambda db, group: delete_group(
            db, group, request.form.get("confirm", "")) or group)
    except TableProblem as problem:
        return _page(find_group(get_db(), code), problem.status, problem.message, "delete",
                     request.form)
    session["groups"] = [c for c in remembered_groups() if c != group.code]
    flash(_("The group %(name)s was deleted.", name=group.name), "info")
    return redirect(url_for("pages.home"), 303)


@bp.get("/g/<code>/plays.json")
def plays_json(code: str):
    """The group's plays as a file to keep or to import elsewhere (gzipped when asked for)."""
    db = get_db()
    group = find_group(db, code)
    return send(plays_export(db, group), "application/json", f"plays-{group.code}.json")


@bp.get("/g/<code>/plays.csv")
def plays_csv(code: str):
    """The plays for a spreadsheet of the phone's language, in the phone's time zone (``tz``,
    which app/forms.js adds to the link; without it, this computer's own zone)."""
    db = get_db()
    group = find_group(db, code)
    named = request.args.get("tz")
    try:
        zone = ZoneInfo(named) if named else datetime.now().astimezone().tzinfo
    except (ValueError, ZoneInfoNotFoundError):
        raise Invalid(_("There is no time zone called '%(zone)s'.", zone=quote(named))) from None
    body = kept_csv(db, group, select_language(), zone)
    return send(body, "text/csv", f"plays-{group.code}.csv")


def raise_invalid(message: str):
    raise Invalid(message)


@bp.get("/g/<code>/plays/<uid>")
def play_table(code: str, uid: str):
    """A play's finished table, read-only: its whole log, move by move. Shown here, under the
    group's code, so that the table's own code (a way to its seats) is not handed out, and
    still there when the table is put away (archived) after its days without activity."""
    db = get_db()
    group = find_group(db, code)
    play = find_play(db, group, uid)
    table = db.get(GameTable, play.table_id) if play.table_id else None
    if table is None:
        raise NotFound(_("This play has no table on this server (it was imported, or its "
                         "table was deleted)."))
    entries = list(reversed(log_entries(db, table)))
    return render_template("history.html", table=table, game=game_of(table), entries=entries,
                           group=group)


@bp.get("/g/<code>/stats")
def stats(code: str):
    """The group's statistics: players, games, head-to-head, trends and each game's insights,
    every chart with its table."""
    db = get_db()
    group = find_group(db, code)

    def draw() -> Markup:
        numbers, games, win_rates = _statistics(db, group)
        return Markup(render_block("groups/stats.html", "content", group=group, numbers=numbers,
                                   games=games, win_rates=win_rates, most=SHOWN_MOST))

    # The statistics drawn once per version and language (kept), the page around them each time.
    content = statistics_page(db, group, str(get_locale()), draw)
    return render_template("groups/stats.html", group=group, content=content)


# Players and pairs a table or chart of the statistics page lists at most: a phone reads no
# more, and an imported group of 36,000 one-off names drew 36 MB of page in six seconds.
SHOWN_MOST = 100


def _statistics(db, group) -> tuple:
    """The numbers, computed once per version of the group (``kept``: the API's too), and the
    charts: a big group's take a while, its visitors come often."""
    found = group_statistics(db, group)
    return (found.numbers, *_draw_charts(found))


def _draw_charts(found) -> tuple:
    rows, numbers = found.rows, found.numbers
    builders = {"asterix-obelix": token_chart, "kartenspiel": pirate_chart,
                "asterix-co": sesterces_chart, "zaubertrank": difficulty_chart}
    games = []
    for game in numbers.games:
        charts = []
        if game.insights is not None and game.insights.plays and game.game in builders:
            insights = game.insights
            if isinstance(getattr(insights, "players", None), list):  # a bar per player: bounded
                insights = replace(insights, players=insights.players[:SHOWN_MOST])
            charts.append(builders[game.game](insights, chart_id=f"insight-{game.game}"))
        if not game.cooperative:
            trends = score_trends(rows, game.game)
            if trends:
                charts.append(trend_chart(trends, chart_id=f"trend-{game.game}",
                                          title=Sentence("Scores over time: %(game)s", game=Name(game.name))))
        games.append({"stats": game, "charts": charts})
    players = numbers.group.players[:SHOWN_MOST]  # those with most wins: as the table below
    win_rates = win_rate_chart(players, chart_id="win-rate") if players else None
    return games, win_rates


@bp.post("/t/<code>/group")
def link(code: str):
    """The host counts a table that was set up without a group in a group's plays: a group
    this phone knows by its code, or a new one named here. An ended table becomes a play;
    every phone at the table sees it counted."""
    code = normalise_code(code)
    group_code = request.form.get("group_code", "").strip()
    try:
        changed = changes.link_group(code, phone_at(code), group_code, request.form.get("group_name", ""))
    except NotFound:
        raise  # no such table: its page, not a note beside the form
    except TableProblem as problem:
        flash(problem.message, "error")
        return redirect(url_for("table.show", code=code), 303)
    remember_group(changed.group.code)
    if not group_code:
        become_owner(changed.group)  # the host made it here: theirs, as any group's maker
    flash(_("This table now counts in the plays of %(name)s.", name=changed.group.name), "info")
    return redirect(url_for("table.show", code=code), 303)
