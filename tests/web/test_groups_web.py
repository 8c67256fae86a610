"""Groups without accounts: plays recorded when a table of the group ends, players renamed and
merged (undoably), export and import (all or nothing, never twice), deleting with the code."""

from __future__ import annotations

import contextlib
import csv
import html
import io
import json
import os
import re
import shutil
import subprocess
import threading
from datetime import datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import event
from sqlmodel import select

from companion.service import imports
from companion.web.db import get_db
from companion.service.codes import CODE_ALPHABET
from companion.service.inputs import name_key
from companion.service.models import GameTable, PlayerGroup

from tests.conftest import Phone, api_table, bearer


class Night:
    """A group and the score-pad tables it plays, through the JSON API."""

    def __init__(self, client, name="Friday", players=("Katrin", "Ben", "Cem")):
        answer = client.post("/api/groups", json={"name": name, "players": list(players)})
        assert answer.status_code == 201, answer.get_json()
        self.client, self.code = client, answer.get_json()["code"]
        self.key = answer.get_json()["owner_key"]
        self.owner = bearer(self.key)  # the API's owner: import
        # The client's phone takes the owner link, as the group's maker would keep it.
        assert client.get(f"/g/{self.code}/own/{self.key}").status_code == 303
        client.get(f"/g/{self.code}")  # where its "now an owner" note is read

    def table(self, seats, seat_players=None):
        table = api_table(self.client, "scorepad", seats, group=self.code,
                          seat_players=seat_players)
        return table["code"], table["token"]

    def play(self, points: dict, seat_players=None):
        """A whole game: one round of points, then finished by the host."""
        code, token = self.table(points, seat_players)
        for seat, value in points.items():
            moved = self.client.post(f"/api/tables/{code}/actions", headers=bearer(token), json={
                "type": "enter_score", "player": seat, "round": 1, "points": value})
            assert moved.status_code == 200, moved.get_json()
        done = self.client.post(f"/api/tables/{code}/actions", headers=bearer(token),
                                json={"type": "finish_game"})
        assert done.status_code == 200 and done.get_json()["finished"], done.get_json()
        return code, token

    def info(self):
        return self.client.get(f"/api/groups/{self.code}").get_json()


def test_a_table_of_the_group_that_ends_becomes_a_play_and_a_later_fix_marks_it_corrected(client):
    night = Night(client)
    code, token = night.play({"Kat": 30, "Ben": 12}, seat_players={"Kat": "Katrin"})
    plays = night.info()["plays"]
    assert len(plays) == 1
    first = plays[0]
    assert first["game"] == "scorepad"
    assert first["players"] == [{"name": "Katrin", "score": 30, "winner": True},
                                {"name": "Ben", "score": 12, "winner": False}]
    assert first["cooperative"] is False and first["result"] is None
    assert first["corrected_at"] is None and first["reopened"] is False
    # Undoing the end by mistake loses nothing: the play stays, marked, until the table ends again.
    undone = client.post(f"/api/tables/{code}/undo", headers=bearer(token))
    assert undone.status_code == 200 and not undone.get_json()["finished"]
    [kept] = night.info()["plays"]
    assert kept["uid"] == first["uid"] and kept["players"] == first["players"]
    assert kept["reopened"] is True
    client.post(f"/api/tables/{code}/redo", headers=bearer(token))
    [same] = night.info()["plays"]
    assert same == first  # the same result again: nothing was corrected
    # A real fix: the end undone, Ben's round 1 rewritten (12 → 40), the game ended again.
    client.post(f"/api/tables/{code}/undo", headers=bearer(token))
    for payload in ({"type": "enter_score", "player": "Ben", "round": 1, "points": 40},
                    {"type": "finish_game"}):
        moved = client.post(f"/api/tables/{code}/actions", headers=bearer(token), json=payload)
        assert moved.status_code == 200, moved.get_json()
    [fixed] = night.info()["plays"]
    assert fixed["uid"] == first["uid"] and fixed["ended_at"] == first["ended_at"]
    assert fixed["players"] == [{"name": "Katrin", "score": 30, "winner": False},
                                {"name": "Ben", "score": 40, "winner": True}]
    assert fixed["corrected_at"] is not None and fixed["reopened"] is False
    page = html.unescape(client.get(f"/g/{night.code}").get_data(as_text=True))
    assert "Corrected at its table after the end, on " in page


def test_an_owner_deletes_one_play_and_can_bring_it_back(phone):
    host = phone()
    night = Night(host.client)
    code, token = night.play({"Katrin": 5, "Ben": 9})
    night.play({"Cem": 20, "Ben": 2})
    gone, stays = night.info()["plays"][1], night.info()["plays"][0]

    visitor = phone("10.0.0.9")
    page = html.unescape(visitor.get(f"/g/{night.code}").get_data(as_text=True))
    assert "Delete this play" not in page
    refused = visitor.post(f"/g/{night.code}/plays/{gone['uid']}/delete", {})
    assert refused.status_code == 403
    assert len(night.info()["plays"]) == 2

    assert "Delete this play" in html.unescape(host.get(f"/g/{night.code}").get_data(as_text=True))
    deleted = host.post(f"/g/{night.code}/plays/{gone['uid']}/delete", {})
    assert deleted.status_code == 303 and deleted.headers["Location"].endswith("#plays")
    page = html.unescape(host.get(deleted.headers["Location"]).get_data(as_text=True))
    assert "The play of Score pad was deleted." in page
    assert "↶ Bring back the deleted play" in page
    assert [p["uid"] for p in night.info()["plays"]] == [stays["uid"]]
    # Its table no longer counts in the group: ending it again brings nothing back.
    host.client.post(f"/api/tables/{code}/undo", headers=bearer(token))
    host.client.post(f"/api/tables/{code}/redo", headers=bearer(token))
    assert [p["uid"] for p in night.info()["plays"]] == [stays["uid"]]
    missing = host.post(f"/g/{night.code}/plays/no-such-play/delete", {})
    assert missing.status_code == 404 and "This group has no play no-such-play." in html.unescape(
        missing.get_data(as_text=True))

    back = host.post(f"/g/{night.code}/undo", {})
    assert back.status_code == 303 and back.headers["Location"].endswith("#plays")
    assert "The deleted play is back." in html.unescape(
        host.get(back.headers["Location"]).get_data(as_text=True))
    assert night.info()["plays"] == [stays, gone]  # as it was, with its id and times
    with host.client.application.app_context():
        table = get_db().exec(select(GameTable).where(GameTable.code == code)).one()
        assert table.group_id is not None  # counting in the group again
    nothing = host.post(f"/g/{night.code}/undo", {})
    assert nothing.status_code == 422
    assert "There is no renaming, merging or deleted play to undo." in html.unescape(
        nothing.get_data(as_text=True))


