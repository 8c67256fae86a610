"""The API document against the app: every route is in it, and real requests and answers
validate against what it says."""

import re

import pytest
from jsonschema import Draft202012Validator
from werkzeug.routing.rules import parse_converter_args

from companion.games import GAMES
from companion.web.openapi import Error, Undocumented, build_document, openapi_document, reply
from tests.conftest import bearer

# One real opening move per game (from the games' own tests), with the seats it needs.
OPENINGS = {
    "scorepad": (["Ann", "Ben"], {"type": "enter_score", "player": "Ann", "round": 1, "points": 5}),
    "asterix-obelix": (["Ann", "Ben"], {"type": "start_game", "starter": "Ann"}),
    "kartenspiel": (["Ann", "Ben", "Cid"], {"type": "choose_gaul", "player": "Ann",
                                            "gaul": "miraculix"}),
    "asterix-co": (["Matthew", "Laura"], {"type": "play_character", "player": "Matthew",
                                          "album": 1, "strength": 5, "character_type": "Hero",
                                          "colour": "Gaul", "name": "Asterix"}),
    "zaubertrank": (["Ann", "Bob"], {"type": "draw_mishap", "symbol": "lightning"}),
}
QUICK_SCORES = {
    "asterix-obelix": {"players": [{"name": "Ann", "legionaries": {"red": 1}},
                                   {"name": "Ben", "legionaries": {"green": 1}}]},
    "kartenspiel": {"players": [{"name": "Ann", "romans": [10, 10, 3], "pirates": ["highest"]},
                                {"name": "Ben", "romans": [5, 5, 5], "pirates": []}],
                    "bonus": {"2": 20, "3": 50, "4": 100},
                    "ranks": {"dekurio": 5, "zenturio": 10, "general": 15}},
}
IGNORED_METHODS = {"HEAD", "OPTIONS"}  # Flask adds them to every rule


def api_rules(app):
    return [rule for rule in app.url_map.iter_rules()
            if rule.rule.startswith("/api/") or rule.rule == "/healthz"]


@pytest.fixture
def doc(client):
    return client.get("/api/openapi.json").get_json()


def validator(doc, schema):
    # The document's components travel with the schema, so its "#/components/..." refs resolve.
    return Draft202012Validator({**schema, "components": doc["components"]})


def errors(doc, schema, instance) -> list[str]:
    return [error.message for error in validator(doc, schema).iter_errors(instance)]


def request_schema(doc, path, method="post"):
    return doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]


class CheckedApi:
    """The test client, checking each request body and answer against the document."""

    def __init__(self, client, doc):
        self.client = client
        self.doc = doc

    def call(self, method, path, json=None, headers=None, **params):
        operation = self.doc["paths"][path][method]
        if json is not None:
            assert not errors(self.doc, request_schema(self.doc, path, method), json), json
        url = re.sub(r"\{(\w+)\}", lambda m: str(params.pop(m[1])), path)
        response = getattr(self.client, method)(url, json=json, headers=headers,
                                                query_string=params or None)
        documented = operation["responses"].get(str(response.status_code))
        assert documented, f"{method.upper()} {path} answered {response.status_code}, undocumented"
        schema = documented["content"]["application/json"]["schema"]
        answer = response.get_json()
        assert not errors(self.doc, schema, answer), (path, response.status_code, answer)
        return response


@pytest.fixture
def api(client, doc):
    return CheckedApi(client, doc)


def test_every_api_route_is_documented_with_its_methods(app, doc):
    adapter = app.url_map.bind("companion.test")
    documented = set()
    for path, operations in doc["paths"].items():
        for method in operations:
            url = re.sub(r"\{(\w+)\}", "ABC234", path)  # any value the rule's converter takes
            # Every documented path and method is served (raises NotFound/MethodNotAllowed).
            endpoint, args = adapter.match(url, method=method.upper())
            documented.add((endpoint, method.upper(), tuple(sorted(args.items()))))
    for rule in api_rules(app):
        for method in rule.methods - IGNORED_METHODS:
            found = [args for endpoint, m, args in documented
                     if endpoint == rule.endpoint and m == method]
            assert found, f"{method} {rule.rule} is not in /api/openapi.json"
            # A route answering several fixed words (<any(undo, redo):kind>) has each documented.
            for choice in re.finditer(r"<any\(([^)]*)\):(\w+)>", rule.rule):
                words = set(parse_converter_args(choice[1])[0])
                assert {dict(args)[choice[2]] for args in found} == words, rule.rule


