"""The OpenAPI document, generated from the pydantic models that validate the API's input."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .games import GAMES

REF = "#/components/schemas/{model}"


def _error(description: str) -> dict:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _json(schema: dict, description: str = "OK") -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


@lru_cache(maxsize=1)
def openapi_document() -> dict:
    from .views.api import CreateTable, JoinTable, VersionOnly

    models: list[type[BaseModel]] = [CreateTable, JoinTable, VersionOnly]
    for game in GAMES.values():
        models.extend(game.actions)
        models.append(game.options_model)
        if game.quick_score_model is not None:
            models.append(game.quick_score_model)
    refs, top = models_json_schema([(m, "validation") for m in dict.fromkeys(models)],
                                   ref_template=REF)
    schemas = top.get("$defs", {})

    def ref(model: type[BaseModel]) -> dict:
        # pydantic names each schema, telling apart two games' models of the same class name.
        return refs[(model, "validation")]

    def schema_of(model: type[BaseModel]) -> dict:
        return schemas[ref(model)["$ref"].rsplit("/", 1)[-1]]

    schemas["Error"] = {
        "type": "object",
        "properties": {"error": {"type": "string", "description": "What is wrong, in a sentence."}},
        "required": ["error"],
    }
    schemas["Snapshot"] = {
        "type": "object",
        "properties": {
            "code": {"type": "string"}, "game": {"type": "string"},
            "version": {"type": "integer"}, "state_version": {"type": "integer"},
            "players": {"type": "array", "items": {"type": "string"}},
            "options": {"type": "object"}, "state": {"type": "object"},
            "scores": {"type": ["object", "null"], "additionalProperties": {"type": "integer"}},
            "finished": {"type": "boolean"},
            "winners": {"type": "array", "items": {"type": "string"}},
            "status": {"type": "string"}, "locked": {"type": "boolean"},
            "can_undo": {"type": "boolean"}, "can_redo": {"type": "boolean"},
            "log": {"type": "array", "items": {"type": "object"}},
        },
    }
    action_refs = []
    for game in GAMES.values():
        for model in game.actions:
            action_refs.append(ref(model))
            schema = schema_of(model)
            schema.setdefault(
                "description", (model.__doc__ or "").strip() or f"An action of {game.name}."
            )
            schema["x-game"] = game.id
    snapshot = {"$ref": "#/components/schemas/Snapshot"}
    code = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"},
            "description": "The table's six-character code (case-insensitive)."}
    bearer = [{"bearer": []}]
    paths: dict = {
        "/healthz": {"get": {"summary": "Health check", "responses": {"200": _json({"type": "object"})}}},
        "/api/games": {"get": {"summary": "The games this companion tracks",
                               "responses": {"200": _json({"type": "array", "items": {"type": "object"}})}}},
        "/api/tables": {"post": {
            "summary": "Start a table (the token answered is the host's)",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref(CreateTable)}}},
            "responses": {"201": _json({"type": "object", "properties": {
                "code": {"type": "string"}, "url": {"type": "string"},
                "token": {"type": "string"}, "version": {"type": "integer"}}}, "Created"),
                "422": _error("Unknown game, wrong number of players, bad names or options")}}},
        "/api/tables/{code}": {"get": {
            "summary": "The table's snapshot", "parameters": [code],
            "responses": {"200": _json(snapshot), "404": _error("No such table")}}},
        "/api/tables/{code}/join": {"post": {
            "summary": "Join as a seat or a watcher", "parameters": [code],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref(JoinTable)}}},
            "responses": {"200": _json({"type": "object", "properties": {"token": {"type": "string"}}}),
                          "403": _error("Table locked or seat taken"),
                          "404": _error("No such table"), "422": _error("Unknown seat"),
                          "429": _error("Too many join attempts")}}},
        "/api/tables/{code}/actions": {"post": {
            "summary": "Apply one game action of the table's game",
            "description": "The body is one of the action objects of the table's game (see "
                           "x-game on each schema), plus an optional expected_version.",
            "parameters": [code], "security": bearer,
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"allOf": [{"oneOf": action_refs},
                                     ref(VersionOnly)]}}}},
            "responses": {"200": _json(snapshot), "401": _error("No token"),
                          "403": _error("Watcher, read-only or another table's token"),
                          "404": _error("No such table"),
                          "409": _error("Stale: the table changed since expected_version"),
                          "422": _error("Invalid or illegal action")}}},
    }
    for kind in ("undo", "redo"):
        paths[f"/api/tables/{{code}}/{kind}"] = {"post": {
            "summary": f"{kind.capitalize()} the last {'action' if kind == 'undo' else 'undone action'}",
            "parameters": [code], "security": bearer,
            "requestBody": {"required": False, "content": {"application/json": {
                "schema": ref(VersionOnly)}}},
            "responses": {"200": _json(snapshot), "401": _error("No token"),
                          "403": _error("Not allowed"), "409": _error("Stale"),
                          "422": _error(f"Nothing to {kind}")}}}
    for game in GAMES.values():
        if game.quick_score_model is None:
            continue
        paths[f"/api/games/{game.id}/score"] = {"post": {
            "summary": f"Quick score of {game.name} without a table",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref(game.quick_score_model)}}},
            "responses": {"200": _json({"type": "object"}), "422": _error("Impossible input")}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table companion API", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
