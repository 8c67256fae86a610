"""A database that cannot be reached is a 503 with Retry-After and a sentence, on pages and the
API alike; a server started without it still starts and is ready once it answers; a failure
logs one line and a traceback, never a code, a name or SQL parameters.

Each test stops and starts a PostgreSQL cluster of its own (initdb into a fresh folder, on a
free port): never a database other tests or CI share."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from glob import glob
from pathlib import Path

import pytest
from sqlalchemy.exc import ProgrammingError

from companion import create_app
from tests.browser.conftest import Server, free_port
from tests.conftest import Phone, api_table

BINARIES = sorted(glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(path.split("/")[-2]))


class Cluster:
    """A throw-away PostgreSQL cluster on 127.0.0.1 (run as the postgres user when root, as
    initdb refuses root)."""

    def __init__(self):
        if not BINARIES:
            if os.environ.get("CI"):
                pytest.fail("PostgreSQL's binaries are missing; .ci/run installs them.")
            pytest.skip("PostgreSQL's binaries are not installed")
        self.bin = Path(BINARIES[-1])
        self.folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.run("initdb", "-D", str(self.folder / "data"), "-A", "trust", "-U", "postgres")

    def run(self, program: str, *args: str) -> None:
        user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*user, str(self.bin / program), *args], check=True, cwd=self.folder,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-w", "-l", str(self.folder / "log"),
                 "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start")
        self.running = True

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-w", "-m", "immediate", "stop")
        self.running = False

    def remove(self) -> None:
        subprocess.run([*(["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []),
                        str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                        "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def own_cluster():
    made = Cluster()
    yield made
    made.remove()


@pytest.fixture
def cluster(own_cluster):
    """The module's cluster, running at the start of each test (one may have stopped it)."""
    if not getattr(own_cluster, "running", False):
        own_cluster.start()
    return own_cluster


@pytest.fixture
def app_on(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE_URL": cluster.url, "RATE_LIMIT_TARPIT": 0,
                      "RATE_LIMITS": {"code": 0, "action": 0, "live": 0, "create": 0}})
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as a server answers a failure, not a test
    yield app
    app.extensions["live"].close()
    app.extensions["engine"].dispose()


def test_pages_and_the_api_answer_503_while_the_database_is_gone(app_on, cluster, caplog):
    host = Phone(app_on)
    code = host.start(players=("Ann", "Ben"))
    table = api_table(app_on.test_client())
    cluster.stop()
    with caplog.at_level(logging.WARNING):
        page = host.get(f"/t/{code}", headers={"Accept-Language": "de"})
        assert page.status_code == 503 and int(page.headers["Retry-After"]) > 0
        assert "Datenbank" in page.get_data(as_text=True)
        tap = host.post(f"/t/{code}/act", {"type": "enter_score", "player": "Ann", "round": "1",
                                           "points": "3"}, htmx=True)
        assert tap.status_code == 503 and "database" in tap.get_data(as_text=True)
        answer = app_on.test_client().post(
            f"/api/tables/{table['code']}/actions", headers=table["headers"],
            json={"type": "enter_score", "player": "Ann", "round": 1, "points": 3})
        assert answer.status_code == 503 and int(answer.headers["Retry-After"]) > 0
        assert answer.get_json()["kind"] == "busy"
        assert "database" in answer.get_json()["error"]
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "Traceback" not in logged and code not in logged and table["code"] not in logged
    cluster.start()
    assert host.get(f"/t/{code}").status_code == 200  # back as soon as the database is


