"""Schemathesis against the published document, in-process (WSGI, no server).

Every operation of ``/api/openapi.json`` is fed requests that schemathesis generates from the
document: positive ones (what the document accepts) and negative ones (what it refuses). The
answers must be no 5xx, a status the operation lists, JSON, and a body its response schema
accepts; a positive request must be taken or refused only for what the schema cannot know
(the table's state, a rule of the game, an unknown seat), never with one of the server's
validation sentences: a limit the server enforces but the document leaves out shows up as a
refused schema-valid request. (Schemathesis' names often hold what ``inputs.tidy_name``
removes: invisible, bidirectional and combining characters, spaces.)

Operations on a table or a group are sent real ones (mostly: one case in ten keeps the
generated code or token, which then has to get a documented 404/401/403): each action goes to
a fresh table of a game whose action schema accepts it, undo/redo to a fresh table with a move
to undo, the rematch to an ended table, the group operations to a group with a play.

Bounded and repeatable: ``SCHEMATHESIS_EXAMPLES`` examples per operation and mode (default
below), derandomized Hypothesis (the seed is fixed by the test), no example database.
"""

from __future__ import annotations

import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from companion.games import GAMES
from companion.service.inputs import name_key, tidy_name
from tests.conftest import api_table, bearer

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", 20))


def examples(operation, mode) -> int:
    """The budget of one operation and mode: a positive action body is any game's, so each
    game's actions get as many examples as another operation's bodies; negative cases (only
    5xx and the answers' shape at stake) half as many."""
    if not mode.is_positive:
        return EXAMPLES // 2
    return EXAMPLES * len(GAMES) if operation.path.endswith("/actions") else EXAMPLES


def hypothesis_settings(operation, mode):
    return settings(max_examples=examples(operation, mode), derandomize=True, database=None,
                    deadline=None, suppress_health_check=list(HealthCheck))

# The server's sentences for a refused shape or limit (English: no Accept-Language is sent).
# A request the document accepts must never get one. Rule refusals ("Not now: …", "It is
# Ann's turn.", "There is no player called …"), "not found" answers and a game's whole-options
# checks are what the schema cannot know, and are allowed.
VALIDATION = [re.compile(pattern) for pattern in (
    r"^The field '.*' is (missing|not expected here|not valid: .*)\.$",  # pydantic, explained
    r"^The action type is ",
    r"^An action must be an object",
    r"^A field of the action holds an object or a list",
    r"^The request body ",
    r"holds a NUL character|holds a broken character|nested more than",
    r"^expected_version must be",
    r"^Players must be a list",
    r" is played by ",
    r"^Every player needs a name",
    r"^The name '.*' is longer than",
    r"^There is no game called",
    r"^Options must be an object",
    r"^Choose a seat, or choose to watch\.",
    r"^A name must be text|^A player needs a name|^The group needs a name",
    r"^The Idempotency-Key must be",
    r"^Not an export|^The play export",
    r" is scored for ",  # a quick score's number of piles
    r"holds a control character|needs a letter or another visible character",
    r"is given more than once",
    r"needs its own name",  # Zaubertrank's locations (bodies with two alike: distinct_names)
    r"^Two players are called",
)]


# The WSGI transport sends requests' "Accept-Encoding: gzip, deflate" and does not decode the
# answer, which Flask-Compress gzips: ask for it plain.
PLAIN = {"Accept-Encoding": "identity"}
# negative_data_rejection: a request the document refuses must not be taken (2xx).
BUILT_IN_CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
                   response_schema_conformance, negative_data_rejection]


