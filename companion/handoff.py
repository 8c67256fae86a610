"""One worker holds every live stream of a table: a stream accepted elsewhere is handed over.

gunicorn's workers take turns accepting connections, so the six phones of a table land on
any of them, and each worker loaded and rendered every change of that table for its own
phones: with two workers, twice the work for each change. Instead, before Flask sees it, the
worker that accepted a stream (``GET /t/<code>/events``) passes the connection itself (its
file descriptor, ``SCM_RIGHTS`` over a Unix socket) and the request's fields to the table's
worker, chosen by the table's code among this server's workers, and lets go of it. That
worker answers the request as if it had accepted it: the whole app runs for it (limits, the
phone's cookie, 404 and 429, the security headers), and the answer is written to the socket
here, as gunicorn writes it (HTTP/1.1, chunked, then the connection is closed).

Only the workers of one gunicorn master take part (a folder named after its pid, one socket
per worker): another server on the same database may hold another secret key, under which a
phone's cookie would name nobody. Nothing depends on the choice being the same everywhere:
a worker that cannot hand a stream over (the chosen one is gone, its queue is full) serves it
itself, as before, and streams of one table on two workers each get every change.
"""

from __future__ import annotations

import array
import errno
import io
import json
import os
import shutil
import socket
import sys
import tempfile
import zlib
from email.utils import formatdate

MESSAGE_MOST = 64 * 1024  # the request's fields; far above any real request's headers
# How long a hand-over may wait for room in the other worker's queue (a burst of phones
# opening their streams at once) before the stream is served here after all.
QUEUE_WAIT = 0.2
# Fields of the environ that travel: gunicorn's CGI-style ones (all upper case) and the scheme.
PASSED = ("wsgi.url_scheme",)
NO_BODY = {204, 304}


def folder_of(master_pid: int) -> str:
    return os.path.join(tempfile.gettempdir(), f"companion-streams-{os.getuid()}", str(master_pid))


def sweep(root: str | None = None) -> None:
    """Remove the folders of servers that are no longer running (killed without clean-up)."""
    root = root or os.path.dirname(folder_of(0))
    try:
        names = os.listdir(root)
    except FileNotFoundError:
        return
    for name in names:
        if name.isdigit() and not _running(int(name)):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_of(code: str, members: list[str]) -> str | None:
    """The worker (socket path) whose turn ``code`` is: the same for every worker that sees
    the same members."""
    from .tables import normalise_code  # not at import: gunicorn's master loads this module

    if not members:
        return None
    return members[zlib.crc32(normalise_code(code).encode()) % len(members)]


def _stream_code(environ) -> str | None:
    """The table code of a live-stream request, else None."""
    if environ.get("REQUEST_METHOD") != "GET":
        return None
    path = environ.get("PATH_INFO", "")
    if path.startswith("/t/") and path.endswith("/events") and path.count("/") == 3:
        return path[3:-7]
    return None


