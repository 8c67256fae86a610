"""Live push: a change reaches every phone's open stream the moment it commits.

Writers announce ``(code, version)`` when their transaction commits; every server process
listens and wakes the streams of that table it holds.

- PostgreSQL: ``pg_notify`` inside the writing transaction (delivered at commit, to every
  process of every server on that database); one ``LISTEN`` connection per process.
- SQLite: after the commit, one datagram to each process listening on this database file,
  through Unix sockets in a folder named after the file (a process that died leaves a socket
  nobody answers: the sender removes it). No process polls the database for changes.

Per process, a ``Feed`` per watched table loads each new version once and keeps what was
rendered from it, so that all streams of that table share one snapshot and one render per
kind of viewer. Nothing here knows about Flask; the views pass in how to load a snapshot.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import socket
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlmodel import Session

CHANNEL = "companion_live"
DELETED = -1
# How long a feed trusts announcements alone before it checks the table's version itself
# (a notification lost while a listener reconnected is then noticed within this time).
RECHECK_SECONDS = 15.0
LISTEN_TICK = 1.0  # how often a listener looks up from waiting to see whether to stop
# Tables no stream of this process watches whose last snapshot is kept (see Hub.snapshot).
POLLED_KEPT = 256


# -- writers: announce a change --------------------------------------------------------


def table_changed(db: Session, code: str, version: int, written: Any = None) -> None:
    """Record inside the writing transaction that ``code`` is now at ``version``.

    The announcement leaves only if and when the transaction commits. ``written``: what the
    writer has in hand of that version (the table and its new log entry), which this
    process's streams may use instead of reading it back (``offer_written``)."""
    bind = db.get_bind()
    if bind.dialect.name == "postgresql":
        db.connection().execute(text("SELECT pg_notify(:channel, :message)"),
                                {"channel": CHANNEL, "message": f"{code} {version}"})
    pending = db.info.setdefault("live_changes", {})
    pending[code] = version
    if written is not None:
        db.info.setdefault("live_pending_written", []).append((code, version, written))


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    changes = session.info.pop("live_changes", None)
    written = session.info.pop("live_pending_written", None)
    if not changes:
        return
    if written:
        session.info.setdefault("live_written", []).extend(written)
    engine = session.get_bind()
    # This process hears its own changes at once, without waiting for the round trip.
    hub = HUBS.get(str(engine.url))
    if hub is not None:
        for code, version in changes.items():
            if hub.announce(code, version):
                session.info["woke_streams"] = True
    if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        _send_datagrams(engine.url.database, changes, hub.address if hub else None)


def offer_written(session: Session) -> None:
    """After the writer's commit: the streams of this process that watch the table get their
    next snapshot made from what the writer has in hand (``Hub.builder``) instead of reading
    back what it just wrote, when the change follows the snapshot they have (else they load
    it as usual)."""
    written = session.info.pop("live_written", None)
    if not written:
        return
    hub = HUBS.get(str(session.get_bind().url))
    if hub is None or hub.builder is None:
        return
    for code, version, what in written:
        with hub.lock:
            feed = hub.feeds.get(code)
        if feed is not None:
            feed.offer(version, what)


def streams_first(session: Session) -> None:
    """After a change committed: when streams of this process wait for it, they send it now,
    before the tap's own answer is finished (under gevent: this greenlet lets the loop go
    round once). Every phone at the table, the tapping one too, sees the change on its
    stream; the answer to the tap carries only the new version, and may wait that long. (On
    PostgreSQL a stream reading the change from the database lets the loop go on meanwhile,
    and the answer may go out before.)"""
    if session.info.pop("woke_streams", False) and _cooperative():
        from gevent import sleep

        sleep(0)


def _cooperative() -> bool:
    """Whether threads here are gevent's greenlets (gunicorn's gevent worker)."""
    if "gevent" not in sys.modules:
        return False
    from gevent import monkey

    return monkey.is_module_patched("threading")


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop("live_changes", None)
    session.info.pop("live_pending_written", None)


def _socket_folder(database: str) -> str:
    """Short and per database file: Unix socket paths must stay under ~100 bytes."""
    digest = hashlib.sha1(os.path.abspath(database).encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"companion-live-{os.getuid()}", digest)


_sender_lock = threading.Lock()
_sender: socket.socket | None = None


