"""Who waits for which table: this process's streams, woken the moment a change commits.

- In this process, ``live.changes`` tells the hub itself once a change is committed
  (``changed``): the streams of that table wake and send it.
- Between processes (several servers on one PostgreSQL), the change is also announced with
  ``pg_notify`` inside its transaction (``notify``: delivered at commit); every process
  ``LISTEN``s on one connection and wakes its own streams. SQLite is one process: nothing to tell.

Per process, a ``Feed`` per watched table loads each new version once (``versions.load``) and
keeps what was drawn from it, so all streams of that table share one loaded version and one
render per kind of viewer.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

try:
    import psycopg
except ImportError:  # the postgres extra: on SQLite nothing listens (web.app.database_url says)
    psycopg = None
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session

from ..service.tables import table_version
from ..service.metrics import STREAMS
from . import versions
from .versions import TableVersion

CHANNEL = "companion_live"
DELETED = -1
# A notification lost while the listener reconnected is noticed within this time.
RECHECK_SECONDS = 15.0
LISTEN_TICK = 1.0  # how often the listener looks up from waiting to see whether to stop
# Tables no stream of this process watches whose last version is kept (see Hub.newest).
POLLED_KEPT = 256
_NOTIFY = text("SELECT pg_notify(:channel, :message)")


class Feed:
    """The streams of one table in this process share this: the newest version announced,
    the version loaded for it, and a condition to wait on."""

    def __init__(self, hub: "Hub", code: str):
        self.hub = hub
        self.code = code
        self.lock = threading.Lock()  # one loader at a time
        self.changed = threading.Condition()
        self.announced = 0
        self.deleted = False
        self.newest: TableVersion | None = None
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

    def current(self, before_load=None) -> TableVersion | None:
        """The newest version (loaded at most once per version for all streams); None once
        the table is gone. ``before_load`` is called first when it must be loaded."""
        with self.lock:
            if self.deleted:
                return None
            if self.newest is None or self.announced > self.newest.version:
                if before_load is not None:
                    before_load()
                loaded = versions.load(self.code, self.newest)
                if loaded is None:
                    self.announce(DELETED)
                    return None
                self.newest = loaded
                self.announce(loaded.version)
            return self.newest

    def offer(self, version: int, written: tuple) -> None:
        """The writer of ``version`` in this process offers what it wrote (the table and its
        log entry): taken when it directly follows the version the streams have."""
        with self.lock:
            previous = self.newest
            if (self.deleted or previous is None or previous.version != version - 1
                    or self.announced > version):
                return
            made = versions.from_writer(written, previous)
            if made is not None and made.version == version:
                self.newest = made

    def recheck(self) -> None:
        """Ask the database itself, at most every RECHECK_SECONDS for all streams."""
        if time.monotonic() - self.checked_at < RECHECK_SECONDS:
            return
        self.checked_at = time.monotonic()
        version = table_version(self.hub.engine, self.code)
        self.announce(DELETED if version is None else version)


class Hub:
    """This process's streams, by table, and its listener for other processes' changes."""

    def __init__(self, engine: Engine, streams_per_client: int):
        self.engine = engine
        self.streams_per_client = streams_per_client
        self.feeds: dict[str, Feed] = {}
        self.polled: OrderedDict[str, TableVersion] = OrderedDict()
        self.clients: dict[str, int] = {}
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.listener: threading.Thread | None = None

    # -- a change, told by live.changes ------------------------------------------------
    def notify(self, db: Session, code: str, version: int) -> None:
        """Inside the writing transaction: other processes hear of it at commit."""
        if self.engine.dialect.name == "postgresql":
            db.connection().execute(_NOTIFY, {"channel": CHANNEL, "message": f"{code} {version}"})

    def changed(self, code: str, version: int, written: tuple | None = None) -> bool:
        """After the commit: this process's streams of ``code`` wake; ``written`` (the table and
        its new log entry) spares them reading back what was just written. Whether any woke."""
        with self.lock:
            feed = self.feeds.get(code)
        if feed is None:
            return False
        if written is not None:
            feed.offer(version, written)
        return feed.announce(version)

    # -- streams come and go -----------------------------------------------------------
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
            STREAMS.inc()
            return feed

    def unsubscribe(self, feed: Feed, client: str) -> None:
        STREAMS.dec()
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

    def newest(self, code: str) -> TableVersion | None:
        """The newest version of ``code``: shared with this process's streams when any
        watch it (their render cache included). Else the one this process answered last for
        it, while the table is still at that version (one indexed read tells): the phones
        that poll instead of streaming share its renders as streams do."""
        with self.lock:
            feed = self.feeds.get(code)
        if feed is not None:
            return feed.current()
        kept = self.polled.get(code)
        if kept is not None and table_version(self.engine, code) == kept.version:
            self.polled.move_to_end(code)
            return kept
        loaded = versions.load(code, kept)
        if loaded is None:
            self.polled.pop(code, None)
            return None
        self.polled[code] = loaded
        self.polled.move_to_end(code)
        while len(self.polled) > POLLED_KEPT:
            self.polled.popitem(last=False)
        return loaded

    # -- other processes' changes (PostgreSQL) ----------------------------------------
    def _listen(self) -> None:
        """Start listening with the first stream (called with ``lock`` held)."""
        if self.listener is None and self.engine.dialect.name == "postgresql":
            self.listener = threading.Thread(target=self._listen_postgres, name="companion-live",
                                             daemon=True)
            self.listener.start()

    def _dispatch(self, message: str) -> None:
        code, _, version = message.partition(" ")
        if version.lstrip("-").isdigit():
            self.changed(code, int(version))

    def _wake_all(self) -> None:
        """After the listener (re)connects: each feed checks its table itself."""
        with self.lock:
            feeds = list(self.feeds.values())
        for feed in feeds:
            feed.checked_at = 0
            feed.recheck()

    def _listen_postgres(self) -> None:
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
            except Exception:  # noqa: BLE001 - the server restarted or the network dropped
                self.closed.wait(pause)
                pause = min(pause * 2, 10)

    def close(self) -> None:
        """Stop listening and wait for the listener to let go of its connection (tests make
        many apps, each disposing of its engine afterwards)."""
        self.closed.set()
        if self.listener is not None and self.listener is not threading.current_thread():
            self.listener.join(timeout=LISTEN_TICK * 3)
