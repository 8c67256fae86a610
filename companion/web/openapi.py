"""The OpenAPI document, built from the app's URL map and the models each view declares.

Every view under /api/ (and /healthz) carries a declaration (``@documented``): the pydantic
models of its body, query and answers. The views build their answers through the same models
(:func:`reply`), and the document walks ``app.url_map``, so a route cannot be served without
being described, nor described with fields it does not send (tests/web/test_openapi.py).
Not flask-openapi3 or spectree (tried): their own 422 answers, and one path for all games' bodies.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from http import HTTPStatus
from itertools import product
from typing import Any, Literal

from flask import Flask, current_app, request
from pydantic import BaseModel, ConfigDict, Field, RootModel, create_model
from pydantic.json_schema import models_json_schema
from werkzeug.routing import Rule
from werkzeug.routing.rules import parse_converter_args

from ..games import GAMES
from ..games.base import Game
from ..games.patterns import STORABLE_PATTERN
from ..games.text import Sentence, say
from ..service.errors import KINDS, Invalid
from ..service.inputs import quote
from ..service.tables import KEY_MAX
from .limits import kind_of

REF = "#/components/schemas/{model}"
# A placeholder of a rule: <name>, <converter:name> or <converter(arguments):name>.
PLACEHOLDER = re.compile(r"<(?:(?P<converter>\w+)(?:\((?P<arguments>[^)]*)\))?:)?(?P<name>\w+)>")
# What each of werkzeug's converters matches, as a JSON schema (others: a string).
CONVERTER_SCHEMAS = {"int": {"type": "integer"}, "float": {"type": "number"},
                     "uuid": {"type": "string", "format": "uuid"}}


def is_documented_route(rule: Rule) -> bool:
    """The routes the document must describe: the JSON API and the health checks."""
    return rule.rule.startswith("/api/") or rule.rule in ("/healthz", "/readyz")


# -- the models every part of the API shares ------------------------------------------------


ErrorKind = Literal[tuple(KINDS)]


class Error(BaseModel):
    """A refused request, with the sentence to show the player and its kind for a script."""

    model_config = ConfigDict(extra="forbid")
    error: str = Field(description="What is wrong, in a sentence.")
    kind: ErrorKind = Field(description="The kind of refusal, for a script to act on:\n"
                            + "".join(f"\n- `{kind}`: {meaning}"
                                      for kind, meaning in KINDS.items()))


class FreeObject(RootModel[dict[str, Any]]):
    """A JSON object whose keys the answer's description gives."""


# -- declarations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PerGame:
    """A body that is one of each game's models (``models(game)``; several: named
    ``<Game><suffix>`` in the document). ``alongside``'s fields are taken off by the view and
    may come with any of them. ``chosen_by``: the path parameter naming the game, documented
    as one path per game; without it the table's game decides, and the body is any game's."""

    models: Callable[[Game], Sequence[type[BaseModel]]]
    suffix: str
    description: str  # of one game's choice; "{game}" stands for the game's name
    alongside: type[BaseModel] | None = None
    chosen_by: str | None = None


@dataclass(frozen=True)
class Declaration:
    summary: str
    responses: dict[int, tuple[type[BaseModel], str]]
    body: type[BaseModel] | PerGame | None = None
    body_required: bool = True
    query: type[BaseModel] | None = None
    path: dict[str, str] = field(default_factory=dict)  # path parameter -> description
    bearer: bool = False
    idempotent: bool = False  # takes an Idempotency-Key header


def documented(*, responses: dict[int, type[BaseModel] | tuple[type[BaseModel], str]],
               body: type[BaseModel] | PerGame | None = None, body_required: bool = True,
               query: type[BaseModel] | None = None, path: dict[str, str] | None = None,
               bearer: bool = False, idempotent: bool = False, summary: str | None = None):
    """Record on a view the models of its request and of its answers, by status code.

    An answer is a model or (model, description); ``path`` describes the path parameters;
    the summary defaults to the docstring's first line."""

    def record(view):
        view.api_declaration = Declaration(
            summary=summary or (view.__doc__ or view.__name__).strip().splitlines()[0],
            responses={status: answer if isinstance(answer, tuple)
                       else (answer, HTTPStatus(status).phrase)
                       for status, answer in responses.items()},
            body=body, body_required=body_required, query=query,
            path=dict(path or {}),
            bearer=bearer,
            idempotent=idempotent,
        )
        return view

    return record


