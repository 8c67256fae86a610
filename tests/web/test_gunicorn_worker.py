"""How long the server's worker lets a connection stay quiet (gunicorn_worker.Timed): a new
connection and a request's headers get HEADER_SECONDS, an answered connection KEEP_ALIVE_SECONDS
for its next request, unless its worker is crowded. The real server's side of it is in
tests/web/test_stream_handoff.py."""

from __future__ import annotations

import socket
import threading
import time
from types import SimpleNamespace

import pytest

from companion.gunicorn_worker import TableWorker, Timed, seconds_from_env

HEADER = 0.3
KEEP_ALIVE = 30.0  # far longer than any of these tests waits


@pytest.fixture
def pair():
    server, client = socket.socketpair()
    yield server, client
    server.close()
    client.close()


def send_later(sock: socket.socket, data: bytes, seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, sock.sendall, [data])
    timer.start()
    return timer


def test_a_new_connection_that_sends_nothing_reads_as_closed_after_the_header_time(pair):
    server, _client = pair
    started = time.monotonic()
    assert Timed(server, HEADER, KEEP_ALIVE).recv(100) == b""
    assert time.monotonic() - started < KEEP_ALIVE / 2


def test_headers_that_trickle_past_the_header_time_read_as_closed(pair):
    server, client = pair
    timed = Timed(server, HEADER, KEEP_ALIVE)
    client.sendall(b"GET / HTTP/1.1\r\n")
    assert timed.recv(100) == b"GET / HTTP/1.1\r\n"  # the request has begun: its time runs
    time.sleep(HEADER + 0.1)
    client.sendall(b"X-Slow: 1\r\n")
    assert timed.recv(100) == b""


def test_an_answered_connection_waits_longer_for_its_next_request(pair):
    server, client = pair
    timed = Timed(server, HEADER, KEEP_ALIVE)
    client.sendall(b"GET / HTTP/1.1\r\n\r\n")
    assert timed.recv(100)
    timed.serving()
    timed.between_requests()
    timer = send_later(client, b"GET /next HTTP/1.1\r\n\r\n", HEADER * 3)
    assert timed.recv(100) == b"GET /next HTTP/1.1\r\n\r\n"  # came after the header time
    timer.join()


def test_a_crowded_worker_keeps_an_answered_connection_only_the_header_time(pair):
    server, client = pair
    timed = Timed(server, HEADER, KEEP_ALIVE, crowded=lambda: True)
    client.sendall(b"GET / HTTP/1.1\r\n\r\n")
    assert timed.recv(100)
    timed.serving()
    timed.between_requests()
    timer = send_later(client, b"GET /next HTTP/1.1\r\n\r\n", HEADER * 3)
    assert timed.recv(100) == b""
    timer.join()


def test_reads_while_a_request_is_served_are_not_timed(pair):
    """A body, or a stream's connection, waits as long as it takes (web.BodyDeadline times a
    body as a whole)."""
    server, client = pair
    timed = Timed(server, HEADER, KEEP_ALIVE)
    client.sendall(b"POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n")
    assert timed.recv(100)
    timed.serving()
    timer = send_later(client, b"body", HEADER * 3)
    assert timed.recv(100) == b"body"
    timer.join()


def test_the_times_come_from_the_environment_and_bad_values_keep_the_default(monkeypatch):
    monkeypatch.setenv("HEADER_SECONDS", "2.5")
    assert seconds_from_env("HEADER_SECONDS", 5) == 2.5
    for bad in ("", "soon", "0", "-3", "nan", "inf"):
        monkeypatch.setenv("HEADER_SECONDS", bad)
        assert seconds_from_env("HEADER_SECONDS", 5) == 5, bad


def test_a_worker_is_crowded_past_half_the_connections_it_may_hold():
    worker = SimpleNamespace(worker_connections=4000, open_connections=2000)
    assert not TableWorker.crowded(worker)
    worker.open_connections = 2001
    assert TableWorker.crowded(worker)


def test_the_server_does_not_start_with_a_time_that_is_not_one(monkeypatch):
    from companion import cli

    monkeypatch.setenv("KEEP_ALIVE_SECONDS", "a minute")
    with pytest.raises(SystemExit) as refused:
        cli.serve("127.0.0.1", 5999, 1, 10)
    assert str(refused.value) == ("KEEP_ALIVE_SECONDS must be a number of seconds above 0 "
                                  "(it is 'a minute').")
