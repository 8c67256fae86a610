"""Every live stream of a table is held by one worker of the server (companion/handoff.py),
whichever worker accepted it; handed-over streams answer as any other; a worker that dies
is stepped around. Against the real server: `companion serve` with two gevent workers."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zlib

import psutil
import pytest

from companion import handoff
from tests.browser.conftest import Server, api, create_table


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One two-worker server for the tests that change nothing of it."""
    started = Server(tmp_path_factory.mktemp("handoff"))
    started.start()
    wait_for_workers(started)
    yield started
    started.stop()


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A fresh two-worker server; ``served(**env)`` starts it with extra settings."""
    servers = []

    def start(**env):
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        server = Server(tmp_path / f"instance-{len(servers)}")
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


class RawStream:
    """One phone's live stream over a socket of its own (from ``source``), read as it comes."""

    def __init__(self, server: Server, code: str, source: str = "127.0.0.1",
                 headers: dict | None = None):
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                             source_address=(source, 0))
        lines = [f"GET /t/{code}/events HTTP/1.1", f"Host: 127.0.0.1:{server.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.raw = b""

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    def read_until(self, marker: bytes, seconds: float = 10) -> bytes:
        deadline = time.monotonic() + seconds
        while marker not in self.raw:
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                part = self.sock.recv(65536)
            except TimeoutError:
                part = None
            if not part:
                raise AssertionError(f"{marker!r} never came; got {self.raw[:600]!r}")
            self.raw += part
        return self.raw

    def head(self) -> tuple[int, dict[str, str]]:
        head = self.read_until(b"\r\n\r\n").split(b"\r\n\r\n", 1)[0].decode("latin-1")
        status, *fields = head.split("\r\n")
        return int(status.split()[1]), {name.lower(): value.strip() for name, _, value in
                                        (field.partition(":") for field in fields)}

    def inflated_until(self, marker: bytes) -> bytes:
        """The body so far, de-chunked and gunzipped, once it holds ``marker``."""
        while True:
            body = self.read_until(b"\r\n\r\n").split(b"\r\n\r\n", 1)[1]
            inflate, text, at = zlib.decompressobj(16 + zlib.MAX_WBITS), b"", 0
            while (end := body.find(b"\r\n", at)) >= 0:
                size = int(body[at:end], 16)
                if len(body) < end + 2 + size + 2:
                    break
                text += inflate.decompress(body[end + 2:end + 2 + size])
                at = end + 2 + size + 2
            if marker in text:
                return text
            self.sock.settimeout(10)
            more = self.sock.recv(65536)
            assert more, f"{marker!r} never came"
            self.raw += more

    def close(self) -> None:
        self.sock.close()


def workers(server: Server) -> list[psutil.Process]:
    return psutil.Process(server.process.pid).children()


def holders(server: Server) -> dict[int, int]:
    """The worker holding the server's end of each connection: {client port: worker pid}.

    Only connections to the server's port count (not, say, the workers' own connections to
    PostgreSQL). A handed-over connection is open in both workers for a moment: the owner may
    already have answered on it while the worker that accepted it has yet to close its copy.
    The view is taken once no connection is seen in two workers (within 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        seen: dict[int, set[int]] = {}
        for worker in workers(server):
            for connection in worker.net_connections("tcp"):
                if connection.raddr and connection.laddr.port == server.port:
                    seen.setdefault(connection.raddr.port, set()).add(worker.pid)
        if all(len(pids) == 1 for pids in seen.values()) or time.monotonic() > deadline:
            return {port: min(pids) if len(pids) == 1 else -1 for port, pids in seen.items()}
        time.sleep(0.02)


def owner(server: Server, code: str) -> int:
    """The worker this table's streams go to, as the workers themselves choose it."""
    folder = handoff.folder_of(server.process.pid)
    members = sorted(os.path.join(folder, name) for name in os.listdir(folder)
                     if name.endswith(".sock"))
    return int(os.path.basename(handoff.owner_of(code, members)).split(".")[0])


def wait_for_workers(server: Server, count: int = 2) -> None:
    """Until ``count`` workers run and each has joined the hand-over (booted)."""
    deadline = time.monotonic() + 30
    folder = handoff.folder_of(server.process.pid)
    while time.monotonic() < deadline:
        pids = {str(w.pid) for w in workers(server)}
        joined = {name.split(".")[0] for name in os.listdir(folder)} if os.path.isdir(folder) else set()
        if len(pids) == count and pids <= joined:
            return
        time.sleep(0.1)
    raise AssertionError("the workers did not come up")


@pytest.fixture
def closing():
    """Sockets registered here are closed after the test, whether it passed or not."""
    with contextlib.ExitStack() as stack:
        def register(opened):
            stack.callback(opened.close)
            return opened
        yield register


def test_every_stream_of_a_table_is_held_by_the_tables_worker(server, closing):
    tables = [create_table(server.url, "scorepad", ["Ann", "Ben"]) for _ in range(16)]
    # A table's phones open theirs together, one table after another: a hand-over waits
    # at most 0.2 s for room in the other worker's queue (10 requests) and is served where it
    # came after that, which 48 streams opened at once into a busy worker on a slow machine
    # could reach (the streams are then served, by the other worker).
    streams = {}
    for table in tables:
        opened = streams[table["code"]] = [closing(RawStream(server, table["code"]))
                                           for _ in range(3)]
        for stream in opened:
            stream.read_until(b"event: ready")
    owners = {code: owner(server, code) for code in streams}
    assert len(set(owners.values())) == 2, "both workers hold some tables"
    held = holders(server)
    for code, opened in streams.items():
        # Accepted by either worker (gunicorn's choice), held by the one of its table.
        assert {held[stream.port] for stream in opened} == {owners[code]}, code
    # A change reaches every stream of its table, wherever it was accepted.
    table = tables[0]
    answer = api(server.url, "POST", f"/api/tables/{table['code']}/actions",
                 {"type": "enter_score", "player": "Ann", "round": 1, "points": 7},
                 token=table["token"])
    for stream in streams[table["code"]]:
        stream.read_until(f"id: {answer['version']}".encode())


def test_a_handed_over_stream_is_answered_like_any_other(server, closing):
    table = create_table(server.url, "scorepad", ["Ann", "Ben"])
    streams = [closing(RawStream(server, table["code"], headers={"Accept-Encoding": "gzip"}))
               for _ in range(6)]
    for stream in streams:
        status, headers = stream.head()
        assert status == 200
        assert headers["content-type"].startswith("text/event-stream")
        assert headers["content-encoding"] == "gzip"
        assert headers["transfer-encoding"] == "chunked"
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        # The chunked gzip body inflates, event by event, to the stream's opening.
        text = stream.inflated_until(b"event: ready")
        assert b"retry: 2000" in text
    # Unknown tables are refused with the same sentence by whichever worker answers.
    for _ in range(6):
        missing = closing(RawStream(server, "ZZZZZZ"))
        status, headers = missing.head()
        assert status == 404
        assert "script-src 'self'" in headers["content-security-policy"]
        missing.read_until(b"There is no table with this code.")
        missing.close()


def test_a_client_past_its_streams_is_refused_where_its_tables_streams_are(served, closing):
    server = served(STREAMS_PER_CLIENT="3")
    wait_for_workers(server)
    table = create_table(server.url, "scorepad", ["Ann", "Ben"])
    opened = [closing(RawStream(server, table["code"])) for _ in range(3)]
    for stream in opened:
        stream.read_until(b"event: ready")
    # All three sit with the table's worker, so a fourth is one too many there, wherever
    # it is accepted.
    for _ in range(4):
        extra = closing(RawStream(server, table["code"]))
        status, headers = extra.head()
        assert status == 429
        assert headers["retry-after"] == "30"
        extra.read_until(b"Too many live connections from this device")
        extra.close()
    # Another household (another address) is not affected.
    other = closing(RawStream(server, table["code"], source="127.0.0.2"))
    other.read_until(b"event: ready")


def test_a_stream_still_opens_when_its_tables_worker_died(served, closing):
    server = served()
    wait_for_workers(server)
    table = create_table(server.url, "scorepad", ["Ann", "Ben"])
    dead = owner(server, table["code"])
    os.kill(dead, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while psutil.pid_exists(dead) and time.monotonic() < deadline:  # until it is gone whole
        time.sleep(0.01)
    # Until gunicorn's replacement has started, the dead worker's socket is still in the
    # folder: whoever accepts the stream finds nobody there and serves it itself.
    streams = [closing(RawStream(server, table["code"])) for _ in range(4)]
    for stream in streams:
        stream.read_until(b"event: ready")
    answer = api(server.url, "POST", f"/api/tables/{table['code']}/actions",
                 {"type": "enter_score", "player": "Ben", "round": 1, "points": 4},
                 token=table["token"])
    for stream in streams:
        stream.read_until(f"id: {answer['version']}".encode())
        stream.close()
    wait_for_workers(server)
    # Later streams go to the table's worker among those running now.
    later = [closing(RawStream(server, table["code"])) for _ in range(4)]
    for stream in later:
        stream.read_until(b"event: ready")
    held = holders(server)
    assert {held[stream.port] for stream in later} == {owner(server, table["code"])}
    # A server that stops takes its hand-over folder with it.
    folder = handoff.folder_of(server.process.pid)
    assert os.path.isdir(folder)
    server.stop()
    assert not os.path.exists(folder)


def test_gunicorns_master_loads_no_web_framework():
    """The master imports the hooks (companion/worker.py) before it forks: anything heavy it
    loads, the gevent workers would get before their monkey-patching."""
    probe = ("import json, sys; import companion.worker; "
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
             "('flask', 'sqlalchemy', 'sqlmodel', 'psycopg', 'gevent', 'werkzeug', 'jinja2'))))")
    loaded = json.loads(subprocess.check_output([sys.executable, "-c", probe], text=True))
    assert loaded == []


class RawConnection:
    """A keep-alive connection sending requests one after another, as a browser's does."""

    def __init__(self, server: Server):
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        self.port = self.sock.getsockname()[1]
        self.host = f"127.0.0.1:{server.port}"
        self.buffer = b""

    def request(self, method: str, path: str, body: bytes = b"", headers: dict | None = None
                ) -> tuple[int, dict[str, str], bytes]:
        self.send(method, path, body, headers)
        return self.answer()

    def send(self, method: str, path: str, body: bytes = b"", headers: dict | None = None
             ) -> None:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)

    def answer(self) -> tuple[int, dict[str, str], bytes]:
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status, *fields = head.decode("latin-1").split("\r\n")
        headers = {name.lower(): value.strip() for name, _, value in
                   (field.partition(":") for field in fields)}
        if "content-length" in headers:
            while len(self.buffer) < int(headers["content-length"]):
                self.buffer += self._recv()
            size = int(headers["content-length"])
            answer, self.buffer = self.buffer[:size], self.buffer[size:]
        else:  # chunked
            answer = b""
            while True:
                while b"\r\n" not in self.buffer:
                    self.buffer += self._recv()
                size, rest = self.buffer.split(b"\r\n", 1)
                size = int(size, 16)
                while len(rest) < size + 2:
                    rest += self._recv()
                answer, self.buffer = answer + rest[:size], rest[size + 2:]
                if size == 0:
                    break
        return int(status.split()[1]), headers, answer

    def _recv(self) -> bytes:
        part = self.sock.recv(65536)
        assert part, "the server closed the connection"
        return part

    def close(self) -> None:
        self.sock.close()


def test_a_phones_connection_moves_to_its_tables_worker_and_stays_alive(server, closing):
    """Its taps, polls and pages are then served where the table's streams are, and the
    connection goes on serving whatever comes next on it."""
    table = create_table(server.url, "scorepad", ["Ann", "Ben"])
    token = {"Authorization": f"Bearer {table['token']}", "Content-Type": "application/json"}
    connections = [closing(RawConnection(server)) for _ in range(8)]
    for number, connection in enumerate(connections):
        # A tap through the API (a body, handed over with the connection) ...
        status, _headers, answer = connection.request(
            "POST", f"/api/tables/{table['code']}/actions", headers=token,
            body=json.dumps({"type": "enter_score", "player": "Ann", "round": 1 + number,
                             "points": 10 + number}).encode())
        assert status == 200, answer
        assert json.loads(answer)["scores"]["Ann"] == sum(10 + n for n in range(number + 1))
    held = holders(server)
    assert {held[connection.port] for connection in connections} == {owner(server, table["code"])}
    for connection in connections:
        # ... then the same connection keeps serving: another table's page, the health check.
        status, _headers, answer = connection.request("GET", "/healthz")
        assert (status, json.loads(answer)) == (200, {"ok": True})
        status, _headers, answer = connection.request("GET", f"/api/tables/{table['code']}")
        assert status == 200 and json.loads(answer)["version"] == table["version"] + 8
        connection.close()
    # Every tap was recorded once.
    log = api(server.url, "GET", f"/api/tables/{table['code']}")["log"]
    assert sum(entry["kind"] == "action" for entry in log) == 8


@pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")),
                    reason="on PostgreSQL the streams read the change from the database, and "
                           "the answer may go out while they wait for it")
