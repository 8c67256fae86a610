"""The JSON API: the same operations as the pages, for scripts and tests."""

from __future__ import annotations

from flask import Blueprint, current_app, request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..database import get_db
from ..games import GAMES
from ..games.base import GameError, explain
from ..openapi import openapi_document
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
    model_config = ConfigDict(extra="forbid")
    expected_version: int | None = Field(
        None, description="The table version the caller saw; older than the table's → 409."
    )


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


@bp.get("/games")
def games():
    """The games this companion tracks."""
    return [
        {"id": game.id, "name": game.name, "min_players": game.min_players,
         "max_players": game.max_players, "cooperative": game.cooperative}
        for game in GAMES.values()
    ]


@bp.post("/tables")
def create():
    """Start a table."""
    request_body = parse(CreateTable, body())
    db = get_db(write=True)
    joined = create_table(db, request_body.game, request_body.players, request_body.options)
    return {
        "code": joined.table.code,
        "url": join_url(joined.table.code),
        "token": joined.token,
        "version": joined.table.version,
    }, 201


@bp.post("/tables/<code>/join")
def join(code: str):
    """Join a table as a seat or a watcher."""
    request_body = parse(JoinTable, body())
    db = get_db(write=True)
    find_table(db, code)
    check_join_rate(db, client_address(), current_app.config["JOIN_LIMIT"])
    joined = join_table(db, code, request_body.seat, request_body.watch)
    return {"token": joined.token, "seat": joined.device.seat, "version": joined.table.version}


@bp.get("/tables/<code>")
def show(code: str):
    """The table's snapshot: state, scores, winners and the log."""
    db = get_db()
    return snapshot(db, find_table(db, code))


@bp.post("/tables/<code>/actions")
def action(code: str):
    """Apply one game action."""
    data = body()
    expected = parse_expected(data.pop("expected_version", None))
    db = get_db(write=True)
    table = find_table(db, code, for_update=True)
    table = act(db, table, caller(db, table), data, expected)
    return snapshot(db, table)


@bp.post("/tables/<code>/<any(undo, redo):kind>")
def undo_redo(code: str, kind: str):
    """Undo the last action or redo the last undone one."""
    expected = parse(VersionOnly, body()).expected_version
    db = get_db(write=True)
    table = find_table(db, code, for_update=True)
    table = undo_or_redo(db, table, caller(db, table), kind, expected)
    return snapshot(db, table)


@bp.post("/games/<game_id>/score")
def quick_score(game_id: str):
    """Score a finished game from its final piles, without a table."""
    game = GAMES.get(game_id)
    if game is None or game.quick_score_model is None:
        raise NotFound(f"There is no quick score for a game called '{game_id}'.")
    try:
        return game.quick_score(body())
    except GameError as exc:
        raise Invalid(exc.message) from None


@bp.get("/openapi.json")
def openapi():
    """This API described from the same pydantic models that validate its input."""
    return openapi_document()
