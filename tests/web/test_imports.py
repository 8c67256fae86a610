"""An import written a few plays at a time: nobody sees any of it before all of it, a failure
or a killed process leaves nothing, and a file the stream parser cannot read is refused in
words."""

from __future__ import annotations

import gc
import html
import json
import threading
from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlmodel import select

from companion.service import imports
from companion.web.db import get_db
from companion.service.groups import find_group
from companion.service.models import GroupPlayer, PendingImport, Play, now

from tests.conftest import Phone, bearer
from tests.web.test_groups_web import Night, _player_ids


AT_ONCE = max(imports.PLAYS_AT_ONCE.values())  # plays enough for several transactions


def export(count: int, first: int = 0, names: int = 3) -> dict:
    return {"plays": [{
        "uid": f"p{first + n}", "game": "scorepad", "started_at": "2026-11-01T19:00:00+00:00",
        "ended_at": "2026-11-01T20:00:00+00:00",
        "players": [{"name": f"N{first + n}-{seat}", "score": seat} for seat in range(names)]}
        for n in range(count)]}


def send(client, night, data, raw: bytes | None = None):
    return client.post(f"/api/groups/{night.code}/plays", headers=night.owner,
                       data=raw if raw is not None else json.dumps(data),
                       content_type="application/json")


def test_nothing_of_an_import_shows_before_the_whole_file_is_in(client, monkeypatch):
    night = Night(client, players=("Ann",))
    count = 3 * AT_ONCE + 1  # several transactions
    seen = {}
    publish = imports._publish

    def look_first(*args):
        info = night.info()  # another phone, while every play is written but not yet shown
        seen["plays"], seen["players"] = len(info["plays"]), info["players"]
        seen["page"] = client.get(f"/g/{night.code}").get_data(as_text=True)
        return publish(*args)

    monkeypatch.setattr(imports, "_publish", look_first)
    answer = send(client, night, export(count))
    assert answer.status_code == 200 and answer.get_json()["added"] == count
    assert seen["plays"] == 0 and seen["players"] == ["Ann"]
    assert "N0-0" not in seen["page"] and "0 plays" in seen["page"]
    info = night.info()
    assert len(info["plays"]) == count and len(info["players"]) == 1 + 3 * count


def test_an_import_that_fails_half_way_leaves_nothing(app, client, monkeypatch):
    night = Night(client, players=("Ann",))
    written = []
    write_some = imports._write_some

    def fail_on_the_third(*args):
        if len(written) == 2:
            raise RuntimeError("the disk is full")
        written.append(write_some(*args))
        return written[-1]

    monkeypatch.setattr(imports, "_write_some", fail_on_the_third)
    with pytest.raises(RuntimeError):
        send(client, night, export(5 * AT_ONCE))
    assert night.info()["plays"] == [] and night.info()["players"] == ["Ann"]
    with app.app_context():
        db = get_db()
        assert db.exec(select(Play)).all() == []
        assert db.exec(select(GroupPlayer).where(GroupPlayer.pending.is_not(None))).all() == []
        assert db.exec(select(PendingImport)).all() == []


def test_what_a_killed_import_wrote_stays_hidden_and_the_next_import_clears_it(app, client):
    """A process killed mid-import (kill -9) leaves its pending rows: nobody's, and deleted by
    the next import once they are older than any import takes."""
    night = Night(client, players=("Ann",))
    with app.app_context():  # as a killed import leaves them
        db = get_db()
        group_id = find_group(db, night.code).id
        db.add(PendingImport(key="k" * 32, group_id=group_id,
                             started_at=now() - imports.STALE_AFTER - timedelta(minutes=1)))
        db.add(GroupPlayer(group_id=group_id, name="Ghost", pending="k" * 32))
        db.add(Play(group_id=group_id, uid="p0", game_id="scorepad", started_at=now(),
                    ended_at=now(), players=[], facts={}, pending="k" * 32))
        db.commit()
    assert night.info()["plays"] == [] and night.info()["players"] == ["Ann"]
    # The same play id again: the leftover does not block it, it is cleared first.
    answer = send(client, night, export(1))
    assert answer.status_code == 200 and answer.get_json()["added"] == 1
    with app.app_context():
        db = get_db()
        assert db.exec(select(PendingImport)).all() == []
        assert [p.name for p in db.exec(select(GroupPlayer).where(GroupPlayer.name == "Ghost"))] == []
    assert sorted(night.info()["players"]) == ["Ann", "N0-0", "N0-1", "N0-2"]


