"""An import written a few plays at a time: nobody sees any of it before all of it, a failure
or a killed process leaves nothing, and a file the stream parser cannot read is refused in
words."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlmodel import select

from companion.service import imports
from companion.service.database import get_db
from companion.service.groups import find_group
from companion.service.models import GroupPlayer, PendingImport, Play, now

from tests.web.test_groups_web import Night


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
        db = get_db(write=True)
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


def test_an_import_meeting_another_with_the_same_play_ids_is_refused_and_leaves_nothing(app,
                                                                                      client):
    night = Night(client, players=("Ann",))
    with app.app_context():  # another import, under way, writing play p0
        db = get_db(write=True)
        group_id = find_group(db, night.code).id
        db.add(PendingImport(key="o" * 32, group_id=group_id))
        db.add(Play(group_id=group_id, uid="p0", game_id="scorepad", started_at=now(),
                    ended_at=now(), players=[], facts={}, pending="o" * 32))
        db.commit()
    answer = send(client, night, export(3))
    assert answer.status_code == 409 and answer.get_json()["kind"] == "conflict"
    assert "Another import is adding plays with the same ids just now" in answer.get_json()["error"]
    assert night.info()["plays"] == [] and night.info()["players"] == ["Ann"]


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