def test_the_rules_routes_are_documented(doc):
    search = doc["paths"]["/api/rules/search"]["get"]
    assert [p["name"] for p in search["parameters"]] == ["q", "game", "limit"]
    assert {"200", "404", "422"} <= set(search["responses"])
    assert "/api/rules/{game_id}" in doc["paths"]


def test_a_route_without_a_declaration_makes_the_document_fail(make_app):
    app = make_app()
    app.add_url_rule("/api/secret", "secret", lambda: {"hidden": True})
    with app.app_context(), pytest.raises(Undocumented, match="/api/secret"):
        build_document(app)


def test_the_document_is_built_once_per_app(make_app, app):
    with app.app_context():
        assert openapi_document() is openapi_document()
    other = make_app()
    assert openapi_document(other) is not openapi_document(app)


def test_an_answer_the_view_does_not_declare_is_refused(app):
    with app.test_request_context("/healthz"), pytest.raises(TypeError, match="healthz"):
        reply(Error(error="not a health answer", kind="server_error"), 500)


def test_every_game_is_covered_here():
    assert set(OPENINGS) == set(GAMES)
    assert set(QUICK_SCORES) == {game.id for game in GAMES.values() if game.quick_score_model}


@pytest.mark.parametrize("game_id", sorted(OPENINGS))
def test_a_real_action_validates_and_is_played(api, doc, game_id):
    players, move = OPENINGS[game_id]
    created = api.call("post", "/api/tables", json={"game": game_id, "players": players})
    assert created.status_code == 201
    table = created.get_json()
    seen = api.call("get", "/api/tables/{code}", code=table["code"]).get_json()["state_version"]
    payload = {**move, "expected_version": seen}
    played = api.call("post", "/api/tables/{code}/actions", code=table["code"], json=payload,
                      headers=bearer(table["token"]))
    assert played.status_code == 200, played.get_json()
    assert played.get_json()["log"][0]["kind"] == "action"


def test_the_actions_schema_is_not_a_rubber_stamp(doc):
    schema = request_schema(doc, "/api/tables/{code}/actions")
    move = {"type": "enter_score", "player": "Ann", "round": 1, "points": 5, "expected_version": 3}
    assert not errors(doc, schema, move)
    assert errors(doc, schema, {**move, "expected_version": "three"})
    assert errors(doc, schema, {**move, "colour": "red"})
    assert errors(doc, schema, {"type": "fly"})
    assert errors(doc, schema, {"type": "enter_score", "player": "Ann", "round": 0, "points": 5})


def test_real_answers_match_their_documented_schemas(api):
    games = api.call("get", "/api/games").get_json()
    assert {"id", "name", "min_players", "max_players", "cooperative"} == set(games[0])
    table = api.call("post", "/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"]})
    code, host = table.get_json()["code"], bearer(table.get_json()["token"])
    api.call("post", "/api/tables/{code}/join", code=code, json={"seat": "Ann"})
    api.call("post", "/api/tables/{code}/join", code=code, json={"watch": True})
    api.call("post", "/api/tables/{code}/actions", code=code, headers=host,
             json={"type": "enter_score", "player": "Ben", "round": 1, "points": 7})
    api.call("post", "/api/tables/{code}/undo", code=code, headers=host)
    redone = api.call("post", "/api/tables/{code}/redo", code=code, headers=host, json={})
    assert redone.get_json()["scores"] == {"Ann": 0, "Ben": 7}
    api.call("get", "/healthz")
    api.call("get", "/api/openapi.json")
    hits = api.call("get", "/api/rules/search", q="Idefix", game="kartenspiel").get_json()
    assert hits
    sections = api.call("get", "/api/rules/{game_id}", game_id="zaubertrank").get_json()
    assert sections
    for game_id, piles in QUICK_SCORES.items():
        assert api.call("post", f"/api/games/{game_id}/score", json=piles).status_code == 200


