"""The published request schemas against the server: every body the document accepts is taken,
or refused only for a reason the schema cannot know (the table's state and seats, a rule of the
game, a name that reads like another), never for its shape or a limit the schema could have
said, and never with a 500.

Bodies are generated from the document itself (``from_schema`` below: the part of JSON Schema
the document uses, each body then checked against the whole schema with jsonschema), so a limit
the server enforces but the document leaves out shows up here as a refused schema-valid body.
(hypothesis-jsonschema would do the generating, but its 0.23.1 does not run on this
Hypothesis: it calls internals that are gone.)
"""

from __future__ import annotations

import os
import re
import tempfile

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from companion import create_app
from companion.games import GAMES
from companion.inputs import name_key, tidy_name
from companion.openapi import build_document

# A refusal of the body's shape or of a limit: what the schema is there to say. These are the
# server's validation sentences (English: no Accept-Language is sent); a body the schema accepts
# must never get one. Rule refusals ("Not now: …", "It is Ann's turn.", "There is no player
# called …"), "not found" answers and a game's whole-options checks (Kartenspiel's deck of 44
# Romans, Zaubertrank's six different location names: said as a sentence of their own, not
# "The field …") are what the schema cannot know, and are allowed.
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
)]
# Refusals that depend on what is at the table, not on the body's shape.
ALLOWED_STATUSES = {200, 201, 403, 404, 409, 422}
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 100)), deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def document():
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{folder}/doc.sqlite3"})
        with app.app_context():
            doc = build_document(app)
        app.extensions["live"].close()
        app.extensions["engine"].dispose()
    return doc


def body_schema(doc, path, component=None):
    """A request body's schema, standing alone (the document's components travel with it)."""
    if component is not None:
        schema = {"$ref": f"#/components/schemas/{component}"}
    else:
        schema = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return {**schema, "components": doc["components"]}


def from_schema(schema: dict) -> st.SearchStrategy:
    """Values the schema accepts. ``schema`` carries the document's ``components``."""
    validator = Draft202012Validator(schema)
    return _values(schema, schema).filter(validator.is_valid)


