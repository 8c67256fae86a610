"""Fixtures: an app on a fresh database (SQLite file, or PostgreSQL via TEST_DATABASE_URL)
and a Phone helper that drives the pages the way a browser does."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from jinja2 import BytecodeCache
from sqlalchemy import MetaData, inspect

from companion import create_app
from companion.service.database import init_db, make_engine
from companion.service.migrations import head_revision


def worker_database(url: str | None) -> str | None:
    """Under pytest-xdist, each worker's own database beside ``url`` (companion_test_gw0, …),
    created on first use (the role needs CREATEDB): workers empty theirs before every test."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    server, _, name = url.rpartition("/")
    own = f"{name}_{worker}"
    engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        if not connection.exec_driver_sql("SELECT 1 FROM pg_database WHERE datname = %(name)s",
                                          {"name": own}).scalar():
            connection.exec_driver_sql(f'CREATE DATABASE "{own}"')
    engine.dispose()
    return f"{server}/{own}"


PG_URL = worker_database(os.environ.get("TEST_DATABASE_URL"))


def database_url(tmp_path) -> str:
    """An empty database for this test: PostgreSQL's emptied of every table, or a new SQLite file."""
    if PG_URL:
        engine = make_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
        # Every table there is, alembic_version too: the app's init_db then starts afresh.
        tables = MetaData()
        tables.reflect(engine)
        tables.drop_all(engine)
        engine.dispose()
        return PG_URL
    return f"sqlite:///{tmp_path / 'companion.sqlite3'}"


def migrated_database(tmp_path, template: Path) -> str:
    """A database at the newest schema with no rows: PostgreSQL's emptied, SQLite a copy of
    ``template`` (building the schema by the migrations for every test took a third of it)."""
    if not PG_URL:
        shutil.copy(template, tmp_path / "companion.sqlite3")
        return database_url(tmp_path)
    engine = make_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    # The names alone: reflecting every table's columns took most of a test's set-up.
    tables = inspect(engine).get_table_names()
    with engine.connect() as connection:
        version = (connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
                   if "alembic_version" in tables else None)
    engine.dispose()
    if version != head_revision():
        return database_url(tmp_path)
    with engine.begin() as connection:
        names = ", ".join(f'"{name}"' for name in tables if name != "alembic_version")
        connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    engine.dispose()
    return PG_URL


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory) -> Path:
    """A SQLite database the migrations built once, for every test to start from a copy."""
    path = tmp_path_factory.mktemp("migrated") / "companion.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    init_db(engine)
    engine.dispose()
    return path


class CompiledOnce(BytecodeCache):
    """Jinja's bytecode cache, in memory for the whole session: every test builds an app of its
    own, and compiling the templates again for each took most of a test's time."""

    def __init__(self):
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = CompiledOnce()


