"""The JSON API: the same operations as the pages, for scripts and tests."""

from __future__ import annotations

import json
import math

from flask import Blueprint, current_app, request
from flask_babel import gettext as _
from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from ...games import GAMES
from ...games.base import FromJson, GameError, typed_by
from ...games.refusals import explain
from ...games.text import Sentence, say
from ...live import changes
from ...live.changes import Caller
from ..owners import is_owner_key, owner_key
from ...service.codes import normalise_code
from ..db import get_db, write
from ...service.errors import AlreadyDone, Invalid, NotFound, Unauthorized
from ...service.groups import (create_group, delete_play, find_group, play_count, play_records,
                               players_of, require_owner)
from ...service.imports import import_plays
from ...service.metrics import IMPORTS
from ...service.inputs import depth_problem, quote, text_problem
from ...service.tables import (clean_players, clean_request_key, find_table, parse_expected,
                               table_json)
from ..api_models import (CREATE_MODELS, CreateGroup, CreateTable, CreateTableFields, Created,
                          CreatedGroup, DeletedPlay, GameInfo, GameList, GroupInfo, GroupStats,
                          Imported, JoinTable, Joined, LogPage, OpenAPIDocument, PlayExport,
                          PlayRecord, QuickScoreResult, Rematch, RematchJoined, Snapshot,
                          VersionOnly)
from ..kept import group_json, plays_export, send, statistics_json
from ..openapi import Error, PerGame, documented, openapi_document, query_args, reply
from ..phone import bearer_token
from .groups import group_url
from .table import join_url

bp = Blueprint("api", __name__, url_prefix="/api")

CODE = "The table's six-character code (case-insensitive)."
GAME_ACTIONS = PerGame(lambda game: game.actions, "Action", "One action of {game}.",
                       alongside=VersionOnly)
QUICK_SCORES = PerGame(lambda game: [game.quick_score_model] if game.quick_score_model else [],
                       "QuickScore", "The final piles of {game}.", chosen_by="game_id")


