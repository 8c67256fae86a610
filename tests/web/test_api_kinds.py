"""Every API refusal says its kind beside its sentence, so that a script tells them apart
without reading the words; the OpenAPI document lists exactly the kinds there are."""

from __future__ import annotations

import gevent

from companion.service.errors import KINDS
from companion.web.openapi import openapi_document
from tests.conftest import api_seat, api_table, bearer, room_in_this_minute


class Trickle:
    """A request body that arrives one byte at a time, as a slow-loris client sends it."""

    def read(self, size=-1):
        gevent.sleep(0.2)
        return b"x"


def test_each_kind_of_refusal_is_named_beside_its_sentence(make_app, monkeypatch):
    app = make_app(RATE_LIMITS={"code": 3, "action": 0, "live": 0, "create": 0}, BODY_SECONDS=1)
    client = app.test_client()
    seen = set()

    def refused(answer, status: int, kind: str) -> None:
        body = answer.get_json()
        assert answer.status_code == status, body
        assert set(body) == {"error", "kind"} and body["kind"] == kind, body
        assert len(body["error"]) > 10 and body["error"].rstrip()[-1] in ".!?", body  # a sentence
        seen.add(kind)

    table = api_table(client, players=("Ann", "Ben"))
    acts, host = f"/api/tables/{table['code']}/actions", table["headers"]

    def score(points, phone=host, **more):
        return client.post(acts, headers=phone, json={"type": "enter_score", "player": "Ann",
                                                     "round": 1, "points": points, **more})

    refused(client.post(acts, headers=host, json={"type": "enter_score", "player": "Ann",
                                                   "round": "one", "points": 3}), 422, "invalid")
    version = score(4).get_json()["state_version"]
    assert score(5).status_code == 200
    # The same cell, changed since by another phone.
    refused(score(6, api_seat(client, table["code"], "Ben"), expected_version=version), 409, "conflict")
    refused(client.post(acts, json={"type": "finish_game"}), 401, "unauthorized")
    watcher = client.post(f"/api/tables/{table['code']}/join", json={"watch": True}).get_json()
    refused(client.post(acts, json={"type": "finish_game"}, headers=bearer(watcher["token"])),
            403, "forbidden")
    refused(client.delete("/api/tables"), 405, "method_not_allowed")
    refused(client.post("/api/tables", data=b"x" * (65 * 1024),
                        headers={"Content-Type": "application/json"}), 413, "too_large")
    refused(client.post(acts, headers=host, environ_overrides={
        "wsgi.input": Trickle(), "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": "100"}),
            408, "too_slow")

    game = api_table(client, "asterix-obelix", ("Ann", "Ben"))
    refused(client.post(f"/api/tables/{game['code']}/actions", headers=game["headers"],
                        json={"type": "reveal_card", "kind": "feast"}), 422, "rule")

    group = client.post("/api/groups", json={"name": "Friday", "players": []}).get_json()
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as a server answers a failure, not a test
    monkeypatch.setattr("companion.web.kept.statistics",
                        lambda rows: (_ for _ in ()).throw(RuntimeError("a bug")))
    refused(client.get(f"/api/groups/{group['code']}/stats"), 500, "server_error")
    gate = app.extensions["import_gate"]
    gate.acquire()
    try:
        refused(client.post(f"/api/groups/{group['code']}/plays", json={"plays": []},
                            headers=bearer(group["owner_key"])), 503, "busy")
    finally:
        gate.release()

    guesser = {"REMOTE_ADDR": "10.0.0.99"}
    room_in_this_minute(5)
    for _ in range(3):
        refused(client.get("/api/tables/AAAAAA", environ_base=guesser), 404, "not_found")
    refused(client.get("/api/tables/AAAAAA", environ_base=guesser), 429, "rate_limited")
    assert seen == set(KINDS)  # no kind is documented that no refusal says


def test_the_api_document_lists_exactly_the_kinds_there_are(app):
    with app.test_request_context("/api/openapi.json"):
        schema = openapi_document()["components"]["schemas"]["Error"]
    assert set(schema["properties"]["kind"]["enum"]) == set(KINDS)
    assert schema["required"] == ["error", "kind"]
    assert all(meaning in schema["properties"]["kind"]["description"] for meaning in KINDS.values())


def test_a_refusal_quotes_at_most_80_characters_of_what_was_sent(client):
    table = api_table(client, players=("Ann", "Ben"))
    cards = api_table(client, "kartenspiel", ("Ann", "Ben"))
    albums = api_table(client, "asterix-co", ("Ann", "Ben"))
    assert client.post(f"/api/tables/{albums['code']}/actions", headers=albums["headers"], json={
        "type": "play_character", "player": "Ann", "album": 1, "strength": 5,
        "character_type": "Centurion", "colour": "Neutral"}).status_code == 200
    long = "x" * 20_000
    answers = [
        client.post("/api/tables", json={"game": long, "players": ["Ann"]}),
        client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", long]}),
        client.post("/api/tables", json={"game": "scorepad", "players": ["Ann"],
                                         "options": {"rounds": long}}),
        client.post(f"/api/tables/{table['code']}/actions", headers=table["headers"],
                    json={"type": long}),
        client.post(f"/api/tables/{table['code']}/actions", headers=table["headers"],
                    json={"type": "enter_score", "player": long, "round": 1, "points": 1}),
        client.post(f"/api/tables/{table['code']}/join", json={"seat": long}),
        client.post("/api/groups", json={"name": long}),
        client.get(f"/api/tables/{long[:200]}"),
        client.get(f"/api/rules/search?q={long[:400]}"),
        client.post(f"/api/games/{long[:400]}/score", json={}),
        client.post(f"/api/tables/{cards['code']}/actions", headers=cards["headers"],
                    json={"type": "enter_romans", "player": "Ann", "values": long[:200]}),
        client.post(f"/api/tables/{albums['code']}/actions", headers=albums["headers"],
                    json={"type": "use_potion", "player": "Ben", "character": long}),
    ]
    for answer in answers:
        error = answer.get_json()["error"]
        assert answer.status_code in (404, 413, 422) and "x" * 81 not in error, error[:200]
