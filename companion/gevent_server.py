"""`companion serve --server gevent`: the app served by gevent's own WSGI server (pywsgi) in
this one process, where gunicorn cannot run (Windows: it needs fcntl and fork) or when asked.

It is what one gunicorn gevent worker is: every connection, and so every phone's open stream,
is a greenlet, and the standard library was patched for gevent before the app's modules loaded
(``cli.serve``). As gunicorn's ``--keep-alive`` does, a request's line and headers must arrive
whole within ``KEEP_ALIVE_SECONDS``, which also closes a connection idle that long; a body has
``BODY_SECONDS`` (``web/guards.body_in_time``), whichever server reads it.
"""

from __future__ import annotations

import os
import signal
import sys

import gevent
from gevent.pool import Pool
from gevent.pywsgi import WSGIHandler, WSGIServer

GRACE_SECONDS = 3  # what gunicorn's --graceful-timeout gives open requests on a stop


class HeadersTooSlow(OSError, ValueError):
    """A request's line and headers not whole within the keep-alive. pywsgi closes the
    connection without a word on an OSError while it waits for the line (an idle connection),
    and answers 400 on a ValueError while the headers trickle in (and logs this sentence)."""

    def __str__(self) -> str:
        return "its line and headers did not arrive within KEEP_ALIVE_SECONDS"


class TimedHandler(WSGIHandler):
    """pywsgi's handler, with each request's line and headers timed."""

    def handle_one_request(self):
        self.heading = gevent.Timeout(self.server.keep_alive, HeadersTooSlow)
        self.heading.start()
        try:
            return super().handle_one_request()
        finally:
            self.heading.close()

    def read_request(self, raw_requestline):
        try:
            return super().read_request(raw_requestline)
        finally:
            self.heading.cancel()  # the answer (a live stream: for hours) takes what it takes


def make_server(app, host: str, port: int, connections: int, keep_alive: float) -> WSGIServer:
    """The server, not yet listening: ``connections`` at once, ``keep_alive`` seconds for a
    request's line and headers. ACCESS_LOG=1 logs every request, as with gunicorn."""
    server = WSGIServer((host, port), app, spawn=Pool(connections), handler_class=TimedHandler,
                        log=sys.stdout if os.environ.get("ACCESS_LOG") else None,
                        # Named here: pywsgi would otherwise look up the host's name at start.
                        environ={"SERVER_NAME": host})
    server.keep_alive = keep_alive
    return server


def run(app, host: str, port: int, connections: int, keep_alive: float) -> None:
    """Serve until Ctrl+C or SIGTERM (a service manager's stop); the open requests and streams
    then get GRACE_SECONDS to end."""
    server = make_server(app, host, port, connections, keep_alive)

    def stop(*_signal) -> None:
        gevent.spawn(server.stop, GRACE_SECONDS)

    # A stop in a greenlet of its own, not a KeyboardInterrupt inside whichever request ran.
    if os.name == "posix":
        for number in (signal.SIGINT, signal.SIGTERM):
            gevent.signal_handler(number, stop)
    else:  # Windows: Ctrl+C alone, through Python's own handler (gevent offers none there)
        signal.signal(signal.SIGINT, stop)
    server.serve_forever(stop_timeout=GRACE_SECONDS)
