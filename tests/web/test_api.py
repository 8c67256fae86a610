"""The JSON API: the same operations as the pages, with bearer tokens."""

import json
import re

import pytest

from companion.games import GAMES
from tests.conftest import api_seat, api_table, bearer


@pytest.fixture
def table(client):
    return api_table(client, options={"winning": "lowest"})


def test_games_are_listed(client):
    games = client.get("/api/games").get_json()
    assert {"id": "scorepad", "name": "Score pad", "min_players": 1, "max_players": 12,
            "cooperative": False} in games


def test_creating_a_table_answers_code_url_token_and_version(table):
    assert len(table["code"]) == 6
    assert table["url"].endswith(f"/j/{table['code']}")
    assert "127.0.0.1" not in table["url"] and "localhost" not in table["url"]
    assert table["token"] and table["version"] == 1


def test_a_whole_score_pad_game_through_the_api(client, table):
    code = table["code"]
    ann = client.post(f"/api/tables/{code}/join", json={"seat": "Ann"}).get_json()["token"]
    ben = client.post(f"/api/tables/{code}/join", json={"seat": "Ben"}).get_json()["token"]
    for token, player, points in [(ann, "Ann", 12), (ben, "Ben", 8), (ann, "Ann", -2)]:
        rnd = 2 if points < 0 else 1
        response = client.post(f"/api/tables/{code}/actions", headers=bearer(token),
                               json={"type": "enter_score", "player": player, "round": rnd,
                                     "points": points})
        assert response.status_code == 200
    snap = client.post(f"/api/tables/{code}/actions", headers=bearer(ben),
                       json={"type": "finish_game"}).get_json()
    assert snap["scores"] == {"Ann": 10, "Ben": 8}
    assert snap["finished"] is True and snap["winners"] == ["Ben"]  # lowest wins
    assert snap["log"][0]["text"] == "Ben finished the game."
    got = client.get(f"/api/tables/{code.lower()}").get_json()
    assert set(got) >= {"code", "game", "version", "players", "state", "scores", "finished",
                        "winners", "log"}


def test_json_keeps_seat_order_and_the_documented_field_order(client):
    from companion.web.api_models import Snapshot

    created = api_table(client, players=("Zoe", "Adam"))
    code, host = created["code"], created["token"]
    client.post(f"/api/tables/{code}/actions", headers=bearer(host),
                json={"type": "enter_score", "player": "Adam", "round": 1, "points": 3})
    response = client.get(f"/api/tables/{code}")
    snap = response.get_json()
    assert list(snap["scores"]) == ["Zoe", "Adam"]
    assert list(snap) == list(Snapshot.model_fields)


def test_undo_and_redo_through_the_api(client, table):
    code, host = table["code"], table["token"]
    client.post(f"/api/tables/{code}/actions", headers=bearer(host),
                json={"type": "enter_score", "player": "Ann", "round": 1, "points": 5})
    undone = client.post(f"/api/tables/{code}/undo", headers=bearer(host)).get_json()
    assert undone["scores"]["Ann"] == 0 and undone["can_redo"]
    redone = client.post(f"/api/tables/{code}/redo", headers=bearer(host), json={}).get_json()
    assert redone["scores"]["Ann"] == 5 and not redone["can_redo"]


def test_a_stale_version_is_refused_with_409(client, table):
    code, host = table["code"], table["token"]
    seen = client.get(f"/api/tables/{code}").get_json()["state_version"]
    payload = {"type": "enter_score", "player": "Ann", "round": 1, "points": 5,
               "expected_version": seen}
    assert client.post(f"/api/tables/{code}/actions", headers=bearer(host), json=payload).status_code == 200
    # Another phone, made against the same version: the table changed under it.
    ben = api_seat(client, code, "Ben")
    again = client.post(f"/api/tables/{code}/actions", headers=ben, json={**payload, "points": 6})
    assert again.status_code == 409
    assert "changed a moment before" in again.get_json()["error"]
    stale_undo = client.post(f"/api/tables/{code}/undo", headers=ben, json={"expected_version": seen})
    assert stale_undo.status_code == 409
    # The phone that made the change knows it: its own next tap against that version counts.
    mine = client.post(f"/api/tables/{code}/actions", headers=bearer(host), json={**payload, "points": 7})
    assert mine.status_code == 200 and mine.get_json()["scores"]["Ann"] == 7


@pytest.mark.parametrize("payload, message", [
    ({"type": "enter_score", "player": "Ann", "round": "first", "points": 1}, "'round'"),
    ({"type": "enter_score", "player": "Zed", "round": 1, "points": 1}, "no player called 'Zed'"),
    ({"type": "fly"}, "The action type is 'fly'"),
    ({"player": "Ann"}, "The action type is missing"),
    ({"type": "enter_score", "player": "Ann", "round": 1, "points": 1, "expected_version": "x"},
     "expected_version must be a whole number"),
])
def test_invalid_actions_get_422_with_a_sentence_and_change_nothing(client, table, payload, message):
    code = table["code"]
    response = client.post(f"/api/tables/{code}/actions", headers=bearer(table["token"]), json=payload)
    assert response.status_code == 422
    assert message in response.get_json()["error"]
    assert client.get(f"/api/tables/{code}").get_json()["version"] == table["version"]


