"""The JSON API: the same operations as the pages, for scripts and tests."""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, Literal, Union

from flask import Blueprint, current_app, request
from flask_babel import gettext as _
from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, RootModel,
                      StrictInt, ValidationError, create_model)
from sqlmodel import Session

from ...games import GAMES
from ...games.base import FromJson, Game, GameError, explain, typed_by
from ...games.patterns import NO_CONTROLS_PATTERN
from ...games.text import N_, Sentence, say
from ...live import changes
from ...live.changes import Caller
from ..owners import is_owner_key, owner_key
from ...service.codes import normalise_code
from ..db import get_db, write
from ...service.errors import AlreadyDone, Invalid, NotFound, Unauthorized
from ...service.groups import (GROUP_NAME_MAX, create_group, delete_play, find_group,
                               play_count, play_records, players_of, require_owner)
from ...service.imports import import_plays
from ...service.metrics import IMPORTS
from ...service.inputs import (CONTROL, NAME_MAX, depth_problem, name_pattern, quote,
                               text_problem, tidy_name)
from ...service.tables import (LOG_PAGE, clean_players, clean_request_key, find_table,
                               parse_expected, table_json)
from ..kept import group_json, plays_export, send, statistics_json
from ..openapi import (Error, FreeObject, PerGame, documented, openapi_document, query_args,
                       reply)
from ..phone import bearer_token
from .groups import group_url
from .table import join_url

bp = Blueprint("api", __name__, url_prefix="/api")


def _tidied(least: int, most: int):
    """A name as sent (at most ``most`` characters, checked before) holds no control character
    (what the document says); then it is what the server keeps (``inputs.tidy_name``), with
    something visible in it when ``least``."""

    def tidy(value: str) -> str:
        if CONTROL.search(value):
            raise ValueError(N_("holds a control character (a tab, a line break or another)"))
        kept = tidy_name(value)
        if len(kept) < least:
            raise ValueError(N_("needs a letter or another visible character"))
        if len(kept) > most:  # a few characters take more than one in their usual form (NFC)
            raise ValueError(N_("is too long once written in its usual form"))
        return kept

    return tidy


def _named(schema: dict) -> None:
    schema["pattern"] = name_pattern()  # something visible must be left (built on first use)


def _no_controls(schema: dict) -> None:
    schema["pattern"] = NO_CONTROLS_PATTERN


def name_text(most: int, least: int = 1) -> Any:
    """A person's or group's name: ``least``–``most`` characters as sent, no control
    character, then tidied; the document says the lengths, the control characters and, for a
    name that must be there, that something visible is in it."""
    return Annotated[str, Field(min_length=least, max_length=most,
                                json_schema_extra=_named if least else _no_controls),
                     AfterValidator(_tidied(least, most))]


SeatName = name_text(NAME_MAX)


class CreateTableFields(BaseModel):
    """What every game's table takes besides its game, seats and options."""

    model_config = ConfigDict(extra="forbid")
    group: str | None = Field(None, description="A group's code: the table's end becomes one "
                                                 "of the group's plays.")
    seat_players: dict[str, name_text(NAME_MAX, least=0)] | None = Field(
        None, description="With a group: the group player's name per seat (default: the "
                          "seat's own name; empty: the seat is no group player).")
    coach: bool = Field(False, strict=True, description="Teaching mode (\"Our first game\"): "
                        "every phone shows what to do now; the host may switch it later.")


def _create_model(game: Game) -> type[CreateTableFields]:
    """The body that starts a table of ``game``: its seats as many as it is played by, its own
    options."""
    return create_model(
        f"Create{type(game).__name__}Table", __base__=CreateTableFields,
        __doc__=f"Start a table of {game.name}; the answer's token is the host's.",
        game=(Literal[game.id], Field(description="A game id from GET /api/games.")),
        players=(list[SeatName], Field(
            min_length=game.min_players, max_length=game.max_players,
            description=f"Seat names, {game.min_players}–{game.max_players} of them, each "
                        f"1–{NAME_MAX} characters, all different (case aside).",
            json_schema_extra={"uniqueItems": True})),
        options=(game.options_model, Field(default_factory=game.options_model,
                                           description="The game's table options.")),
    )