def test_every_stream_has_a_change_before_the_tap_is_answered(server, closing):
    """The streams waiting for a change send it before the tap's own answer is written
    (live.streams_first): when the answer arrives, every phone of the table has the change."""
    table = create_table(server.url, "scorepad", ["Ann", "Ben"])
    streams = [closing(RawStream(server, table["code"])) for _ in range(3)]
    connection = closing(RawConnection(server))
    for stream in streams:
        stream.read_until(b"event: ready")
    for number in range(1, 6):
        connection.send("POST", f"/api/tables/{table['code']}/actions",
                        headers={"Authorization": f"Bearer {table['token']}",
                                 "Content-Type": "application/json"},
                        body=json.dumps({"type": "enter_score", "player": "Ann",
                                         "round": number, "points": number}).encode())
        assert select.select([connection.sock], [], [], 10)[0], "no answer"
        version = table["version"] + number
        for stream in streams:  # what has come on each stream by now, without waiting
            stream.sock.setblocking(False)
            try:
                while part := stream.sock.recv(65536):
                    stream.raw += part
            except BlockingIOError:
                pass
            stream.sock.setblocking(True)
            assert f"id: {version}\n".encode() in stream.raw, f"version {version} not yet on a stream"
        status, _headers, answer = connection.answer()
        assert status == 200 and json.loads(answer)["version"] == version