class World:
    """The app, what the generated requests are pointed at, and the check of refusals."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
        self.document = self.client.get("/api/openapi.json").get_json()
        schemas = self.document["components"]["schemas"]
        # Which game's table takes an action body: each game's own action schema.
        self.action_schemas = {
            game_id: self.validator({"$ref": f"#/components/schemas/{type(game).__name__}Action"})
            for game_id, game in GAMES.items() if f"{type(game).__name__}Action" in schemas}
        self.body_validators = {}
        self.sent_real = None  # the case being sent, when it got a real code and token
        self.group = self.post("/api/groups", {"name": "Gauls", "players": ["Ann", "Ben"]},
                               201)["code"]
        # An ended scorepad table of the group: a play for the group, a table to rematch.
        self.ended = self.table("scorepad", group=self.group)
        self.play(self.ended, {"type": "enter_score", "player": "Ann", "round": 1, "points": 5})
        self.play(self.ended, {"type": "finish_game"})
        self.to_join = self.table("scorepad")
        self.tables = {}  # game -> a table shared by the negative cases

    def validator(self, schema):
        return Draft202012Validator({**schema, "components": self.document["components"]})

    def post(self, url, body, status, **kw):
        answer = self.client.post(url, json=body, **kw)
        assert answer.status_code == status, answer.get_data(as_text=True)
        return answer.get_json()

    def table(self, game_id, **fields):
        game = GAMES[game_id]
        players = ["Ann", "Ben", "Cid", "Dan", "Eve", "Fay"][:max(game.min_players, 2)]
        return api_table(self.client, game_id, players, **fields)

    def play(self, table, action, kind="actions"):
        self.post(f"/api/tables/{table['code']}/{kind}", action, 200,
                  headers=bearer(table["token"]))

    def shared(self, game_id):
        if game_id not in self.tables:
            self.tables[game_id] = self.table(game_id)
        return self.tables[game_id]

    def game_of(self, body):
        for game_id, validator in self.action_schemas.items():
            if validator.is_valid(body):
                return game_id
        return "scorepad"  # a body no game takes (a negative case): any table must refuse it

    def target(self, case, real: bool, fresh: bool):
        """Point the case at a real table or group (and its token), for ``real`` cases; with
        ``fresh``, an action, undo or redo goes to a table of its own, as a game starts (a
        request the document refuses needs none: any table must refuse it)."""
        self.sent_real = case if real else None
        path = case.operation.path
        if path.startswith("/api/groups/{code}"):
            if real:
                case.path_parameters["code"] = self.group
            return
        if path == "/api/tables" and isinstance(case.body, dict) and "group" in case.body:
            if real:
                case.body["group"] = self.group
            return
        if not path.startswith("/api/tables/{code}"):
            return
        if path.endswith(("/actions", "/undo", "/redo")) and not fresh:
            table = self.shared(self.game_of(case.body) if path.endswith("/actions")
                                else "scorepad")
        elif path.endswith("/actions"):
            table = self.table(self.game_of(case.body))
        elif path.endswith(("/undo", "/redo")):
            table = self.table("scorepad")
            self.play(table, {"type": "enter_score", "player": "Ann", "round": 1, "points": 5})
            if path.endswith("/redo"):
                self.play(table, {}, "undo")
        elif path.endswith("/join"):
            table = self.to_join
        else:
            table = self.ended  # the snapshot (a log, scores, a winner) and the rematch
        if real:
            case.path_parameters["code"] = table["code"]
            if case.operation.definition.raw.get("security"):
                case.headers = {**(case.headers or {}), **bearer(table["token"])}

    def body_is_valid(self, case) -> bool:
        """Whether the document accepts the case's body (schemathesis' positive bodies should
        be such; this makes sure before a refusal is blamed on the server)."""
        if case.body is NOT_SET:
            return True
        label = case.operation.label
        if label not in self.body_validators:
            content = case.operation.definition.raw["requestBody"]["content"]
            self.body_validators[label] = self.validator(content["application/json"]["schema"])
        return self.body_validators[label].is_valid(case.body)

    @property
    def checks(self):
        def no_validation_refusal(ctx, response, case):
            """A request the document accepts, sent with a real code and token, is taken or
            refused for what the schema cannot know: never 401/429, never a validation
            sentence."""
            meta = case.meta
            if meta is None or not meta.generation.mode.is_positive or self.sent_real is not case:
                return None
            status = response.status_code
            assert status not in (401, 429), f"a schema-valid request with a real token got {status}"
            if status < 400 or not distinct_names(case.body) or not self.body_is_valid(case):
                return None
            message = response.json()["error"]
            assert not any(pattern.search(message) for pattern in VALIDATION), (
                f"a schema-valid request was refused as invalid: {message!r}")
            return None

        return [*BUILT_IN_CHECKS, no_validation_refusal]


@pytest.fixture
def world(make_app):
    return World(make_app())


def distinct_names(body) -> bool:
    """What the schema cannot say: two names that read the same after tidying (case, Unicode
    forms, invisible characters) are one name twice: seats, a quick score's piles, and
    Zaubertrank's six locations (compared as its options compare them)."""
    if not isinstance(body, dict):
        return True
    if body.get("game") == "zaubertrank" and isinstance(body.get("options"), dict):
        fields = GAMES["zaubertrank"].options_model.model_fields
        names = {**{key: field.default for key, field in fields.items()
                    if key.endswith("_name")}, **body["options"]}
        locations = [value.strip().lower() for key, value in names.items()
                     if key.endswith("_name") and isinstance(value, str)]
        if len(set(locations)) != len(locations):
            return False
    players = body.get("players") if isinstance(body.get("players"), list) else []
    piles = [pile.get("name") for pile in players if isinstance(pile, dict)]
    for names in (players, piles, (body.get("seat_players") or {}).values()):
        if isinstance(names, list) or hasattr(names, "mapping"):
            keys = [name_key(tidy_name(name)) for name in names if isinstance(name, str)]
            if len(set(keys)) != len(keys):
                return False
    return True