def _send_datagrams(database: str, changes: dict[str, int], own: str | None) -> None:
    global _sender
    message = "\n".join(f"{code} {version}" for code, version in changes.items()).encode()
    folder = _socket_folder(database)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return  # nobody listens yet
    with _sender_lock:
        if _sender is None:
            _sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            _sender.setblocking(False)
            atexit.register(_sender.close)
        for name in names:
            path = os.path.join(folder, name)
            if path == own or not name.endswith(".sock"):
                continue
            try:
                _sender.sendto(message, path)
            except (ConnectionRefusedError, FileNotFoundError):
                _unlink_quietly(path)  # its process is gone
            except (BlockingIOError, OSError):
                pass  # a full queue: that process catches up at its next recheck


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# -- listeners: one hub per process and database ---------------------------------------


@dataclass
class Snapshot:
    """One version of one table as loaded for display; ``renders`` caches its regions,
    ``events`` the stream events made of them."""

    version: int
    data: Any
    renders: dict = field(default_factory=dict)
    events: dict = field(default_factory=dict)


class Feed:
    """The streams of one table in this process share this: the newest version announced,
    the snapshot loaded for it, and a condition to wait on."""

    def __init__(self, hub: "Hub", code: str):
        self.hub = hub
        self.code = code
        self.lock = threading.Lock()  # one loader at a time
        self.changed = threading.Condition()
        self.announced = 0
        self.deleted = False
        self.snapshot: Snapshot | None = None
        self.checked_at = time.monotonic()
        self.subscribers = 0

    def announce(self, version: int) -> bool:
        """Whether streams were waiting for this news (they are woken)."""
        with self.changed:
            if version == DELETED:
                self.deleted = True
            elif version > self.announced:
                self.announced = version
            else:
                return False
            self.changed.notify_all()
            return self.subscribers > 0

    def wait_newer(self, seen: int, timeout: float) -> bool:
        """Block until a version newer than ``seen`` is announced (or the table is deleted);
        False when ``timeout`` passed first."""
        with self.changed:
            return self.changed.wait_for(lambda: self.deleted or self.announced > seen, timeout)

    def current(self, before_load: Callable[[], Any] | None = None) -> Snapshot | None:
        """The newest snapshot (loaded at most once per version for all streams); None once
        the table is gone. ``before_load`` is called first when it must be loaded."""
        with self.lock:
            if self.deleted:
                return None
            if self.snapshot is None or self.announced > self.snapshot.version:
                if before_load is not None:
                    before_load()
                loaded = self.hub.loader(self.code, self.snapshot)
                if loaded is None:
                    self.announce(DELETED)
                    return None
                self.snapshot = loaded
                self.announce(loaded.version)
            return self.snapshot

    def offer(self, version: int, written: Any) -> None:
        """The writer of ``version`` in this process offers what it wrote: taken when it
        directly follows the snapshot the streams have and nothing newer was announced."""
        with self.lock:
            previous = self.snapshot
            if (self.deleted or previous is None or previous.version != version - 1
                    or self.announced > version):
                return
            made = self.hub.builder(written, previous)
            if made is not None and made.version == version:
                self.snapshot = made
                self.announce(version)

    def recheck(self) -> None:
        """Ask the database itself, at most every RECHECK_SECONDS for all streams."""
        if time.monotonic() - self.checked_at < RECHECK_SECONDS:
            return
        self.checked_at = time.monotonic()
        version = self.hub.version_of(self.code)
        self.announce(DELETED if version is None else version)