CREATE_MODELS = {game.id: _create_model(game) for game in GAMES.values()}


class CreateTable(RootModel[Annotated[Union[tuple(CREATE_MODELS.values())],  # noqa: UP007
                                      Field(discriminator="game")]]):
    """Start a table; the answer's token is the host's. The game decides the number of seats
    and the options."""


class CreateGroup(BaseModel):
    """Start a group of players (more players join it as its tables are set up)."""

    model_config = ConfigDict(extra="forbid")
    name: name_text(GROUP_NAME_MAX) = Field(
        description=f"The group's name, 1–{GROUP_NAME_MAX} characters.")
    players: list[SeatName] = Field(default_factory=list,
                                    description=f"Player names, 1–{NAME_MAX} characters.")


def _seat_or_watch(schema: dict) -> None:
    # tables.join_table: a seat with a name in it, or watching (then any seat is ignored).
    schema["anyOf"] = [
        {"required": ["seat"], "properties": {"seat": {"type": "string",
                                                       "pattern": name_pattern()}}},
        {"required": ["watch"], "properties": {"watch": {"const": True}}},
    ]


class JoinTable(BaseModel):
    """Take a seat by its player name, or watch."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_seat_or_watch)
    seat: name_text(NAME_MAX, least=0) | None = Field(
        None, description="The player whose seat to take (needed unless watching).")
    watch: bool = Field(False, strict=True,
                        description="Join as a watcher who cannot change anything.")


def whole_float(value: Any) -> Any:
    """7.0 is the number 7 in JSON (and to JSON Schema's "integer"); anything else as sent."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class VersionOnly(BaseModel):
    """Only the version the caller saw, for undo and redo."""

    model_config = ConfigDict(extra="forbid")
    expected_version: Annotated[StrictInt, BeforeValidator(whole_float)] | None = Field(
        None, ge=0, description="The table's state_version the caller saw (a whole number); "
        "older than the table's → 409, unless every change since was this token's own."
    )


# -- the answers ---------------------------------------------------------------------------


class Answer(BaseModel):
    # An answer with a field the model lacks is a bug, not something to drop quietly.
    model_config = ConfigDict(extra="forbid")


class GameInfo(Answer):
    """A game this companion tracks."""

    id: str = Field(description="The game id to start a table with.")
    name: str
    min_players: int
    max_players: int
    cooperative: bool = Field(description="Everyone wins or loses together.")


class GameList(RootModel[list[GameInfo]]):
    """Every game this companion tracks."""


class Created(Answer):
    """A new table; the token is the host's."""

    code: str = Field(description="The table's six-character code.")
    url: str = Field(description="The join page, for the QR code.")
    token: str = Field(description="The host's bearer token.")
    version: int


class Joined(Answer):
    """A phone joined: its bearer token and its seat (none for a watcher)."""

    token: str = Field(description="The phone's bearer token.")
    seat: str | None = Field(description="The seat taken; null for a watcher.")
    version: int


class LogLine(Answer):
    """One entry of the table's log."""

    seq: int = Field(description="The table version the entry made.")
    kind: Literal["action", "undo", "redo", "admin"]
    actor: str | None = Field(description="The seat that made it; null for the host or a script.")
    text: str = Field(description="What happened, in a sentence.")
    at: str = Field(description="When, in ISO 8601.", json_schema_extra={"format": "date-time"})


class Snapshot(Answer):
    """The table: its game's state, scores, winners and the log, newest first."""

    code: str
    game: str = Field(description="The game id.")
    version: int = Field(description="Bumped by every change to the table.")
    state_version: int = Field(
        description="Bumped by changes to the game: what expected_version is checked against.")
    players: list[str] = Field(description="The seats, in seat order.")
    options: dict[str, Any] = Field(description="The game's table options.")
    state: dict[str, Any] = Field(description="The game's own state (its shape is the game's).")
    scores: dict[str, int] | None = Field(
        description="Points per player in seat order, where the game has points.")
    finished: bool
    winners: list[str]
    status: str = Field(description="One line: whose turn, what happens next, the result.")
    locked: bool = Field(description="The host closed the table to new phones.")
    coach: bool = Field(description="Teaching mode: every phone shows what to do now.")
    can_undo: bool
    can_redo: bool
    log: list[LogLine] = Field(description="The newest entries (50, or as many as ?log= asks).")
    log_next: int | None = Field(
        description="More entries are older: ask GET /api/tables/{code}?log_before=<this> "
                    "for the next page. Null: the log is complete.")


class LogPage(BaseModel):
    """Which part of the log a snapshot carries."""

    model_config = ConfigDict(extra="forbid")
    log: int = Field(LOG_PAGE, ge=1, le=500, description="How many log entries, newest first.")
    log_before: int | None = Field(
        None, ge=1, le=2**31 - 1, description="Only entries before this version (the log_next of a snapshot).")


class PlayPlayer(Answer):
    """One player of a play."""

    name: str = Field(description="The group player's name.")
    score: int | None = Field(description="Final score; null where the game has none.")
    winner: bool


class PlayRecord(Answer):
    """One finished game of a group."""

    uid: str = Field(description="Stable id: importing a play twice adds it once.")
    game: str = Field(description="The game id.")
    bgg_id: int | None = Field(description="BoardGameGeek's id of the game, where known.")
    started_at: str = Field(json_schema_extra={"format": "date-time"})
    ended_at: str = Field(json_schema_extra={"format": "date-time"})
    duration_minutes: int
    players: list[PlayPlayer] = Field(description="In seat order.")
    cooperative: bool = Field(description="Everyone won or lost together.")
    result: Literal["won", "lost"] | None = Field(description="A cooperative game's result.")
    facts: dict[str, Any] = Field(description="What the game's end showed (per game).")
    corrected_at: str | None = Field(None, json_schema_extra={"format": "date-time"}, description=(
        "When its table last changed the result after the end; null if it never did."))
    reopened: bool = Field(False, description="Its table's end was undone: the result may "
                                              "still change there.")


class GroupInfo(Answer):
    """A group: its players and plays, newest first."""

    code: str
    name: str
    url: str = Field(description="The group's page, for its QR code.")
    players: list[str]
    plays: list[PlayRecord]


class CreatedGroup(GroupInfo):
    """A new group, and the key that changes its history."""

    owner_key: str = Field(description="The group's owner key: send it as the bearer token to "
                                        "import plays; its page's owner link carries it too. "
                                        "Answered only now: keep it.")


class PlayExport(Answer):
    """A group's plays as exported and imported (format table-companion-plays/1)."""

    format: str
    group: str
    players: list[str]
    plays: list[PlayRecord]


class Imported(Answer):
    """What an import added."""

    added: int = Field(description="Plays new to the group (the others it had already).")
    plays: int = Field(description="Plays of the group now.")
    conflicts: list[str] = Field(description="Ids of plays the group had already with other "
                                             "content (game, times, players, scores, result): "
                                             "left as they were, not overwritten.")


class DeletedPlay(Answer):
    """What deleting a play left."""

    deleted: str = Field(description="The deleted play's id; the group page's undo brings it "
                                     "back.")
    plays: int = Field(description="Plays of the group now.")


class GroupStats(FreeObject):
    """Statistics of a group: per game and per player, head-to-head, trends and insights."""


class QuickScoreResult(FreeObject):
    """The game's own result of a quick score (its keys are the game's; see its rules)."""


class OpenAPIDocument(FreeObject):
    """This document."""


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


class Rematch(BaseModel):
    """Start the rematch of an ended game."""

    model_config = ConfigDict(extra="forbid")
    rotate: bool = Field(False, description="The next player in seat order starts.")


class RematchJoined(Answer):
    """The rematch's table and the caller's place at it (same seat; host if host before)."""

    code: str
    url: str
    token: str = Field(description="The caller's bearer token at the new table.")
    seat: str | None
    version: int


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
    with write() as db:
        group = find_group(db, code)
        require_owner(group, is_owner_key(group, bearer_token()))
        delete_play(db, group, uid)
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