def _resolve(node: dict, root: dict) -> dict:
    while "$ref" in node:
        node = root["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


# Any text, short, NUL and surrogates aside (the schema says "no NUL"; hypothesis draws no
# surrogates), with the characters names are tidied of kept likely.
TEXT = st.characters(exclude_characters="\x00", exclude_categories=["Cs"])
TRICKY = st.sampled_from(["\u200b", "\u202e", " ", "\t", "\u00a0", "\u0301", "A", "a", "\U000e0001"])
CHARS = st.one_of(TEXT, TRICKY)


def _string(node: dict) -> st.SearchStrategy:
    least, most = node.get("minLength", 0), node.get("maxLength", max(node.get("minLength", 0), 30))
    if "pattern" in node and node["pattern"] != "^[^\\u0000]*$":
        found = re.compile(node["pattern"])
        return st.one_of(st.from_regex(found, fullmatch=False),
                         st.text(CHARS, min_size=least, max_size=most)).filter(
            lambda text: least <= len(text) <= most and found.search(text))
    return st.text(CHARS, min_size=least, max_size=most)


def _integer(node: dict) -> st.SearchStrategy:
    least = node.get("minimum", node.get("exclusiveMinimum", -(10**7) - 1) + ("exclusiveMinimum" in node))
    most = node.get("maximum", node.get("exclusiveMaximum", 10**7 + 1) - ("exclusiveMaximum" in node))
    edges = [value for value in (least, least + 1, most - 1, most, 0) if least <= value <= most]
    return st.one_of(st.sampled_from(edges), st.integers(least, most))


def _values(node: dict, root: dict) -> st.SearchStrategy:
    node = _resolve(node, root)
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    for choice in ("oneOf", "anyOf"):
        if choice in node and "properties" not in node:
            return st.one_of([_values(option, root) for option in node[choice]])
    kind = node.get("type")
    if isinstance(kind, list):
        return st.one_of([_values({**node, "type": one}, root) for one in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return _integer(node)
    if kind == "number":
        return st.one_of(_integer(node), st.floats(allow_nan=False, allow_infinity=False))
    if kind == "string":
        return _string(node)
    if kind == "array":
        items = _values(node.get("items", {}), root)
        least = node.get("minItems", 0)
        most = node.get("maxItems", max(least, 6))
        return st.lists(items, min_size=least, max_size=most,
                        unique_by=(lambda value: repr(value)) if node.get("uniqueItems") else None)
    if kind == "object" or "properties" in node:
        return _object(node, root)
    return st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(CHARS, max_size=8))


def _object(node: dict, root: dict) -> st.SearchStrategy:
    properties = node.get("properties", {})
    required = set(node.get("required", ()))
    fixed = {name: _values(schema, root) for name, schema in properties.items()}
    extra = node.get("additionalProperties", True)

    @st.composite
    def build(draw):
        value = {}
        for name, strategy in fixed.items():
            if name in required or draw(st.booleans()):
                value[name] = draw(strategy)
        if extra is not False:
            keys = _string(node.get("propertyNames", {"type": "string"}))
            values = _values(extra if isinstance(extra, dict) else {}, root)
            for key, item in draw(st.dictionaries(keys, values, max_size=3)).items():
                value.setdefault(key, item)
        return value

    return build()


def assert_not_a_validation_refusal(response, sent):
    status = response.status_code
    assert status != 500, (sent, response.get_data(as_text=True)[:300])
    assert status in ALLOWED_STATUSES, (status, sent, response.get_data(as_text=True)[:300])
    if status >= 400:
        message = response.get_json()["error"]
        assert not any(pattern.search(message) for pattern in VALIDATION), (
            f"a schema-valid body was refused as invalid: {message!r}", sent)


def distinct_names(players) -> bool:
    """What the schema cannot say: two names that read the same after tidying (case, Unicode
    forms, invisible characters) are one name twice."""
    keys = [name_key(tidy_name(name)) for name in players]
    return len(set(keys)) == len(keys)


def test_schema_valid_tables_are_created(client, document):
    @FUZZ
    @given(from_schema(body_schema(document, "/api/tables")))
    def create(sent):
        assume(distinct_names(sent["players"]))
        if sent.get("seat_players"):
            assume(distinct_names(sent["seat_players"].values()))
        assert_not_a_validation_refusal(client.post("/api/tables", json=sent), sent)

    create()


def _new_table(client, game_id):
    game = GAMES[game_id]
    players = ["Ann", "Ben", "Cid", "Dan", "Eve", "Fay"][:max(game.min_players, 2)]
    created = client.post("/api/tables", json={"game": game_id, "players": players})
    assert created.status_code == 201, created.get_json()
    return created.get_json(), players


def test_schema_valid_joins_are_taken(make_app, document):
    client = make_app(JOIN_LIMIT=10_000).test_client()  # every example joins from one address
    table, players = _new_table(client, "scorepad")

    @FUZZ
    @given(from_schema(body_schema(document, "/api/tables/{code}/join")))
    def join(sent):
        answer = client.post(f"/api/tables/{table['code']}/join", json=sent)
        assert_not_a_validation_refusal(answer, sent)

    join()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_schema_valid_actions_are_played_or_refused_by_the_rules(client, document, game_id):
    game = GAMES[game_id]
    component = f"{type(game).__name__}Action"
    schema = body_schema(document, "/api/tables/{code}/actions",
                         component if component in document["components"]["schemas"]
                         else None)

    @FUZZ
    @given(from_schema(schema))
    def play(sent):
        table, _players = _new_table(client, game_id)  # a fresh state for every body
        answer = client.post(f"/api/tables/{table['code']}/actions", json=sent,
                             headers=bearer(table["token"]))
        assert_not_a_validation_refusal(answer, sent)

    play()