def operations(schema, mode):
    """Every operation (the document's own address aside: schemathesis leaves out the address
    it loaded the document from); for negative cases only those with something to get wrong
    besides the path (a path parameter's only limit is "no NUL", which a URL cannot carry)."""
    found = [result.ok() for result in schema.get_all_operations()]
    if mode.is_positive:
        return found
    return [operation for operation in found
            if "requestBody" in operation.definition.raw
            or any(p["in"] != "path" for p in operation.definition.raw.get("parameters", ()))]


def examples(operation, mode) -> int:
    """The budget of one operation and mode: a positive action body is any game's, so each
    game's actions get as many examples as another operation's bodies; negative cases (only
    5xx and the answers' shape at stake) half as many."""
    if not mode.is_positive:
        return EXAMPLES // 2
    return EXAMPLES * len(GAMES) if operation.path.endswith("/actions") else EXAMPLES


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_answers_as_documented(world, mode):
    checks = world.checks
    failures = []
    for operation in operations(world.schema, mode):

        @settings(max_examples=examples(operation, mode), derandomize=True, database=None,
                  deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode), real=st.integers(0, 9))
        def run(case, real):
            world.target(case, real=real != 0, fresh=mode.is_positive)
            case.call_and_validate(checks=checks, headers=PLAIN)

        try:
            run()
        except (Exception, BaseExceptionGroup) as problem:  # every operation's, then all
            failures.append(f"{operation.label}: {problem}")
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("kind", ["actions", "undo"])
def test_a_version_written_as_60_0_is_taken(world, kind):
    """JSON Schema's "integer" takes a number whose fraction is zero: so does the server."""
    table = world.table("scorepad")
    world.play(table, {"type": "enter_score", "player": "Ann", "round": 1, "points": 5})
    version = world.client.get(f"/api/tables/{table['code']}").get_json()["state_version"]
    body = {"expected_version": float(version)}
    if kind == "actions":
        body.update({"type": "enter_score", "player": "Ben", "round": 1, "points": 3})
    assert world.validator(request_schema(world.document, kind)).is_valid(body)
    answer = world.client.post(f"/api/tables/{table['code']}/{kind}", json=body,
                               headers=bearer(table["token"]))
    assert answer.status_code == 200, answer.get_json()


def request_schema(document, kind):
    operation = document["paths"][f"/api/tables/{{code}}/{kind}"]["post"]
    return operation["requestBody"]["content"]["application/json"]["schema"]