def test_a_body_too_large_to_hand_over_is_refused_where_it_landed(server, closing):
    table = create_table(server.url, "scorepad", ["Ann", "Ben"])
    for _ in range(4):
        connection = closing(RawConnection(server))
        status, _headers, answer = connection.request(
            "POST", f"/api/tables/{table['code']}/actions", body=b"x" * (70 * 1024),
            headers={"Authorization": f"Bearer {table['token']}",
                     "Content-Type": "application/json"})
        assert status == 413 and b"larger than 64 KB" in answer
        connection.close()
    assert api(server.url, "GET", f"/api/tables/{table['code']}")["version"] == table["version"]


# -- how long a connection may stay quiet (gunicorn_worker.TableWorker) --------------------


@pytest.fixture(scope="module")
def timed_server(tmp_path_factory):
    """A two-worker server with its own times: a request's headers (and a new connection's
    first request) within 1 s, 9 s of quiet after an answer (gunicorn's `--keep-alive` is 5)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HEADER_SECONDS", "1")
        patch.setenv("KEEP_ALIVE_SECONDS", "9")
        started = Server(tmp_path_factory.mktemp("timed"))
        started.start()
    wait_for_workers(started)
    yield started
    started.stop()


def closed_by_server(sock: socket.socket, within: float) -> bytes | None:
    """What the server sent before closing the connection (None: still open after ``within``)."""
    sock.settimeout(within)
    received = b""
    try:
        while part := sock.recv(65536):
            received += part
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return received


def test_a_connection_that_sends_nothing_or_trickles_its_headers_is_closed(timed_server):
    with socket.create_connection(("127.0.0.1", timed_server.port)) as silent:
        assert closed_by_server(silent, within=3) == b""  # 1 s, and time to spare
    with socket.create_connection(("127.0.0.1", timed_server.port)) as trickling:
        trickling.sendall(b"GET /healthz HTTP/1.1\r\n")
        started, answer = time.monotonic(), None
        while answer is None and time.monotonic() - started < 3.5:
            time.sleep(0.3)
            try:
                trickling.sendall(b"X-Slow: one line at a time\r\n")
                if select.select([trickling], [], [], 0)[0]:
                    answer = trickling.recv(65536)
            except OSError:  # a send after the server closed it: reset
                answer = b""
    assert answer == b"", "the trickling connection was answered or never closed"
    # Neither held up anybody else.
    with urllib.request.urlopen(f"{timed_server.url}/healthz", timeout=5) as answer:
        assert json.loads(answer.read()) == {"ok": True}


def test_an_answered_connection_waits_for_its_next_tap_past_the_header_time(timed_server, closing):
    """A phone's taps come seconds apart: each on the connection of the one before, held by
    its table's worker, until it has been quiet for the keep-alive time."""
    table = create_table(timed_server.url, "scorepad", ["Ann", "Ben"])
    token = {"Authorization": f"Bearer {table['token']}", "Content-Type": "application/json"}

    def tap(connection, points):
        status, _headers, answer = connection.request(
            "POST", f"/api/tables/{table['code']}/actions", headers=token,
            body=json.dumps({"type": "enter_score", "player": "Ann", "round": 1,
                             "points": points}).encode())
        assert status == 200, answer

    connections = [closing(RawConnection(timed_server)) for _ in range(4)]
    for connection in connections:
        tap(connection, 1)
    time.sleep(6)  # longer than a request's headers may take, and than gunicorn's keep-alive
    for connection in connections:
        tap(connection, 2)
    held = holders(timed_server)
    assert {held[connection.port] for connection in connections} == {owner(timed_server, table["code"])}
    for connection in connections:  # quiet past the keep-alive: closed, having sent nothing more
        assert closed_by_server(connection.sock, within=12) == b""
    assert api(timed_server.url, "GET", f"/api/tables/{table['code']}")["version"] == table["version"] + 8