def body() -> dict:
    """The JSON object sent (``FromJson``), or an Invalid problem naming what is wrong with it:
    not JSON, not an object, NaN or Infinity (JSON has neither), nested deeper than any action,
    or text that cannot be stored (a NUL, a lone surrogate)."""
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    if not request.is_json:
        raise Invalid(_("The request body is not valid JSON."))
    try:
        data = json.loads(raw, parse_constant=_no_constant, parse_float=_finite)
    except _NotANumber as problem:
        raise Invalid(_("The request body holds %(value)s, which is not a number JSON allows.",
                        value=quote(str(problem)))) from None
    except RecursionError:
        raise Invalid(say(depth_problem())) from None
    except ValueError:  # also a body that is not UTF-8
        raise Invalid(_("The request body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise Invalid(_("The request body must be a JSON object."))
    problem = text_problem(data)
    if problem:
        raise Invalid(say(problem))
    return FromJson(data)  # its numbers are read as JSON's (games.base.Whole)


class _NotANumber(ValueError):
    pass


def _no_constant(name: str):
    raise _NotANumber(name)


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _NotANumber(text)
    return number


def parse(model: type[BaseModel], data: dict) -> BaseModel:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Invalid(say(explain(exc))) from None


def parse_create(data: dict) -> CreateTableFields:
    """A create-table body, read by its game's model (``CREATE_MODELS``). The game and the
    seats are looked at first, so that their refusals keep their own sentences ("… is played
    by 2 to 5 players, not 7", "Two players are called …"); an option is named as in the
    set-up form ('winning', not 'options.winning')."""
    if "game" not in data:
        raise Invalid(say(Sentence("The field '%(field)s' is missing.", field="game")))
    game_id = data["game"]
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise Invalid(_("There is no game called '%(game)s' here.", game=quote(str(game_id))))
    if isinstance(data.get("players"), list):
        clean_players(game, data["players"])
    try:
        return CREATE_MODELS[game.id].model_validate(data, context=typed_by(data))
    except ValidationError as exc:
        in_options = exc.errors(include_url=False)[0]["loc"][:1] == ("options",)
        raise Invalid(say(explain(exc, skip_first=in_options))) from None


def caller(code: str) -> Caller:
    """The script behind the bearer token, for a change at table ``code``."""
    token = bearer_token()
    if token is None:
        find_table(get_db(), code)  # a missing table is a 404 first
        raise Unauthorized(_("Send the token from creating or joining the table as "
                             "'Authorization: Bearer <token>'."))
    return Caller(token, by_token=True)


def table_snapshot(db, table, page: LogPage | None = None) -> Snapshot:
    """The table's snapshot, checked field by field against the documented one."""
    page = page or LogPage()
    return Snapshot.model_validate(table_json(db, table, page.log, page.log_before))


NO_TABLE = (Error, "No such table")
STALE = (Error, "Stale: another phone changed the table since expected_version")


@bp.get("/games")
@documented(responses={200: GameList})
def games():
    """The games this companion tracks."""
    return reply(GameList([
        GameInfo(id=game.id, name=game.name, min_players=game.min_players,
                 max_players=game.max_players, cooperative=game.cooperative)
        for game in GAMES.values()
    ]))


@bp.post("/tables")
@documented(body=CreateTable, responses={
    201: Created, 404: (Error, "No group with that code"),
    422: (Error, "Unknown game, wrong number of players, bad names or options")})
def create():
    """Start a table (the token answered is the host's)."""
    data = body()
    request_body = parse_create(data)
    joined = changes.create_table(request_body.game, request_body.players, data.get("options"),
                                  group_code=request_body.group,
                                  seat_players=request_body.seat_players,
                                  coach=request_body.coach)
    return reply(Created(code=joined.table.code, url=join_url(joined.table.code),
                         token=joined.token, version=joined.table.version), 201)


@bp.post("/tables/<code>/join")
@documented(body=JoinTable, path={"code": CODE}, responses={
    200: Joined, 403: (Error, "Table locked or seat taken"), 404: NO_TABLE,
    422: (Error, "Unknown seat")})
def join(code: str):
    """Join a table as a seat or a watcher."""
    request_body = parse(JoinTable, body())
    joined = changes.join(normalise_code(code), request_body.seat, request_body.watch)
    return reply(Joined(token=joined.token, seat=joined.device.seat,
                        version=joined.table.version))


@bp.get("/tables/<code>")
@documented(path={"code": CODE}, query=LogPage,
            responses={200: Snapshot, 404: NO_TABLE, 422: (Error, "A bad log page")})
def show(code: str):
    """The table's snapshot: state, scores, winners and the newest log entries."""
    page = parse(LogPage, query_args())
    db = get_db()
    return reply(table_snapshot(db, find_table(db, code), page))


@bp.post("/tables/<code>/actions")
@documented(body=GAME_ACTIONS, path={"code": CODE}, bearer=True, responses={
    200: Snapshot, 401: (Error, "No token"),
    403: (Error, "Watcher, read-only or another table's token"), 404: NO_TABLE, 409: STALE,
    422: (Error, "Invalid or illegal action")}, idempotent=True)
def action(code: str):
    """Apply one action of the table's game (with an optional expected_version)."""
    key = clean_request_key(request.headers.get("Idempotency-Key"))
    data = body()
    expected = parse_expected(data.pop("expected_version", None))
    code = normalise_code(code)
    try:
        changed = changes.act(code, caller(code), data, expected, key)
    except AlreadyDone as done:
        return _replayed(code, done)
    return reply(table_snapshot(get_db(), changed.table))


def _replayed(code: str, done: AlreadyDone):
    """The answer to a retry of a change already recorded, or to a move that changes nothing:
    the table as it is."""
    db = get_db()
    answer, status = reply(table_snapshot(db, find_table(db, code)))
    return answer, status, ({"Idempotent-Replayed": "true"} if done.seq is not None else {})


@bp.post("/tables/<code>/<any(undo, redo):kind>")
@documented(body=VersionOnly, body_required=False, path={"code": CODE}, bearer=True, responses={
    200: Snapshot, 401: (Error, "No token"), 403: (Error, "Not allowed"), 404: NO_TABLE,
    409: STALE, 422: (Error, "Nothing to undo or redo")}, idempotent=True)
def undo_redo(code: str, kind: str):
    """Undo the last action or redo the last undone one."""
    key = clean_request_key(request.headers.get("Idempotency-Key"))
    expected = parse(VersionOnly, body()).expected_version
    code = normalise_code(code)
    try:
        changed = changes.undo_or_redo(code, caller(code), kind, expected, key)
    except AlreadyDone as done:
        return _replayed(code, done)
    return reply(table_snapshot(get_db(), changed.table))


@bp.post("/games/<game_id>/score")
@documented(body=QUICK_SCORES,
            responses={200: QuickScoreResult, 422: (Error, "Impossible input")})
def quick_score(game_id: str):
    """Score a finished game from its final piles, without a table."""
    game = GAMES.get(game_id)
    if game is None or game.quick_score_model is None:
        raise NotFound(_("There is no quick score for a game called '%(game)s'.",
                         game=quote(game_id)))
    try:
        return reply(QuickScoreResult(game.quick_score(body())))
    except GameError as exc:
        raise Invalid(say(exc.sentence)) from None


@bp.post("/tables/<code>/rematch")
@documented(body=Rematch, body_required=False, path={"code": CODE}, bearer=True, responses={
    200: RematchJoined, 401: (Error, "No token"), 403: (Error, "Not allowed"), 404: NO_TABLE,
    422: (Error, "The game has not ended")})
def rematch_view(code: str):
    """Start the rematch (or find it started) and take the caller's place there."""
    rotate = parse(Rematch, body()).rotate
    code = normalise_code(code)
    phone = caller(code)
    changes.start_rematch(code, phone, rotate)
    joined = changes.follow_rematch(code, phone)
    return reply(RematchJoined(code=joined.table.code, url=join_url(joined.table.code),
                               token=joined.token, seat=joined.device.seat,
                               version=joined.table.version))


NO_GROUP = (Error, "No group with that code")
GROUP_CODE = ("The group's code (case-insensitive): ten characters, six for groups made "
              "before December 2026.")


def _group_info(db, group) -> GroupInfo:
    records = play_records(db, group)
    for record in records:
        record.pop("table")
    return GroupInfo(code=group.code, name=group.name, url=group_url(group.code),
                     players=[p.name for p in players_of(db, group)],
                     plays=[PlayRecord.model_validate(r) for r in records])


@bp.post("/groups")
@documented(body=CreateGroup, responses={201: CreatedGroup, 422: (Error, "A bad name")})
def create_group_view():
    """Start a group of players; the answer holds its owner key."""
    request_body = parse(CreateGroup, body())
    with write() as db:
        group = create_group(db, request_body.name, request_body.players)
    info = _group_info(get_db(), group).model_dump()
    return reply(CreatedGroup(**info, owner_key=owner_key(group)), 201)


@bp.get("/groups/<code>")
@documented(path={"code": GROUP_CODE}, responses={200: GroupInfo, 404: NO_GROUP})
def group_view(code: str):
    """A group: its players and its plays, newest first (made once per change: ``kept``)."""
    db = get_db()
    group = find_group(db, code)
    return send(group_json(db, group, group_url(group.code)), "application/json")


@bp.get("/groups/<code>/plays")
@documented(path={"code": GROUP_CODE}, responses={200: PlayExport, 404: NO_GROUP})
def group_export(code: str):
    """The group's plays as JSON, to keep or to import on another server."""
    db = get_db()
    return send(plays_export(db, find_group(db, code)), "application/json")


@bp.post("/groups/<code>/plays")
@documented(body=PlayExport, path={"code": GROUP_CODE}, bearer=True, responses={
    200: Imported, 403: (Error, "Not the group's owner key"), 404: NO_GROUP,
    409: (Error, "Another import under way adds one of its players or play ids (named)"),
    422: (Error, "Not an export; the play and field named")})
def group_import(code: str):
    """Import an export into the group (with its owner key as the bearer token): all or
    nothing; plays it has already are skipped. The key was checked before the body was read
    (``before_body``)."""
    if not request.is_json:
        raise Invalid(_("The request body is not valid JSON."))
    with IMPORTS.time():
        done = import_plays(current_app.extensions["engine"], code, request.get_data())
    db = get_db()
    return reply(Imported(added=done.added, plays=play_count(db, find_group(db, code)),
                          conflicts=done.conflicts))


def _owner_key_before_the_body(code: str) -> None:
    """An import's check before its body is read or the import slot taken (guards): the
    group, and its owner key as the bearer token."""
    with Session(current_app.extensions["engine"]) as db:
        group = find_group(db, code)
    require_owner(group, is_owner_key(group, bearer_token()))


group_import.before_body = _owner_key_before_the_body


@bp.delete("/groups/<code>/plays/<uid>")
@documented(path={"code": GROUP_CODE, "uid": "The play's id."}, bearer=True, responses={
    200: DeletedPlay, 403: (Error, "Not the group's owner key"),
    404: (Error, "No group with that code, or no play with that id")})
def group_delete_play(code: str, uid: str):
    """Delete one play of the group (with its owner key as the bearer token)."""
    def operation(db, group):
        require_owner(group, is_owner_key(group, bearer_token()))
        delete_play(db, group, uid)
        return group
    group = changes.change_group(code, operation)
    return reply(DeletedPlay(deleted=uid, plays=play_count(get_db(), group)))


@bp.get("/groups/<code>/stats")
@documented(path={"code": GROUP_CODE}, responses={200: GroupStats, 404: NO_GROUP})
def group_stats(code: str):
    """The group's statistics, computed from its plays (once per change: ``kept``, shared with
    the statistics page)."""
    db = get_db()
    return send(statistics_json(db, find_group(db, code)), "application/json")


@bp.get("/openapi.json")
@documented(responses={200: OpenAPIDocument})
def openapi():
    """This API, described from the models that build its answers and read its input."""
    return openapi_document()  # already plain JSON data, built once: no model to pass through