def test_an_import_meeting_another_under_way_with_a_play_id_or_name_waits_then_names_it(
        app, client, monkeypatch):
    """Another import still writing play p0, or the newcomer "N0-1": this one waits for it
    (a short while here), then is refused naming what clashed, and leaves nothing."""
    monkeypatch.setattr(imports, "WAIT_FOR_OTHERS", 0.3)
    night = Night(client, players=("Ann",))
    with imports.under_way(app.extensions["engine"], "o" * 32):
        with app.app_context():  # the other import, under way
            db = get_db()
            group_id = find_group(db, night.code).id
            db.add(PendingImport(key="o" * 32, group_id=group_id))
            db.add(Play(group_id=group_id, uid="p0", game_id="scorepad", started_at=now(),
                        ended_at=now(), players=[], facts={}, pending="o" * 32))
            db.add(GroupPlayer(group_id=group_id, name="N5-1", pending="o" * 32))
            db.commit()
        for first, clash in ((0, "the play p0"), (5, "the player N5-1")):
            answer = send(client, night, export(3, first=first))
            assert answer.status_code == 409 and answer.get_json()["kind"] == "conflict"
            assert answer.get_json()["error"] == (f"Another import is adding {clash} just now; "
                                                  "nothing was imported. Try again when it is done.")
            assert night.info()["plays"] == [] and night.info()["players"] == ["Ann"]
    # Its writer gone (killed), the same file goes in, and what the other left is cleared.
    answer = send(client, night, export(3, first=5))
    assert answer.status_code == 200 and answer.get_json()["added"] == 3
    assert len(night.info()["plays"]) == 3 and "N5-1" in night.info()["players"]
    assert pending_rows(app, "o" * 32) == []


def test_an_import_waits_for_another_adding_the_same_newcomer_and_both_count(make_app,
                                                                             monkeypatch):
    """Two imports (through two server processes) naming "Newbie", the same spelling, with
    plays of different ids: the second waits for the first, then its Newbie is the first's;
    both imports count."""
    client, other_server = make_app().test_client(), make_app().test_client()
    night = Night(client, players=("Ann",))
    first, second = export(1, names=1), export(1, first=1, names=1)
    for data in (first, second):
        data["plays"][0]["players"] = [{"name": "Ann", "score": 1}, {"name": "Newbie", "score": 2}]
    written, waiting = threading.Event(), threading.Event()
    write_some, publish = imports._write_some, imports._publish

    def noting_the_wait(*args):
        try:
            return write_some(*args)
        except imports._Waiting:
            waiting.set()
            raise

    def once_the_other_waits(*args):
        written.set()  # every play of the first is written, Newbie too
        waiting.wait(timeout=30)
        return publish(*args)

    monkeypatch.setattr(imports, "_write_some", noting_the_wait)
    monkeypatch.setattr(imports, "_publish", once_the_other_waits)
    answers = {}
    importing = threading.Thread(target=lambda: answers.update(first=send(client, night, first)))
    importing.start()
    assert written.wait(timeout=30)
    answers["second"] = send(other_server, night, second)
    importing.join()
    assert waiting.is_set()
    for name in ("first", "second"):
        assert answers[name].status_code == 200 and answers[name].get_json()["added"] == 1
    info = night.info()
    assert sorted(info["players"]) == ["Ann", "Newbie"]
    assert sorted(p["uid"] for p in info["plays"]) == ["p0", "p1"]


PLAY = (b'{"plays": [{"uid": "x", "game": "scorepad", "started_at": "2026-11-01T19:00:00Z", '
        b'"ended_at": "2026-11-01T20:00:00Z", "players": [{"name": "A", "score": 1}], "facts": {}}]}')


