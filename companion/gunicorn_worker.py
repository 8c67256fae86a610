"""The gunicorn worker class of ``companion serve`` (``--worker-class``): gunicorn's gevent
worker, with a connection's reads timed by ``Timed``. The master loads this module (and gevent,
as for gunicorn's own gevent worker) to check its settings; the hooks are in worker.py."""

from __future__ import annotations

import contextlib
import math
import os
import socket
import time

from gunicorn.workers.ggevent import GeventWorker

# How long a connection may wait quietly for its next request once it has made one (a phone's
# taps come seconds to minutes apart: each on the connection, and in the worker, of the last)
# and how long a request's line and headers, and a new connection's first request, may take.
KEEP_ALIVE_SECONDS = 60.0
HEADER_SECONDS = 5.0


class TableWorker(GeventWorker):
    """gunicorn's gevent worker, timing a connection's quiet between requests apart from the
    arrival of a request's headers.

    gunicorn's own reads each request's line and headers under one timeout, the keep-alive
    (``--keep-alive``), which so had to stay short (5 s) to close idle and trickling
    connections: a phone tapping every ten seconds then came on a new connection each time,
    accepted by either worker and half the time handed over to its table's (handoff.py),
    which took longer than the tap itself. Here a connection that has been answered may wait
    ``KEEP_ALIVE_SECONDS`` for its next request, while a new one must send its first request,
    and any request its headers, within ``HEADER_SECONDS`` (``Timed``). A worker holding more
    than half the connections it may (``--worker-connections``) keeps an answered one only
    ``HEADER_SECONDS``, as gunicorn's own did: quiet connections kept long must not crowd out
    new phones."""

    open_connections = 0  # those this worker's handler is serving now

    def handle(self, listener, client, addr):
        timed = Timed(client, seconds_from_env("HEADER_SECONDS", HEADER_SECONDS),
                      seconds_from_env("KEEP_ALIVE_SECONDS", KEEP_ALIVE_SECONDS), self.crowded)
        self.open_connections += 1
        try:
            super().handle(listener, timed, addr)
        finally:
            self.open_connections -= 1

    def crowded(self) -> bool:
        return self.open_connections > self.worker_connections // 2

    def handle_request(self, listener_name, req, sock, addr):
        sock.serving()
        try:
            super().handle_request(listener_name, req, sock, addr)
        finally:
            sock.between_requests()

    def timeout_ctx(self):
        return _NO_TIMEOUT  # the connection times its own reads (Timed)


_NO_TIMEOUT = contextlib.nullcontext()


def seconds_from_env(name: str, default: float) -> float:
    """A number of seconds above 0 from the environment; the default when unset or not one
    (``companion serve`` refuses to start with one that is not: ``setting_problems``)."""
    raw = os.environ.get(name, "")
    try:
        seconds = float(raw) if raw else default
    except ValueError:
        seconds = default
    return seconds if math.isfinite(seconds) and seconds > 0 else default


def setting_problems() -> list[str]:
    """A sentence for each of HEADER_SECONDS and KEEP_ALIVE_SECONDS that is set to something
    other than a number of seconds above 0."""
    problems = []
    for name in ("HEADER_SECONDS", "KEEP_ALIVE_SECONDS"):
        raw = os.environ.get(name, "")
        if raw and seconds_from_env(name, -1.0) <= 0:
            problems.append(f"{name} must be a number of seconds above 0 (it is {raw[:20]!r}).")
    return problems


class Timed:
    """A connection as gunicorn's handler reads requests from it: a new one may wait
    ``header`` seconds for its first request; once a request has begun (its first bytes
    came), its line and headers must all be in within ``header`` seconds of that; after an
    answer, the connection may wait ``keep_alive`` seconds for the next (``header`` seconds
    while ``crowded()``). A read past its time reads as the client having closed: gunicorn
    ends the connection quietly. While a request is served (``serving``: its body, its answer,
    a stream) reads and writes are not timed here (web.BodyDeadline times a body)."""

    def __init__(self, sock, header: float, keep_alive: float, crowded=lambda: False):
        self._sock = sock
        self._header, self._keep_alive, self._crowded = header, keep_alive, crowded
        self._quiet = header  # how long it may wait for the next request to begin
        self._due: float | None = None  # when the begun request's headers must be in
        self._serving = False

    def recv(self, size: int, *flags) -> bytes:
        if self._serving:
            return self._sock.recv(size, *flags)
        if self._due is None:
            seconds = self._quiet
        else:
            seconds = self._due - time.monotonic()
            if seconds <= 0:
                return b""
        self._sock.settimeout(seconds)
        try:
            data = self._sock.recv(size, *flags)
        except socket.timeout:
            return b""
        finally:
            self._sock.settimeout(None)
        if self._due is None:
            self._due = time.monotonic() + self._header
        return data

    def serving(self) -> None:
        self._serving = True

    def between_requests(self) -> None:
        self._serving, self._due = False, None
        self._quiet = self._header if self._crowded() else self._keep_alive

    def __getattr__(self, name):
        return getattr(self._sock, name)