def declaration_of(app: Flask, endpoint: str) -> Declaration | None:
    return getattr(app.view_functions.get(endpoint), "api_declaration", None)


def query_args() -> dict[str, str]:
    """The query's parameters: the document describes each as one value, so one given twice
    (``?log=1&log=2``) is refused, not read as its first."""
    for name, values in request.args.lists():
        if len(values) > 1:
            raise Invalid(say(Sentence("The query parameter '%(name)s' is given more than "
                                       "once; send it once.", name=quote(name))))
    return request.args.to_dict()


def reply(answer: BaseModel, status: int = 200) -> tuple[Any, int]:
    """A view's JSON answer, built from its model (key order kept)."""
    app = current_app
    if app.testing or app.debug:  # an answer the view does not declare is a bug: say so in tests
        declaration = declaration_of(app, request.endpoint or "")
        declared = declaration and declaration.responses.get(status)
        if not declared or not isinstance(answer, declared[0]):
            raise TypeError(f"{request.endpoint} answers {type(answer).__name__} with {status}, "
                            "which its @documented declaration does not list.")
    return answer.model_dump(mode="json"), status


# -- the document ------------------------------------------------------------------------------


class Undocumented(LookupError):
    """A route of the API whose view has no ``@documented`` declaration."""


def openapi_document(app: Flask | None = None) -> dict:
    """The document of this app, built once per app."""
    app = app or current_app._get_current_object()
    document = app.extensions.get("openapi")
    if document is None:
        document = app.extensions["openapi"] = build_document(app)
    return document


@cache
def with_fields_of(model: type[BaseModel], alongside: type[BaseModel]) -> type[BaseModel]:
    """``model`` accepting ``alongside``'s fields too, under the same name and description."""
    extra = {name: (info.annotation, info) for name, info in alongside.model_fields.items()}
    return create_model(model.__name__, __base__=model, __module__=model.__module__,
                        __doc__=model.__doc__, **extra)


def _operations(rule: Rule, chosen: dict[str, Sequence[str]]) -> list[tuple[str, dict[str, str]]]:
    """The rule as OpenAPI paths: one per value of each ``any(...)`` placeholder and of each
    parameter in ``chosen``, with the values fixed in it; the others become ``{name}``."""
    choices: dict[str, Sequence[str]] = {}
    for found in PLACEHOLDER.finditer(rule.rule):
        if found["converter"] == "any":
            choices[found["name"]] = parse_converter_args(found["arguments"] or "")[0]
        elif found["name"] in chosen:
            choices[found["name"]] = chosen[found["name"]]
    operations = []
    for values in product(*choices.values()):
        fixed = dict(zip(choices, values))
        path = PLACEHOLDER.sub(lambda m: fixed.get(m["name"], "{" + m["name"] + "}"), rule.rule)
        operations.append((path, fixed))
    return operations


def _path_parameters(rule: Rule, declaration: Declaration, fixed: dict[str, str]) -> list[dict]:
    parameters = []
    for found in PLACEHOLDER.finditer(rule.rule):
        name = found["name"]
        if name in fixed:
            continue
        description = declaration.path.get(name)
        schema = dict(CONVERTER_SCHEMAS.get(found["converter"] or "", {"type": "string"}))
        storable(schema)
        parameters.append({"name": name, "in": "path", "required": True, "schema": schema,
                           **({"description": description} if description else {})})
    return parameters


# pydantic writes a limit on an optional value whose type has its own validator (``Whole |
# None``, ``Field(ge=1)``) under the Field's own names; the document says them in JSON Schema.
PLAIN_NAMES = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}
LENGTH_NAMES = {"min_length": ("minLength", "minItems"), "max_length": ("maxLength", "maxItems")}
SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
SUBSCHEMAS = ("items", "additionalProperties", "not", "propertyNames", "contains")


def schema_nodes(schema: Any, components: dict | None = None, seen: set | None = None):
    """Every (sub)schema of ``schema``; with ``components``, also those its $refs reach (each
    once)."""
    if not isinstance(schema, dict):
        return
    seen = set() if seen is None else seen
    if id(schema) in seen:
        return
    seen.add(id(schema))
    yield schema
    if components is not None and "$ref" in schema:
        yield from schema_nodes(components.get(schema["$ref"].rsplit("/", 1)[-1]), components,
                                seen)
    for key in SUBSCHEMAS:
        yield from schema_nodes(schema.get(key), components, seen)
    for key in SUBSCHEMA_LISTS:
        for item in schema.get(key, ()):
            yield from schema_nodes(item, components, seen)
    for key in ("properties", "$defs"):
        for item in (schema.get(key) or {}).values():
            yield from schema_nodes(item, components, seen)