@pytest.mark.parametrize("raw, words", [
    (PLAY, ""),  # the file the others spoil: it is read
    (b'{"plays": [{"uid": "a\\ud800b"}]}', "lone surrogate"),
    (PLAY.replace(b'"facts": {}', b'"facts": {"n": ' + b"7" * 40 + b"}"), "too long to read"),
    (PLAY.replace(b'"score": 1', b'"score": ' + b"9" * 40), "'players[0].score'"),
    (b'{"format": ' + b"9" * 5001 + b"}", "not valid JSON"),
    (b'{"plays": [{"uid": "x",}]}', "not valid JSON"),
    (b'{"plays": {"uid": "x"}}', 'a list called "plays"'),
    (b'[{"plays": []}]', 'a list called "plays"'),
])
def test_a_file_the_stream_cannot_take_is_refused_in_words(client, raw, words):
    night = Night(client, players=("Ann",))
    answer = send(client, night, None, raw)
    if not words:
        assert answer.status_code == 200 and answer.get_json()["added"] == 1
        return
    assert answer.status_code == 422, answer.get_json()
    assert words in answer.get_json()["error"]
    assert night.info()["plays"] == []


def test_a_file_of_more_plays_than_an_import_takes_is_refused_whole(client, monkeypatch):
    monkeypatch.setattr(imports, "PLAYS_MAX", 2 * AT_ONCE)
    night = Night(client, players=("Ann",))
    answer = send(client, night, export(2 * AT_ONCE + 1))
    assert answer.status_code == 422
    assert f"at most {2 * AT_ONCE} plays" in answer.get_json()["error"]
    assert night.info()["plays"] == [] and night.info()["players"] == ["Ann"]


def test_escaped_characters_outside_the_basic_plane_are_read_as_sent(client):
    night = Night(client, players=("Ann",))
    data = export(1, names=1)
    data["plays"][0]["players"][0]["name"] = "Zoë 🎲"
    answer = send(client, night, None, json.dumps(data).encode())  # 🎲 as a surrogate pair
    assert answer.status_code == 200, answer.get_json()
    assert "Zoë 🎲" in night.info()["players"]


# -- names an import is still adding, or a killed one left (issue 40) ----------------------------


def finish(client, table: dict, points: dict) -> None:
    """One round of points at a score-pad table, then its end: a play of its group."""
    for seat, value in points.items():
        moved = client.post(f"/api/tables/{table['code']}/actions", headers=table["headers"],
                            json={"type": "enter_score", "player": seat, "round": 1, "points": value})
        assert moved.status_code == 200, moved.get_json()
    done = client.post(f"/api/tables/{table['code']}/actions", headers=table["headers"],
                       json={"type": "finish_game"})
    assert done.status_code == 200, done.get_json()


def test_a_name_an_import_is_still_adding_is_that_player_for_a_new_table_and_the_page(
        app, client, monkeypatch):
    """A phone with the group's code only sets up a table, or adds a player, with a name the
    import is writing just now: it gets that very player (no 500); the import still counts."""
    night = Night(client, players=("Ann",))
    visitor = Phone(app, "10.0.0.7")
    seen = {}
    publish = imports._publish

    def others_first(*args):
        made = client.post("/api/tables", json={"game": "scorepad", "players": ["N0-0", "Zed"],
                                                "options": {}, "group": night.code})
        seen["table"] = made.status_code, made.get_json()
        seen["added"] = visitor.post(f"/g/{night.code}/players", {"name": "N1-1"})
        seen["players"] = night.info()["players"]
        return publish(*args)

    monkeypatch.setattr(imports, "_publish", others_first)
    count = 2 * AT_ONCE  # several transactions, all written before the others come
    answer = send(client, night, export(count))
    assert answer.status_code == 200 and answer.get_json()["added"] == count
    status, table = seen["table"]
    assert status == 201, table
    assert seen["added"].status_code == 303
    assert "N1-1 is a player of the group." in visitor.get(f"/g/{night.code}").get_data(as_text=True)
    # Taken by the table and the page: shown at once, before the rest of the import.
    assert sorted(seen["players"]) == ["Ann", "N0-0", "N1-1", "Zed"]
    info = night.info()
    assert sorted(info["players"]) == sorted(["Ann", "Zed"] + [f"N{n}-{seat}" for n in range(count)
                                                                for seat in range(3)])
    # The table's N0-0 is the import's: its play names the same one player.
    finish(client, {**table, "headers": bearer(table["token"])}, {"N0-0": 9, "Zed": 4})
    plays = night.info()["plays"]
    assert len(plays) == count + 1
    assert [p["name"] for p in plays[0]["players"]] == ["N0-0", "Zed"]
    assert night.info()["players"].count("N0-0") == 1


