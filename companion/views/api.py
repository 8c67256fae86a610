"""The JSON API: the same operations as the pages, for scripts and tests."""

from __future__ import annotations

from typing import Any, Literal

from flask import Blueprint, current_app, request
from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError

from ..database import get_db
from ..games import GAMES
from ..games.base import GameError, explain
from ..openapi import Error, FreeObject, PerGame, documented, openapi_document, reply
from ..tables import (
    Forbidden,
    Invalid,
    NotFound,
    TableProblem,
    act,
    check_join_rate,
    create_table,
    find_device,
    find_table,
    join_table,
    parse_expected,
    snapshot,
    undo_or_redo,
)
from ..web import bearer_token, client_address
from .table import join_url

bp = Blueprint("api", __name__, url_prefix="/api")


class CreateTable(BaseModel):
    """Start a table; the answer's token is the host's."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="A game id from GET /api/games.")
    players: list[str] = Field(description="Seat names, 1–24 characters, all different.")
    options: dict = Field(default_factory=dict, description="The game's table options.")


class JoinTable(BaseModel):
    """Take a seat by its player name, or watch."""

    model_config = ConfigDict(extra="forbid")
    seat: str | None = Field(None, description="The player whose seat to take.")
    watch: bool = Field(False, description="Join as a watcher who cannot change anything.")


class VersionOnly(BaseModel):
    """Only the version the caller saw, for undo and redo."""

    model_config = ConfigDict(extra="forbid")
    expected_version: int | None = Field(
        None, description="The table's state_version the caller saw; older than the table's → 409."
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
    can_undo: bool
    can_redo: bool
    log: list[LogLine]


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
    """The JSON object sent, or an Invalid problem naming what is wrong with it."""
    data = request.get_json(silent=True)
    if data is None:
        if not request.get_data():
            return {}
        raise Invalid("The request body is not valid JSON.")
    if not isinstance(data, dict):
        raise Invalid("The request body must be a JSON object.")
    return data


def parse(model: type[BaseModel], data: dict) -> BaseModel:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Invalid(explain(exc)) from None


def caller(db, table):
    """The device behind the bearer token, for a write."""
    token = bearer_token()
    if token is None:
        raise Unauthorized("Send the token from creating or joining the table as "
                           "'Authorization: Bearer <token>'.")
    device = find_device(db, table, token)
    if device is None:
        raise Forbidden("That token gives no rights on this table.")
    return device


class Unauthorized(TableProblem):
    status = 401


def table_snapshot(db, table) -> Snapshot:
    """The table's snapshot, checked field by field against the documented one."""
    return Snapshot.model_validate(snapshot(db, table))


NO_TABLE = (Error, "No such table")
STALE = (Error, "Stale: the table changed since expected_version")


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
    201: Created, 422: (Error, "Unknown game, wrong number of players, bad names or options")})
def create():
    """Start a table (the token answered is the host's)."""
    request_body = parse(CreateTable, body())
    db = get_db(write=True)
    joined = create_table(db, request_body.game, request_body.players, request_body.options)
    return reply(Created(code=joined.table.code, url=join_url(joined.table.code),
                         token=joined.token, version=joined.table.version), 201)


@bp.post("/tables/<code>/join")
@documented(body=JoinTable, path={"code": CODE}, responses={
    200: Joined, 403: (Error, "Table locked or seat taken"), 404: NO_TABLE,
    422: (Error, "Unknown seat"), 429: (Error, "Too many join attempts")})
def join(code: str):
    """Join a table as a seat or a watcher."""
    request_body = parse(JoinTable, body())
    db = get_db(write=True)
    find_table(db, code)
    check_join_rate(db, client_address(), current_app.config["JOIN_LIMIT"])
    joined = join_table(db, code, request_body.seat, request_body.watch)
    return reply(Joined(token=joined.token, seat=joined.device.seat,
                        version=joined.table.version))


@bp.get("/tables/<code>")
@documented(path={"code": CODE}, responses={200: Snapshot, 404: NO_TABLE})
def show(code: str):
    """The table's snapshot: state, scores, winners and the log."""
    db = get_db()
    return reply(table_snapshot(db, find_table(db, code)))


@bp.post("/tables/<code>/actions")
@documented(body=GAME_ACTIONS, path={"code": CODE}, bearer=True, responses={
    200: Snapshot, 401: (Error, "No token"),
    403: (Error, "Watcher, read-only or another table's token"), 404: NO_TABLE, 409: STALE,
    422: (Error, "Invalid or illegal action")})
def action(code: str):
    """Apply one action of the table's game (with an optional expected_version)."""
    data = body()
    expected = parse_expected(data.pop("expected_version", None))
    db = get_db(write=True)
    table = find_table(db, code, for_update=True)
    table = act(db, table, caller(db, table), data, expected)
    return reply(table_snapshot(db, table))


@bp.post("/tables/<code>/<any(undo, redo):kind>")
@documented(body=VersionOnly, body_required=False, path={"code": CODE}, bearer=True, responses={
    200: Snapshot, 401: (Error, "No token"), 403: (Error, "Not allowed"), 404: NO_TABLE,
    409: STALE, 422: (Error, "Nothing to undo or redo")})
def undo_redo(code: str, kind: str):
    """Undo the last action or redo the last undone one."""
    expected = parse(VersionOnly, body()).expected_version
    db = get_db(write=True)
    table = find_table(db, code, for_update=True)
    table = undo_or_redo(db, table, caller(db, table), kind, expected)
    return reply(table_snapshot(db, table))


@bp.post("/games/<game_id>/score")
@documented(body=QUICK_SCORES,
            responses={200: QuickScoreResult, 422: (Error, "Impossible input")})
def quick_score(game_id: str):
    """Score a finished game from its final piles, without a table."""
    game = GAMES.get(game_id)
    if game is None or game.quick_score_model is None:
        raise NotFound(f"There is no quick score for a game called '{game_id}'.")
    try:
        return reply(QuickScoreResult(game.quick_score(body())))
    except GameError as exc:
        raise Invalid(exc.message) from None


@bp.get("/openapi.json")
@documented(responses={200: OpenAPIDocument})
def openapi():
    """This API, described from the models that build its answers and read its input."""
    return openapi_document()  # already plain JSON data, built once: no model to pass through