def test_a_deleted_play_comes_back_with_its_player_after_a_merge_is_undone(phone):
    host = phone()
    night = Night(host.client, players=("Katrin", "Kathrin", "Ben"))
    night.play({"Kathrin": 15, "Ben": 9})
    uid = night.info()["plays"][0]["uid"]
    assert host.post(f"/g/{night.code}/plays/{uid}/delete", {}).status_code == 303
    ids = _player_ids(host, night.code)
    host.post(f"/g/{night.code}/merge", {"keep": ids["Katrin"], "drop": ids["Kathrin"]})
    host.post(f"/g/{night.code}/undo", {})  # the merge: Kathrin is back, under a new id
    host.post(f"/g/{night.code}/undo", {})  # the deletion
    [play] = night.info()["plays"]
    assert [p["name"] for p in play["players"]] == ["Kathrin", "Ben"]


def test_undoing_a_deletion_after_the_play_was_imported_again_keeps_one(phone):
    host = phone()
    night = Night(host.client)
    night.play({"Katrin": 5, "Ben": 9})
    export = host.client.get(f"/api/groups/{night.code}/plays").get_json()
    uid = export["plays"][0]["uid"]
    assert host.post(f"/g/{night.code}/plays/{uid}/delete", {}).status_code == 303
    again = host.client.post(f"/api/groups/{night.code}/plays", json=export, headers=night.owner)
    assert again.get_json()["added"] == 1
    assert host.post(f"/g/{night.code}/undo", {}).status_code == 303
    assert [p["uid"] for p in night.info()["plays"]] == [uid]


def test_the_api_deletes_a_play_with_the_groups_owner_key_only(client):
    night, other = Night(client), Night(client, name="Other")
    night.play({"Katrin": 5, "Ben": 9})
    uid = night.info()["plays"][0]["uid"]
    for headers in ({}, other.owner, bearer("not-a-key")):
        refused = client.delete(f"/api/groups/{night.code}/plays/{uid}", headers=headers)
        assert refused.status_code == 403 and refused.get_json()["kind"] == "forbidden"
    missing = client.delete(f"/api/groups/{night.code}/plays/nope", headers=night.owner)
    assert missing.status_code == 404 and missing.get_json()["kind"] == "not_found"
    assert len(night.info()["plays"]) == 1
    deleted = client.delete(f"/api/groups/{night.code}/plays/{uid}", headers=night.owner)
    assert deleted.status_code == 200 and deleted.get_json() == {"deleted": uid, "plays": 0}
    assert night.info()["plays"] == []


def test_a_table_without_a_group_records_nothing_and_an_unknown_group_is_refused(client):
    night = Night(client)
    created = client.post("/api/tables", json={"game": "scorepad", "players": ["A", "B"],
                                                "group": "ZZZZZZ"})
    assert created.status_code == 404
    assert "no group with the code ZZZZZZ" in created.get_json()["error"]
    created = client.post("/api/tables", json={"game": "scorepad", "players": ["A", "B"]})
    assert created.status_code == 201
    assert night.info()["plays"] == []


def test_the_group_page_lists_plays_newest_first_and_opens_each_table_read_only(phone):
    host = phone()
    night = Night(host.client)
    first, _ = night.play({"Katrin": 5, "Ben": 9})
    second, _ = night.play({"Cem": 20, "Ben": 2})
    page = host.get(f"/g/{night.code}").get_data(as_text=True)
    assert "2 plays" in page
    assert page.index("Cem") < page.index("Katrin")  # the newest play comes first
    uid = night.info()["plays"][1]["uid"]
    opened = host.get(f"/g/{night.code}/plays/{uid}")
    shown = html.unescape(opened.get_data(as_text=True))
    assert opened.status_code == 200
    assert "The host wrote 5 points for Katrin in round 1." in shown
    assert first not in shown  # the table's code, a way to its seats, is not given away


def test_a_plays_history_outlives_its_archived_table(make_app):
    app = make_app(ARCHIVE_DAYS=30)
    client = app.test_client()
    night = Night(client)
    code, _token = night.play({"Katrin": 5, "Ben": 9})
    uid = night.info()["plays"][0]["uid"]
    with app.app_context():
        db = get_db()
        table = db.exec(select(GameTable).where(GameTable.code == code)).one()
        table.updated_at = table.updated_at - timedelta(days=31)
        db.commit()
    assert client.get(f"/t/{code}").status_code == 404  # put away
    opened = client.get(f"/g/{night.code}/plays/{uid}")
    assert opened.status_code == 200
    assert "The host finished the game." in opened.get_data(as_text=True)


def test_renaming_a_player_shows_everywhere_and_can_be_undone(phone):
    host = phone()
    night = Night(host.client)
    night.play({"Katrin": 5, "Ben": 9})
    page = host.get(f"/g/{night.code}")
    katrin = next(p for p in host.client.get(f"/api/groups/{night.code}").get_json()["players"]
                  if p == "Katrin")
    assert katrin
    ids = _player_ids(host, night.code)
    renamed = host.post(f"/g/{night.code}/players/{ids['Katrin']}/rename", {"name": "Kathrin"})
    assert renamed.status_code == 303
    assert night.info()["plays"][0]["players"][0]["name"] == "Kathrin"
    refused = host.post(f"/g/{night.code}/players/{ids['Ben']}/rename", {"name": "kathrin"})
    assert refused.status_code == 422
    assert "Kathrin is already a player of this group" in html.unescape(refused.get_data(as_text=True))
    undone = host.post(f"/g/{night.code}/undo", {})
    assert undone.status_code == 303
    assert night.info()["plays"][0]["players"][0]["name"] == "Katrin"
    assert page.status_code == 200


def _player_ids(phone, code) -> dict[str, int]:
    import re

    page = phone.get(f"/g/{code}").get_data(as_text=True)
    return {name: int(number) for number, name in
            re.findall(r'id="rename-(\d+)" name="name" maxlength="\d+" value="([^"]+)"', page)}


def test_merging_two_spellings_moves_their_plays_and_undo_brings_both_back(phone):
    host = phone()
    night = Night(host.client, players=("Katrin", "Kathrin", "Ben"))
    night.play({"Katrin": 5, "Ben": 9})
    night.play({"Kathrin": 15, "Ben": 9})
    ids = _player_ids(host, night.code)
    merged = host.post(f"/g/{night.code}/merge", {"keep": ids["Katrin"], "drop": ids["Kathrin"]})
    assert merged.status_code == 303
    info = night.info()
    assert sorted(info["players"]) == ["Ben", "Katrin"]
    assert [p["players"][0]["name"] for p in info["plays"]] == ["Katrin", "Katrin"]
    host.post(f"/g/{night.code}/undo", {})
    info = night.info()
    assert sorted(info["players"]) == ["Ben", "Kathrin", "Katrin"]
    assert [p["players"][0]["name"] for p in info["plays"]] == ["Kathrin", "Katrin"]