def said_plainly(node: dict) -> None:
    for name, plain in PLAIN_NAMES.items():
        if name in node and node.get("type") in ("integer", "number"):
            node[plain] = node.pop(name)
    for name, (of_text, of_list) in LENGTH_NAMES.items():
        if name in node and node.get("type") in ("string", "array"):
            node[of_text if node["type"] == "string" else of_list] = node.pop(name)


STORABLE_VALUE = "StorableValue"
# Any JSON value whose text, keys too, holds no NUL, however deep: what a free object's values
# and a free list's items may be in a request (``api.body()`` reads the whole body).
STORABLE_VALUE_SCHEMA = {
    "description": "Any JSON value whose text (keys too) holds no NUL character.",
    "anyOf": [
        {"type": ["null", "boolean", "number"]},
        {"type": "string", "pattern": STORABLE_PATTERN},
        {"type": "array", "items": {"$ref": REF.format(model=STORABLE_VALUE)}},
        {"type": "object", "propertyNames": {"pattern": STORABLE_PATTERN},
         "additionalProperties": {"$ref": REF.format(model=STORABLE_VALUE)}},
    ],
}


def storable(node: dict) -> None:
    """A request's text may hold no NUL (``inputs.text_problem``): said of every string and
    every free object's keys that the schema does not already pin down, and of the values of
    free objects and lists (any value: a ``StorableValue``)."""
    if node.get("type") == "string" and not {"pattern", "enum", "const", "format"} & set(node):
        node["pattern"] = STORABLE_PATTERN
    if node.get("type") == "object" and node.get("additionalProperties", True) is not False:
        if "propertyNames" not in node:
            node["propertyNames"] = {"pattern": STORABLE_PATTERN}
        if node.get("additionalProperties", True) in (True, {}):
            node["additionalProperties"] = {"$ref": REF.format(model=STORABLE_VALUE)}
    if node.get("type") == "array" and node.get("items", {}) == {}:
        node["items"] = {"$ref": REF.format(model=STORABLE_VALUE)}


def _query_parameters(model: type[BaseModel]) -> list[dict]:
    schema = model.model_json_schema(mode="validation", ref_template=REF)
    required = set(schema.get("required", ()))
    parameters = []
    for name, prop in schema["properties"].items():
        description = prop.pop("description", None)
        for node in schema_nodes(prop):
            said_plainly(node)
            storable(node)
        parameters.append({"name": name, "in": "query", "required": name in required,
                           "schema": prop,
                           **({"description": description} if description else {})})
    return parameters