@pytest.mark.parametrize("method, path, params, body, status", [
    ("get", "/api/tables/{code}", {"code": "ZZZZZZ"}, None, 404),
    ("post", "/api/tables/{code}/actions", {"code": "ZZZZZZ"}, {"type": "finish_game"}, 404),
    # What the schema cannot say: two names that read the same.
    ("post", "/api/tables", {}, {"game": "scorepad", "players": ["Ann", "ANN"]}, 422),
    ("post", "/api/tables", {}, {"game": "scorepad", "players": ["Ann"], "group": "ZZZZZZ"}, 404),
    ("get", "/api/rules/{game_id}", {"game_id": "chess"}, None, 404),
    ("get", "/api/rules/search", {"q": "boar", "game": "chess"}, None, 404),
    ("get", "/api/rules/search", {"q": "x" * 500}, None, 422),
    ("get", "/api/rules/search", {"q": "boar", "limit": "many"}, None, 422),
    ("post", "/api/games/kartenspiel/score", {}, {"players": [{"name": "Ann", "romans": [3]},
                                                              {"name": "Ann", "romans": [4]}]},
     422),
])
def test_refusals_match_the_error_schema(api, method, path, params, body, status):
    response = api.call(method, path, json=body, **params)
    assert response.status_code == status
    assert set(response.get_json()) == {"error", "kind"}
    assert response.get_json()["kind"] == {404: "not_found", 422: "invalid"}[status]


def test_quick_scores_are_documented_per_game_and_others_are_not_there(client, doc):
    for game in GAMES.values():
        path = f"/api/games/{game.id}/score"
        assert (path in doc["paths"]) == (game.quick_score_model is not None)
    # A game without a quick score answers like any address that is not there.
    missing = client.post("/api/games/scorepad/score", json={})
    assert missing.status_code == 404
    assert not errors(doc, {"$ref": "#/components/schemas/Error"}, missing.get_json())


def test_the_document_says_the_limits_the_server_checks(doc):
    schemas = doc["components"]["schemas"]
    create = request_schema(doc, "/api/tables")
    by_game = {}
    for choice in schemas[create["$ref"].rsplit("/", 1)[-1]]["oneOf"]:
        body = schemas[choice["$ref"].rsplit("/", 1)[-1]]
        by_game[body["properties"]["game"]["const"]] = body
    assert set(by_game) == set(GAMES)
    for game_id, body in by_game.items():
        players = body["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (GAMES[game_id].min_players,
                                                              GAMES[game_id].max_players)
        assert players["items"]["maxLength"] == 24 and players["items"]["pattern"]
    # Seat names need something visible; every other text of a body, no NUL.
    name = re.compile(by_game["scorepad"]["properties"]["players"]["items"]["pattern"])
    assert name.search("Ann") and not name.search("\u200b \u202e") and not name.search("A\x00")
    assert errors(doc, create, {"game": "scorepad", "players": ["Ann"], "options": {"rounds": 0}})
    assert errors(doc, create, {"game": "chess", "players": ["Ann"]})
    # An optional whole number keeps its limits as JSON Schema says them (not pydantic's "ge").
    zenturio = schemas["KartenspielOptions"]["properties"]["zenturio"]["anyOf"][0]
    assert (zenturio["minimum"], zenturio["maximum"]) == (1, 15) and "ge" not in zenturio
    # An action is dispatched by its type: the document requires it.
    assert schemas["FinishGame"]["required"] == ["type"]
    join = request_schema(doc, "/api/tables/{code}/join")
    assert errors(doc, join, {}) and errors(doc, join, {"seat": " "})
    assert not errors(doc, join, {"watch": True}) and not errors(doc, join, {"seat": "Ann"})
    actions = request_schema(doc, "/api/tables/{code}/actions")
    assert errors(doc, actions, {"type": "enter_score", "player": "A\x00", "round": 1, "points": 1})


ZAUBERTRANK = {"game": "zaubertrank", "players": ["Ann", "Ben"]}