def test_a_merge_is_undone_after_another_group_took_the_dropped_players_id(phone):
    """SQLite gives a deleted row's id to the next new row: here another group's new player.
    The undone merge brings the dropped spelling back under an id of its own, and its renaming
    from before the merge can still be undone."""
    host = phone()
    night = Night(host.client, players=("Katrin", "Ben", "Kathrin"))
    night.play({"Kathrin": 15, "Ben": 9})
    ids = _player_ids(host, night.code)
    assert host.post(f"/g/{night.code}/players/{ids['Kathrin']}/rename", {"name": "Kathi"}).status_code == 303
    assert host.post(f"/g/{night.code}/merge", {"keep": ids["Katrin"], "drop": ids["Kathrin"]}).status_code == 303
    other = Night(host.client, name="Elsewhere", players=("Newcomer",))
    if host.client.application.config["DATABASE_URL"].startswith("sqlite"):
        assert _player_ids(host, other.code)["Newcomer"] == ids["Kathrin"]  # the id, again
    undone = host.post(f"/g/{night.code}/undo", {})
    assert undone.status_code == 303
    info = night.info()
    assert sorted(info["players"]) == ["Ben", "Kathi", "Katrin"]
    assert info["plays"][0]["players"][0]["name"] == "Kathi"
    assert host.post(f"/g/{night.code}/undo", {}).status_code == 303  # the renaming, too
    assert sorted(night.info()["players"]) == ["Ben", "Kathrin", "Katrin"]
    assert other.info()["players"] == ["Newcomer"]


def test_two_people_who_played_together_cannot_be_merged(phone):
    host = phone()
    night = Night(host.client)
    night.play({"Katrin": 5, "Ben": 9})
    ids = _player_ids(host, night.code)
    refused = host.post(f"/g/{night.code}/merge", {"keep": ids["Katrin"], "drop": ids["Ben"]})
    assert refused.status_code == 422
    assert "played together in one game" in html.unescape(refused.get_data(as_text=True))
    assert sorted(night.info()["players"]) == ["Ben", "Cem", "Katrin"]


def test_export_and_import_restore_the_plays_and_a_second_import_adds_nothing(client):
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    night.play({"Cem": 3, "Ben": 40})
    exported = client.get(f"/g/{night.code}/plays.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    data = json.loads(exported.get_data(as_text=True))
    assert data["format"] == "table-companion-plays/1" and len(data["plays"]) == 2
    elsewhere = Night(client, name="Restored", players=())
    first = client.post(f"/api/groups/{elsewhere.code}/plays", headers=elsewhere.owner, json=data)
    assert first.get_json() == {"added": 2, "plays": 2, "conflicts": []}
    again = client.post(f"/api/groups/{elsewhere.code}/plays", headers=elsewhere.owner, json=data)
    assert again.get_json() == {"added": 0, "plays": 2, "conflicts": []}
    restored = elsewhere.info()
    assert sorted(restored["players"]) == ["Ben", "Cem", "Katrin"]
    assert [p["players"] for p in restored["plays"]] == [p["players"] for p in data["plays"]]
    assert [p["uid"] for p in restored["plays"]] == [p["uid"] for p in data["plays"]]


def test_an_import_reads_as_often_for_fifty_plays_of_new_names_as_for_five(app, client):
    """Names are resolved in bulk: the reads an import makes do not grow with its plays and
    names (a lookup and a flush per name made 200 plays stall a server for 30 s); only the
    rows it writes do, and its transactions (a few plays each), each with one read: that the
    import is still pending."""
    def plays(count: int, first: int) -> dict:
        return {"plays": [{
            "uid": f"u{first + n}", "game": "scorepad", "started_at": "2026-11-01T19:00:00+00:00",
            "ended_at": "2026-11-01T20:00:00+00:00",
            "players": [{"name": f"P{first + n}-{seat}", "score": seat} for seat in range(12)]}
            for n in range(count)]}

    def transactions(count: int) -> int:
        return -(-count // imports.PLAYS_AT_ONCE[app.extensions["engine"].dialect.name])

    def reads(count: int, first: int) -> int:
        night = Night(client, players=("Katrin",))
        sent = []
        engine = app.extensions["engine"]

        def record(connection, cursor, statement, *rest):
            # PostgreSQL's ids drawn for the new names (one per transaction) are no lookups.
            if statement.lstrip().upper().startswith("SELECT") and "nextval" not in statement:
                sent.append(statement)

        event.listen(engine, "before_cursor_execute", record)
        try:
            answer = client.post(f"/api/groups/{night.code}/plays", headers=night.owner, json=plays(count, first))
        finally:
            event.remove(engine, "before_cursor_execute", record)
        assert answer.get_json()["added"] == count
        assert len(night.info()["players"]) == 1 + 12 * count
        return len(sent)

    assert reads(50, 1000) - reads(5, 0) == transactions(50) - transactions(5)


@pytest.mark.parametrize("change, message", [
    (lambda plays: plays[1].update(uid=plays[0]["uid"]), "Play 2 has the id '"),
    (lambda plays: plays[1].update(game="monopoly"), "Play 2: "),
    (lambda plays: plays[0]["players"].append({"name": "Ben"}), "Play 1: "),
    (lambda plays: plays[1]["players"][0].update(name="x" * 30), "Play 2: "),
    (lambda plays: plays[0].pop("ended_at"), "Play 1: The field 'ended_at' is missing."),
])
def test_a_bad_import_names_the_play_and_adds_nothing(client, change, message):
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    night.play({"Cem": 3, "Ben": 40})
    data = client.get(f"/api/groups/{night.code}/plays").get_json()
    change(data["plays"])
    elsewhere = Night(client, name="Other", players=())
    refused = client.post(f"/api/groups/{elsewhere.code}/plays", headers=elsewhere.owner, json=data)
    assert refused.status_code == 422
    assert refused.get_json()["error"].startswith(message), refused.get_json()
    assert elsewhere.info()["plays"] == [] and elsewhere.info()["players"] == []


def test_an_uploaded_file_that_is_not_json_is_refused_on_the_page_with_its_line(phone):
    host = phone()
    night = Night(host.client)
    host.get(f"/g/{night.code}")
    answer = host.post(f"/g/{night.code}/import",
                       {"file": (io.BytesIO(b'{\n "plays": [\n  {,]}'), "plays.json")},
                       content_type="multipart/form-data")
    assert answer.status_code == 422
    assert "The file is not valid JSON (line 3)" in answer.get_data(as_text=True)


def test_the_csv_has_one_row_per_player_per_play(client):
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{night.code}/plays.csv")
                                           .get_data(as_text=True))))
    assert [(r["player"], r["score"], r["winner"]) for r in rows] == [
        ("Katrin", "30", "yes"), ("Ben", "12", "no")]
    assert rows[0]["game"] == "scorepad" and rows[0]["date"] == rows[0]["ended_at"][:10]


SSCONVERT = shutil.which("ssconvert")  # gnumeric's converter, from Debian (.ci/run installs it)
FORMULAS = ["=2*21", "@SUM(1+1)", "+7", "-3+4"]  # as formulas a spreadsheet shows 42, 2, 7, 1


def through_a_spreadsheet(tmp_path, rows: list[list[str]]) -> list[list[str]]:
    """The cells as gnumeric reads them and writes them back out (formulas evaluated)."""
    source, result = tmp_path / "plays.csv", tmp_path / "read.csv"
    with source.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(rows)
    subprocess.run([SSCONVERT, str(source), str(result)], check=True, capture_output=True, timeout=60)
    return list(csv.reader(io.StringIO(result.read_text(encoding="utf-8"))))


