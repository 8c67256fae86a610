"""An operator's tools from the command line: a backup taken while the server writes brings
every table, log, seat, group and play back into an empty instance, phones keeping their
seats; a restore refuses a used instance or a broken file and changes nothing; purge clears
archived tables' logs and phones and keeps the groups' plays."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from companion import create_app
from companion.cli import main
from companion.service.database import get_db
from companion.service.models import GameTable
from tests.conftest import Phone, bearer

OFF = {"RATE_LIMITS": "code=0,action=0,live=0,create=0"}


@pytest.fixture
def instance(tmp_path, monkeypatch):
    """Point the command line and the app at an instance folder of this test's."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    for name, value in OFF.items():
        monkeypatch.setenv(name, value)

    def use(name: str) -> Path:
        folder = tmp_path / name
        monkeypatch.setenv("COMPANION_INSTANCE", str(folder))
        return folder
    return use


def rows(database: Path) -> dict[str, list]:
    connection = sqlite3.connect(database)
    try:
        names = [r[0] for r in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {name: sorted(map(repr, connection.execute(f'SELECT * FROM "{name}"')))
                for name in names}
    finally:
        connection.close()


def a_night(app) -> tuple[Phone, str, dict]:
    """Ann's phone seated at a score pad of a group, a finished play in the group."""
    client = app.test_client()
    group = client.post("/api/groups", json={"name": "Freitag", "players": ["Ann", "Ben"]}).get_json()
    done = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"],
                                            "group": group["code"]}).get_json()
    for move in ({"type": "enter_score", "player": "Ann", "round": 1, "points": 9},
                 {"type": "finish_game"}):
        client.post(f"/api/tables/{done['code']}/actions", json=move, headers=bearer(done["token"]))
    ann = Phone(app)
    code = ann.start(players=("Ann", "Ben"), group=group["code"], me="0")
    ann.join(code, "Ann")
    ann.act(type="enter_score", player="Ann", round="1", points="7")
    return ann, code, group


def test_a_backup_taken_while_the_server_writes_restores_everything_and_phones_keep_seats(
        instance, tmp_path, capsys):
    first = instance("first")
    app = create_app()
    ann, code, group = a_night(app)
    writer = app.test_client()
    table = writer.post("/api/tables", json={"game": "scorepad", "players": ["Cy"]}).get_json()
    stop = threading.Event()

    def keep_writing() -> None:  # another table's phone, tapping all along
        points = 0
        while not stop.is_set():
            points += 1
            writer.post(f"/api/tables/{table['code']}/actions", headers=bearer(table["token"]),
                        json={"type": "enter_score", "player": "Cy", "round": 1, "points": points})

    thread = threading.Thread(target=keep_writing)
    thread.start()
    try:
        main(["backup", str(tmp_path / "night.zip")])
    finally:
        stop.set()
        thread.join()
    said = capsys.readouterr().out
    assert said.startswith(f"Wrote {tmp_path / 'night.zip'}: 3 tables,") and "secret key" in said
    assert oct((tmp_path / "night.zip").stat().st_mode & 0o777) == "0o600"

    second = instance("second")
    main(["restore", str(tmp_path / "night.zip")])
    assert "Restored" in capsys.readouterr().out
    backed = zipfile.ZipFile(tmp_path / "night.zip")
    (tmp_path / "copy").mkdir()
    backed.extract("companion.sqlite3", tmp_path / "copy")
    assert rows(second / "companion.sqlite3") == rows(tmp_path / "copy" / "companion.sqlite3")
    # A consistent copy: every table's log reaches exactly its version, mid-write or not.
    restored = sqlite3.connect(second / "companion.sqlite3")
    for version, newest in restored.execute(
            "SELECT version, (SELECT max(seq) FROM log_entry WHERE table_id = game_table.id) "
            "FROM game_table"):
        assert version == newest
    assert (second / "secret_key").read_text() == (first / "secret_key").read_text()

    # Ann's phone, its cookie from before, opens its seat on the restored server.
    again = create_app()
    phone = again.test_client()
    phone.set_cookie("session", ann.client.get_cookie("session").value)
    page = phone.get(f"/t/{code}", environ_base={"REMOTE_ADDR": ann.address}).get_data(as_text=True)
    assert "You are <strong>Ann</strong>" in page and ">7<" in page
    assert phone.get(f"/api/groups/{group['code']}").get_json()["plays"][0]["players"][0]["score"] == 9


def test_a_restore_refuses_a_used_instance_or_a_broken_file_and_changes_nothing(
        instance, tmp_path):
    instance("first")
    a_night(create_app())
    main(["backup", str(tmp_path / "night.zip")])
    used = instance("first")
    before = rows(used / "companion.sqlite3")
    with pytest.raises(SystemExit, match="already holds a database: a backup is restored into "
                                         "an empty instance only"):
        main(["restore", str(tmp_path / "night.zip")])
    assert rows(used / "companion.sqlite3") == before

    empty = instance("empty")
    (tmp_path / "garbage.zip").write_bytes(b"not a zip at all")
    with pytest.raises(SystemExit, match="is not a backup of the companion"):
        main(["restore", str(tmp_path / "garbage.zip")])
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(tmp_path / "night.zip") as good, zipfile.ZipFile(broken, "w") as bad:
        for item in good.infolist():
            data = good.read(item)
            bad.writestr(item, data[: len(data) // 2] if item.filename.endswith(".sqlite3") else data)
    with pytest.raises(SystemExit, match="is damaged; nothing was restored"):
        main(["restore", str(broken)])
    assert not (empty / "companion.sqlite3").exists() or rows(empty / "companion.sqlite3") == {}


def test_purge_clears_archived_tables_and_keeps_the_groups_plays(instance, capsys, monkeypatch):
    instance("first")
    monkeypatch.setenv("ARCHIVE_DAYS", "30")
    app = create_app()
    ann, code, group = a_night(app)
    with app.app_context():
        db = get_db(write=True)
        for table in db.exec(select(GameTable)):
            table.updated_at -= timedelta(days=40)
        db.commit()
    with pytest.raises(SystemExit, match="Tables are put away after 30 days"):
        main(["purge", "--days", "5"])
    main(["purge", "--days", "30"])
    said = capsys.readouterr().out
    assert said.startswith("Purged the 2 tables without activity for 30 days:")
    client = app.test_client()
    play = client.get(f"/api/groups/{group['code']}").get_json()["plays"][0]
    assert play["players"][0]["score"] == 9
    history = client.get(f"/g/{group['code']}/plays/{play['uid']}").get_data(as_text=True)
    assert "were cleared away with its old table" in history


def test_gunicorns_config_module_loads_no_database_driver():
    """gunicorn reads companion.cli as its config before its worker patches the standard
    library for gevent: a database driver loaded then waits without yielding (psycopg's wait
    blocked the whole worker on PostgreSQL), so the operator's commands import theirs late."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, companion.cli; "
         "print(sorted(m for m in ('psycopg', 'sqlalchemy') if m in sys.modules))"],
        capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