class StreamHandOff:
    """WSGI middleware, outermost: hands a live stream to its table's worker (``start``
    switches it on, in each gunicorn worker; until then every request passes through)."""

    def __init__(self, app):
        self.app = app
        self.folder: str | None = None
        self.address: str | None = None
        self.receiver: socket.socket | None = None
        self.senders: dict[str, socket.socket] = {}  # to each other worker, connected
        self.sending: dict[str, object] = {}  # a lock per other worker: one send at a time
        self.most = 0
        self.held = 0  # connections handed to this worker and still open
        self.handed_over = 0  # streams this worker passed on (for tests and the bench)

    # -- set-up, in each worker --------------------------------------------------------
    def start(self, folder: str, most_connections: int) -> None:
        """Take part in ``folder`` (one per server); hold at most ``most_connections`` streams
        handed over by the others. Call in the worker, after gevent has patched sockets."""
        import gevent

        os.makedirs(folder, mode=0o700, exist_ok=True)
        self.folder, self.most = folder, most_connections
        self.address = os.path.join(folder, f"{os.getpid()}.sock")
        self.receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.receiver.bind(self.address)
        gevent.spawn(self._receive)

    def stop(self) -> None:
        """Leave the hand-over: no stream is handed to this worker any more."""
        if self.address:
            _unlink_quietly(self.address)
            self.address = None
        for owner in list(self.senders):
            self._forget(owner)
        if self.receiver is not None:
            self.receiver.close()
            self.receiver = None

    def members(self) -> list[str]:
        try:
            names = os.listdir(self.folder)
        except (FileNotFoundError, TypeError):
            return []
        return sorted(os.path.join(self.folder, name) for name in names if name.endswith(".sock"))

    # -- a request arrives ---------------------------------------------------------------
    def __call__(self, environ, start_response):
        if self.address is not None:
            code = _stream_code(environ)
            if code is not None:
                owner = owner_of(code, self.members())
                if owner is not None and owner != self.address and self._hand_over(owner, environ):
                    # gunicorn closes its copy of the connection without writing to it and
                    # ends the connection's keep-alive loop; the socket lives on in the owner.
                    raise StopIteration("handed to another worker")
        return self.app(environ, start_response)

    def _sender(self, owner: str) -> socket.socket:
        """A socket connected to ``owner``: a send to it waits while the owner's queue is
        full (an unconnected one could only be refused, or spin)."""
        sender = self.senders.get(owner)
        if sender is None:
            sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                sender.connect(owner)
            except OSError:
                sender.close()
                raise
            sender.settimeout(QUEUE_WAIT)
            self.senders[owner] = sender
        return sender

    def _hand_over(self, owner: str, environ) -> bool:
        connection = environ.get("gunicorn.socket")
        if connection is None:
            return False
        fields = {key: value for key, value in environ.items()
                  if isinstance(value, str) and (key.isupper() or key in PASSED)}
        message = json.dumps(fields).encode()
        if len(message) > MESSAGE_MOST:
            return False
        from gevent.lock import Semaphore

        descriptor = array.array("i", [connection.fileno()])
        # A gevent socket waits for room for one greenlet at a time: the others queue here.
        lock = self.sending.setdefault(owner, Semaphore())
        if not lock.acquire(timeout=QUEUE_WAIT):
            return False
        try:
            self._sender(owner).sendmsg(
                [message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, descriptor)])
        except (ConnectionRefusedError, FileNotFoundError):
            self._forget(owner)
            _unlink_quietly(owner)  # that worker is gone: the next stream chooses again
            return False
        except OSError:  # its queue stayed full (a timeout is an OSError): served here
            return False
        finally:
            lock.release()
        self.handed_over += 1
        return True

    def _forget(self, owner: str) -> None:
        sender = self.senders.pop(owner, None)
        if sender is not None:
            sender.close()

    # -- a stream handed to this worker ------------------------------------------------
    def _receive(self) -> None:
        import gevent

        space = socket.CMSG_SPACE(4 * array.array("i").itemsize)
        while self.address is not None and self.receiver is not None:
            try:
                message, ancillary, _flags, _sender = self.receiver.recvmsg(MESSAGE_MOST, space)
            except OSError:  # closed by stop(), or a passing error
                gevent.sleep(0.1)
                continue
            descriptors = array.array("i")
            for level, kind, data in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    descriptors.frombytes(data[:len(data) - len(data) % descriptors.itemsize])
            if not descriptors:
                continue
            for extra in descriptors[1:]:
                os.close(extra)
            try:
                fields = json.loads(message)
            except ValueError:
                os.close(descriptors[0])
                continue
            gevent.spawn(self._serve, descriptors[0], fields)

    def _serve(self, descriptor: int, fields: dict) -> None:
        connection = socket.socket(fileno=descriptor)
        self.held += 1
        try:
            if self.held > self.most:
                connection.sendall(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n"
                                   b"Content-Type: text/plain; charset=utf-8\r\n"
                                   b"Connection: close\r\nContent-Length: 43\r\n\r\n"
                                   b"Too many connections; try again in a while.")
                return
            Answer(connection, fields).run(self.app)
        except OSError as error:
            if error.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN, errno.EBADF):
                raise
        finally:
            self.held -= 1
            connection.close()


class Answer:
    """One request handed over, answered as gunicorn would: the app's status and headers,
    the body chunked (HTTP/1.1), then the connection closed."""

    def __init__(self, connection: socket.socket, fields: dict):
        self.connection = connection
        self.environ = {**fields,
                        "wsgi.input": io.BytesIO(b""), "wsgi.errors": sys.stderr,
                        "wsgi.version": (1, 0), "wsgi.multithread": True,
                        "wsgi.multiprocess": True, "wsgi.run_once": False,
                        "wsgi.input_terminated": True, "gunicorn.socket": connection}
        self.chunked = fields.get("SERVER_PROTOCOL") == "HTTP/1.1"
        self.status: str | None = None
        self.headers: list[tuple[str, str]] = []
        self.head_sent = False

    def start_response(self, status, headers, exc_info=None):
        if exc_info and self.head_sent:
            raise exc_info[1].with_traceback(exc_info[2])
        self.status, self.headers = status, list(headers)
        return self.write

    def _head(self) -> bytes:
        code = int(self.status.split(" ", 1)[0])
        names = {name.lower() for name, _value in self.headers}
        headers = [(name, value) for name, value in self.headers if name.lower() != "connection"]
        body = code not in NO_BODY
        if not body or "content-length" in names:
            self.chunked = False
        elif self.chunked:
            headers.append(("Transfer-Encoding", "chunked"))
        headers += [("Date", formatdate(usegmt=True)), ("Connection", "close")]
        lines = [f"HTTP/1.1 {self.status}"] + [f"{name}: {value}" for name, value in headers]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def write(self, data: bytes) -> None:
        if not self.head_sent:
            self.connection.sendall(self._head())
            self.head_sent = True
        if data:
            self.connection.sendall(b"%X\r\n%s\r\n" % (len(data), data) if self.chunked else data)

    def run(self, app) -> None:
        body = app(self.environ, self.start_response)
        try:
            for chunk in body:
                if chunk:
                    self.write(chunk)
            if not self.head_sent:
                self.write(b"")
            if self.chunked:
                self.connection.sendall(b"0\r\n\r\n")
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