def test_bad_bodies_are_explained(client, table):
    code = table["code"]
    broken = client.post(f"/api/tables/{code}/actions", headers={**bearer(table["token"]),
                         "Content-Type": "application/json"}, data="{not json")
    assert broken.status_code == 422 and "not valid JSON" in broken.get_json()["error"]
    listed = client.post(f"/api/tables/{code}/actions", headers=bearer(table["token"]), json=[1])
    assert listed.status_code == 422 and "JSON object" in listed.get_json()["error"]


@pytest.mark.parametrize("body, message", [
    ({"game": "chess", "players": ["A"]}, "no game called 'chess'"),
    ({"game": "scorepad", "players": []}, "1 to 12 players, not 0"),
    ({"game": "scorepad", "players": ["A", "a"]}, "Two players are called"),
    ({"game": "scorepad", "players": ["A"], "options": {"winning": "most"}}, "'winning'"),
    ({"game": "scorepad", "players": ["A"], "options": {"colour": "red"}}, "'colour' is not expected"),
    ({"game": "scorepad"}, "'players' is missing"),
])
def test_bad_table_requests_are_refused(client, body, message):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422
    assert message in response.get_json()["error"]


def test_writes_need_a_token_of_this_table(client, table):
    code = table["code"]
    other = api_table(client, players=("Cy",))
    action = {"type": "enter_score", "player": "Ann", "round": 1, "points": 1}
    assert client.post(f"/api/tables/{code}/actions", json=action).status_code == 401
    foreign = client.post(f"/api/tables/{code}/actions", headers=bearer(other["token"]), json=action)
    assert foreign.status_code == 403 and "no rights on this table" in foreign.get_json()["error"]
    watcher = client.post(f"/api/tables/{code}/join", json={"watch": True}).get_json()["token"]
    refused = client.post(f"/api/tables/{code}/actions", headers=bearer(watcher), json=action)
    assert refused.status_code == 403 and "watching" in refused.get_json()["error"]
    assert client.post(f"/api/tables/{code}/undo", headers=bearer(watcher)).status_code == 403


def test_unknown_tables_and_seats(client, table):
    assert client.get("/api/tables/ZZZZZZ").status_code == 404
    assert "no table with the code ZZZZZZ" in client.get("/api/tables/ZZZZZZ").get_json()["error"]
    seat = client.post(f"/api/tables/{table['code']}/join", json={"seat": "Zed"})
    assert seat.status_code == 422 and "no seat called 'Zed'" in seat.get_json()["error"]
    assert client.get("/api/nothing-here").get_json()["error"].startswith("There is nothing at")


def test_openapi_documents_every_route_and_every_action_of_every_game(client):
    doc = client.get("/api/openapi.json").get_json()
    for path in ["/api/games", "/api/tables", "/api/tables/{code}", "/api/tables/{code}/join",
                 "/api/tables/{code}/actions", "/api/tables/{code}/undo", "/api/tables/{code}/redo",
                 "/api/games/kartenspiel/score", "/api/rules/search", "/api/rules/{game_id}"]:
        assert path in doc["paths"], path
    schemas = doc["components"]["schemas"]
    # One choice per game, the game's actions each under its type.
    by_game = {schema["x-game"]: schema for schema in schemas.values()
               if "x-game" in schema and "oneOf" in schema}
    for game in GAMES.values():
        choices = by_game[game.id]["oneOf"]
        documented = [schemas[choice["$ref"].rsplit("/", 1)[-1]]["properties"]["type"]["const"]
                      for choice in choices]
        assert documented == game.action_types()
    # Every reference points at a schema that is there (two games' models may share a name).
    refs = re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(doc))
    assert refs and set(refs) <= set(schemas)
    enter = schemas["EnterScore"]
    assert set(enter["required"]) >= {"player", "round", "points"}
    assert enter["properties"]["round"]["minimum"] == 1
    assert "expected_version" not in enter["required"]


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"ok": True}


def test_phones_tapping_at_the_same_moment_record_the_event_once(app):
    """Eight phones send the same tap against the same version at once: one lands."""
    import threading

    seats = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    code = api_table(app.test_client(), players=seats)["code"]
    phones = [api_seat(app.test_client(), code, seat) for seat in seats]
    seen = app.test_client().get(f"/api/tables/{code}").get_json()["state_version"]
    start = threading.Barrier(8)
    statuses = []

    def tap(phone):
        client = app.test_client()
        start.wait()
        response = client.post(f"/api/tables/{code}/actions", headers=phone,
                               json={"type": "enter_score", "player": "Ann", "round": 1,
                                     "points": 6, "expected_version": seen})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=tap, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 7
    log = app.test_client().get(f"/api/tables/{code}").get_json()["log"]
    assert [entry["kind"] for entry in log].count("action") == 1
