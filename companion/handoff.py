"""One worker holds every connection of a table: a request accepted elsewhere is handed over.

gunicorn's workers take turns accepting connections, so the six phones of a table land on
any of them. Each worker then loaded and rendered every change of that table for its own
phones' streams (with two workers, twice the work for each change), and a tap taken by one
worker reached the streams in the other only through a datagram and that worker's queue.
Instead, before Flask sees it, the worker that took a request naming a table (``/t/<code>…``,
``/j/<code>``, ``/api/tables/<code>…``) passes the connection itself (its file descriptor,
``SCM_RIGHTS`` over a Unix socket) and the request, as it came, to the table's worker, chosen
by the table's code among this server's workers, and lets go of it. That worker serves the
connection from then on exactly as if it had accepted it (gunicorn's own handler reads the
request again, then the next ones on the same connection): the phone's taps, its stream and
its polls all land where the table's streams are, and a change is committed, loaded and drawn
in one process.

Only the workers of one gunicorn master take part (a folder named after its pid, one socket
per worker): another server on the same database may hold another secret key, under which a
phone's cookie would name nobody. Nothing depends on the choice being the same everywhere: a
worker that cannot hand a request over (the chosen one is gone, its queue stays full) serves
it itself, as before, and streams of one table on two workers each get every change.
"""

from __future__ import annotations

import array
import errno
import io
import os
import shutil
import socket
import tempfile
import zlib

MESSAGE_MOST = 160 * 1024  # a request as it came: its head and a body up to BODY_LIMIT_KB
# How long a hand-over may wait for room in the other worker's queue (a burst of phones
# opening their streams at once) before the request is served here after all.
QUEUE_WAIT = 0.2
CODE_MOST = 16  # longer is no table's code: such a request is answered where it landed
# The headers gunicorn turns into the request's framing, written anew from the body read.
FRAMING = {"HTTP_CONTENT_LENGTH", "HTTP_TRANSFER_ENCODING", "HTTP_CONTENT_TYPE"}


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


def table_code(environ) -> str | None:
    """The table a request names by its code (its pages, taps, live updates, join, API),
    else None."""
    parts = environ.get("PATH_INFO", "").split("/")
    if len(parts) >= 3 and parts[1] in ("t", "j"):
        code = parts[2]
    elif len(parts) >= 4 and parts[1] == "api" and parts[2] == "tables":
        code = parts[3]
    else:
        return None
    return code if code and len(code) <= CODE_MOST and code.isascii() and code.isalnum() else None


def raw_request(environ) -> bytes | None:
    """The request as it came over the wire, for the worker it is handed to: its line, its
    headers (as the client sent them: before a trusted proxy's were applied) and its body,
    read whole by now (web.BodyDeadline); None when it cannot be written again (a body
    larger than the app reads, left for this worker to refuse)."""
    body_stream = environ.get("wsgi.input")
    length = environ.get("CONTENT_LENGTH") or ""
    if length and not isinstance(body_stream, io.BytesIO):
        return None  # not read whole (past the limit): refused here with 413
    body = body_stream.getvalue() if isinstance(body_stream, io.BytesIO) else b""
    target = environ.get("RAW_URI") or environ.get("PATH_INFO", "/")
    lines = [f"{environ['REQUEST_METHOD']} {target} {environ.get('SERVER_PROTOCOL', 'HTTP/1.1')}"]
    original = environ.get("werkzeug.proxy_fix.orig") or {}
    for key, value in environ.items():
        if key.startswith("HTTP_") and key not in FRAMING and isinstance(value, str):
            lines.append(f"{key[5:].replace('_', '-')}: {original.get(key, value)}")
    if environ.get("CONTENT_TYPE"):
        lines.append(f"Content-Type: {environ['CONTENT_TYPE']}")
    if body or length:
        lines.append(f"Content-Length: {len(body)}")
    try:
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    except UnicodeEncodeError:
        return None
    return head + body


class PrefixSocket:
    """A connection whose first bytes are given (the request the other worker read from it):
    what gunicorn's handler reads first, before the socket's own."""

    def __init__(self, sock: socket.socket, prefix: bytes):
        self._sock, self._prefix = sock, prefix

    def recv(self, size: int, *flags) -> bytes:
        if self._prefix:
            part, self._prefix = self._prefix[:size], self._prefix[size:]
            return part
        return self._sock.recv(size, *flags)

    def __getattr__(self, name):
        return getattr(self._sock, name)


class TableHandOff:
    """WSGI middleware (inside web.BodyDeadline, so that a body is read whole): hands a
    request naming a table, with its connection, to the table's worker (``start`` switches
    it on, in each gunicorn worker; until then every request passes through)."""

    def __init__(self, app):
        self.app = app
        self.worker = None
        self.folder: str | None = None
        self.address: str | None = None
        self.receiver: socket.socket | None = None
        self.senders: dict[str, socket.socket] = {}  # to each other worker, connected
        self.sending: dict[str, object] = {}  # a lock per other worker: one send at a time
        self.held = 0  # connections handed to this worker and still open
        self.handed_over = 0  # connections this worker passed on

    # -- set-up, in each worker --------------------------------------------------------
    def start(self, folder: str, worker) -> None:
        """Take part in ``folder`` (one per server), serving what is handed here with the
        gunicorn ``worker``'s own connection handler. Call in the worker, after gevent has
        patched sockets."""
        import gevent

        os.makedirs(folder, mode=0o700, exist_ok=True)
        self.folder, self.worker = folder, worker
        self.address = os.path.join(folder, f"{os.getpid()}.sock")
        self.receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.receiver.bind(self.address)
        gevent.spawn(self._receive)

    def stop(self) -> None:
        """Leave the hand-over: nothing is handed to this worker any more."""
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
            code = table_code(environ)
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
        message = raw_request(environ) if connection is not None else None
        if message is None or len(message) > MESSAGE_MOST:
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
            _unlink_quietly(owner)  # that worker is gone: the next request chooses again
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

    # -- a connection handed to this worker --------------------------------------------
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
            gevent.spawn(self._serve, descriptors[0], message)

    def _serve(self, descriptor: int, request: bytes) -> None:
        """Serve the connection as gunicorn serves one it accepted (the request the other
        worker read comes first), then close it."""
        connection = socket.socket(fileno=descriptor)
        self.held += 1
        try:
            if self.held > self.worker.worker_connections:
                connection.sendall(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n"
                                   b"Content-Type: text/plain; charset=utf-8\r\n"
                                   b"Connection: close\r\nContent-Length: 43\r\n\r\n"
                                   b"Too many connections; try again in a while.")
                connection.close()
                return
            try:
                address = connection.getpeername()
            except OSError:
                connection.close()
                return  # the phone hung up on the way
            # gunicorn's handler: it parses, answers, keeps the connection alive, closes it.
            self.worker.handle(self.worker.sockets[0], PrefixSocket(connection, request), address)
        except OSError as error:
            if error.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN, errno.EBADF):
                raise
        finally:
            self.held -= 1


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
