"""Several `companion serve` processes on one PostgreSQL database behind nginx, run the way
README.md ("Several servers on one PostgreSQL") tells an operator: its ```nginx block is read
at run time, so these tests check the configuration the README gives."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server, api, create_table, free_port, join, settle, wait_until_up
from tests.browser.proxies import NGINX, nginx_conf, stop_process


pytestmark = pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"),
                                reason="several server processes need PostgreSQL (make test-pg)")


class Servers:
    """Two servers on one database and instance folder (one secret key), nginx in front."""

    def __init__(self, url: str, servers: list[Server], nginx_log: Path):
        self.url, self.servers, self.nginx_log = url, servers, nginx_log

    def holding(self, code: str) -> Server:
        """The server nginx sends the table's requests to: the one that answered its pages.
        (gunicorn logs a request when it ends, so the open stream itself is not logged yet.)"""
        asked = re.compile(rf'"[A-Z]+ /[tj]/{re.escape(code)}[/? ]')
        serving = [server for server in self.servers if asked.search(server.log.read_text())]
        assert len(serving) == 1, f"the table's requests went to {len(serving)} servers, not 1"
        return serving[0]

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}:\n{path.read_text()[-4000:]}"
                         for path in [*(server.log for server in self.servers), self.nginx_log])


@pytest.fixture
def servers(tmp_path):
    if not os.path.exists(NGINX):
        if os.environ.get("CI"):
            pytest.fail(f"nginx is missing at {NGINX}; .ci/run installs it.")
        pytest.skip(f"nginx is not installed at {NGINX}")
    # ACCESS_LOG: each server's log file shows which table requests nginx sent it.
    env = {"TRUSTED_PROXIES": "1", "ACCESS_LOG": "1"}
    pair = [Server(tmp_path / "instance", env=env), Server(tmp_path / "instance", env=env)]
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    port = free_port()
    (prefix / "nginx.conf").write_text(
        nginx_conf(prefix, port, [server.url.removeprefix("http://") for server in pair]))
    nginx = None
    try:
        for server in pair:  # one after the other: the first creates the secret key they share
            server.start()
        with open(prefix / "error.log", "a") as output:
            nginx = subprocess.Popen(
                [NGINX, "-p", str(prefix), "-e", str(prefix / "error.log"),
                 "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
                stdout=output, stderr=subprocess.STDOUT)
        wait_until_up(f"http://127.0.0.1:{port}", nginx, prefix / "error.log")
        yield Servers(f"http://127.0.0.1:{port}", pair, prefix / "error.log")
    finally:
        stop_process(nginx)
        for server in pair:
            server.stop()


def crash(server: Server) -> None:
    """SIGKILL gunicorn's master (the `companion serve` process, which exec'd it) and its
    workers, as a crash would; they share the test's process group, so each goes by its pid."""
    master = server.process.pid
    workers = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # a process that ended while the list was read
        if int(fields[1]) == master:
            workers.append(int(stat.parent.name))
    assert workers, "gunicorn's master has no worker to kill"
    for pid in (master, *workers):
        os.kill(pid, signal.SIGKILL)
    server.process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):  # init reaps them; their sockets close at death
        assert time.monotonic() < deadline, "gunicorn's worker outlived SIGKILL"
        time.sleep(0.01)


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie has died: its sockets are closed)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def score(url: str, table: dict, round_: int, points: int) -> None:
    api(url, "POST", f"/api/tables/{table['code']}/actions",
        {"type": "enter_score", "player": "Ann", "round": round_, "points": points},
        token=table["token"])


def open_phone(new_phone, servers: Servers, code: str):
    """A phone that joins as Ben through nginx; only its stream may bring changes (no poll)."""
    phone = new_phone()
    phone.route("**/live?*", lambda route: route.abort())
    with phone.expect_response(lambda response: "/events" in response.url) as stream:
        join(phone, servers.url, code, "Ben")
    assert stream.value.status == 200, f"the stream was answered {stream.value.status}"
    settle(phone, servers.url, code)
    return phone


def test_a_change_made_through_one_server_reaches_a_phone_on_the_other(servers, new_phone):
    table = create_table(servers.url, "scorepad", ["Ann", "Ben"])
    phone = open_phone(new_phone, servers, table["code"])
    holder = servers.holding(table["code"])
    other = next(server for server in servers.servers if server is not holder)
    # Straight to the server without the phone's stream: only LISTEN/NOTIFY can carry it over.
    score(other.url, table, 1, 37)
    try:
        expect(phone.locator("#scoresheet tfoot")).to_contain_text("37", timeout=10_000)
        expect(phone.locator("#history .log")).to_contain_text("37 points for Ann in round 1")
    except AssertionError as error:
        raise AssertionError(f"{error}\n{servers.logs()}") from None
    expect(phone.locator("#connection")).to_be_hidden()


@pytest.mark.network_failures  # one server is killed under the phones
def test_with_one_server_down_nginx_sends_its_tables_to_the_other_and_phones_catch_up(
        servers, new_phone):
    table = create_table(servers.url, "scorepad", ["Ann", "Ben"])
    phone = open_phone(new_phone, servers, table["code"])
    holder = servers.holding(table["code"])
    streams = []
    phone.on("response", lambda response: streams.append(response.status)
             if "/events" in response.url else None)
    crash(holder)
    # Another phone's script goes on through nginx while this phone's stream is down.
    try:
        for round_, points in ((1, 5), (2, 6), (3, 7)):
            score(servers.url, table, round_, points)
        expect(phone.locator("#scoresheet tfoot")).to_contain_text("18", timeout=20_000)
        expect(phone.locator("#history .log")).to_contain_text("7 points for Ann in round 3")
        expect(phone.locator("#connection")).to_be_hidden(timeout=10_000)
    except Exception as error:
        raise AssertionError(f"{error}\nstreams reopened: {streams}\n{servers.logs()}") from None
    assert 200 in streams, f"the phone's stream was not opened again through nginx: {streams}"
    settle(phone, servers.url, table["code"])
