"""One phone's stream (server-sent events): a "ready" event, then each change of its table as
the regions that changed for this phone, heartbeats while nothing happens, and "deleted" when
the table goes. The view (``web/views/table.py``, ``events``) opens it."""

from __future__ import annotations

import zlib

from sqlalchemy.exc import OperationalError

from .hub import Feed
from .regions import regions_for
from .versions import region_names, viewer_context


def sse(event: str, data: str, event_id: int | None = None) -> str:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in data.split("\n")]
    return "\n".join(lines) + "\n\n"


def meta(version: int, state_version: int, follow: str | None = None) -> str:
    """The version the phone now shows; once a rematch is started, where its phones go."""
    rematch = f' data-next="{follow}"' if follow else ""
    return (f'<div id="live-meta" hx-swap-oob="true" hidden data-version="{version}"'
            f' data-state-version="{state_version}"{rematch}></div>')


class ContextWhenNeeded:
    """A request context like the stream's own (``make``: the ``copy`` of a Flask
    ``RequestContext`` the view made), pushed the first time it is called, popped on exit: many
    streams share a worker between their events, and most events are made of renders another
    stream already made."""

    def __init__(self, make):
        self.make = make
        self.pushed = None

    def __call__(self) -> None:
        if self.pushed is None:
            self.pushed = self.make()
            self.pushed.push()

    def __enter__(self) -> "ContextWhenNeeded":
        return self

    def __exit__(self, *_exc) -> None:
        if self.pushed is not None:
            self.pushed.pop()
            self.pushed = None


class Stream:
    """What one phone is sent, event by event (``events``), from its table's ``feed``.

    ``seen``/``have``: the version and the regions' hashes the phone shows; ``urls``: the
    addresses of home (after a delete) and of the rematch to follow."""

    def __init__(self, feed: Feed, new_context, device_id: int | None, lang: str,
                 seen: int, have: dict[str, str], urls: dict[str, str], settings: dict):
        self.feed, self.new_context = feed, new_context
        self.device_id, self.lang = device_id, lang
        self.seen, self.have = seen, have
        self.urls, self.settings = urls, settings

    def events(self):
        with ContextWhenNeeded(self.new_context) as context:
            current = self.feed.current(context)
        if current is None:
            yield sse("deleted", self.urls["home"])
            return
        if self.seen > current.version:  # a version this table never had: send it all
            self.seen = -1
        yield f"retry: {self.settings['retry_ms']}\n" + sse("ready", str(current.version))
        while True:
            try:
                chunk, last = self._step()
            except OperationalError:
                return  # the database has gone: the browser reconnects (503 until it is back)
            if chunk:
                yield chunk
            if last:
                return

    def _step(self) -> tuple[str, bool]:
        """What to send next (blocking until there is something) and whether it ends here."""
        with ContextWhenNeeded(self.new_context) as context:
            current = self.feed.current(context)
            if current is None:
                return sse("deleted", self.urls["home"]), True
            if current.version > self.seen:
                self.seen = current.version
                return self._changes(current, context), False
        if not self.feed.wait_newer(self.seen, self.settings["heartbeat"]):
            self.feed.recheck()
            return ": still here\n\n", False  # keeps the connection open through routers
        return "", False

    def _changes(self, current, context: ContextWhenNeeded) -> str:
        fresh = current.data["table"]
        viewer = viewer_context(current.data, self.device_id, self.lang)
        sent = [(name, digest, html) for name, digest, html
                in regions_for(current, region_names(fresh), viewer, context)
                if self.have.get(name) != digest]
        self.have.update((name, digest) for name, digest, _html in sent)
        # Phones that had the same regions get the same event: it is put together once.
        follow = self.urls["follow"] if fresh.next_code and viewer["follows"] else None
        key = (tuple((name, digest) for name, digest, _html in sent), follow)
        if key not in current.events:
            body = "".join(html for _name, _digest, html in sent)
            current.events[key] = sse("regions",
                                       body + meta(fresh.version, fresh.state_version, follow),
                                       fresh.version)
        return current.events[key]


def gzip_stream(chunks):
    """Compress a stream of events as one gzip body, flushed after every event.

    Flask-Compress compresses streams too, but holds the output until the end, and a phone
    must see each event the moment it is sent. The window holds a whole ordinary event, so the
    next one, mostly the same regions again, compresses to little."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + 14, 6)
    try:
        for chunk in chunks:
            yield compressor.compress(chunk.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)
        yield compressor.flush()
    finally:
        close = getattr(chunks, "close", None)
        if close:
            close()
