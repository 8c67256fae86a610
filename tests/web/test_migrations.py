"""Schema migrations: a database from before them keeps every table of every game through the
upgrade; a fresh one is built by them and matches the models; an up-to-date one is left alone;
workers starting together take turns."""

from __future__ import annotations

import subprocess
import sys

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    inspect,
    select,
    text,
)
from sqlmodel import SQLModel

from companion.service import models  # noqa: F401  (registers the tables on SQLModel.metadata)
from companion.service.database import init_db, make_engine, schema_lock
from companion.games import GAMES
from companion.service.migrations import BASELINE, head_revision
from tests.conftest import PG_URL, ApiTable, api_table, bearer, database_url

# The schema as SQLModel.metadata.create_all made it before migrations (models.py of then),
# frozen here so that the test still builds that database once the models move on.
BEFORE = MetaData()
Table(
    "game_table", BEFORE,
    Column("id", Integer, primary_key=True),
    Column("code", String(6), nullable=False, index=True, unique=True),
    Column("game_id", String(40), nullable=False),
    Column("players", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    Column("state", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    Column("state_version", Integer, nullable=False),
    Column("undo_depth", Integer, nullable=False),
    Column("redo_depth", Integer, nullable=False),
    Column("finished", Boolean, nullable=False),
    Column("locked", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
Table(
    "device", BEFORE,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("token_hash", String(64), nullable=False, index=True, unique=True),
    Column("seat", String(24)),
    Column("is_host", Boolean, nullable=False),
    Column("read_only", Boolean, nullable=False),
    Column("label", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Table(
    "log_entry", BEFORE,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("seq", Integer, nullable=False),
    Column("kind", String(10), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("actor", String(40)),
    Column("sentence", String(500), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "seq"),
)
Table(
    "join_attempt", BEFORE,
    Column("id", Integer, primary_key=True),
    Column("client", String(64), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False, index=True),
)

# Seats, then the first moves of each game as (seat making it, payload); the last move is
# made after the upgrade. A game missing here still gets a table, created and joined.
OPENINGS = {
    "scorepad": (["Ann", "Ben"], [
        ("Ann", {"type": "enter_score", "player": "Ann", "round": 1, "points": 12}),
        ("Ben", {"type": "enter_score", "player": "Ben", "round": 1, "points": 8}),
        ("Ann", {"type": "enter_score", "player": "Ann", "round": 2, "points": -2}),
    ]),
    "asterix-obelix": (["Ann", "Ben"], [
        ("Ann", {"type": "start_game", "starter": "Ben"}),
        ("Ben", {"type": "choose_line", "line": "column", "number": 2}),
        ("Ben", {"type": "reveal_card", "kind": "centurion", "colour": "yellow"}),
    ]),
    "kartenspiel": (["Ann", "Ben", "Cid"], [
        ("Ann", {"type": "win_roman", "player": "Ann", "value": 10}),
        ("Ben", {"type": "win_roman", "player": "Ben", "value": 10}),
    ]),
    "asterix-co": (["Matthew", "Laura"], [
        ("Matthew", {"type": "play_character", "player": "Matthew", "album": 1, "strength": 3,
                     "character_type": "Chief", "colour": "Gaul", "name": "Getafix"}),
        ("Matthew", {"type": "gain_bonus", "player": "Matthew", "bonus": "potion"}),
        ("Laura", {"type": "play_character", "player": "Laura", "album": 1, "strength": 3,
                   "character_type": "Swindler", "colour": "Neutral", "name": "Edifis"}),
    ]),
    "zaubertrank": (["Ann", "Bob"], [
        ("Ann", {"type": "draw_mishap", "symbol": "lightning"}),
        ("Ann", {"type": "place_mishap", "location": 2}),
        ("Ann", {"type": "draw_mishap", "symbol": "knife"}),
    ]),
}


def opening(client, game) -> tuple[ApiTable, list]:
    """A table of ``game`` with a phone at every seat, and its opening's moves (seat, payload)."""
    players, moves = OPENINGS.get(
        game.id, ([f"Player {n}" for n in range(1, game.min_players + 1)], []))
    table = ApiTable(client, game.id, players)
    table.join(*players)
    return table, moves


def later_columns() -> list[tuple[str, Column]]:
    """Columns the models have gained since the schema of BEFORE: (table, column)."""
    return [(table.name, column) for table in SQLModel.metadata.sorted_tables
            if table.name in BEFORE.tables
            for column in table.columns if column.name not in BEFORE.tables[table.name].c]


def with_later_columns(engine, add: bool) -> None:
    """Add (or drop again) the later columns: today's code, playing the old server, writes
    them; dropped, the database is as the old server left it."""
    with engine.begin() as connection:
        for table, column in later_columns():
            if add:
                kind = column.type.compile(dialect=engine.dialect)
                connection.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {column.name} {kind}")
            else:
                connection.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column.name}")


# Tables of the old schema that a later revision drops (0006: the rate limits' join attempts).
DROPPED = {"join_attempt"}


def rows(engine) -> dict[str, list]:
    """Every row of every table of the old schema still kept, in order."""
    with engine.connect() as connection:
        return {table.name: [tuple(row) for row in connection.execute(
                    select(table).order_by(table.c.id))]
                for table in BEFORE.sorted_tables if table.name not in DROPPED}


def versions(engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


def differences(engine) -> list:
    """What autogenerate would still change to make the database match the models."""
    with engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}),
                                SQLModel.metadata)


def schema(engine) -> str:
    """Every table's columns, indexes and constraints, as the database describes them."""
    found = inspect(engine)
    return repr({name: (found.get_columns(name), found.get_indexes(name),
                        found.get_pk_constraint(name), found.get_unique_constraints(name),
                        found.get_foreign_keys(name))
                 for name in sorted(found.get_table_names())})


def test_a_database_from_before_migrations_keeps_every_table_of_every_game(make_app):
    old_server = make_app(CREATE_TABLES=False)
    engine = old_server.extensions["engine"]
    BEFORE.create_all(engine)
    with_later_columns(engine, add=True)
    client = old_server.test_client()
    tables = {game.id: opening(client, game) for game in GAMES.values()}
    for table, moves in tables.values():
        for seat, payload in moves[:-1]:
            table.move(payload, by=seat)
    before = {game_id: client.get(f"/api/tables/{table.code}").get_json()
              for game_id, (table, _moves) in tables.items()}
    old_server.extensions["engine"].dispose()
    with_later_columns(engine, add=False)
    assert {column["name"] for column in inspect(engine).get_columns("log_entry")} == set(
        BEFORE.tables["log_entry"].c.keys())
    stored = rows(engine)
    assert not inspect(engine).has_table("alembic_version")

    server = make_app()

    assert server.extensions["schema_upgrade"].startswith(
        f"found tables from before migrations and marked them as revision {BASELINE}")
    assert versions(engine) == [head_revision()]
    assert rows(engine) == stored
    assert differences(engine) == []
    # 0007 found each table's last move in effect in its log (no undo was made yet).
    with engine.connect() as connection:
        found = dict(connection.execute(text("SELECT code, last_action_seq FROM game_table")).all())
        newest = dict(connection.execute(text(
            "SELECT t.code, MAX(e.seq) FROM game_table t JOIN log_entry e ON e.table_id = t.id "
            "AND e.kind = 'action' GROUP BY t.code")).all())
    assert found == {table.code: newest.get(table.code) for table, _moves in tables.values()}
    assert any(found.values())
    client = server.test_client()
    for game_id, (table, moves) in tables.items():
        assert client.get(f"/api/tables/{table.code}").get_json() == before[game_id], game_id
        if not moves:
            continue
        table.client = client  # the same table and tokens, now through the upgraded server
        seat, payload = moves[-1]
        moved = table.move(payload, by=seat)
        assert moved["version"] > before[game_id]["version"]
        undone = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.host_token))
        assert undone.status_code == 200, (game_id, undone.get_json())
        assert undone.get_json()["state"] == before[game_id]["state"], game_id
        assert undone.get_json()["can_redo"]


def test_a_fresh_database_is_built_by_the_migrations_and_matches_the_models(make_app):
    engine = make_app(CREATE_TABLES=False).extensions["engine"]  # an empty database
    assert init_db(engine).startswith(f"created the tables at revision {head_revision()}")
    assert versions(engine) == [head_revision()]
    assert differences(engine) == []


def test_upgrading_an_up_to_date_database_changes_nothing(make_app):
    app = make_app()
    engine = app.extensions["engine"]
    client = app.test_client()
    code = api_table(client, players=("Ann",))["code"]
    built, stored = schema(engine), rows(engine)

    assert init_db(engine).startswith("already at the newest revision")
    assert schema(engine) == built and rows(engine) == stored
    assert versions(engine) == [head_revision()]
    assert make_app().extensions["schema_upgrade"].startswith("already at the newest revision")
    assert client.get(f"/api/tables/{code}").status_code == 200


def test_workers_starting_together_take_turns(tmp_path):
    url = database_url(tmp_path).replace("postgresql://", "postgresql+psycopg://", 1)
    # Each worker loads everything, says so, then waits for the word to go, so all start at once.
    worker = ("import sys\n"
              "from companion.service.database import init_db, make_engine\n"
              "engine = make_engine(sys.argv[1])\n"
              "import companion.service.migrations, companion.service.models\n"
              "print('ready', flush=True)\n"
              "sys.stdin.readline()\n"
              "print(init_db(engine), flush=True)\n")
    workers = [subprocess.Popen([sys.executable, "-c", worker, url], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(4)]
    said = []
    try:
        for process in workers:
            assert process.stdout.readline() == "ready\n", process.stderr.read()
        for process in workers:
            process.stdin.write("go\n")
            process.stdin.flush()
        for process in workers:
            out, err = process.communicate(timeout=60)
            assert process.returncode == 0, err
            said.append(out.strip())
    finally:
        for process in workers:
            if process.poll() is None:
                process.kill()
            process.communicate()
    assert sorted(line.split(" at ")[0] for line in said) == [
        "already", "already", "already", "created the tables"], said
    engine = make_engine(url)
    try:
        assert versions(engine) == [head_revision()]
        assert differences(engine) == []
    finally:
        engine.dispose()


@pytest.mark.skipif(bool(PG_URL), reason="SQLite alone copies a table to alter it")
def test_a_table_copied_by_a_migration_keeps_the_rows_that_point_at_it(make_app):
    app = make_app()
    engine = app.extensions["engine"]
    client = app.test_client()
    code = api_table(client, players=("Ann",))["code"]
    client.post(f"/api/tables/{code}/join", json={"seat": "Ann"})
    stored = rows(engine)

    with schema_lock(engine) as connection:
        # What a batch step on game_table does on SQLite: new table, copy, drop the old one.
        with Operations(MigrationContext.configure(connection)).batch_alter_table(
                "game_table", recreate="always"):
            pass

    assert rows(engine) == stored
    assert client.get(f"/api/tables/{code}").get_json()["players"] == ["Ann"]


def test_the_migrations_command_line_finds_the_models_and_revisions_in_step(capsys):
    from companion.service.migrations.__main__ import main

    main(["check"])
    assert "No new upgrade operations detected" in capsys.readouterr().out