def build_document(app: Flask) -> dict:
    """Walk the URL map: every API route with its declared models; raise Undocumented for a
    route whose view declares nothing."""
    routes = _documented_routes(app)
    schemas = _Schemas(routes)
    paths: dict[str, dict] = {}
    for rule, declaration in routes:
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        body = declaration.body
        chosen = ({body.chosen_by: list(schemas.per_game[body])}
                  if isinstance(body, PerGame) and body.chosen_by else {})
        for path, fixed in _operations(rule, chosen):
            for method in methods:
                paths.setdefault(path, {})[method.lower()] = _operation(
                    rule, declaration, method, methods, fixed, schemas)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table companion API", "version": "1"},
        "paths": dict(sorted(paths.items())),
        "components": {
            "schemas": schemas.schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


def _documented_routes(app: Flask) -> list[tuple[Rule, Declaration]]:
    routes = []
    for rule in app.url_map.iter_rules():
        if not is_documented_route(rule):
            continue
        declaration = declaration_of(app, rule.endpoint)
        if declaration is None:
            raise Undocumented(f"The route {rule.rule} ({rule.endpoint}) has no @documented "
                               "declaration, so the API document cannot describe it.")
        routes.append((rule, declaration))
    return routes


class _Schemas:
    """Every model of the routes, once: bodies as the API reads them, answers as it writes
    them; ``per_game``: each per-game body's models, by game."""

    def __init__(self, routes: list[tuple[Rule, Declaration]]):
        wanted: dict[tuple[type[BaseModel], str], None] = {}
        self.per_game: dict[PerGame, dict[str, list[type[BaseModel]]]] = {}
        for _rule, declaration in routes:
            body = declaration.body
            if isinstance(body, PerGame):
                self.per_game[body] = {}
                for game in GAMES.values():
                    models = [with_fields_of(m, body.alongside) if body.alongside else m
                              for m in body.models(game)]
                    if models:
                        self.per_game[body][game.id] = models
                        wanted.update(dict.fromkeys((m, "validation") for m in models))
            elif body is not None:
                wanted[(body, "validation")] = None
            for model, _ in declaration.responses.values():
                wanted[(model, "serialization")] = None
        self.refs, top = models_json_schema(list(wanted), ref_template=REF)
        self.schemas = top.get("$defs", {})
        for schema in self.schemas.values():
            for node in schema_nodes(schema):
                said_plainly(node)
        self.schemas[STORABLE_VALUE] = copy.deepcopy(STORABLE_VALUE_SCHEMA)
        bodies = [self.refs[key]["$ref"].rsplit("/", 1)[-1] for key in wanted
                  if key[1] == "validation"]
        for node in schema_nodes({"anyOf": [{"$ref": REF.format(model=name)} for name in bodies]},
                                 self.schemas):
            storable(node)

    def ref(self, model: type[BaseModel], mode: str) -> dict:
        # pydantic names each schema, telling apart two games' models of the same class name.
        return self.refs[(model, mode)]

    def one_game(self, body: PerGame, game_id: str) -> dict:
        """The body for one game: its model, or a choice of its models by their type."""
        models = self.per_game[body][game_id]
        if len(models) == 1:
            return self.ref(models[0], "validation")
        name = f"{type(GAMES[game_id]).__name__}{body.suffix}"
        if name not in self.schemas:
            by_type = {m.model_fields["type"].default: self.ref(m, "validation")["$ref"]
                       for m in models if "type" in m.model_fields}
            self.schemas[name] = {
                "description": body.description.format(game=GAMES[game_id].name),
                "oneOf": [self.ref(m, "validation") for m in models],
                **({"discriminator": {"propertyName": "type", "mapping": by_type}}
                   if len(by_type) == len(models) else {}),
                "x-game": game_id,
            }
        return {"$ref": REF.format(model=name)}

    def body(self, body: type[BaseModel] | PerGame, fixed: dict[str, str]) -> dict:
        if not isinstance(body, PerGame):
            return self.ref(body, "validation")
        if body.chosen_by is not None:
            return self.one_game(body, fixed[body.chosen_by])
        # anyOf, not oneOf: two games may accept the same payload (a move they share).
        return {"anyOf": [self.one_game(body, game_id) for game_id in self.per_game[body]]}


IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "maxLength": KEY_MAX, "pattern": "^[ -~]*$"},
    "description": "Any unique text per change (a UUID): a retry with the same key records "
    "nothing again and answers the table as it is, with the header Idempotent-Replayed: true."}


def _operation(rule: Rule, declaration: Declaration, method: str, methods: list[str],
               fixed: dict[str, str], schemas: _Schemas) -> dict[str, Any]:
    operation_id = ".".join([rule.endpoint, *fixed.values()]
                            + ([method.lower()] if len(methods) > 1 else []))
    operation: dict[str, Any] = {"operationId": operation_id, "summary": declaration.summary}
    parameters = _path_parameters(rule, declaration, fixed)
    if declaration.query is not None:
        parameters += _query_parameters(declaration.query)
    if declaration.idempotent:
        parameters.append(dict(IDEMPOTENCY_KEY))
    if parameters:
        operation["parameters"] = parameters
    if declaration.bearer:
        operation["security"] = [{"bearer": []}]
    if declaration.body is not None:
        operation["requestBody"] = {
            "required": declaration.body_required,
            "content": {"application/json": {"schema": schemas.body(declaration.body, fixed)}},
        }
    answers = dict(declaration.responses)
    # Besides its own answers: past the fair share (limits.py), and no database connection free.
    if kind_of(rule.endpoint, method, {"code": ""} if "code" in rule.arguments else {}):
        answers.setdefault(429, (Error, "Too many requests from this client: wait the seconds "
                                        "of Retry-After"))
    answers.setdefault(503, (Error, "The server is too busy to answer just now: try again "
                                    "after Retry-After seconds"))
    operation["responses"] = {
        str(status): {"description": description, "content": {
            "application/json": {"schema": schemas.ref(model, "serialization")}},
            **({"headers": {"Retry-After": {"schema": {"type": "integer"}}}}
               if status in (429, 503) else {})}
        for status, (model, description) in sorted(answers.items())
    }
    return operation