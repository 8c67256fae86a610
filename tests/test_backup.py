"""An operator's tools from the command line: a backup taken while the server writes brings
every table, log, seat, group and play back into an empty instance, phones keeping their
seats; a restore refuses a used instance or a broken file and changes nothing; purge clears
archived tables' logs and phones and keeps the groups' plays."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlmodel import select

from companion import create_app
from companion.cli import main
from companion.service.database import schema_lock
from companion.web.db import get_db
from companion.service.migrations import config, head_revision
from companion.service.models import GameTable
from tests.conftest import Phone, bearer

OFF = {"RATE_LIMITS": "code=0,action=0,live=0,create=0"}


@pytest.fixture
def instance(tmp_path, monkeypatch):
    """Point the command line and the app at an instance folder of this test's."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    for name, value in OFF.items():
        monkeypatch.setenv(name, value)
    apps = []

    def use(name: str) -> Path:
        folder = tmp_path / name
        monkeypatch.setenv("COMPANION_INSTANCE", str(folder))
        return folder
    use.app = lambda: apps.append(create_app()) or apps[-1]
    yield use
    for app in apps:
        app.extensions["live"].close()
        app.extensions["engine"].dispose()


def rows(database: Path, leave_out_table: int | None = None) -> dict[str, list]:
    """Every row of every table, comparable; without the rows of game table ``leave_out_table``."""
    connection = sqlite3.connect(database)
    try:
        names = [r[0] for r in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        found = {}
        for name in names:
            columns = [c[1] for c in connection.execute(f'PRAGMA table_info("{name}")')]
            column = "id" if name == "game_table" else "table_id" if "table_id" in columns else None
            where = f' WHERE "{column}" IS NOT ?' if column else ""
            found[name] = sorted(map(repr, connection.execute(
                f'SELECT * FROM "{name}"{where}', (leave_out_table,) if column else ())))
        return found
    finally:
        connection.close()


def count(database: Path, sql: str, *params) -> int:
    connection = sqlite3.connect(database)
    try:
        return connection.execute(sql, params).fetchone()[0]
    finally:
        connection.close()


def a_night(app) -> tuple[Phone, str, dict]:
    """Ann's phone seated at a score pad of a group, a finished play in the group."""
    client = app.test_client()
    group = client.post("/api/groups",
                        json={"name": "Freitag", "players": ["Ann", "Ben"]}).get_json()
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


def wait_for(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the writer stopped writing"
        time.sleep(0.01)


def test_a_backup_taken_while_the_server_writes_restores_everything_and_phones_keep_seats(
        instance, tmp_path, capsys):
    first = instance("first")
    app = instance.app()
    ann, code, group = a_night(app)
    writer = app.test_client()
    table = writer.post("/api/tables", json={"game": "scorepad", "players": ["Cy"]}).get_json()
    stop, taps = threading.Event(), []

    def keep_writing() -> None:  # another table's phone, tapping all along
        while not stop.is_set():
            answer = writer.post(f"/api/tables/{table['code']}/actions",
                                 headers=bearer(table["token"]),
                                 json={"type": "enter_score", "player": "Cy", "round": 1,
                                       "points": len(taps) + 1})
            taps.append(answer.status_code)

    thread = threading.Thread(target=keep_writing)
    thread.start()
    try:
        wait_for(lambda: len(taps) >= 5)
        main(["backup", str(tmp_path / "night.zip")])
        at_backup = len(taps)
        wait_for(lambda: len(taps) >= at_backup + 3)  # and it went on writing after
    finally:
        stop.set()
        thread.join()
    assert set(taps) == {200}
    said = capsys.readouterr().out
    assert said.startswith(f"Wrote {tmp_path / 'night.zip'}: 3 tables,") and "secret key" in said
    assert oct((tmp_path / "night.zip").stat().st_mode & 0o777) == "0o600"
    with zipfile.ZipFile(tmp_path / "night.zip") as backed:
        manifest = json.loads(backed.read("manifest.json"))
    assert manifest["format"] == "table-companion-backup/1"
    assert manifest["schema"] == head_revision() and manifest["rows"]["game_table"] == 3

    second = instance("second")
    main(["restore", str(tmp_path / "night.zip")])
    assert "Restored" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "night.zip") as backed:
        backed.extract("companion.sqlite3", tmp_path / "copy")
    restored = second / "companion.sqlite3"
    assert rows(restored) == rows(tmp_path / "copy" / "companion.sqlite3")
    # What nobody changed during the backup is back exactly as it was: seats, groups, plays.
    cy = count(restored, "SELECT id FROM game_table WHERE code = ?", table["code"])
    assert rows(restored, cy) == rows(first / "companion.sqlite3", cy)
    assert {"device", "player_group", "group_player", "play"} <= set(rows(restored))
    # Caught mid-write yet consistent: every table's log reaches exactly its version.
    cy_log = count(restored, "SELECT count(*) FROM log_entry WHERE table_id = ?", cy)
    assert 5 <= cy_log < len(taps) + 1
    for version, newest in sqlite3.connect(restored).execute(
            "SELECT version, (SELECT max(seq) FROM log_entry WHERE table_id = game_table.id) "
            "FROM game_table"):
        assert version == newest
    assert (second / "secret_key").read_text() == (first / "secret_key").read_text()

    # Ann's phone, its cookie from before, opens its seat on the restored server.
    phone = instance.app().test_client()
    phone.set_cookie("session", ann.client.get_cookie("session").value)
    page = phone.get(f"/t/{code}", environ_base={"REMOTE_ADDR": ann.address}).get_data(as_text=True)
    assert "You are <strong>Ann</strong>" in page and ">7<" in page
    play = phone.get(f"/api/groups/{group['code']}").get_json()["plays"][0]
    assert play["players"][0]["score"] == 9


def test_a_restore_brings_an_older_backup_to_the_current_schema(instance, tmp_path, capsys):
    instance("old")
    app = instance.app()
    ann, code, group = a_night(app)
    before = f"{int(head_revision()) - 1:04d}"
    with schema_lock(app.extensions["engine"]) as connection:
        command.downgrade(config(connection), before)
    main(["backup", str(tmp_path / "old.zip")])
    with zipfile.ZipFile(tmp_path / "old.zip") as backed:
        assert json.loads(backed.read("manifest.json"))["schema"] == before
    restored = instance("new")
    main(["restore", str(tmp_path / "old.zip")])
    assert f"upgraded from revision {before} to {head_revision()}" in capsys.readouterr().out
    assert count(restored / "companion.sqlite3",
                 "SELECT count(*) FROM alembic_version WHERE version_num = ?", head_revision()) == 1
    client = instance.app().test_client()
    assert client.get(f"/api/groups/{group['code']}").get_json()["plays"][0]["game"] == "scorepad"


def test_the_commands_use_the_database_the_instance_config_names(instance, tmp_path, capsys):
    folder = instance("configured")
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere.sqlite3"
    (folder / "config.py").write_text(f"DATABASE_URL = {f'sqlite:///{elsewhere}'!r}\n")
    a_night(instance.app())
    main(["backup", str(tmp_path / "night.zip")])
    assert capsys.readouterr().out.startswith(f"Wrote {tmp_path / 'night.zip'}: 2 tables,")
    assert not (folder / "companion.sqlite3").exists() and elsewhere.exists()


def test_a_restore_refuses_a_used_instance_or_a_broken_file_and_changes_nothing(
        instance, tmp_path):
    used = instance("first")
    a_night(instance.app())
    main(["backup", str(tmp_path / "night.zip")])
    before, key = rows(used / "companion.sqlite3"), (used / "secret_key").read_text()
    with pytest.raises(SystemExit, match="already holds a database: a backup is restored into "
                                         "an empty instance only"):
        main(["restore", str(tmp_path / "night.zip")])
    assert rows(used / "companion.sqlite3") == before
    assert (used / "secret_key").read_text() == key

    empty = instance("empty")
    (tmp_path / "garbage.zip").write_bytes(b"not a zip at all")
    with pytest.raises(SystemExit, match="garbage.zip is not a backup of the companion"):
        main(["restore", str(tmp_path / "garbage.zip")])
    with zipfile.ZipFile(tmp_path / "photos.zip", "w") as photos:  # a zip, but not ours
        photos.writestr("beach.jpg", b"\xff\xd8")
    with pytest.raises(SystemExit, match="photos.zip is not a whole backup of the companion"):
        main(["restore", str(tmp_path / "photos.zip")])
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(tmp_path / "night.zip") as good, zipfile.ZipFile(broken, "w") as bad:
        for item in good.infolist():
            data = good.read(item)
            half = data[: len(data) // 2]
            bad.writestr(item, half if item.filename.endswith(".sqlite3") else data)
    with pytest.raises(SystemExit, match="is damaged; nothing was restored"):
        main(["restore", str(broken)])
    assert not empty.exists()


def rewritten(backup: Path, into: Path, change) -> Path:
    """A copy of ``backup`` with each member's bytes passed through ``change(name, data)``."""
    with zipfile.ZipFile(backup) as good, zipfile.ZipFile(into, "w") as bad:
        for item in good.infolist():
            bad.writestr(item, change(item.filename, good.read(item)), zipfile.ZIP_DEFLATED)
    return into


def test_a_restore_refuses_a_damaged_zip_a_newer_schema_or_a_stray_file(instance, tmp_path):
    instance("first")
    a_night(instance.app())
    main(["backup", str(tmp_path / "night.zip")])
    empty = instance("empty")
    with zipfile.ZipFile(tmp_path / "night.zip") as backed:
        member = backed.getinfo("companion.sqlite3")
    damaged = bytearray((tmp_path / "night.zip").read_bytes())
    start = member.header_offset + 30 + len(member.filename) + len(member.extra)
    for at in range(start + member.compress_size // 3, start + member.compress_size // 2):
        damaged[at] ^= 0x55  # inside the compressed database: it no longer inflates
    (tmp_path / "damaged.zip").write_bytes(damaged)
    with pytest.raises(SystemExit, match="damaged.zip is not a whole backup of the companion"):
        main(["restore", str(tmp_path / "damaged.zip")])

    def newer(name: str, data: bytes) -> bytes:
        if name != "manifest.json":
            return data
        return json.dumps({**json.loads(data), "schema": "9999"}).encode()
    with pytest.raises(SystemExit, match="was made by a newer companion .schema 9999, this one "
                                         f"knows up to {head_revision()}."):
        main(["restore", str(rewritten(tmp_path / "night.zip", tmp_path / "newer.zip", newer))])
    assert not empty.exists()

    empty.mkdir()
    (empty / "companion.sqlite3").write_bytes(b"notes, not a database")
    with pytest.raises(SystemExit, match="already holds a database"):
        main(["restore", str(tmp_path / "night.zip")])
    assert (empty / "companion.sqlite3").read_bytes() == b"notes, not a database"
    assert not (empty / "secret_key").exists()


def test_a_restore_refused_for_its_schema_leaves_the_instance_as_it_was(instance, tmp_path):
    """The database in the file says another revision than its manifest (0099, which no
    companion has): refused in a line, and the instance folder is exactly as before."""
    instance("first")
    a_night(instance.app())
    main(["backup", str(tmp_path / "night.zip")])

    def unknown_revision(name: str, data: bytes) -> bytes:
        if name != "companion.sqlite3":
            return data
        copy = tmp_path / "copy.sqlite3"
        copy.write_bytes(data)
        connection = sqlite3.connect(copy)
        with connection:
            connection.execute("UPDATE alembic_version SET version_num = '0099'")
        connection.close()
        return copy.read_bytes()

    mismatched = rewritten(tmp_path / "night.zip", tmp_path / "mismatch.zip", unknown_revision)
    for folder, made in ((instance("absent"), False), (instance("empty"), True)):
        if made:
            folder.mkdir()
        run = subprocess.run([sys.executable, "-m", "companion.cli", "restore", str(mismatched)],
                             capture_output=True, text=True)
        assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr
        assert "schema" in run.stderr and "nothing was restored" in run.stderr
        assert (sorted(folder.iterdir()) == []) if made else not folder.exists()


def test_purge_is_refused_where_tables_are_never_put_away(instance, monkeypatch):
    instance("first")
    monkeypatch.setenv("ARCHIVE_DAYS", "0")
    with pytest.raises(SystemExit, match=r"never put away here \(ARCHIVE_DAYS=0\)"):
        main(["purge", "--days", "400"])


def test_a_refused_restore_is_one_line_and_a_failing_exit_code(instance, tmp_path):
    instance("empty")
    (tmp_path / "garbage.zip").write_bytes(b"not a zip at all")
    run = subprocess.run([sys.executable, "-m", "companion.cli", "restore",
                          str(tmp_path / "garbage.zip")], capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.startswith("companion restore: ") and run.stderr.count("\n") == 1


def test_purge_clears_archived_tables_and_keeps_the_groups_plays(instance, capsys, monkeypatch):
    folder = instance("first")
    monkeypatch.setenv("ARCHIVE_DAYS", "30")
    app = instance.app()
    ann, code, group = a_night(app)
    with app.app_context():
        db = get_db()
        for table in db.exec(select(GameTable)):
            table.updated_at -= timedelta(days=40)
        db.commit()
    client = app.test_client()
    recent = client.post("/api/tables", json={"game": "scorepad", "players": ["Cy"]}).get_json()
    database = folder / "companion.sqlite3"
    old = "(SELECT id FROM game_table WHERE code != ?)"
    counts = {name: count(database, f"SELECT count(*) FROM {name} WHERE table_id IN {old}",
                          recent["code"]) for name in ("log_entry", "state_checkpoint", "device")}
    assert counts["log_entry"] > 0 and counts["device"] > 0
    kept = {name: rows(database)[name] for name in ("game_table", "play", "player_group")}
    recent_log = "SELECT count(*) FROM log_entry WHERE table_id NOT IN " + old
    assert count(database, recent_log, recent["code"]) == 1

    main(["purge", "--days", "30"])
    assert capsys.readouterr().out == (
        f"Purged the 2 tables without activity for 30 days: {counts['log_entry']} log entries, "
        f"{counts['state_checkpoint']} checkpoints and {counts['device']} phones removed; "
        "their groups' plays stay.\n")
    for name in counts:
        assert count(database, f"SELECT count(*) FROM {name} WHERE table_id IN {old}",
                     recent["code"]) == 0
    assert {name: rows(database)[name] for name in kept} == kept
    assert count(database, recent_log, recent["code"]) == 1
    assert client.get(f"/api/tables/{recent['code']}").status_code == 200
    page = client.get(f"/g/{group['code']}")
    assert page.status_code == 200 and "Freitag" in page.get_data(as_text=True)
    play = client.get(f"/api/groups/{group['code']}").get_json()["plays"][0]
    assert play["players"][0]["score"] == 9
    history = client.get(f"/g/{group['code']}/plays/{play['uid']}").get_data(as_text=True)
    assert "were cleared away with its old table" in history


@pytest.mark.parametrize(("argv", "refusal"), [
    (["purge", "--days", "5"], "Tables are put away after 30 days without activity; purge "
                               "removes only what is older than that (--days 30 or more)."),
    (["backup", "{tmp}/no/such/folder.zip"], "is not a file in a folder that exists."),
    (["backup", "{tmp}"], "is not a file in a folder that exists."),
    (["restore", "{tmp}/missing.zip"], "missing.zip is not a backup of the companion"),
])
def test_bad_arguments_are_refused_in_a_sentence(instance, tmp_path, argv, refusal):
    instance("first")
    instance.app()
    with pytest.raises(SystemExit) as refused:
        main([part.format(tmp=tmp_path) for part in argv])
    assert isinstance(refused.value.code, str) and refusal in refused.value.code
    assert refused.value.code.startswith(f"companion {argv[0]}: ")


@pytest.mark.parametrize(("argv", "said"), [
    (["purge"], "the following arguments are required: --days"),
    (["purge", "--days", "a year"], "argument --days: invalid int value: 'a year'"),
    (["backup"], "the following arguments are required: file"),
])
def test_missing_or_malformed_arguments_say_what_is_wrong(argv, said, capsys):
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2 and said in capsys.readouterr().err


def test_gunicorns_config_module_loads_no_database_driver():
    """gunicorn reads companion.cli as its config, and loads its worker class (web/worker.py),
    before its worker patches the standard library for gevent: a database driver loaded then
    waits without yielding (psycopg's wait blocked the whole worker on PostgreSQL), so the
    operator's commands import theirs late."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, companion.cli, companion.web.worker; "
         "print(sorted(m for m in ('psycopg', 'sqlalchemy') if m in sys.modules))"],
        capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
