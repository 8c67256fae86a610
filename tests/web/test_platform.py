"""Platform pieces a phone relies on: changing seat, the QR image, the command line, the
"nothing changed" shortcut, the pages for a wrong method or a crash, and the server
`companion serve` chooses (gunicorn, or gevent's own where gunicorn cannot run)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
import time
import urllib.request
import xml.etree.ElementTree as ElementTree

import pytest


def test_a_phone_changes_seat_and_the_old_seat_is_free(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    ann = phone("10.0.0.3")
    ann.join(code, "Ann")
    page = ann.get(f"/j/{code}?change=1").get_data(as_text=True)
    assert 'value="Ben"' in page
    response = ann.post(f"/j/{code}", {"seat": "Ben"})
    assert response.status_code == 303
    table = ann.get(f"/t/{code}").get_data(as_text=True)
    assert re.search(r"You are <strong>Ben</strong>", table)
    log = [entry["text"] for entry in host.snapshot()["log"]]
    assert "A phone took Ben's seat." in log
    # Ann's seat is free again: another phone can take it.
    other = phone("10.0.0.4")
    assert other.join(code, "Ann").status_code == 303


def test_a_phone_cannot_change_into_a_taken_seat(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    ann, ben = phone("10.0.0.3"), phone("10.0.0.4")
    ann.join(code, "Ann")
    ben.join(code, "Ben")
    ann.get(f"/j/{code}?change=1")
    response = ann.post(f"/j/{code}", {"seat": "Ben"})
    assert response.status_code == 403
    assert "Ben&#39;s seat is already taken" in response.get_data(as_text=True)


def test_the_qr_image_of_a_table_is_an_svg_of_its_join_code(phone):
    host = phone()
    code = host.start()
    response = host.client.get(f"/t/{code}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(response.get_data())
    assert root.tag.endswith("svg")
    assert host.client.get("/t/ZZZZZZ/qr.svg").status_code == 404


def test_the_command_line_prepares_the_database(runner):
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0
    assert "Database" in result.output


def test_companion_init_db_prints_where_the_database_is(tmp_path, monkeypatch, capsys):
    from companion.cli import main

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    main(["init-db"])
    assert "companion.sqlite3" in capsys.readouterr().out
    assert (tmp_path / "instance" / "companion.sqlite3").exists()
    # The database, its secret key and settings are the owner's alone: nobody else may enter.
    assert (tmp_path / "instance").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("command", [["init-db"], ["serve", "--port", "0"], ["purge", "--days", "40"]])
def test_a_postgresql_url_without_its_driver_is_refused_in_one_sentence(command, tmp_path):
    """PostgreSQL's driver is an extra (SQLite, the default, needs none): without it, the
    command says how to install it, before anything starts, without a traceback."""
    import subprocess

    from companion.web.app import NO_DRIVER

    hidden = ("import sys; sys.modules['psycopg'] = None; "  # `import psycopg` fails, as uninstalled
              "from companion.cli import main; main(sys.argv[1:])")
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path / "instance"),
           "DATABASE_URL": "postgresql://companion@127.0.0.1:9/companion"}
    done = subprocess.run([sys.executable, "-c", hidden, *command], env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", NO_DRIVER + "\n")
    assert NO_DRIVER == ("DATABASE_URL names PostgreSQL, but its driver is not installed: "
                         "pip install 'table-companion[postgres]'")


def test_sqlite_the_default_needs_no_postgresql_driver(tmp_path):
    import subprocess

    hidden = ("import sys; sys.modules['psycopg'] = None; "
              "from companion.cli import main; main(['init-db'])")
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path / "instance")}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-c", hidden], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Database sqlite:///{tmp_path / 'instance'}/companion.sqlite3: created")


def test_readiness_asks_the_database_and_says_when_it_cannot_be_reached(make_app, tmp_path):
    from companion import create_app

    assert make_app().test_client().get("/readyz").get_json() == {"ok": True}
    # A server whose database has no tables of the companion (an empty file) is not ready.
    (tmp_path / "empty.sqlite3").touch()
    unready = create_app({"TESTING": True, "CREATE_TABLES": False,
                          "DATABASE_URL": f"sqlite:///{tmp_path}/empty.sqlite3"})
    try:
        client = unready.test_client()
        answer = client.get("/readyz", headers={"Accept-Language": "de"})
        assert answer.status_code == 503
        assert answer.get_json() == {"error": "Die Datenbank ist nicht erreichbar; die Tische "
                                              "können erst wieder bedient werden, wenn sie zurück ist.",
                                     "kind": "busy"}
        assert client.get("/healthz").status_code == 200  # the trivial check stays trivial
    finally:
        unready.extensions["live"].close()
        unready.extensions["engine"].dispose()


def test_several_server_processes_on_one_sqlite_file_are_refused_with_a_sentence(tmp_path):
    from companion.cli import SEVERAL_NEED_POSTGRES, claim_sqlite

    url = f"sqlite:///{tmp_path}/companion.sqlite3"
    with pytest.raises(SystemExit, match="--workers 2: Several server processes need PostgreSQL"):
        claim_sqlite(url, workers=2)
    held = claim_sqlite(url, workers=1)
    try:
        with pytest.raises(SystemExit) as refused:
            claim_sqlite(url, workers=1)  # a second `companion serve` on the same file
        assert str(refused.value) == (f"Another companion server already serves "
                                      f"{tmp_path}/companion.sqlite3. {SEVERAL_NEED_POSTGRES}")
    finally:
        os.close(held)
    os.close(claim_sqlite(url, workers=1))  # once the first has stopped, another may start


def test_the_server_compiles_every_template_and_freezes_what_the_app_holds(make_app):
    """`companion serve` hands gunicorn its hook (cli.post_worker_init): before the first
    request every template is compiled and what the app holds is out of the collector's sight."""
    import gc
    from types import SimpleNamespace

    from companion.cli import GC_THRESHOLDS, gunicorn_args, post_worker_init

    args = gunicorn_args("127.0.0.1", 5000, 1, 10, 5)
    assert args[args.index("--config") + 1] == "python:companion.cli"
    app = make_app()
    app.jinja_env.cache = {}  # nothing compiled yet
    thresholds = gc.get_threshold()
    try:
        post_worker_init(SimpleNamespace(wsgi=app))
        assert gc.get_freeze_count() > 10_000 and gc.get_threshold() == GC_THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    compiled = {template.name for template in app.jinja_env.cache.values()}
    assert {"table.html", "macros.html", "games/scorepad/table.html",
            "games/asterix-co/table.html"} <= compiled