@pytest.mark.parametrize("path, body", [
    ("/api/tables", {**ZAUBERTRANK, "options": {"challenge": 0}}),
    ("/api/tables", {**ZAUBERTRANK, "options": {"challenge": "true"}}),
    ("/api/tables", {**ZAUBERTRANK, "options": {"challenge": True}}),
    ("/api/tables", {"game": "asterix-obelix", "players": ["Ann", "Ben"],
                     "options": {"blocking": 1}}),
    ("/api/tables", {"game": "scorepad", "players": ["Ann", "Ben\x07"]}),
    ("/api/tables", {"game": "scorepad", "players": ["Ann", "B" * 24 + "\u200b"]}),
    ("/api/tables/ABCDEF/join", {"watch": 1}),
    ("/api/groups", {"name": "A" * 40 + "\x01"}),
    ("/api/groups", {"name": "Fri\x01day"}),
    ("/api/groups", {"name": "Friday" + " " * 35}),
    ("/api/groups", {"name": "Friday", "players": ["Ann\tBen"]}),
    ("/api/groups", {"name": "Fri day"}),
    ("/api/games/kartenspiel/score", {"players": [{"name": "Ann", "romans": [3]}]}),
    ("/api/games/kartenspiel/score", {"players": [{"name": n, "romans": [3]}
                                                  for n in ("A", "B", "C", "D", "E", "F")]}),
    ("/api/games/asterix-obelix/score", {"players": [{"name": "Ann"}]}),
    ("/api/games/asterix-obelix/score", {"players": [{"name": n} for n in ("A", "B", "C")]}),
    ("/api/games/kartenspiel/score", QUICK_SCORES["kartenspiel"]),
    # A whole number is a JSON number (5.0 too), never its text (a page's form sends that).
    ("/api/tables", {"game": "scorepad", "players": ["Ann"], "options": {"rounds": "5"}}),
    ("/api/tables", {"game": "scorepad", "players": ["Ann"], "options": {"rounds": 5.0}}),
    ("/api/tables", {**ZAUBERTRANK, "options": {"location1_spaces": "5"}}),
    ("/api/games/kartenspiel/score", {"players": [{"name": "A", "romans": ["3"]},
                                                  {"name": "B", "romans": [4]}]}),
    ("/api/games/asterix-obelix/score", {"players": [{"name": "A", "pirates": "1"},
                                                     {"name": "B"}]}),
])
def test_the_server_takes_what_the_document_accepts_and_refuses_the_rest(client, doc, path,
                                                                        body):
    """The cases issue 40 found both ways: strict booleans, names without control characters
    (their length counted as sent), the quick scores' numbers of players."""
    schema = request_schema(doc, path.replace("ABCDEF", "{code}"))
    accepted = not errors(doc, schema, body)
    if "/join" in path:
        path = path.replace("ABCDEF", client.post("/api/tables", json={
            "game": "scorepad", "players": ["Ann", "Ben"]}).get_json()["code"])
    answer = client.post(path, json=body)
    assert (answer.status_code < 300) == accepted, (accepted, answer.get_json())
    if not accepted:
        assert answer.status_code == 422 and answer.get_json()["kind"] == "invalid"


def test_an_action_takes_whole_numbers_as_numbers_and_its_form_as_text(client, doc, phone):
    table = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"]})
    table = table.get_json()
    score = {"type": "enter_score", "player": "Ann", "round": "1", "points": "3"}
    assert errors(doc, request_schema(doc, "/api/tables/{code}/actions"), score)
    refused = client.post(f"/api/tables/{table['code']}/actions", json=score,
                          headers=bearer(table["token"]))
    assert refused.status_code == 422 and "not text" in refused.get_json()["error"]
    host = phone()
    host.start(players=("Ann", "Ben"))
    assert host.act(type="enter_score", player="Ann", round="1", points="3").status_code == 200
    assert host.snapshot()["scores"] == {"Ann": 3, "Ben": 0}


def test_a_query_parameter_given_twice_is_refused_as_the_document_says(client, doc):
    code = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann"]}).get_json()
    log = next(p for p in doc["paths"]["/api/tables/{code}"]["get"]["parameters"]
               if p["name"] == "log")
    assert log["schema"]["type"] == "integer"  # one number, not a list of them
    twice = client.get(f"/api/tables/{code['code']}?log=1&log=2")
    assert twice.status_code == 422 and "'log'" in twice.get_json()["error"]
    assert client.get(f"/api/tables/{code['code']}?log=1").status_code == 200
    assert client.get("/api/rules/search?q=tie&q=win").status_code == 422


def test_zaubertranks_location_names_must_differ_and_the_document_says_so(client, doc):
    """JSON Schema cannot compare two fields: the options' description says it, and the
    schemathesis run leaves bodies with two names alike out of its check."""
    options = doc["components"]["schemas"]["ZaubertrankOptions"]
    assert "differ" in options["description"]
    same = {f"location{n}_name": name for n, name in ((1, "Forest"), (2, " forest "))}
    answer = client.post("/api/tables", json={**ZAUBERTRANK, "options": same})
    assert answer.status_code == 422 and "its own name" in answer.get_json()["error"]
