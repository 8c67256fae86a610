"""A joined phone as a browser is one (its cookie, its page's version and regions, its live
stream), and tables of them set up, opened and closed."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import re
import time
import zlib

import aiohttp

from bench.servers import client_connector


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


VERSION = re.compile(r'id="live-meta"[^>]*data-version="(\d+)"')


REGION = re.compile(r'data-region="(\w+)" data-hash="(\w+)"')


# A stream's socket may stay silent for a whole heartbeat interval; nothing else may hang.
STREAM_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_connect=60, sock_read=None)


REQUEST_TIMEOUT = aiohttp.ClientTimeout(total=60)


RECONNECTS = 20  # per stream, at most


class Phone:
    """One joined browser: its cookie jar, CSRF token, the version and region hashes its page
    shows, and (once opened) its live stream."""

    def __init__(self, session: aiohttp.ClientSession, base: str, code: str, seat: str):
        self.session, self.base, self.code, self.seat = session, base, code, seat
        self.token = ""
        self.version = -1
        self.have: dict[str, str] = {}
        self.seen: list[tuple[int, float]] = []  # (version, when this phone got it)
        # the stream
        self.ready = asyncio.Event()
        self.ready_at: float | None = None
        self.stream_error = ""  # why the stream ended for good
        self.drops: list[str] = []  # why it dropped (and was opened again)
        self.last_id: int | None = None
        self.retry_seconds = 2.0
        self.deleted = False
        self.stream_task: asyncio.Task | None = None
        self.raw_bytes = 0  # compressed bytes of the stream's body so far
        self.heartbeats = 0
        self.id_mismatches = 0
        self.busy = 0  # pages answered 503 busy while joining (asked for again)
        self.events: list[tuple[str, int, int, float]] = []  # (event, id, decoded size, raw so far)

    async def join(self, load_page: bool = True) -> None:
        """Take the seat through /j/<code> as a browser does; then the table page loads,
        unless not ``load_page`` (its stream then brings every region when it opens)."""
        async def join_page() -> aiohttp.ClientResponse:
            return await self.session.get(f"{self.base}/j/{self.code}")

        async def take_seat() -> aiohttp.ClientResponse:
            return await self.session.post(f"{self.base}/j/{self.code}", allow_redirects=load_page,
                                           data={"csrf_token": self.token, "seat": self.seat})

        status, page = await self.page(join_page)
        assert status == 200, (status, page[:300])
        self.token = CSRF.search(page).group(1)
        status, page = await self.page(take_seat)
        assert status == (200 if load_page else 303), (status, page[:300])
        if load_page:
            self.show_page(page)

    async def page(self, request) -> tuple[int, str]:
        """A page's status and text: asked for once more when the server hung up before
        answering (as browsers do), and again after its Retry-After while it answers 503
        busy (as a person reloads), five times at most."""
        for _try in range(5):
            async with await once_more(request) as response:
                status, text = response.status, await response.text()
                retry = response.headers.get("Retry-After", "2")
            if status != 503:
                break
            self.busy += 1
            await asyncio.sleep(float(retry) if retry.isdigit() else 2)
        return status, text

    def show_page(self, page: str) -> None:
        self.version = int(VERSION.search(page).group(1))
        self.have = dict(REGION.findall(page))
        self.token = CSRF.search(page).group(1)

    def have_param(self) -> str:
        return ",".join(f"{name}:{digest}" for name, digest in self.have.items())

    # -- the poll (the fallback) --
    async def poll(self) -> tuple[int, float]:
        started = time.perf_counter()
        async with self.session.get(
            f"{self.base}/t/{self.code}/live", params={"v": self.version, "have": self.have_param()},
            headers={"HX-Request": "true"},
        ) as response:
            body = await response.read()
            status = response.status
        elapsed = time.perf_counter() - started
        if status == 200:
            text = body.decode()
            self.version = int(VERSION.search(text).group(1))
            self.have.update(REGION.findall(text))  # as static/app/live.js does: the swapped regions' hashes
            self.seen.append((self.version, time.perf_counter()))
        return status, elapsed

    # -- a tap --
    async def act(self, points: int, streamed: bool) -> tuple[int, float, int, float]:
        """Enter a score: (status, time taken, the table's new version, when it was sent).

        With ``streamed`` the phone says its stream is open (as static/app/live.js does once the stream
        is ready): the answer is the new version alone, the regions come on the stream."""
        headers = {"HX-Request": "true", "X-CSRFToken": self.token}
        if streamed:
            headers["X-Live-Stream"] = "open"
        sent = time.perf_counter()
        try:
            async with self.session.post(
                f"{self.base}/t/{self.code}/act", headers=headers,
                data={"type": "enter_score", "player": self.seat, "round": 1, "points": points,
                      "have": self.have_param()},
            ) as response:
                body = (await response.read()).decode()
                status = response.status
        except (aiohttp.ClientError, asyncio.TimeoutError):
            return 0, time.perf_counter() - sent, -1, sent
        elapsed = time.perf_counter() - sent
        found = VERSION.search(body)
        version = int(found.group(1)) if found else -1
        if status == 200 and not streamed and version > self.version:
            # The answer's regions are swapped in, as on the phone: it now shows this version
            # (which may include another phone's change it had not polled yet).
            self.version = version
            self.have.update(REGION.findall(body))
            self.seen.append((version, time.perf_counter()))
        return status, elapsed, version, sent

    # -- the stream --
    async def stream(self, opening: asyncio.Semaphore | None = None) -> None:
        """Hold the live stream open until cancelled, as the browser's EventSource does: when
        it drops, it is opened again after the server's ``retry:`` with ``Last-Event-ID`` (at
        most RECONNECTS times); a refusal (not 200) ends it. Notes when each event arrives.

        Reads the compressed bytes as they come off the socket (auto_decompress=False) and
        inflates them here, so that ``raw_bytes`` counts what travelled."""
        params = {"v": self.version, "have": self.have_param()}  # the page's address, kept
        held = opening is not None
        if held:
            await opening.acquire()
        try:
            for attempt in range(RECONNECTS + 1):
                if attempt:
                    await asyncio.sleep(self.retry_seconds)
                headers = {"Accept-Encoding": "gzip"}
                if self.last_id is not None:
                    headers["Last-Event-ID"] = str(self.last_id)
                try:
                    async with self.session.get(
                        f"{self.base}/t/{self.code}/events", params=params, headers=headers,
                        timeout=STREAM_TIMEOUT, auto_decompress=False,
                    ) as response:
                        if response.status != 200:
                            self.stream_error = f"HTTP {response.status}"
                            return
                        gzipped = response.headers.get("Content-Encoding") == "gzip"
                        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
                        decoder = codecs.getincrementaldecoder("utf-8")()
                        buffer = ""
                        async for chunk in response.content.iter_any():
                            now = time.perf_counter()
                            self.raw_bytes += len(chunk)
                            buffer += decoder.decode(inflate.decompress(chunk) if inflate else chunk)
                            while "\n\n" in buffer:
                                block, buffer = buffer.split("\n\n", 1)
                                self._event(block, now)
                            if held and self.ready.is_set():
                                opening.release()
                                held = False
                        reason = "closed by the server"
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # noqa: BLE001 - any failure is a drop
                    reason = type(exc).__name__ + (f": {exc}" if str(exc) else "")
                if held:  # the first try failed: let the next phone start opening
                    opening.release()
                    held = False
                if self.deleted:
                    return
                self.drops.append(reason)
            self.stream_error = f"gave up after {RECONNECTS} reconnections ({self.drops[-1]})"
        finally:
            if held:
                opening.release()
            self.ready.set()  # nobody waits for a stream that is gone

    def _event(self, block: str, now: float) -> None:
        name, event_id, data = "message", None, []
        for line in block.split("\n"):
            if line.startswith(":"):
                self.heartbeats += 1
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "id":
                event_id = self.last_id = int(value)
            elif field == "data":
                data.append(value)
            elif field == "retry" and value.isdigit():
                self.retry_seconds = int(value) / 1000
        if name == "message" and not data:
            return  # a heartbeat or the retry line alone
        text = "\n".join(data)
        self.events.append((name, event_id or -1, len(block.encode()) + 2, self.raw_bytes))
        if name == "ready":
            self.ready_at = self.ready_at or now
            self.ready.set()
        elif name == "regions":
            meta = VERSION.search(text)
            if meta is None or int(meta.group(1)) != event_id:
                self.id_mismatches += 1
            self.version = event_id
            self.have.update(REGION.findall(text))
            self.seen.append((event_id, now))
        elif name == "deleted":
            self.deleted = True
            self.stream_error = "table deleted"

    def first_seen(self, version: int) -> tuple[float | None, bool]:
        """When this phone first had ``version`` or newer, and whether it was that version."""
        for seen, when in self.seen:
            if seen >= version:
                return when, seen == version
        return None, False


async def once_more(request):
    """A request the server hung up on before answering is sent once more, as browsers do."""
    try:
        return await request()
    except aiohttp.ServerDisconnectedError:
        return await request()


async def create_table(session: aiohttp.ClientSession, base: str, game: str, players: list[str],
                       options: dict | None = None) -> dict:
    async with session.post(f"{base}/api/tables",
                            json={"game": game, "players": players, "options": options or {}}) as r:
        answer = await r.json()
        assert r.status == 201, answer
        return answer


async def gather_limited(coroutines, limit: int) -> list:
    gate = asyncio.Semaphore(limit)

    async def one(coroutine):
        async with gate:
            return await coroutine

    return await asyncio.gather(*(one(c) for c in coroutines))


async def set_up_tables(plain: aiohttp.ClientSession, connector: aiohttp.TCPConnector | None,
                        base: str, count: int, phones: int, load_page: bool = True,
                        keep_alive: float | None = None) -> list[list[Phone]]:
    """``count`` score pads of ``phones`` seats, every seat joined by its own phone through
    /j/<code>.

    With ``connector`` None every phone keeps its own connections, as a browser does (its
    stream on one, its taps on another, kept alive shorter than the server's ``keep_alive``);
    given one, all phones share its pool, so that a connection carries the requests of many
    tables (the poll part: a bounded pool)."""
    seats = [f"P{i + 1}" for i in range(phones)]
    answers = await gather_limited((create_table(plain, base, "scorepad", seats)
                                    for _ in range(count)), 32)
    tables = []
    for answer in answers:
        table = []
        for seat in seats:
            session = aiohttp.ClientSession(
                connector=connector or client_connector(keep_alive=keep_alive),
                connector_owner=connector is None, cookie_jar=aiohttp.CookieJar(unsafe=True),
                timeout=REQUEST_TIMEOUT)
            table.append(Phone(session, base, answer["code"], seat))
        PHONES.append(table)
        tables.append(table)
    await gather_limited((p.join(load_page) for table in tables for p in table), 48)
    return tables


async def open_streams(phones: list[Phone], wait: float, in_flight: int = 200) -> float:
    """Open every phone's stream (at most ``in_flight`` still opening at once); answers how
    long until all were ready or had failed."""
    opening = asyncio.Semaphore(in_flight)
    started = time.perf_counter()
    for phone in phones:
        phone.stream_task = asyncio.get_running_loop().create_task(phone.stream(opening))
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in phones)), wait)
    return time.perf_counter() - started


PHONES: list[list[Phone]] = []  # every table's phones made in this part (closed after it)


async def close_phones(tables: list[list[Phone]]) -> None:
    phones = [p for table in tables for p in table]
    for phone in phones:
        if phone.stream_task:
            phone.stream_task.cancel()
    await asyncio.gather(*(p.stream_task for p in phones if p.stream_task), return_exceptions=True)
    await asyncio.gather(*(p.session.close() for p in phones if not p.session.closed))


def stream_drops(phones: list[Phone]) -> str:
    """Streams that dropped (and were opened again, as a browser does) or ended for good."""
    drops = [reason for p in phones for reason in p.drops]
    ended = [p.stream_error for p in phones if p.ready_at and p.stream_error]
    text = f"drops {len(drops)} on {sum(1 for p in phones if p.drops)} phones"
    if drops:
        text += f" (e.g. {drops[0][:120]})"
    text += f", reopened with Last-Event-ID; ended for good {len(ended)}"
    return text + (f" (e.g. {ended[0][:120]})" if ended else "")


def streams_failed(phones: list[Phone]) -> list[str]:
    return [p.stream_error or "no ready event in time" for p in phones if p.ready_at is None]