def test_the_nothing_changed_poll_is_answered_from_the_version_alone(make_app, monkeypatch):
    from companion.live import versions
    from tests.conftest import Phone

    app = make_app()
    host = Phone(app)
    code = host.start()
    version = host.snapshot()["version"]
    monkeypatch.setattr(versions, "load", lambda *_args: pytest.fail("the poll loaded the table"))
    response = host.client.get(f"/t/{code}/live?v={version}")
    assert response.status_code == 204 and response.data == b""
    monkeypatch.undo()
    # A poll that has something to send gets the regions.
    response = host.client.get(f"/t/{code}/live?v={version - 1}", headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'data-region="scoresheet"' in response.get_data(as_text=True)


@pytest.mark.parametrize("path, json_answer", [("/", False), ("/api/games", True)])
def test_a_wrong_method_gets_a_sentence(client, path, json_answer):
    response = client.delete(path)
    assert response.status_code == 405
    # The answer names what the address does accept.
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    if json_answer:
        assert response.get_json()["error"] == f"DELETE is not accepted at {path}."
    else:
        assert "does not accept that kind of request" in response.get_data(as_text=True)


@pytest.mark.parametrize("path, json_answer", [("/boom", False), ("/api/boom", True)])
def test_a_crash_gets_a_page_that_says_nothing_was_changed(make_app, path, json_answer):
    app = make_app()
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def boom():
        raise RuntimeError("a bug")

    app.add_url_rule(path, "boom", boom)
    response = app.test_client().get(path)
    assert response.status_code == 500
    if json_answer:
        assert "nothing was changed" in response.get_json()["error"]
    else:
        assert "nothing was changed" in response.get_data(as_text=True)
        assert "Traceback" not in response.get_data(as_text=True)


def test_the_seat_cookie_is_renewed_when_the_table_opens_not_with_every_tap(phone):
    """Opening the table page starts the phone's 30 days again; a tap, a poll and a stream do
    not re-send the cookie (re-signing it cost every tap a good share of its time)."""
    code = phone().start(players=("Ann", "Ben"))
    ann = phone("10.0.0.3")
    ann.join(code, "Ann")
    page = ann.client.get(f"/t/{code}")
    assert page.status_code == 200
    assert "session=" in page.headers.get("Set-Cookie", "")
    assert "Expires=" in page.headers["Set-Cookie"]
    tap = ann.act(type="enter_score", player="Ann", round="1", points="7")
    assert tap.status_code == 200
    assert "Set-Cookie" not in tap.headers
    poll = ann.client.get(f"/t/{code}/live?v=0", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and "Set-Cookie" not in poll.headers
    # the seat is still this phone's after the tap: the cookie it holds was not lost
    assert ann.client.get(f"/t/{code}").status_code == 200


# -- the server: gunicorn, or gevent's own where gunicorn cannot run ------------------------


def test_serve_chooses_gevent_where_gunicorn_cannot_run(monkeypatch):
    from companion import cli

    monkeypatch.delenv("SERVER", raising=False)
    assert cli.chosen_server(None) == "gunicorn"  # Linux, gunicorn installed
    assert cli.chosen_server("gevent") == "gevent"
    monkeypatch.setenv("SERVER", "gevent")
    assert cli.chosen_server(None) == "gevent" and cli.chosen_server("gunicorn") == "gunicorn"
    monkeypatch.delenv("SERVER")
    monkeypatch.setitem(sys.modules, "fcntl", None)  # as on Windows: no fcntl
    assert cli.chosen_server(None) == "gevent"
    assert cli.server_problem("gunicorn", 1) == (
        "gunicorn cannot run on this system (it needs Linux or macOS): use --server gevent.")


def test_serve_refuses_what_gevents_server_cannot_do_with_a_sentence(monkeypatch):
    from companion import cli

    assert cli.server_problem("gevent", 1) is None and cli.server_problem("gunicorn", 2) is None
    assert cli.server_problem("gevent", 2) == (
        "--workers 2: gevent's server is one process; several need gunicorn (Linux, macOS) and "
        "PostgreSQL.")
    assert cli.server_problem("waitress", 1) == (
        "SERVER must be gunicorn or gevent (it is 'waitress').")
    monkeypatch.setenv("SERVER", "waitress")
    with pytest.raises(SystemExit, match="SERVER must be gunicorn or gevent"):
        cli.serve("127.0.0.1", 5123, 1, 10)
    with pytest.raises(SystemExit) as wrong:
        cli.main(["serve", "--server", "waitress"])
    assert wrong.value.code == 2  # argparse names the choices


def test_serve_with_gevent_patches_first_then_serves_the_prepared_app_in_this_process(
        monkeypatch, tmp_path):
    """The standard library is patched before the app's modules load (as in gunicorn's gevent
    worker), then the app is built, its templates compiled, and served here: no exec."""
    from companion import cli
    from companion.web.network import LISTEN_HOST_VARIABLE, LISTEN_PORT_VARIABLE, listen_host

    for name in (LISTEN_HOST_VARIABLE, LISTEN_PORT_VARIABLE):  # serve sets them: undone after
        monkeypatch.setenv(name, "")
    steps = []
    monkeypatch.setattr(cli.monkey, "patch_all", lambda: steps.append("patch"))
    monkeypatch.setattr(cli, "init_db", lambda: steps.append("init_db") or (
        "postgresql://x@db/companion", "up to date"))
    monkeypatch.setattr(cli, "create_app", lambda: steps.append("create_app") or "the app")
    monkeypatch.setattr(cli, "prepare_process", lambda app: steps.append(f"prepare {app}"))
    monkeypatch.setattr(cli.gevent_server, "run", lambda app, host, port, connections, keep_alive:
                        steps.append(f"run {app} on {host}:{port} ({listen_host()}), "
                                     f"{connections} connections, keep-alive {keep_alive:g}"))
    monkeypatch.setattr(cli.os, "execv", lambda *args: steps.append("exec"))
    monkeypatch.setenv("KEEP_ALIVE_SECONDS", "7")
    cli.main(["serve", "--server", "gevent", "--host", "127.0.0.1", "--port", "5123",
              "--connections", "50"])
    assert steps == ["patch", "init_db", "create_app", "prepare the app",
                     "run the app on 127.0.0.1:5123 (127.0.0.1), 50 connections, keep-alive 7"]


def test_gevents_server_as_on_windows_closes_quiet_connections_and_slow_headers_not_streams(
        tmp_path):
    """`companion serve` without what Windows lacks (fcntl, resource, gunicorn, os.getuid:
    tests/as_on_windows.py) chooses gevent's server, which keeps gunicorn's --keep-alive: a
    connection quiet for KEEP_ALIVE_SECONDS is closed, headers not whole by then are refused;
    a live stream stays open past it and brings the next change."""
    from tests.browser.conftest import AS_ON_WINDOWS, Server, create_table

    with Server(tmp_path / "instance", env={"KEEP_ALIVE_SECONDS": "1"},
                command=AS_ON_WINDOWS) as server:
        address = ("127.0.0.1", server.port)
        with socket.create_connection(address, timeout=30) as quiet:
            assert quiet.recv(100) == b""  # closed without a word
        with socket.create_connection(address, timeout=30) as slow:
            # Headers begun, never ended by their blank line.
            slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            assert slow.recv(100).startswith(b"HTTP/1.1 400 Bad Request")
        table = create_table(server.url, "scorepad", ["Ann", "Ben"])
        stream = urllib.request.urlopen(f"{server.url}/t/{table['code']}/events?v=0", timeout=30)
        assert b"event: ready" in stream.read1(1000)
        time.sleep(2)  # twice the keep-alive, the stream quiet
        request = urllib.request.Request(
            f"{server.url}/api/tables/{table['code']}/actions", method="POST",
            data=json.dumps({"type": "enter_score", "player": "Ann", "round": 1, "points": 9,
                             "expected_version": table["version"]}).encode(),
            headers={"Content-Type": "application/json", **table["headers"]})
        urllib.request.urlopen(request, timeout=30).close()
        assert b"event: regions" in stream.read1(100_000)
        # Ctrl+C with the stream still open: a quiet stop, no traceback.
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(timeout=60) == 0
        stream.close()
    assert "Traceback" not in server.log.read_text()