def test_a_rename_to_a_name_an_import_is_adding_is_refused_in_words(app, client):
    night = Night(client, players=("Ann",))
    owner = Phone(app)
    owner.get(f"/g/{night.code}/own/{night.key}")
    ann = _player_ids(owner, night.code)["Ann"]
    with app.app_context(), imports.under_way(app.extensions["engine"], "u" * 32):
        db = get_db()
        group_id = find_group(db, night.code).id
        db.add(PendingImport(key="u" * 32, group_id=group_id))
        db.add(GroupPlayer(group_id=group_id, name="Newbie", pending="u" * 32))
        db.commit()
        refused = owner.post(f"/g/{night.code}/players/{ann}/rename", {"name": "Newbie"})
        assert refused.status_code == 409
        assert ("An import is adding a player called Newbie just now; try again when it is "
                "done.") in html.unescape(refused.get_data(as_text=True))
    assert night.info()["players"] == ["Ann"]


def killed_import(app, code: str, key: str, names=("Ghost",), started=None) -> None:
    """What an import killed by ``kill -9`` leaves: its pending rows, and nobody writing them."""
    with app.app_context():
        db = get_db()
        group_id = find_group(db, code).id
        db.add(PendingImport(key=key, group_id=group_id, started_at=started or now()))
        for name in names:
            db.add(GroupPlayer(group_id=group_id, name=name, pending=key))
        db.add(Play(group_id=group_id, uid="p0", game_id="scorepad", started_at=now(),
                    ended_at=now(), players=[], facts={}, pending=key))
        db.commit()


def pending_rows(app, key: str) -> list:
    """What the import ``key`` wrote that is still there."""
    with app.app_context():
        db = get_db()
        return (db.exec(select(PendingImport.key).where(PendingImport.key == key)).all()
                + db.exec(select(GroupPlayer.name).where(GroupPlayer.pending == key)).all()
                + db.exec(select(Play.uid).where(Play.pending == key)).all())


def test_names_a_killed_import_left_are_taken_and_renamed_to_without_an_error(app, client):
    night = Night(client, players=("Ann",))
    killed_import(app, night.code, "k" * 32, names=("Ghost", "Spook"))  # seconds ago
    made = client.post("/api/tables", json={"game": "scorepad", "players": ["Ghost", "Ben"],
                                            "options": {}, "group": night.code})
    assert made.status_code == 201, made.get_json()
    owner = Phone(app)
    owner.get(f"/g/{night.code}/own/{night.key}")
    ann = _player_ids(owner, night.code)["Ann"]
    renamed = owner.post(f"/g/{night.code}/players/{ann}/rename", {"name": "Spook"})
    assert renamed.status_code == 303
    assert sorted(night.info()["players"]) == ["Ben", "Ghost", "Spook"]
    assert night.info()["plays"] == []
    # The same names in an import now: the group's players, not new ones; nothing doubled.
    data = export(1, names=2)
    data["plays"][0]["players"] = [{"name": "Ghost", "score": 3}, {"name": "Spook", "score": 5}]
    answer = send(client, night, data)
    assert answer.status_code == 200 and answer.get_json()["added"] == 1
    assert sorted(night.info()["players"]) == ["Ben", "Ghost", "Spook"]
    assert pending_rows(app, "k" * 32) == []


def test_a_killed_imports_rows_are_cleared_when_the_server_starts(make_app):
    """gunicorn's post_worker_init is the server starting: no import of the last run is still
    writing, so what they left goes (on PostgreSQL: those whose writer holds no lock)."""
    from companion.cli import post_worker_init

    app = make_app()
    night = Night(app.test_client(), players=("Ann",))
    killed_import(app, night.code, "k" * 32)
    restarted = make_app()
    with imports.under_way(restarted.extensions["engine"], "w" * 32):  # one still writing
        with restarted.app_context():
            db = get_db()
            db.add(PendingImport(key="w" * 32, group_id=find_group(db, night.code).id))
            db.commit()
        thresholds = gc.get_threshold()
        try:
            post_worker_init(SimpleNamespace(wsgi=restarted))
        finally:
            gc.unfreeze()
            gc.set_threshold(*thresholds)
        assert pending_rows(restarted, "k" * 32) == []
        assert pending_rows(restarted, "w" * 32) == ["w" * 32]
    assert night.info()["players"] == ["Ann"]