def test_a_failure_logs_one_line_and_a_traceback_without_codes_or_sql_parameters(
        make_app, monkeypatch, caplog):
    app = make_app()
    app.config["PROPAGATE_EXCEPTIONS"] = False
    client = app.test_client()
    table = api_table(client, players=("Ann", "Ben"))

    def failing(_db, found, *_args):
        statement = "SELECT * FROM game_table WHERE code = %(code)s"
        values, cause = {"code": found.code}, Exception(f"no table {found.code} for Ann")
        raise ProgrammingError(statement, values, cause)

    monkeypatch.setattr("companion.web.views.api.table_json", failing)
    with caplog.at_level(logging.INFO):
        assert client.get(f"/api/tables/{table['code']}").status_code == 500
    records = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(records) == 1
    logged = records[0].getMessage() + (records[0].exc_text or "")
    first, *trace = logged.splitlines()
    assert first == "GET /api/tables/<code> failed: sqlalchemy.exc.ProgrammingError"
    assert trace[0] == "Traceback (most recent call last):" and "in failing" in logged
    for secret in (table["code"], "Ann", "parameters", "SELECT"):
        assert secret not in logged


@pytest.fixture
def server_without_database(cluster, tmp_path):
    cluster.stop()
    server = Server(tmp_path / "instance", env={"DATABASE_URL": cluster.url})
    yield server
    server.stop()


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_serve_starts_without_its_database_and_is_ready_once_it_answers(
        server_without_database, cluster):
    server = server_without_database
    server.start()  # waits for /healthz
    assert status_of(server.url + "/healthz") == 200
    assert status_of(server.url + "/readyz") == 503
    assert status_of(server.url + "/api/tables/ABCDEF") == 503
    cluster.start()
    for _ in range(50):  # the next request finds it back (and brings its schema up)
        if status_of(server.url + "/readyz") == 200:
            break
        time.sleep(0.2)
    assert status_of(server.url + "/readyz") == 200
    made = urllib.request.urlopen(urllib.request.Request(
        server.url + "/api/tables", data=b'{"game": "scorepad", "players": ["Ann"]}',
        headers={"Content-Type": "application/json"}), timeout=10)
    assert made.status == 201
    assert "Traceback" not in server.log.read_text()


def test_an_open_stream_ends_quietly_when_the_database_goes(cluster, tmp_path, monkeypatch,
                                                            caplog):
    """The phone's browser opens it again by itself (and falls back to the poll meanwhile)."""
    from tests.web.test_live_push import Stream

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr("companion.live.hub.RECHECK_SECONDS", 0)
    app = create_app({"TESTING": True, "DATABASE_URL": cluster.url, "RATE_LIMIT_TARPIT": 0,
                      "LIVE_HEARTBEAT_SECONDS": 0.2,
                      "RATE_LIMITS": {"code": 0, "action": 0, "live": 0, "create": 0}})
    try:
        host = Phone(app)
        code = host.start()
        stream = Stream(host, code, "?v=0")
        stream.next_event("ready")
        cluster.stop()
        with caplog.at_level(logging.WARNING):
            assert list(stream.chunks)[-1:] != []  # heartbeats, then the end: no exception
        assert not [record for record in caplog.records if record.exc_info]
        stream.close()
    finally:
        app.extensions["live"].close()
        app.extensions["engine"].dispose()


def test_while_one_request_asks_the_database_the_others_are_answered_at_once(
        cluster, tmp_path, monkeypatch):
    """A database that does not answer may take seconds to give up on: requests meanwhile
    get their 503 at once instead of queueing behind it."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    cluster.stop()
    app = create_app({"TESTING": True, "DATABASE_URL": cluster.url, "RATE_LIMIT_TARPIT": 0,
                      "RATE_LIMITS": {"code": 0, "action": 0, "live": 0, "create": 0}})
    try:
        gate = app.extensions["schema_gate"]
        assert gate.acquire(blocking=False)  # a request asking the database just now
        try:
            client = app.test_client()
            waiting = client.get("/api/tables/ABCDEF")
            assert waiting.status_code == 503 and waiting.get_json()["kind"] == "busy"
            assert client.get("/readyz").status_code == 503
        finally:
            gate.release()
        cluster.start()
        assert app.test_client().get("/readyz").status_code == 200
    finally:
        app.extensions["live"].close()
        app.extensions["engine"].dispose()