@pytest.fixture
def make_app(tmp_path, monkeypatch, migrated_template):
    """Build an app on this test's database; call it again for a "restarted server"."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    apps, url = [], []

    def build(**config):
        if not url:  # the first app of the test: its database, with the schema unless told not
            url.append(migrated_database(tmp_path, migrated_template)
                       if config.get("CREATE_TABLES", True) else database_url(tmp_path))
        # No rate limits unless a test sets them (every test client comes from one address).
        config.setdefault("RATE_LIMITS", {"code": 0, "action": 0, "live": 0, "create": 0})
        config.setdefault("RATE_LIMIT_TARPIT", 0)
        app = create_app({"TESTING": True, "DATABASE_URL": url[0], **config})
        app.jinja_env.bytecode_cache = TEMPLATES
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions["live"].close()
        app.extensions["engine"].dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def room_in_this_minute(seconds: float) -> None:
    """Wait, if need be, until the clock's minute has ``seconds`` left. An address's limit counts
    in fixed minutes (Flask-Limiter's sliding-window counter), whose turn lets one more in: a test
    counting to that limit does so within one minute."""
    left = 60 - time.time() % 60
    if left < seconds:
        time.sleep(left + 0.05)


def bearer(token: str) -> dict:
    """The header a script sends its table token in."""
    return {"Authorization": f"Bearer {token}"}


def api_table(client, game: str = "scorepad", players=("Ann", "Ben"),
              options: dict | None = None, **fields) -> dict:
    """Start a table through the JSON API: its answer (code, url, token, version) and the
    host's bearer ``headers``; ``fields``: the rest of the body (group, seat_players)."""
    made = client.post("/api/tables", json={"game": game, "players": list(players),
                                            "options": options or {}, **fields})
    assert made.status_code == 201, (game, made.get_json())
    table = made.get_json()
    return {**table, "headers": bearer(table["token"])}


def seat_token(client, code: str, seat: str) -> str:
    """A phone of its own at ``seat`` (joined through the API): its token. One token is one
    phone: a phone's own changes are no conflict for its next tap."""
    joined = client.post(f"/api/tables/{code}/join", json={"seat": seat})
    assert joined.status_code == 200, (seat, joined.get_json())
    return joined.get_json()["token"]


def api_seat(client, code: str, seat: str) -> dict:
    """seat_token's bearer header."""
    return bearer(seat_token(client, code, seat))


def payload_of(action: dict | str, fields: dict) -> dict:
    """An action's JSON body: ``action`` is the whole payload or its type, ``fields`` the rest."""
    return {"type": action, **fields} if isinstance(action, str) else {**action, **fields}


class ApiTable:
    """One table driven through the JSON API, as a script would: the host's token, and one
    token (one phone) per seat, joined the first time the seat moves or by ``join``. With a
    ``host`` phone the table is started by its set-up form instead (``options``: the form's
    fields), so that phone's page shows the host's every control; the host then has no token.
    A move is ``action`` (the payload, or its type) with ``fields``; ``by``: the seat moving
    (None: the host)."""

    def __init__(self, client, game: str = "scorepad", players=("Ann", "Ben"),
                 options: dict | None = None, host: Phone | None = None):
        self.client, self.host, self.tokens = client, host, {}
        if host is None:
            made = api_table(client, game, players, options)
            self.code, self.host_token = made["code"], made["token"]
        else:
            self.code, self.host_token = host.start(game=game, players=players, **(options or {})), None

    def token(self, by: str | None = None) -> str:
        if by is None:
            assert self.host_token, "a table started by a phone's form has no host token"
            return self.host_token
        if by not in self.tokens:
            self.tokens[by] = seat_token(self.client, self.code, by)
        return self.tokens[by]

    def join(self, *seats: str) -> None:
        """Seat a phone at each of ``seats`` now, before any of them moves."""
        for seat in seats:
            self.token(seat)

    def post(self, action: dict | str, /, by: str | None = None, **fields):
        """Send the move and return the answer as it is."""
        return self.client.post(f"/api/tables/{self.code}/actions", headers=bearer(self.token(by)),
                                json=payload_of(action, fields))

    def move(self, action: dict | str, /, by: str | None = None, **fields) -> dict:
        """A move that must be taken: the table's snapshot after it."""
        response = self.post(action, by, **fields)
        assert response.status_code == 200, (self.code, payload_of(action, fields), response.get_json())
        return response.get_json()

    def moves(self, *actions: dict, by: str | None = None) -> dict:
        """Several moves by one seat in turn: the snapshot after the last."""
        snapshot = None
        for action in actions:
            snapshot = self.move(action, by)
        return snapshot

    def refused(self, action: dict | str, /, by: str | None = None, **fields) -> str:
        """A move that must be refused with a sentence that changes nothing: the sentence."""
        self.token(by)  # a seat joining is a change of its own: made before the count
        before = self.snapshot()["version"]
        response = self.post(action, by, **fields)
        assert response.status_code == 422, (payload_of(action, fields), response.get_json())
        error = response.get_json()["error"]
        assert error[:1].isupper() and error.endswith("."), error  # a sentence, not a code
        assert self.snapshot()["version"] == before  # nothing changed
        return error

    def undo(self, by: str | None = None) -> dict:
        return self.client.post(f"/api/tables/{self.code}/undo", headers=bearer(self.token(by))).get_json()

    def redo(self, by: str | None = None) -> dict:
        return self.client.post(f"/api/tables/{self.code}/redo", headers=bearer(self.token(by))).get_json()

    def snapshot(self) -> dict:
        return self.client.get(f"/api/tables/{self.code}").get_json()

    @property
    def state(self) -> dict:
        return self.snapshot()["state"]

    def page(self, phone: Phone | None = None) -> str:
        """The table's page as ``phone`` (the host's phone by default) gets it."""
        response = (phone or self.host).get(f"/t/{self.code}")
        assert response.status_code == 200
        return response.get_data(as_text=True)


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Phone:
    """One browser at the table: its own cookie jar, CSRF token and version."""

    def __init__(self, app, address="10.0.0.2"):
        self.client = app.test_client()
        self.address = address
        self.token = None
        self.code = None

    def get(self, url, **kw):
        kw.setdefault("environ_base", {"REMOTE_ADDR": self.address})
        response = self.client.get(url, **kw)
        found = CSRF.search(response.get_data(as_text=True))
        if found:
            self.token = found.group(1)
        return response

    def post(self, url, data=None, htmx=False, **kw):
        if self.token is None:
            self.get("/")
        data = dict(data or {})
        data.setdefault("csrf_token", self.token)
        headers = kw.pop("headers", {})
        if htmx:
            headers["HX-Request"] = "true"
        kw.setdefault("environ_base", {"REMOTE_ADDR": self.address})
        return self.client.post(url, data=data, headers=headers, **kw)

    def start(self, game="scorepad", players=("Ann", "Ben"), **options):
        data = {"player": list(players), **options}
        response = self.post(f"/new/{game}", data)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.code = response.headers["Location"].rsplit("/", 1)[-1]
        return self.code

    def join(self, code, seat=None):
        self.code = code
        self.get(f"/j/{code}")
        data = {"seat": seat} if seat else {"watch": "1"}
        return self.post(f"/j/{code}", data)

    def version(self):
        return self.client.get(f"/api/tables/{self.code}").get_json()["state_version"]

    def act(self, htmx=True, expected=None, **payload):
        data = {**payload}
        data["expected_version"] = self.version() if expected is None else expected
        return self.post(f"/t/{self.code}/act", data, htmx=htmx)

    def snapshot(self):
        return self.client.get(f"/api/tables/{self.code}").get_json()


@pytest.fixture
def phone(app):
    return lambda address="10.0.0.2": Phone(app, address)


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