@pytest.mark.skipif(not SSCONVERT and not os.environ.get("CI"), reason="gnumeric is not installed")
@pytest.mark.parametrize("language, delimiter, column", [("en", ",", "player"), ("de", ";", "Spieler")])
def test_names_that_look_like_formulas_stay_text_in_a_spreadsheet(client, tmp_path, language,
                                                                   delimiter, column):
    assert SSCONVERT, "gnumeric's ssconvert is missing; .ci/run installs it"
    night = Night(client, players=())
    client.post(f"/api/groups/{night.code}/plays", headers=night.owner, json={"plays": [{
        "uid": "=1+1", "game": "scorepad", "started_at": "2026-11-01T19:00:00+00:00",
        "ended_at": "2026-11-01T20:00:00+00:00",
        "players": [{"name": name, "score": 5} for name in FORMULAS]}]})
    body = client.get(f"/g/{night.code}/plays.csv", headers={"Accept-Language": language}).get_data(as_text=True)
    # gnumeric's command line splits commas only: the German file's cells go to it as they are.
    rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff")), delimiter=delimiter))
    read = through_a_spreadsheet(tmp_path, rows)
    names = [row[rows[0].index(column)] for row in read[1:]]
    assert sorted(names) == sorted(FORMULAS)  # the text as typed, not 42, 2, 7 and 1
    assert {row[0] for row in read[1:]} == {"=1+1"}


def test_a_german_phone_gets_a_csv_german_spreadsheets_open_as_columns(client):
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    answer = client.get(f"/g/{night.code}/plays.csv?tz=Europe/Berlin",
                        headers={"Accept-Language": "de-DE"})
    body = answer.get_data(as_text=True)
    assert body.startswith("\ufeff") and answer.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(body[1:]), delimiter=";"))
    assert [(r["Spieler"], r["Punkte"], r["Sieger"]) for r in rows] == [
        ("Katrin", "30", "Ja"), ("Ben", "12", "Nein")]
    english = list(csv.DictReader(io.StringIO(client.get(f"/g/{night.code}/plays.csv").get_data(as_text=True))))
    ended = datetime.fromisoformat(english[0]["ended_at"]).astimezone(ZoneInfo("Europe/Berlin"))
    assert rows[0]["Ende"] == ended.strftime("%d.%m.%Y %H:%M")
    assert rows[0]["Datum"] == ended.strftime("%d.%m.%Y")
    assert list(rows[0]) == ["Partie", "Spiel", "BGG-ID", "Datum", "Beginn", "Ende", "Dauer (Minuten)",
                             "Spieler", "Punkte", "Sieger", "Ergebnis (kooperativ)"]
    refused = client.get(f"/g/{night.code}/plays.csv?tz=Mars/Olympus", headers={"Accept-Language": "de-DE"})
    assert refused.status_code == 422
    assert "Es gibt keine Zeitzone namens „Mars/Olympus“." in html.unescape(refused.get_data(as_text=True))


def test_deleting_a_group_needs_its_code_typed_and_removes_only_that_group(phone):
    host = phone()
    night, other = Night(host.client), Night(host.client, name="Sunday")
    code, _token = night.play({"Katrin": 30, "Ben": 12})
    host.get(f"/g/{night.code}")
    refused = host.post(f"/g/{night.code}/delete", {"confirm": other.code})
    assert refused.status_code == 422
    assert f"Type the group's code ({night.code})" in html.unescape(refused.get_data(as_text=True))
    assert host.client.get(f"/api/groups/{night.code}").status_code == 200
    deleted = host.post(f"/g/{night.code}/delete", {"confirm": night.code.lower()})
    assert deleted.status_code == 303
    assert host.client.get(f"/api/groups/{night.code}").status_code == 404
    assert host.client.get(f"/api/groups/{other.code}").status_code == 200
    assert host.client.get(f"/api/tables/{code}").status_code == 200  # its tables stay


def test_a_group_is_started_from_its_form_and_a_bad_name_loses_nothing_typed(phone):
    host = phone()
    host.get("/groups/new")
    refused = host.post("/groups", {"name": "  ", "players": "Katrin\nBen"})
    assert refused.status_code == 422
    assert "The group needs a name." in refused.get_data(as_text=True)
    assert "Katrin\nBen" in refused.get_data(as_text=True)
    started = host.post("/groups", {"name": "Friday", "players": "Katrin\nBen\n"})
    assert started.status_code == 303
    page = host.get(started.headers["Location"]).get_data(as_text=True)
    assert "Friday" in page and 'value="Katrin"' in page and 'value="Ben"' in page


def test_an_imported_play_that_ends_before_it_starts_is_refused(client):
    night = Night(client, players=())
    data = {"plays": [{"uid": "a1", "game": "scorepad", "started_at": "2026-11-27T20:00:00",
                       "ended_at": "2026-11-27T19:00:00+00:00",
                       "players": [{"name": "Ann", "score": 3, "winner": True}]}]}
    refused = client.post(f"/api/groups/{night.code}/plays", headers=night.owner, json=data)
    assert refused.status_code == 422
    assert refused.get_json()["error"].startswith("Play 1: ")
    assert "end before it started" in refused.get_json()["error"]
    data["plays"][0]["started_at"] = "2026-11-27T18:00:00"  # no zone: taken as UTC
    assert client.post(f"/api/groups/{night.code}/plays", headers=night.owner, json=data).get_json()["added"] == 1
    assert night.info()["plays"][0]["duration_minutes"] == 60


def test_a_rematch_keeps_the_seats_and_group_and_rotates_the_start_when_asked(client):
    night = Night(client)
    code, host = night.play({"Katrin": 30, "Ben": 12})
    started = client.post(f"/api/tables/{code}/rematch", headers=bearer(host), json={"rotate": True})
    assert started.status_code == 200, started.get_json()
    new = started.get_json()
    assert new["code"] != code
    table = client.get(f"/api/tables/{new['code']}").get_json()
    assert table["players"] == ["Ben", "Katrin"] and not table["finished"]
    # A second tap finds the same rematch; the old table says a rematch began, but not its
    # code: the snapshot answers whoever knows the old code, seated there or not.
    again = client.post(f"/api/tables/{code}/rematch", headers=bearer(host), json={})
    assert again.get_json()["code"] == new["code"]
    old = client.get(f"/api/tables/{code}").get_json()
    assert old["log"][0]["text"] == "The host started a rematch."
    assert new["code"] not in str(old) and code not in str(client.get(f"/api/tables/{new['code']}").get_json()["log"])
    # The rematch belongs to the group: when it ends it is the group's second play.
    for seat, points in (("Ben", 4), ("Katrin", 8)):
        client.post(f"/api/tables/{new['code']}/actions", headers=bearer(new["token"]),
                    json={"type": "enter_score", "player": seat, "round": 1, "points": points})
    client.post(f"/api/tables/{new['code']}/actions", headers=bearer(new["token"]),
                json={"type": "finish_game"})
    assert len(night.info()["plays"]) == 2