class Hub:
    """This process's listener for one database, and the feeds of the tables watched here."""

    def __init__(self, engine: Engine, loader: Callable[[str, Snapshot | None], Snapshot | None],
                 version_of: Callable[[str], int | None], streams_per_client: int,
                 builder: Callable[[Any, Snapshot], Snapshot | None] | None = None):
        self.engine = engine
        self.loader = loader
        self.builder = builder  # a snapshot from what a writer of this process has in hand
        self.version_of = version_of
        self.streams_per_client = streams_per_client
        self.feeds: dict[str, Feed] = {}
        self.polled: OrderedDict[str, Snapshot] = OrderedDict()
        self.clients: dict[str, int] = {}
        self.lock = threading.Lock()
        self.listening = False
        self.closed = threading.Event()
        self.listener: threading.Thread | None = None
        self.address: str | None = None
        self.pid = os.getpid()
        HUBS[str(engine.url)] = self

    # streams come and go
    def subscribe(self, code: str, client: str) -> Feed | None:
        """The feed of ``code`` for one more stream; None when ``client`` has too many."""
        with self.lock:
            if self.clients.get(client, 0) >= self.streams_per_client:
                return None
            self.clients[client] = self.clients.get(client, 0) + 1
            feed = self.feeds.get(code)
            if feed is None:
                feed = self.feeds[code] = Feed(self, code)
            feed.subscribers += 1
            self._listen()
            return feed

    def unsubscribe(self, feed: Feed, client: str) -> None:
        with self.lock:
            feed.subscribers -= 1
            if feed.subscribers <= 0 and self.feeds.get(feed.code) is feed:
                del self.feeds[feed.code]
            left = self.clients.get(client, 1) - 1
            if left > 0:
                self.clients[client] = left
            else:
                self.clients.pop(client, None)

    def streams(self) -> int:
        with self.lock:
            return sum(self.clients.values())

    def snapshot(self, code: str) -> Snapshot | None:
        """The newest snapshot of ``code``: shared with this process's streams when any
        watch it (their render cache included). Else the one this process answered last for
        it, while the table is still at that version (one indexed read tells): the phones
        that poll instead of streaming share its renders as streams do, and a client asking
        again and again for a version the table never had costs a lookup, not a render."""
        with self.lock:
            feed = self.feeds.get(code)
        if feed is not None:
            return feed.current()
        kept = self.polled.get(code)
        if kept is not None and self.version_of(code) == kept.version:
            self.polled.move_to_end(code)
            return kept
        loaded = self.loader(code, kept)
        if loaded is None:
            self.polled.pop(code, None)
            return None
        self.polled[code] = loaded
        self.polled.move_to_end(code)
        while len(self.polled) > POLLED_KEPT:
            self.polled.popitem(last=False)
        return loaded

    def announce(self, code: str, version: int) -> bool:
        """Tell the streams of ``code`` in this process; whether any were waiting."""
        with self.lock:
            feed = self.feeds.get(code)
        return feed is not None and feed.announce(version)

    def _dispatch(self, message: str) -> None:
        for line in message.splitlines():
            code, _, version = line.partition(" ")
            if version.lstrip("-").isdigit():
                self.announce(code, int(version))

    def _wake_all(self) -> None:
        """After a listener reconnects: each feed checks its table itself."""
        with self.lock:
            feeds = list(self.feeds.values())
        for feed in feeds:
            feed.checked_at = 0
            feed.recheck()

    # the listener, started with the first stream of this process
    def _listen(self) -> None:
        if self.pid != os.getpid():  # a forked child starts its own
            self.pid, self.listening, self.address = os.getpid(), False, None
        if self.listening:
            return
        self.listening = True
        if self.engine.dialect.name == "postgresql":
            target = self._listen_postgres
        else:
            database = self.engine.url.database
            if database in (None, "", ":memory:"):
                return  # one process only: announcements are in-process
            folder = _socket_folder(database)
            os.makedirs(folder, mode=0o700, exist_ok=True)
            self.address = os.path.join(folder, f"{os.getpid()}-{os.urandom(3).hex()}.sock")
            receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            receiver.bind(self.address)
            atexit.register(_unlink_quietly, self.address)
            target = lambda: self._listen_datagrams(receiver)  # noqa: E731
        self.listener = threading.Thread(target=target, name="companion-live", daemon=True)
        self.listener.start()

    def close(self) -> None:
        """Stop listening and wait for the listener to let go of its connections (tests
        make many apps, each disposing of its engine afterwards)."""
        self.closed.set()
        if self.listener is not None and self.listener is not threading.current_thread():
            self.listener.join(timeout=LISTEN_TICK * 3)
        if HUBS.get(str(self.engine.url)) is self:
            del HUBS[str(self.engine.url)]

    def _listen_datagrams(self, receiver: socket.socket) -> None:
        receiver.settimeout(LISTEN_TICK)
        with receiver:
            while not self.closed.is_set():
                try:
                    message = receiver.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    time.sleep(1)
                    continue
                self._dispatch(message.decode(errors="replace"))
        if self.address:
            _unlink_quietly(self.address)

    def _listen_postgres(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        pause = 0.5
        while not self.closed.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    pause = 0.5
                    self._wake_all()  # anything missed while not listening
                    while not self.closed.is_set():
                        for notice in connection.notifies(timeout=LISTEN_TICK):
                            self._dispatch(notice.payload)
            except Exception:  # the server restarted or the network dropped: listen again
                self.closed.wait(pause)
                pause = min(pause * 2, 10)


HUBS: dict[str, Hub] = {}
