"""Fixtures: an app on a fresh database (SQLite file, or PostgreSQL via TEST_DATABASE_URL)
and a Phone helper that drives the pages the way a browser does."""

from __future__ import annotations

import os
import re

import pytest
from sqlalchemy import MetaData

from companion import create_app
from companion.service.database import make_engine

PG_URL = os.environ.get("TEST_DATABASE_URL")


def database_url(tmp_path) -> str:
    if PG_URL:
        engine = make_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
        # Every table there is, alembic_version too: the app's init_db then starts afresh.
        tables = MetaData()
        tables.reflect(engine)
        tables.drop_all(engine)
        engine.dispose()
        return PG_URL
    return f"sqlite:///{tmp_path / 'companion.sqlite3'}"


@pytest.fixture
def make_app(tmp_path, monkeypatch):
    """Build an app on this test's database; call it again for a "restarted server"."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    url = database_url(tmp_path)
    apps = []

    def build(**config):
        # No rate limits unless a test sets them (every test client comes from one address).
        config.setdefault("RATE_LIMITS", {"code": 0, "action": 0, "live": 0, "create": 0})
        config.setdefault("RATE_LIMIT_TARPIT", 0)
        app = create_app({"TESTING": True, "DATABASE_URL": url, **config})
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