def test_a_repeated_api_rematch_call_answers_the_same_place(client):
    """A script whose answer was lost calls again: the same rematch, the same seat, the same
    token, and no second device at the new table."""
    night = Night(client)
    code, host = night.play({"Katrin": 30, "Ben": 12})
    ben = client.post(f"/api/tables/{code}/join", json={"seat": "Ben"})
    assert ben.status_code == 403  # the game is over: its seats are kept
    katrin = client.post(f"/api/tables/{code}/rematch", headers=bearer(host), json={}).get_json()
    again = client.post(f"/api/tables/{code}/rematch", headers=bearer(host), json={}).get_json()
    assert again == katrin
    log = client.get(f"/api/tables/{katrin['code']}").get_json()["log"]
    assert sum("joined" in entry["text"] or "took" in entry["text"] for entry in log) == 1


def test_a_rematch_waits_for_the_end_of_the_game(client):
    night = Night(client)
    code, token = night.table({"Katrin": None, "Ben": None})
    refused = client.post(f"/api/tables/{code}/rematch", headers=bearer(token), json={})
    assert refused.status_code == 422
    assert "once this game has ended" in refused.get_json()["error"]


def test_every_phone_of_the_table_follows_to_its_own_seat_at_the_rematch(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    ann, ben = phone("10.0.0.3"), phone("10.0.0.4")
    ann.join(code, "Ann")
    ben.join(code, "Ben")
    ann.act(type="enter_score", player="Ann", round="1", points="5")
    ann.act(type="finish_game")
    started = ann.post(f"/t/{code}/rematch", {"rotate": "1"})
    assert started.status_code == 303
    new = started.headers["Location"].rsplit("/", 1)[-1]
    assert new != code
    assert "You are <strong>Ann</strong>" in ann.get(f"/t/{new}").get_data(as_text=True)
    followed = ben.get(f"/t/{code}/next")
    assert followed.headers["Location"].endswith(f"/t/{new}")
    assert "You are <strong>Ben</strong>" in ben.get(f"/t/{new}").get_data(as_text=True)
    # Following twice keeps the one place; the host hosts the rematch too.
    assert ben.get(f"/t/{code}/next").headers["Location"].endswith(f"/t/{new}")
    host.get(f"/t/{code}/next")
    page = host.get(f"/t/{new}").get_data(as_text=True)
    assert "Delete this table" in page
    seats = [d for d in host.client.get(f"/api/tables/{new}").get_json()["log"]
             if "took" in d["text"]]
    assert len(seats) == 2


def test_a_watcher_is_not_given_the_rematchs_code(phone):
    """Whoever learns a finished table's code may watch it, but not reach the rematch's free
    seats through it: the page, its live answer and the follow link keep the new code back."""
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    host.act(type="enter_score", player="Ann", round="1", points="5")
    host.act(type="finish_game")
    new = host.post(f"/t/{code}/rematch", {}).headers["Location"].rsplit("/", 1)[-1]
    joins = len(host.client.get(f"/api/tables/{new}").get_json()["log"])
    stranger = phone("10.0.0.66")
    assert stranger.join(code).status_code == 303
    page = html.unescape(stranger.get(f"/t/{code}").get_data(as_text=True))
    assert "The players have moved on to a rematch at a new table." in page
    assert new not in page
    live = stranger.get(f"/t/{code}/live?v=0", headers={"HX-Request": "true"})  # the poll
    assert new not in live.get_data(as_text=True) and "data-next=" not in live.get_data(as_text=True)
    refused = stranger.get(f"/t/{code}/next")
    assert refused.status_code == 403
    text = html.unescape(refused.get_data(as_text=True))
    assert "Only the phones that played go along to the rematch." in text and new not in text
    assert len(host.client.get(f"/api/tables/{new}").get_json()["log"]) == joins  # nobody came
    # The host (and each player) still follows.
    assert host.get(f"/t/{code}/next").headers["Location"].endswith(f"/t/{new}")


def test_the_group_page_and_its_refusals_speak_the_phone_language(phone):
    host = phone()
    night = Night(host.client)
    night.play({"Katrin": 30, "Ben": 12})
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    page = host.get(f"/g/{night.code}", headers=german).get_data(as_text=True)
    assert "1 Partie" in page and "Gruppe löschen" in page and "Sieger" in page
    assert "Partien mitnehmen" in page
    # A play says its day with the year (the phone's script adds its own time of day).
    assert re.search(r'data-show="day">\d{1,2}\.\xa0(Jan\.|Feb\.|März|Apr\.|Mai|Juni|Juli|Aug\.|Sept\.|Okt\.|Nov\.|Dez\.)\xa0\d{4}</time>', page)
    refused = host.post(f"/g/{night.code}/delete", {"confirm": "NOPE"}, headers=german)
    assert "Tippe den Code der Gruppe" in html.unescape(refused.get_data(as_text=True))
    english = host.get(f"/g/{night.code}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "1 play" in english and "Delete the group" in english


def test_the_statistics_page_and_json_count_the_plays(client):
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    night.play({"Katrin": 25, "Ben": 40})
    night.play({"Katrin": 50, "Cem": 10})
    page = client.get(f"/g/{night.code}/stats")
    assert page.status_code == 200
    text = html.unescape(page.get_data(as_text=True))
    assert "3 plays" in text and "Head to head" in text
    assert "<svg" in text and 'role="img"' in text  # the win-rate chart, with its table
    assert "Katrin – Ben" in text or "Ben – Katrin" in text
    numbers = client.get(f"/api/groups/{night.code}/stats").get_json()
    katrin = next(p for p in numbers["group"]["players"] if p["name"] == "Katrin")
    assert (katrin["plays"], katrin["wins"], katrin["longest_streak"]) == (3, 2, 1)
    assert katrin["best_score"] == 50 and katrin["worst_score"] == 25


def test_the_statistics_page_writes_numbers_as_the_phones_language_does(client):
    """German writes a decimal comma and a space before the percent sign (that never breaks
    from the number); English neither."""
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    night.play({"Katrin": 25, "Ben": 41})
    night.play({"Katrin": 50, "Cem": 10})  # Katrin 2 wins of 3 plays; Ben's average 26.5

    def page(language: str) -> str:
        answer = client.get(f"/g/{night.code}/stats", headers={"Accept-Language": language})
        return html.unescape(answer.get_data(as_text=True))

    german, english = page("de"), page("en")
    assert "<td>67\xa0%</td>" in german and "<td>26,5</td>" in german
    assert ">67\xa0%</text>" in german  # the chart's bar says it too
    assert "<td>67%</td>" in english and "<td>26.5</td>" in english and ">67%</text>" in english
    assert "26,5" not in english and "<td>26.5</td>" not in german


def test_an_equal_best_score_is_named_for_everyone_who_made_it(client):
    night = Night(client)
    night.play({"Mama": 29, "Lena": 12})
    night.play({"Lena": 29, "Mama": 20})
    answer = client.get(f"/g/{night.code}/stats", headers={"Accept-Language": "de"})
    assert "Bestes Ergebnis: 29 von Mama und Lena." in html.unescape(answer.get_data(as_text=True))


def test_an_empty_group_has_a_statistics_page_that_says_so(client):
    night = Night(client, players=())
    text = client.get(f"/g/{night.code}/stats").get_data(as_text=True)
    assert "No plays yet" in text


def test_the_set_up_form_puts_the_table_in_a_known_or_a_new_group(phone):
    host = phone()
    night = Night(host.client, name="Friday")
    host.get(f"/g/{night.code}")  # this phone now knows the group
    form = host.get("/new/scorepad").get_data(as_text=True)
    assert f'value="{night.code}"' in form and "Friday" in form
    assert '<option value="Katrin">' in form  # the group's names are suggested
    started = host.post("/new/scorepad", {"player": ["Katrin", "Dora"], "me": "0",
                                          "group": night.code})
    assert started.status_code == 303
    code = started.headers["Location"].rsplit("/", 1)[-1]
    host.code = code
    host.act(type="enter_score", player="Katrin", round="1", points="9")
    host.act(type="finish_game")
    info = night.info()
    assert [p["name"] for p in info["plays"][0]["players"]] == ["Katrin", "Dora"]
    assert "Dora" in info["players"]  # a new name became a player of the group
    # A new group in the same tap; a bad name keeps everything typed.
    refused = host.post("/new/scorepad", {"player": ["Ann", "Ben"], "me": "0", "group": "new",
                                          "group_name": " "})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "The group needs a name." in page and 'value="Ann"' in page
    started = host.post("/new/scorepad", {"player": ["Ann", "Ben"], "me": "0", "group": "new",
                                          "group_name": "Sunday"})
    assert started.status_code == 303
    home = host.get("/").get_data(as_text=True)
    assert "Sunday" in home and "Friday" in home


def test_the_host_counts_a_table_in_a_group_later_and_an_ended_one_becomes_a_play(phone):
    host = phone()
    night = Night(host.client)
    code = host.start(players=("Katrin", "Ben"))
    host.act(type="enter_score", player="Katrin", round="1", points="9")
    host.act(type="finish_game")
    assert night.info()["plays"] == []
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert "Count this game in a group" in page
    refused = host.post(f"/t/{code}/group", {"group_code": "ZZZZZZ"})
    assert refused.status_code == 303
    assert "no group with the code ZZZZZZ" in host.get(f"/t/{code}").get_data(as_text=True)
    added = host.post(f"/t/{code}/group", {"group_code": night.code.lower()})
    assert added.status_code == 303
    assert [p["players"][0]["name"] for p in night.info()["plays"]] == ["Katrin"]
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert "Count this game in a group" not in page
    # Only the host may, and only once.
    other = phone("10.0.0.9")
    other.join(code)  # watching: the game is over, its seats are taken for good
    assert other.post(f"/t/{code}/group", {"group_name": "Mine"}).status_code == 303
    assert "Only the host" in html.unescape(other.get(f"/t/{code}").get_data(as_text=True))


def many_plays(client, night, count: int, first_day: int = 1) -> list[str]:
    """``count`` plays imported into ``night``, a day apart; their uids, oldest first."""
    night.play({"Katrin": 1, "Ben": 2})
    template = client.get(f"/g/{night.code}/plays.json").get_json()
    play = template["plays"][0]
    uids, plays = [], []
    for n in range(count):
        day = datetime(2025, 1, 1, 20, 0) + timedelta(days=first_day + n)
        uids.append(f"night-{first_day + n}")
        plays.append({**play, "uid": uids[-1], "started_at": day.isoformat() + "Z",
                      "ended_at": (day + timedelta(minutes=30)).isoformat() + "Z"})
    made = client.post(f"/api/groups/{night.code}/plays", headers=night.owner, json={**template, "plays": plays})
    assert made.status_code == 200, made.get_json()
    return uids


def shown_plays(page: str) -> list[str]:
    return re.findall(r'id="play-(night-\d+)"', page)


def test_the_group_page_shows_fifty_plays_a_page_by_links_that_stay_true(client):
    night = Night(client)
    uids = many_plays(client, night, 120)
    newest_first = uids[::-1]
    first = client.get(f"/g/{night.code}").get_data(as_text=True)
    assert "121 plays" in first  # the one played at a table (today) and 120 imported
    assert shown_plays(first) == newest_first[:49]  # today's table first, then the newest
    older = re.search(r'href="([^"]*older=[^"]*)"', first).group(1)
    second = client.get(html.unescape(older)).get_data(as_text=True)
    assert shown_plays(second) == newest_first[49:99]
    assert "The newest plays" in second
    # Plays added since do not move what a page's link shows.
    many_plays(client, night, 5, first_day=500)
    assert shown_plays(client.get(html.unescape(older)).get_data(as_text=True)) == newest_first[49:99]
    last = html.unescape(re.search(r'href="([^"]*older=[^"]*)"', second).group(1))
    third = client.get(last).get_data(as_text=True)
    assert shown_plays(third) == newest_first[99:]
    assert "Older plays" not in third
    # A link to a play the group does not have is a clear not-found, not an empty page.
    missing = client.get(f"/g/{night.code}?older=" + "x" * 300)
    assert missing.status_code == 404
    quoted = re.search(r"This group has no play (x+)…\.", html.unescape(missing.get_data(as_text=True)))
    assert quoted and len(quoted.group(1)) <= 80


def test_statistics_are_computed_once_per_change_of_the_group(client, monkeypatch):
    from companion.web.views import groups as views
    computed = []
    real = views._draw_charts
    monkeypatch.setattr(views, "_draw_charts", lambda found: computed.append(1) or real(found))
    night = Night(client)
    night.play({"Katrin": 5, "Ben": 9})
    first = client.get(f"/g/{night.code}/stats").get_data(as_text=True)
    again = client.get(f"/g/{night.code}/stats").get_data(as_text=True)
    assert len(computed) == 1 and first == again
    night.play({"Katrin": 7, "Cem": 3})
    newer = client.get(f"/g/{night.code}/stats").get_data(as_text=True)
    assert len(computed) == 2 and "Cem" in newer and "Cem" not in first
    german = client.get(f"/g/{night.code}/stats", headers={"Accept-Language": "de"})
    assert len(computed) == 3 and "Statistik" in german.get_data(as_text=True)


def test_imports_at_once_naming_one_new_player_in_any_case_or_width_make_one_player(
        make_app, monkeypatch):
    """Three phones import at the same moment, through three server processes (each reads one
    import at a time), each a play naming the same newcomer in its own spelling: every import
    is counted, and the group has one Newbie. Each import, about to write its new player, waits
    (up to a second) for the others to get as far: they do only if nothing makes them take
    turns."""
    servers = [make_app() for _ in range(3)]
    client = servers[0].test_client()
    night = Night(client, players=("Ann",))
    spellings = ["Newbie", "NEWBIE", "Ｎｅｗｂｉｅ"]
    meeting, real_now = threading.Barrier(len(spellings), timeout=1), imports.now

    def now_when_all_are_here():
        with contextlib.suppress(threading.BrokenBarrierError):
            meeting.wait()
        return real_now()

    monkeypatch.setattr(imports, "now", now_when_all_are_here)
    answers = {}

    def send(number: int, name: str) -> None:
        play = {"uid": f"same-{number}", "game": "scorepad", "started_at": "2026-01-01T20:00:00Z",
                "ended_at": "2026-01-01T21:00:00Z", "players": [
                    {"name": "Ann", "score": 3, "winner": False},
                    {"name": name, "score": 9, "winner": True}]}
        answers[number] = servers[number].test_client().post(f"/api/groups/{night.code}/plays",
                                                 headers=night.owner,
                                                 json={"plays": [play]}).status_code

    threads = [threading.Thread(target=send, args=pair) for pair in enumerate(spellings)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers.values()) == [200] * len(spellings)
    info = night.info()
    assert len(info["plays"]) == len(spellings)
    assert len(info["players"]) == 2 and "Ann" in info["players"]  # one Newbie, as first typed
    assert {name_key(name) for name in info["players"]} == {"ann", "newbie"}


def test_new_groups_get_ten_character_codes_and_older_six_character_ones_still_open(app, client):
    night = Night(client)
    assert len(night.code) == 10 and set(night.code) <= set(CODE_ALPHABET)
    assert client.get(f"/g/{night.code.lower()}").status_code in (200, 303)
    with app.app_context():
        db = get_db()
        db.add(PlayerGroup(code="ABC234", name="From before"))
        db.commit()
    older = client.get("/g/ABC234")
    assert older.status_code == 200 and "From before" in older.get_data(as_text=True)


def owner_link_on(page: str) -> str:
    return html.unescape(re.search(r'class="tap-link owner-link" href="([^"]+)"', page).group(1))


def test_only_owners_change_a_groups_history_and_an_owner_link_makes_another(phone):
    maker = phone()
    made = maker.post("/groups", {"name": "Freitag", "players": "Ann\nBen"})
    code = made.headers["Location"].split("?")[0].rsplit("/", 1)[-1]
    first = maker.get(made.headers["Location"]).get_data(as_text=True)
    assert "Keep this link somewhere safe." in first  # the recovery link, once
    recovery = owner_link_on(first)
    assert "Keep this link somewhere safe." not in maker.get(f"/g/{code}").get_data(as_text=True)
    ids = _player_ids(maker, code)

    visitor = phone("10.0.0.9")
    page = html.unescape(visitor.get(f"/g/{code}?new=1").get_data(as_text=True))
    assert "Changing its history (import, rename, merge, delete) is for its owners" in page
    for absent in ('id="rename-', 'id="merge-drop"', 'id="delete"', 'enctype="multipart/form-data"',
                   "owner-link", "Keep this link"):
        assert absent not in page, absent
    for url, form in [(f"/g/{code}/players/{ids['Ann']}/rename", {"name": "Anna"}),
                      (f"/g/{code}/merge", {"keep": ids["Ann"], "drop": ids["Ben"]}),
                      (f"/g/{code}/undo", {}),
                      (f"/g/{code}/delete", {"confirm": code}),
                      (f"/g/{code}/import", {"file": (io.BytesIO(b'{"plays": []}'), "p.json")})]:
        refused = visitor.post(url, form)
        assert refused.status_code == 403, url
        assert "Only the group's owners can change its history" in html.unescape(
            refused.get_data(as_text=True)), url
    assert sorted(_player_ids(maker, code)) == ["Ann", "Ben"]
    wrong = visitor.get(f"/g/{code}/own/{'x' * 40}")
    assert wrong.status_code == 403 and "does not belong to this group" in html.unescape(
        wrong.get_data(as_text=True))

    # The maker shares the owner link (behind a warning); the visitor opens it.
    shared_page = html.unescape(maker.get(f"/g/{code}").get_data(as_text=True))
    assert "Whoever opens this link can change and delete the group's history." in shared_page
    assert owner_link_on(shared_page) == recovery
    assert visitor.get(urlsplit(recovery).path).status_code == 303
    assert visitor.post(f"/g/{code}/players/{ids['Ann']}/rename", {"name": "Anna"}).status_code == 303
    assert sorted(_player_ids(maker, code)) == ["Anna", "Ben"]


def test_an_api_import_needs_the_groups_owner_key(client):
    night, other = Night(client), Night(client, name="Other")
    play = {"uid": "k1", "game": "scorepad", "started_at": "2026-01-01T20:00:00Z",
            "ended_at": "2026-01-01T21:00:00Z", "players": [{"name": "Ann", "score": 3}]}
    for headers in ({}, other.owner, bearer("not-a-key")):
        refused = client.post(f"/api/groups/{night.code}/plays", json={"plays": [play]},
                              headers=headers)
        assert refused.status_code == 403
        assert "Only the group's owners" in refused.get_json()["error"]
    assert night.info()["plays"] == []
    made = client.post(f"/api/groups/{night.code}/plays", json={"plays": [play]}, headers=night.owner)
    assert made.get_json() == {"added": 1, "plays": 1, "conflicts": []}


def test_a_group_from_before_owners_is_open_until_a_phone_protects_it(app, phone):
    with app.app_context():
        db = get_db()
        db.add(PlayerGroup(code="ABC234", name="From before"))
        db.commit()
    first, second = phone(), phone("10.0.0.9")
    assert first.post("/g/ABC234/players", {"name": "Ann"}).status_code == 303
    ann = _player_ids(first, "ABC234")["Ann"]
    assert second.post(f"/g/ABC234/players/{ann}/rename", {"name": "Anna"}).status_code == 303
    protected = first.post("/g/ABC234/protect", {})
    assert protected.status_code == 303
    page = html.unescape(first.get(protected.headers["Location"]).get_data(as_text=True))
    assert "Keep this link somewhere safe." in page
    assert second.post(f"/g/ABC234/players/{ann}/rename", {"name": "Ann"}).status_code == 403
    assert second.post("/g/ABC234/protect", {}).status_code == 403  # it has an owner now
    assert first.post(f"/g/ABC234/players/{ann}/rename", {"name": "Ann"}).status_code == 303


def test_an_import_names_the_plays_the_group_had_told_otherwise_and_keeps_its_own(client, phone):
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    exported = client.get(f"/g/{night.code}/plays.json").get_json()
    changed = json.loads(json.dumps(exported))
    changed["plays"][0]["players"][1]["score"] = 500  # Ben's 12, told as 500
    uid = changed["plays"][0]["uid"]
    answer = client.post(f"/api/groups/{night.code}/plays", headers=night.owner, json=changed)
    assert answer.get_json() == {"added": 0, "plays": 1, "conflicts": [uid]}
    assert [p["score"] for p in night.info()["plays"][0]["players"]] == [30, 12]
    # On the page, in the phone's language.
    sent = client.post(f"/g/{night.code}/import", data={
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"',
                                client.get(f"/g/{night.code}").get_data(as_text=True)).group(1),
        "file": (io.BytesIO(json.dumps(changed).encode()), "plays.json")},
        headers={"Accept-Language": "de"})
    assert sent.status_code == 303
    shown = html.unescape(client.get(f"/g/{night.code}", headers={"Accept-Language": "de"})
                          .get_data(as_text=True))
    assert f"Diese Partie hatte die Gruppe schon, anders erzählt; sie bleibt, wie sie ist: {uid}." in shown


# -- statistics and exports cost once per change (issue 40) -------------------------------------


def test_the_apis_statistics_share_the_pages_and_a_new_player_recomputes_nothing(app, client,
                                                                                  monkeypatch):
    """One computation per version of the group's plays and language, for the API and the
    page alike; a player added (on the page, or by a new table's seat) changes no statistic."""
    from companion.service import stats as stats_package
    from companion.web import kept
    from companion.web.views import groups as views

    counted, drawn = [], []
    real, draw = stats_package.statistics, views.render_block
    monkeypatch.setattr(kept, "statistics", lambda rows: counted.append(1) or real(rows))
    monkeypatch.setattr(views, "render_block", lambda *a, **k: drawn.append(1) or draw(*a, **k))
    night = Night(client)
    night.play({"Katrin": 5, "Ben": 9})
    first = client.get(f"/api/groups/{night.code}/stats").get_json()
    page = client.get(f"/g/{night.code}/stats").get_data(as_text=True)
    assert client.get(f"/api/groups/{night.code}/stats").get_json() == first
    assert len(counted) == 1 and "Katrin" in page
    visitor = Phone(app, "10.0.0.7")
    assert visitor.post(f"/g/{night.code}/players", {"name": "Dora"}).status_code == 303
    night.table({"Emil": None, "Ben": None})  # set up, not ended: Emil is new to the group
    assert client.get(f"/api/groups/{night.code}/stats").get_json() == first
    again = client.get(f"/g/{night.code}/stats").get_data(as_text=True)
    assert without_tokens(again) == without_tokens(page)  # its CSRF token is signed per second
    assert len(counted) == 1
    assert len(drawn) == 1  # the page's statistics drawn once, the page around them each time
    night.play({"Katrin": 7, "Cem": 3})
    newer = client.get(f"/api/groups/{night.code}/stats").get_json()
    assert len(counted) == 2 and newer["group"]["plays"] == 2
    assert "Cem" in client.get(f"/g/{night.code}/stats").get_data(as_text=True)
    assert len(counted) == 2 and len(drawn) == 2


def test_the_collector_is_off_only_while_statistics_are_made_and_on_after_a_failure(app):
    """A big group's statistics are made with the cyclic collector paused; it is on again after,
    when two are made at once, and when making one fails."""
    import gc

    from companion.web.kept import Kept

    seen = []
    kept = Kept()
    with app.app_context():
        assert kept.get("a", lambda: seen.append(gc.isenabled()) or kept.get(
            "b", lambda: seen.append(gc.isenabled()) or 2)) == 2
        with pytest.raises(ZeroDivisionError):
            kept.get("c", lambda: 1 / 0)
    assert seen == [False, False] and gc.isenabled()


def without_tokens(page: str) -> str:
    return re.sub(r'(csrf-token" content="|"X-CSRFToken": "|name="csrf_token" value=")[^"]+',
                  r"\1…", page)


def ungzipped(answer) -> str:
    import gzip

    assert answer.headers["Content-Encoding"] == "gzip" and answer.is_streamed
    assert "Accept-Encoding" in answer.headers["Vary"]
    return gzip.decompress(answer.get_data()).decode()


@pytest.mark.parametrize("path, mimetype", [("/g/{code}/plays.csv", "text/csv; charset=utf-8"),
                                            ("/g/{code}/plays.json", "application/json"),
                                            ("/api/groups/{code}/plays", "application/json")])
def test_exports_are_compressed_when_asked_and_made_once_per_change(app, client, monkeypatch,
                                                                    path, mimetype):
    from companion.service import exports, groups
    from companion.web import kept

    made = []
    real = groups.play_records
    for module in (groups, exports, kept):
        monkeypatch.setattr(module, "play_records",
                            lambda db, group, plays=None: made.append(1) or real(db, group, plays))
    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    url = path.format(code=night.code)
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Type"] == mimetype
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers and plain.is_streamed
    assert ungzipped(packed) == plain.get_data(as_text=True)
    assert "Katrin" in plain.get_data(as_text=True) and len(made) == 1
    # A new player: the plays are not read again; the JSON, which lists every player, says so.
    Phone(app, "10.0.0.7").post(f"/g/{night.code}/players", {"name": "Dora"})
    again = client.get(url).get_data(as_text=True)
    assert len(made) == 1
    if path.endswith(".csv"):
        assert again == plain.get_data(as_text=True)
    else:
        assert json.loads(again)["players"] == ["Ben", "Cem", "Dora", "Katrin"]
        assert json.loads(again)["plays"] == json.loads(plain.get_data(as_text=True))["plays"]
    night.play({"Katrin": 7, "Cem": 3})
    assert len(json.loads(client.get("/api/groups/" + night.code + "/plays").get_data())["plays"]) == 2


def test_the_statistics_page_of_a_huge_group_shows_the_first_rows_and_says_where_the_rest_is(
        client, monkeypatch):
    """An imported group of thousands of one-off names: the page lists the players with the
    most wins and the pairs that met most, as many as a phone reads, and says so; the JSON has
    every one."""
    from companion.web.views import groups as views

    monkeypatch.setattr(views, "SHOWN_MOST", 5)
    night = Night(client, players=())
    client.post(f"/api/groups/{night.code}/plays", headers=night.owner, json={"plays": [{
        "uid": f"p{n}", "game": "scorepad", "started_at": f"2026-11-{1 + n:02d}T19:00:00+00:00",
        "ended_at": f"2026-11-{1 + n:02d}T20:00:00+00:00",
        "players": [{"name": f"N{n}-{seat}", "score": seat, "winner": seat == 2}
                    for seat in range(3)]} for n in range(4)]})
    page = html.unescape(client.get(f"/g/{night.code}/stats").get_data(as_text=True))
    def rows(table: str) -> list[str]:
        return re.findall(r'<tr><th scope="row">([^<]+)</th>', table)

    tables = [rows(t) for t in re.findall(r'<table class="stats-table">(.*?)</table>', page, re.S)]
    assert [len(t) for t in tables] == [5, 5, 5]  # players, the score pad's players, pairs
    assert tables[0][:4] == ["N0-2", "N1-2", "N2-2", "N3-2"]  # the four winners first
    chart = re.search(r'id="win-rate-table">(.*?)</table>', page, re.S).group(1)
    assert len(rows(chart)) == 5
    assert "Shown: the 5 with the most wins, of 12 players." in page
    assert "Shown: the 5 pairs that played together most, of 12." in page
    assert page.count("The statistics as JSON have every one.") == 3
    numbers = client.get(f"/api/groups/{night.code}/stats").get_json()
    assert len(numbers["group"]["players"]) == 12 and len(numbers["head_to_heads"]) == 12
