"""`make bench`: the production server on loopback under a table-night load, push and poll.

Every part starts `companion serve` of this checkout (gunicorn, gevent) on 127.0.0.1 with a
fresh database, joins phones the way a browser does (GET and POST /j/<code>: a seat and a
cookie; no page sends anything when its stream is ready), and measures against the trivial
/healthz of the same server in the same run. The café and busy loads run on the code before
issue 28 too (the baseline, commit 39d83a4, prepared once in bench/results/baseline-39d83a4
and started through its own command line, with its own default workers): both servers up with
their phones, each load taken in turns (--slices), so both meet the machine at like speeds.

  cafe   (the gate) N tables × M phones each holding the live stream open; one change per
         table every 5 s, tapped by a random phone of the table with `X-Live-Stream: open`.
         Every change must reach every other phone of its table: delivered/lost, the time
         from the tap being sent to each other phone having the event with that version
         (`id:`), and the server's CPU per change; this code and the baseline in turns.
  busy   the same phones, one change per table per second; in turns as cafe.
  push   cafe and busy.
  two    busy's load through nginx (the README's configuration, read from it at run time) in
         front of two servers of this code on one PostgreSQL database (BENCH_DATABASE_URL);
         nginx's and PostgreSQL's CPU apart.
  idle   cafe's phones with their streams idle, before its load: server CPU, and server
         memory per open stream.
  scale  1,000 tables × 6 phones = 6,000 open streams on one process: /healthz and a few
         changes a second while they are open; streams that failed to open.
  bytes  per game, the gzip bytes on the wire of one update event on a stream, and of the
         first load of the table page (its HTML, and with every script and style sheet), as
         browsers ask over plain HTTP (gzip) and over HTTPS (brotli too).
  poll   the fallback: every phone polls once a second while the same changes run.
  group  a group with 200 plays (imported through the API): its page, its statistics page,
         the statistics JSON and the export, each fetched alternately with /healthz.
  slow   /healthz and a table page, each on a new connection, before and while 1,000
         connections that send nothing and 100 that trickle one header line every 3 s are held
         open by a second client process (re-opened as soon as the server closes them): loaded
         p99 / unloaded p99, failed requests, after how long the server closes an idle, a
         trickling, and an answered but quiet connection (its keep-alive).
  hammer one client (a second process, from 127.0.0.2) sending GET /t/<code>/live with a
         version that never matches and POST /api/tables/<code>/actions on its own table, 50
         requests in flight, against the server's DEFAULT rate limits (the other parts lift
         them); meanwhile the other tables, each from its own loopback address as each table
         is a household of its own, read their snapshot and enter scores through the API at a
         steady pace, with /healthz: loaded p99 / unloaded p99, the hammering client's
         requests per second and share answered 429.
  long   a score pad with 10 log entries and one with 10,000 (entered through the API first):
         an action, a snapshot and an undo followed by its redo on each, alternately with
         /healthz: the long game's time / the short one's.
  import the other tables of hammer, reading and entering scores at a steady pace with
         /healthz, before and while a group imports 5,000 plays of 12 new names each through
         the API (from its own address): loaded p99 / unloaded p99, and the import's time.
  stats  the other tables of hammer, reading and entering scores at a steady pace with
         /healthz, before and while four loops from one address (the DEFAULT rate limits, paced
         within its minute's worth) fetch a group's statistics (JSON and page) and its exports
         (CSV and JSON) round and round, a table being set up in the group with a new player
         every few seconds: loaded p99 / unloaded p99, and the server's CPU; then the first
         statistics of a group of 3,000 imported plays and 36,000 players.
  venue  a game café behind one public address (TRUSTED_PROXIES=1, every request carrying the
         same X-Forwarded-For), with the DEFAULT rate limits: 20 tables × 6 phones join within
         two minutes, open their streams, and every phone taps every 5 s for a minute: how
         many requests of each kind were answered 429 (the goal: none).

Server CPU is the sum of utime+stime of the gunicorn master and its workers (psutil), as % of
one core over the measured window, and per change: those CPU seconds ÷ the changes made in the
window; memory is the sum of their RSS. The load generator is one asyncio process (slow and
hammer run their attacker in a second process, its CPU printed apart); its own CPU and the lag
of its event loop are printed beside each part, so a starved client would show (its timestamps
are taken when it gets round to reading a socket). On a shared machine, "everything else" is
the CPU other programs used.

Not a test: nothing here asserts a time; goal lines say met or NOT met, and are gathered at the
end. Bounded in count and time, loopback only. The report is printed at the end and kept in
bench/results/report.txt, beside each server's log.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import gc
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import aiohttp
import brotli
import psutil

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PARTS = ("cafe", "busy", "two", "idle", "scale", "bytes", "poll", "group", "slow", "hammer",
         "long", "import", "venue", "stats")
ALIASES = {"push": ("cafe", "busy")}
DEFAULT_PG = "postgresql://companion:companion@127.0.0.1:5432/companion_bench"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'id="live-meta"[^>]*data-version="(\d+)"')
REGION = re.compile(r'data-region="(\w+)" data-hash="(\w+)"')
# A stream's socket may stay silent for a whole heartbeat interval; nothing else may hang.
STREAM_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_connect=60, sock_read=None)
REQUEST_TIMEOUT = aiohttp.ClientTimeout(total=60)
RECONNECTS = 20  # per stream, at most


def server_keep_alive() -> float:
    """How long a server keeps a quiet connection after an answer: gunicorn's --keep-alive
    (KEEP_ALIVE_SECONDS, 60), as the baseline's own worker did."""
    return float(os.environ.get("KEEP_ALIVE_SECONDS") or 60)


def client_connector(limit: int = 0, keep_alive: float | None = None) -> aiohttp.TCPConnector:
    """Keep-alive connections as a browser keeps them: dropped before the server's keep-alive
    (``keep_alive``, default this code's) runs out, so that no request goes out on a connection
    the server is closing."""
    return aiohttp.TCPConnector(limit=limit,
                                keepalive_timeout=0.8 * (keep_alive or server_keep_alive()))


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# -- the server ---------------------------------------------------------------------------


class Server:
    """One `companion serve` (gunicorn master + gevent workers) of this checkout's code, or of
    the code before issue 28 (``baseline``: its folder, bench/results/baseline-<commit>); its
    output goes to bench/results/<name>.log."""

    # True: the server gets a session (and process group) of its own, so that its whole
    # process tree can be killed at once (bench/soak.py's kill -9).
    own_session = False

    def __init__(self, name: str, port: int, args, database_url: str | None = None,
                 instance: str | None = None, env: dict[str, str | None] | None = None,
                 baseline: Path | None = None, connections: int | None = None):
        self.name, self.port, self.args, self.baseline = name, port, args, baseline
        self.env = env or {}  # over the bench's settings below; None removes a variable
        self.database_url = database_url
        self.connections = connections or args.server_connections
        self.instance = instance or tempfile.mkdtemp(prefix=f"companion-bench-{name}-")
        self.own_instance = instance is None
        self.base = f"http://127.0.0.1:{port}"
        self.keep_alive = server_keep_alive()
        self.log_path = RESULTS / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        RESULTS.mkdir(parents=True, exist_ok=True)
        # Another server on the port would answer /healthz while ours fails to bind.
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            try:
                probe.bind(("127.0.0.1", self.port))
            except OSError:
                raise SystemExit(f"port {self.port} is in use; choose others with --port") from None
        # The bench's phones all come from 127.0.0.1: lift the per-address limits (JOIN_LIMIT:
        # the baseline's join limiter, which this code no longer has).
        env = {**os.environ, "COMPANION_INSTANCE": self.instance, "JOIN_LIMIT": "100000",
               # Counted as always (its cost is part of what is measured), never reached.
               "RATE_LIMITS": "code=999999999,action=999999999,live=999999999,create=999999999",
               "STREAMS_PER_CLIENT": "1000000"}
        env.pop("DATABASE_URL", None)
        # It imports the app from its folder (python -c and gunicorn put the working directory
        # first on sys.path, PYTHONPATH after): this checkout, or the baseline's.
        code = self.baseline or ROOT
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(code), os.environ.get("PYTHONPATH")]))
        for variable, value in self.env.items():
            if value is None:
                env.pop(variable, None)
            else:
                env[variable] = value
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        if self.baseline:  # its own command line, with its own default workers
            env.pop("WORKERS", None)
            args = [sys.executable, "-c", "import sys; from companion.cli import main; main()"]
        else:
            args = [str(Path(sys.executable).with_name("companion"))]
        args += ["serve", "--host", "127.0.0.1", "--port", str(self.port)]
        workers = self.args.baseline_workers if self.baseline else self.args.workers
        if workers:
            args += ["--workers", str(workers)]
        if self.connections:
            args += ["--connections", str(self.connections)]
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, env=env, cwd=code, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=self.own_session)
        return self

    def __exit__(self, exc_type, *_exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        if exc_type is not None:  # show why the server failed, not only that it did
            print(self.log_path.read_text()[-3000:], file=sys.stderr)
        elif self.own_instance:
            shutil.rmtree(self.instance, ignore_errors=True)

    def processes(self) -> list[psutil.Process]:
        """The gunicorn master (`companion serve` execs it) and all its workers."""
        try:
            master = psutil.Process(self.process.pid)
            return [master] + master.children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def workers(self) -> list[psutil.Process]:
        return self.processes()[1:]


BASELINE = "39d83a4"  # the code before issue 28 (one process per server)


def baseline_folder() -> Path:
    """The baseline's code, prepared once under bench/results/ as a checkout is for serving
    (static/vendor copied from this one, its German catalogue compiled); reused after."""
    folder = RESULTS / f"baseline-{BASELINE}"
    if (folder / ".prepared").exists():
        return folder
    log(f"preparing the baseline {BASELINE} in {folder.relative_to(ROOT)} …")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", BASELINE], capture_output=True)
        if archive.returncode:
            raise SystemExit(f"git archive {BASELINE} failed: {archive.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        if not (ROOT / "static" / "vendor").is_dir():
            raise SystemExit("static/vendor is missing: run `make setup` first")
        shutil.copytree(ROOT / "static" / "vendor", folder / "static" / "vendor")
        subprocess.run([str(Path(sys.executable).with_name("pybabel")), "-q", "compile", "-d",
                        str(folder / "companion" / "translations"), "-l", "de"], check=True)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    (folder / ".prepared").touch()
    return folder


def cpu_seconds(servers: list[Server]) -> dict[int, float]:
    """utime+stime of every process of these servers, by pid."""
    seconds = {}
    for server in servers:
        for process in server.processes():
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                seconds[process.pid] = times.user + times.system
    return seconds


def rss_bytes(servers: list[Server]) -> int:
    total = 0
    for server in servers:
        for process in server.processes():
            with contextlib.suppress(psutil.Error):
                total += process.memory_info().rss
    return total


class Window:
    """CPU of the servers (and of the proxy in front, if any) and of this client over one
    measured stretch of time."""

    def __init__(self, servers: list[Server], proxy: "Nginx | None" = None):
        self.servers, self.proxy = servers, proxy
        self.me = psutil.Process()

    def __enter__(self) -> "Window":
        self.server_before = [cpu_seconds([server]) for server in self.servers]
        self.proxy_before = cpu_seconds([self.proxy]) if self.proxy else {}
        self.client_before = sum(self.me.cpu_times()[:2])
        self.machine_before = busy_seconds()
        self.postgres_before = postgres_seconds()
        self.began = time.perf_counter()
        return self

    def __exit__(self, *_exc) -> None:
        self.seconds = time.perf_counter() - self.began
        self.per_server = [used_since(before, cpu_seconds([server]))
                           for server, before in zip(self.servers, self.server_before)]
        self.server_seconds = sum(self.per_server)  # CPU seconds of all server processes
        self.server_cpu = 100 * self.server_seconds / self.seconds
        self.proxy_cpu = (100 * used_since(self.proxy_before, cpu_seconds([self.proxy]))
                          / self.seconds if self.proxy else 0.0)
        self.client_cpu = 100 * (sum(self.me.cpu_times()[:2]) - self.client_before) / self.seconds
        machine = 100 * (busy_seconds() - self.machine_before) / self.seconds
        self.postgres_cpu = 100 * used_since(self.postgres_before, postgres_seconds()) / self.seconds
        # Whatever else ran on this shared machine meanwhile.
        self.other_cpu = max(0.0, machine - self.server_cpu - self.proxy_cpu - self.client_cpu
                             - self.postgres_cpu)

    @classmethod
    def combined(cls, windows: list["Window"]) -> "Window":
        """Several stretches as one: CPU seconds added up, shares weighted by their length."""
        whole = cls.__new__(cls)
        whole.proxy = windows[0].proxy
        whole.seconds = sum(window.seconds for window in windows)
        whole.per_server = [sum(seconds) for seconds in zip(*(w.per_server for w in windows))]
        whole.server_seconds = sum(whole.per_server)
        for share in ("server_cpu", "proxy_cpu", "client_cpu", "postgres_cpu", "other_cpu"):
            setattr(whole, share, sum(getattr(w, share) * w.seconds for w in windows)
                    / max(whole.seconds, 1e-9))
        return whole

    def text(self) -> str:
        postgres = (f"PostgreSQL (all its processes) {self.postgres_cpu:.0f} %; "
                    if self.postgres_cpu >= 0.5 else "")
        proxy = f"nginx {self.proxy_cpu:.0f} %; " if self.proxy else ""
        return (f"server CPU {self.server_cpu:.0f} % of one core; {proxy}{postgres}client CPU "
                f"{self.client_cpu:.0f} %; everything else on the machine {self.other_cpu:.0f} % "
                f"(of {os.cpu_count()} cores = {100 * (os.cpu_count() or 1)} %)")


def used_since(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two cpu_seconds() of the same processes (new ones in full)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def postgres_seconds() -> dict[int, float]:
    """utime+stime of the PostgreSQL server's processes (any database), by pid."""
    seconds = {}
    for process in psutil.process_iter(["name"]):
        if process.info["name"] in ("postgres", "postmaster"):
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                seconds[process.pid] = times.user + times.system
    return seconds


def busy_seconds() -> float:
    """CPU seconds the whole machine has been busy (all cores)."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


class LoopLag:
    """How late this process's event loop wakes up (and how long its garbage collections
    took): a busy or starved client shows here first."""

    def __init__(self):
        self.lags: list[float] = []
        self.collections: list[float] = []
        self.task: asyncio.Task | None = None

    async def _run(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(time.perf_counter() - started - 0.05)

    def _collecting(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self.gc_started = time.perf_counter()
        else:
            self.collections.append(time.perf_counter() - self.gc_started)

    def __enter__(self) -> "LoopLag":
        # What the set-up left (sessions, phones) is kept out of the collections made while
        # measuring, so that they stay short.
        gc.collect()
        gc.freeze()
        self.task = asyncio.get_running_loop().create_task(self._run())
        gc.callbacks.append(self._collecting)
        return self

    def __exit__(self, *_exc) -> None:
        self.task.cancel()
        gc.callbacks.remove(self._collecting)
        gc.unfreeze()

    @classmethod
    def combined(cls, lags: list["LoopLag"]) -> "LoopLag":
        whole = cls()
        for lag in lags:
            whole.lags += lag.lags
            whole.collections += lag.collections
        return whole

    def text(self) -> str:
        return (f"loop lag p99 {percentile(self.lags, 0.99) * 1000:.0f} ms, "
                f"max {max(self.lags, default=0) * 1000:.0f} ms (its longest garbage collection "
                f"{max(self.collections, default=0) * 1000:.0f} ms)")


async def wait_up(session: aiohttp.ClientSession, server: Server) -> str:
    """Until the server answers /healthz; answers what it runs (describe())."""
    for _ in range(600):
        if server.process.poll() is not None:
            raise SystemExit(f"the server {server.name} exited; see {server.log_path}")
        try:
            async with session.get(f"{server.base}/healthz") as response:
                if response.status == 200:
                    SERVER_KINDS.add(describe(server))
                    return describe(server)
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit(f"the server {server.name} did not start; see {server.log_path}")


async def quiet_healthz(session: aiohttp.ClientSession, base: str, count: int = 100) -> list[float]:
    """/healthz one at a time on a server with nothing else to do."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        async with session.get(f"{base}/healthz") as response:
            await response.read()
        times.append(time.perf_counter() - started)
    return times


async def probe_health(session: aiohttp.ClientSession, bases: list[str], stop_at: float,
                       rate: float, out: dict[str, list[float]]) -> None:
    """/healthz at ``rate`` per second, round the servers, until ``stop_at``."""
    turn = 0
    while time.perf_counter() < stop_at:
        base = bases[turn % len(bases)]
        turn += 1
        started = time.perf_counter()
        try:
            async with session.get(f"{base}/healthz") as response:
                await response.read()
                if response.status == 200:
                    out.setdefault(base, []).append(time.perf_counter() - started)
                else:
                    out.setdefault("failed", []).append(0.0)
        except (aiohttp.ClientError, asyncio.TimeoutError):
            out.setdefault("failed", []).append(0.0)
        await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - started)))


# -- a phone --------------------------------------------------------------------------------


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
            self.have.update(REGION.findall(text))  # as app.js does: the swapped regions' hashes
            self.seen.append((self.version, time.perf_counter()))
        return status, elapsed

    # -- a tap --
    async def act(self, points: int, streamed: bool) -> tuple[int, float, int, float]:
        """Enter a score: (status, time taken, the table's new version, when it was sent).

        With ``streamed`` the phone says its stream is open (as app.js does once the stream
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


class Change:
    __slots__ = ("table", "actor", "version", "sent")

    def __init__(self, table: int, actor: Phone, version: int, sent: float):
        self.table, self.actor, self.version, self.sent = table, actor, version, sent


def deliveries(changes: list[Change], tables: list[list[Phone]]) -> dict:
    """Each change against each other phone of its table: reached (and when) or lost."""
    reach, lost, folded = [], 0, 0
    for change in changes:
        for phone in tables[change.table]:
            if phone is change.actor:
                continue
            when, exact = phone.first_seen(change.version)
            if when is None:
                lost += 1
            else:
                reach.append(when - change.sent)
                folded += not exact  # it got a later version first, which shows this change too
    return {"reach": reach, "lost": lost, "expected": len(reach) + lost, "folded": folded}


def all_delivered(changes: list[Change], tables: list[list[Phone]]) -> bool:
    return deliveries(changes, tables)["lost"] == 0


# -- setting up tables and phones -----------------------------------------------------------


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


async def table_changes(tables: list[list[Phone]], index: int, stop_at: float, rate: float,
                        streamed: bool, changes: list[Change], actions: list[float],
                        failures: list[str]) -> None:
    """One table's taps: ``rate`` per second at a random phase, each by a random phone of the
    table."""
    period = 1 / rate
    due = time.perf_counter() + random.random() * period
    while True:
        await asyncio.sleep(max(0.0, min(due, stop_at) - time.perf_counter()))
        if time.perf_counter() >= stop_at:
            return
        actor = random.choice(tables[index])
        status, elapsed, version, sent = await actor.act(random.randint(-20, 50), streamed)
        if status == 200 and version > 0:
            actions.append(elapsed)
            changes.append(Change(index, actor, version, sent))
        else:
            failures.append(f"action answered {status}")
        due = max(due + period, time.perf_counter())


async def wait_delivered(changes: list[Change], tables: list[list[Phone]], grace: float) -> float:
    """After the last tap: until every change reached every phone, or ``grace`` seconds."""
    started = time.perf_counter()
    while time.perf_counter() - started < grace and not all_delivered(changes, tables):
        await asyncio.sleep(0.25)
    return time.perf_counter() - started


# -- report lines ---------------------------------------------------------------------------


GOALS: list[str] = []  # every goal line of this run, for the summary at the end


def goal(part: str, text: str, met: bool, figures: str) -> str:
    """A goal line ("goal: … : met (figures)"), also kept for the summary."""
    GOALS.append(f"{part}: {text}: {'met' if met else 'NOT met'} ({figures})")
    return f"  goal: {text}: {'met' if met else 'NOT met'} ({figures})"


def timing_header() -> str:
    return (f"  {'':<34}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"
            f"{'p50 ×hz':>9}{'p99 ×hz':>9}")


def timing_row(label: str, values: list[float], health: list[float]) -> str:
    if not values:
        return f"  {label:<34}{0:>7}   (none)"
    hz50, hz99 = median(health), percentile(health, 0.99)
    p50, p99 = median(values), percentile(values, 0.99)
    return (f"  {label:<34}{len(values):>7}{p50 * 1000:>9.1f}{percentile(values, 0.95) * 1000:>9.1f}"
            f"{p99 * 1000:>9.1f}{max(values) * 1000:>9.1f}{p50 / hz50:>9.1f}{p99 / hz99:>9.1f}")


def delivery_line(found: dict, grace: float) -> str:
    share = 100 * len(found["reach"]) / found["expected"] if found["expected"] else float("nan")
    return (f"  delivered {len(found['reach'])}/{found['expected']} ({share:.2f} %), lost "
            f"{found['lost']} (not there {grace:g} s after the last tap); {found['folded']} "
            f"arrived folded into a later version (the phone got both changes in one event)")


def propagation_line(reach: list[float], health: list[float]) -> str:
    hz = median(health)
    return ("  as × healthz p50: " + ", ".join(
        f"{name} {percentile(reach, share) / hz:.0f}×" for name, share in
        (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))) + f", max {max(reach, default=0) / hz:.0f}×")


def by_kind(failures: list[str]) -> str:
    """" (poll answered 500: 3, …)" for a list of failures, empty for none."""
    if not failures:
        return ""
    counts: dict[str, int] = {}
    for failure in failures:
        counts[failure] = counts.get(failure, 0) + 1
    return " (" + ", ".join(f"{kind}: {n}" for kind, n in sorted(counts.items(), key=lambda i: -i[1])) + ")"


def mb(value: float) -> str:
    return f"{value / 2**20:.1f} MB"


def health_rows(health: dict[str, list[float]], quiet: list[float]) -> list[str]:
    rows = [timing_row("/healthz before the load (quiet)", quiet, quiet)]
    for base, values in health.items():
        if base != "failed":
            rows.append(timing_row(f"/healthz during (:{base.rsplit(':', 1)[1]})", values, values))
    if health.get("failed"):
        rows.append(f"  /healthz failed {len(health['failed'])} times")
    return rows


def combined_health(health: dict[str, list[float]]) -> list[float]:
    return [v for base, values in health.items() if base != "failed" for v in values]


def bench_database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", DEFAULT_PG)


def single_database(args) -> str | None:
    """The database of the one-server parts: a fresh SQLite file, or the bench PostgreSQL
    database emptied first (--database postgres)."""
    if args.database == "sqlite":
        return None
    url = bench_database_url()
    problem = reset_database(url)
    if problem:
        raise SystemExit(f"--database postgres: {url.split('@')[-1]} is not usable ({problem})")
    return url


def database_name(args) -> str:
    return "SQLite" if args.database == "sqlite" else f"PostgreSQL ({bench_database_url().split('@')[-1]})"


# -- parts 1 to 3: café, busy and idle ---------------------------------------------------


async def push_and_idle(args, parts: list[str]) -> list[str]:
    """The café and busy loads on this code's server and the baseline's, both up with their
    phones' streams open, each load taken in turns (``--slices`` turns each, alternating who
    goes first): this machine's speed drifts by half within minutes, so both meet the same
    stretches of it. Idle on this code's phones before the baseline starts."""
    loads = [(name, rate, seconds) for name, rate, seconds in
             (("cafe", args.cafe_rate, args.cafe_seconds), ("busy", args.rate, args.seconds))
             if name in parts]
    async with contextlib.AsyncExitStack() as servers:
        mine = await servers.enter_async_context(
            phones_on_server(args, "push", args.port, None, "idle" in parts))
        theirs, problem = None, ""
        if loads:
            try:
                theirs = await servers.enter_async_context(
                    phones_on_server(args, "push-baseline", args.port + 9, baseline_folder(), False))
            except (SystemExit, Exception) as exc:  # noqa: BLE001 - this code's figures still count
                log(f"baseline failed: {exc!r}")
                problem = str(exc)[:300] or type(exc).__name__
        both = [found for found in (mine, theirs) if found is not None]
        for load, rate, seconds in loads:
            slices: dict[int, list[dict]] = {id(found): [] for found in both}
            for turn in range(args.slices):
                for found in both if turn % 2 == 0 else both[::-1]:
                    slices[id(found)].append(await run_changes(
                        args, f"{load} on {found['name']} ({turn + 1}/{args.slices})",
                        found["tables"], [found["server"]], found["plain"], rate,
                        seconds / args.slices))
                    await asyncio.sleep(1)
            for found in both:
                found["runs"][load] = merged_runs(slices[id(found)])
    out = []
    for name, rate, seconds in loads:
        out += load_section(args, name, rate, seconds, mine, theirs, problem) + [""]
    return out + mine.get("idle", [])


@contextlib.asynccontextmanager
async def phones_on_server(args, name: str, port: int, baseline: Path | None, idle: bool):
    """One server (this code's, or the baseline's from its folder) with args.tables ×
    args.phones phones joined and their streams open, idle for a while first if ``idle``;
    yields what a load needs (its server, session and tables) and what was found so far."""
    found: dict = {"runs": {}, "name": name}
    with Server(name, port, args, single_database(args), baseline=baseline) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            found["kind"] = await wait_up(plain, server)
            await quiet_healthz(plain, server.base, 20)  # warm up
            with Window([server]) as quiet:
                found["quiet"] = await quiet_healthz(plain, server.base, 200)
            found["probe_cpu"] = quiet.server_seconds / 200
            await asyncio.sleep(1)
            fresh_rss = rss_bytes([server])
            log(f"{name}: setting up {args.tables} tables × {args.phones} phones …")
            tables = await set_up_tables(plain, None, server.base, args.tables, args.phones,
                                         keep_alive=server.keep_alive)
            phones = [p for table in tables for p in table]
            await asyncio.sleep(2)
            joined_rss = rss_bytes([server])
            found["took"] = await open_streams(phones, 60)
            found["failed"] = streams_failed(phones)
            log(f"{name}: {len(phones) - len(found['failed'])} streams open in {found['took']:.1f} s")
            await asyncio.sleep(2)
            if idle:
                found["idle"] = await idle_streams(args, server, phones, fresh_rss, joined_rss)
            found.update(server=server, plain=plain, tables=tables)
            try:
                yield found
            finally:
                await close_phones(tables)


def merged_runs(runs: list[dict]) -> dict:
    """A load's turns on one server as one run: their changes, timings and CPU together."""
    changes = [change for run in runs for change in run["changes"]]
    health: dict[str, list[float]] = {}
    for run in runs:
        for base, values in run["health"].items():
            health.setdefault(base, []).extend(values)
    last = runs[-1]
    return {**last, "changes": changes, "health": health,
            "actions": [a for run in runs for a in run["actions"]],
            "failures": [f for run in runs for f in run["failures"]],
            "window": Window.combined([run["window"] for run in runs]),
            "lag": LoopLag.combined([run["lag"] for run in runs]),
            "waited": max(run["waited"] for run in runs),
            "found": deliveries(changes, last["tables"]),
            "seconds": sum(run["seconds"] for run in runs),
            "probes": sum(run["probes"] for run in runs),
            "bytes": sum(run["bytes"] for run in runs),
            "turns": len(runs)}


async def idle_streams(args, server: Server, phones: list[Phone], fresh_rss: int,
                       joined_rss: int) -> list[str]:
    beats = sum(p.heartbeats for p in phones)
    log(f"idle: {len(phones)} streams idle for {args.idle_seconds} s …")
    with Window([server]) as idle:
        await asyncio.sleep(args.idle_seconds)
    streams_rss = rss_bytes([server])
    open_now = sum(1 for p in phones if p.ready_at and not p.stream_error)
    return [
        f"3. Idle: {open_now} phones with open streams, idle for {idle.seconds:.0f} s "
        f"(heartbeat every {os.environ.get('LIVE_HEARTBEAT_SECONDS', '20')} s), "
        f"{database_name(args)}, {describe(server)}",
        f"  server CPU {idle.server_cpu:.1f} % of one core; heartbeats received "
        f"{sum(p.heartbeats for p in phones) - beats}; client CPU {idle.client_cpu:.1f} %, "
        f"everything else {idle.other_cpu:.0f} %",
        goal("idle", f"{open_now} idle streams cost ≤ 2 % of one core", idle.server_cpu <= 2,
             f"{idle.server_cpu:.1f} %"),
        f"  server RSS: fresh {mb(fresh_rss)}; after the joins, no streams "
        f"{mb(joined_rss)}; with {open_now} streams {mb(streams_rss)}",
        f"  memory per connected phone: {(streams_rss - joined_rss) / 1024 / max(1, open_now):.0f} KB "
        f"(streams vs joined); {(streams_rss - fresh_rss) / 1024 / max(1, open_now):.0f} KB "
        f"(vs the fresh server)",
    ]


async def run_changes(args, name: str, tables: list[list[Phone]], servers: list[Server],
                      plain: aiohttp.ClientSession, rate: float, seconds: float,
                      proxy: "Nginx | None" = None, base: str | None = None) -> dict:
    """``rate`` changes per table per second for ``seconds``, streams open, with /healthz
    probed (on each server, or through ``base``); then wait for the stragglers (at most
    args.grace seconds)."""
    log(f"{name}: {len(tables)} tables × {rate:g} change/s for {seconds:g} s …")
    changes: list[Change] = []
    actions: list[float] = []
    failures: list[str] = []
    health: dict[str, list[float]] = {}
    phones = [p for table in tables for p in table]
    bytes_before = sum(p.raw_bytes for p in phones)
    stop_at = time.perf_counter() + seconds
    # At most one probe for five changes: their CPU stays a small share of the CPU per change.
    probes = min(args.health, rate * len(tables) / 5)
    with Window(servers, proxy) as window, LoopLag() as lag:
        await asyncio.gather(
            *(table_changes(tables, i, stop_at, rate, True, changes, actions, failures)
              for i in range(len(tables))),
            probe_health(plain, [base] if base else [s.base for s in servers], stop_at, probes,
                         health))
    waited = await wait_delivered(changes, tables, args.grace)
    return {"changes": changes, "actions": actions, "failures": failures, "health": health,
            "window": window, "lag": lag, "waited": waited, "tables": tables,
            "found": deliveries(changes, tables), "rate": rate, "seconds": seconds,
            "probes": sum(len(values) for values in health.values()),
            "drops": stream_drops(phones),
            "mismatches": sum(p.id_mismatches for p in phones),
            "bytes": sum(p.raw_bytes for p in phones) - bytes_before}


def cpu_per_change(run: dict) -> float:
    """CPU seconds of all server processes over the measured window ÷ changes made, in ms."""
    return 1000 * run["window"].server_seconds / max(1, len(run["changes"]))


def push_lines(args, run: dict, quiet: list[float], failed: list[str], took: float,
               probe_cpu: float | None = None) -> list[str]:
    """A load's report; ``probe_cpu``: the server CPU seconds of one /healthz, measured quiet."""
    tables, changes, window, found = run["tables"], run["changes"], run["window"], run["found"]
    health = combined_health(run["health"])
    phones = sum(len(t) for t in tables)
    busy = sum(p.busy for table in tables for p in table)
    return [
        f"  streams: {phones - len(failed)}/{phones} opened in {took:.1f} s; since then: {run['drops']}"
        + (f"; joining, {busy} pages were answered 503 busy and asked for again" if busy else ""),
        f"  changes made: {len(changes)} ({len(changes) / window.seconds:.0f}/s of "
        f"{run['rate'] * len(tables):.0f}/s asked: a table's next tap waits for the answer to "
        f"its last); refused or failed taps: {len(run['failures'])}{by_kind(run['failures'])}",
        delivery_line(found, args.grace),
        timing_header(),
        *health_rows(run["health"], quiet),
        timing_row("tap → every other phone has it", found["reach"], health),
        timing_row("action (X-Live-Stream: open)", run["actions"], health),
        propagation_line(found["reach"], health),
        f"  server CPU per change: {cpu_per_change(run):.2f} ms ({window.server_seconds:.1f} s "
        f"over {len(changes)} changes, the {run['probes']} /healthz probes included"
        + (f": ≈ {1000 * probe_cpu * run['probes'] / max(1, len(changes)):.2f} ms per change at "
           f"{1000 * probe_cpu:.2f} ms each, measured quiet)" if probe_cpu is not None else ")"),
        f"  {window.text()}; client {run['lag'].text()}",
        f"  stream bytes received during the run (gzip bodies): {run['bytes'] / max(1, len(found['reach'])):.0f} "
        f"per delivery on average; events whose id ≠ their data-version: {run['mismatches']}",
    ]


def load_section(args, name: str, rate: float, seconds: int, mine: dict, theirs: dict | None,
                 problem: str) -> list[str]:
    """One load's report: this code's run, the baseline's, and the two side by side."""
    runs = [("this code", mine)] + ([(f"the baseline {BASELINE}", theirs)] if theirs else [])
    title = {"cafe": "1. Café (the gate)", "busy": "2. Busy"}[name]
    lines = [f"{title}: {args.tables} tables × {args.phones} phones with open streams (gzip), "
             f"{rate:g} change per table per second for {seconds} s, {database_name(args)}; this "
             f"code and the code before issue 28 ({BASELINE}) under the same load, in "
             f"{args.slices} turns each"]
    for _label, found in runs:
        lines.append(f"  {found['kind']}:")
        lines += push_lines(args, found["runs"][name], found["quiet"], found["failed"],
                            found["took"], found["probe_cpu"])
    if problem:
        lines.append(f"  the baseline {BASELINE}: FAILED: {problem}")
    lines.append(f"  {'tap → every other phone has it':<34}{'p50 ms':>9}{'p95 ms':>9}"
                 f"{'p99 ms':>9}{'max ms':>9}{'lost':>7}{'CPU per change':>16}")
    for label, found in runs:
        run = found["runs"][name]
        reach = run["found"]["reach"]
        lines.append(f"  {label:<34}" + "".join(
            f"{percentile(reach, share) * 1000:>9.1f}" for share in (0.5, 0.95, 0.99))
            + f"{max(reach, default=float('nan')) * 1000:>9.1f}{run['found']['lost']:>7}"
            f"{cpu_per_change(run):>13.2f} ms")
    if name == "cafe":
        run = mine["runs"][name]
        p95 = percentile(run["found"]["reach"], 0.95) * 1000
        lines.append(goal("café", "tap → every other phone p95 ≤ 25 ms",
                          p95 <= 25 and not run["found"]["lost"],
                          f"{p95:.1f} ms, lost {run['found']['lost']}"))
        if theirs:
            mine_cpu, their_cpu = cpu_per_change(run), cpu_per_change(theirs["runs"][name])
            lines.append(goal("café", "CPU per change must not grow", mine_cpu <= their_cpu,
                              f"this code {mine_cpu:.2f} ms, the baseline {their_cpu:.2f} ms"))
        else:
            GOALS.append("café: CPU per change must not grow: not measured (the baseline failed)")
    return lines


# -- part 5: thousands of streams ---------------------------------------------------------


async def scale(args) -> list[str]:
    # One process must be allowed to hold every stream (and the probes and taps beside them).
    connections = args.server_connections or args.scale_tables * args.phones + 2000
    with Server("scale", args.port + 3, args, single_database(args),
                connections=connections) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            kind = await wait_up(plain, server)
            quiet = await quiet_healthz(plain, server.base)
            log(f"scale: setting up {args.scale_tables} tables × {args.phones} phones …")
            started = time.perf_counter()
            # The page after the join is not loaded (it would double the set-up time): each
            # stream then opens with v=-1 and brings the whole page's regions, as after a
            # server restart.
            tables = await set_up_tables(plain, None, server.base, args.scale_tables,
                                         args.phones, load_page=False, keep_alive=server.keep_alive)
            setup = time.perf_counter() - started
            phones = [p for table in tables for p in table]
            joined_rss = rss_bytes([server])
            log(f"scale: joined in {setup:.0f} s; opening {len(phones)} streams …")
            took = await open_streams(phones, 120)
            failed = streams_failed(phones)
            log(f"scale: {len(phones) - len(failed)} streams open in {took:.1f} s")
            await asyncio.sleep(2)
            streams_rss = rss_bytes([server])
            per_worker = []
            for worker in server.workers():
                with contextlib.suppress(psutil.Error):
                    per_worker.append(sum(1 for c in worker.net_connections("tcp")
                                          if c.status == psutil.CONN_ESTABLISHED))
            changes: list[Change] = []
            actions: list[float] = []
            refusals: list[str] = []
            health: dict[str, list[float]] = {}
            stop_at = time.perf_counter() + args.scale_seconds
            alive = [i for i, table in enumerate(tables) if all(p.ready_at for p in table)]

            async def one_change(index: int) -> None:
                actor = random.choice(tables[index])
                status, elapsed, version, sent = await actor.act(random.randint(0, 30), True)
                if status == 200 and version > 0:
                    actions.append(elapsed)
                    changes.append(Change(index, actor, version, sent))
                else:
                    refusals.append(f"action answered {status}")

            async def tapping() -> None:
                tasks = []
                busy: set[int] = set()
                while time.perf_counter() < stop_at:
                    index = random.choice(alive)
                    if index not in busy:  # a table's taps one after another, as at a table
                        busy.add(index)
                        task = asyncio.get_running_loop().create_task(one_change(index))
                        task.add_done_callback(lambda _t, i=index: busy.discard(i))
                        tasks.append(task)
                    await asyncio.sleep(1 / args.scale_changes)
                await asyncio.gather(*tasks)

            log(f"scale: {args.scale_changes:g} changes/s across random tables for "
                f"{args.scale_seconds} s …")
            with Window([server]) as window, LoopLag() as lag:
                await asyncio.gather(tapping(), probe_health(plain, [server.base], stop_at,
                                                             args.health, health))
            await wait_delivered(changes, tables, args.grace)
            found = deliveries(changes, tables)
            hz = combined_health(health)
            reasons = sorted({r for r in failed})
            p95 = percentile(found["reach"], 0.95) * 1000
            out = [
                f"5. Scale: {args.scale_tables} tables × {args.phones} phones = {len(phones)} open "
                f"streams on one server ({kind}), {args.scale_changes:g} changes/s across random "
                f"tables for {args.scale_seconds} s, {database_name(args)}",
                f"  set-up (create + GET and POST /j/, page not loaded) took {setup:.0f} s; streams opened "
                f"{len(phones) - len(failed)}/{len(phones)} in {took:.1f} s (≤ 200 opening at once); "
                f"failed to open: {len(failed)}{' ' + str(reasons[:3]) if failed else ''}; since "
                f"then: {stream_drops(phones)}",
                f"  established connections per worker: {per_worker}; server RSS {mb(joined_rss)} "
                f"before the streams, {mb(streams_rss)} with them "
                f"({(streams_rss - joined_rss) / 1024 / max(1, len(phones) - len(failed)):.0f} KB per stream)",
                delivery_line(found, args.grace),
                timing_header(),
                *health_rows(health, quiet),
                timing_row("tap → every other phone has it", found["reach"], hz),
                timing_row("action (X-Live-Stream: open)", actions, hz),
                propagation_line(found["reach"], hz),
                goal("scale", f"with {len(phones) - len(failed)} streams open, tap → every other "
                     f"phone p95 ≤ 100 ms", p95 <= 100 and not found["lost"] and not failed,
                     f"{p95:.1f} ms, lost {found['lost']}, streams that failed to open "
                     f"{len(failed)}"),
                f"  refused or failed taps: {len(refusals)}",
                f"  {window.text()}; client {lag.text()}",
            ]
            await close_phones(tables)
    return out


# -- part 4: two servers behind nginx on PostgreSQL ---------------------------------------


def reset_database(url: str) -> str | None:
    """Drop and recreate the bench database's tables; None when done, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            connection.execute("DROP SCHEMA public CASCADE")
            connection.execute("CREATE SCHEMA public")
    except Exception as exc:  # noqa: BLE001 - any reason is a reason to skip
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc) else ''}"
    return None


class PgConnections:
    """The most connections to the bench database seen at once (sampled twice a second)."""

    def __init__(self, url: str):
        self.url, self.peak, self.limit, self.stop = url, 0, "?", threading.Event()

    def _run(self) -> None:
        import psycopg

        with contextlib.suppress(Exception), psycopg.connect(self.url, autocommit=True) as conn:
            self.limit = conn.execute("SHOW max_connections").fetchone()[0]
            while not self.stop.is_set():
                count = conn.execute("SELECT count(*) FROM pg_stat_activity "
                                     "WHERE datname = current_database()").fetchone()[0]
                self.peak = max(self.peak, count - 1)
                self.stop.wait(0.5)

    def __enter__(self) -> "PgConnections":
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stop.set()
        self.thread.join(timeout=5)


NGINX = "/usr/sbin/nginx"
README_UPSTREAMS = ("127.0.0.1:5001", "127.0.0.1:5002")
# The README block's HTTPS lines (its port and certificate), left out where plain HTTP is run.
PLAIN_HTTP_ONLY = re.compile(r"^\s*(listen 443 |ssl_certificate).*\n", re.M)


def readme_nginx_block() -> str:
    """The fenced ```nginx block of the README's "Several servers on one PostgreSQL"."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Several servers on one PostgreSQL", 1)[-1].split("\n## ", 1)[0]
    found = re.search(r"```nginx\n(.*?)```", section, re.S)
    if not found:
        raise SystemExit("README.md: no ```nginx block under 'Several servers on one PostgreSQL'")
    return found.group(1)


class Nginx:
    """Debian's nginx in the foreground, configured with the README's block (its servers and
    its port replaced by the bench's), everything it writes under bench/results/nginx/."""

    def __init__(self, port: int, upstream_ports: list[int]):
        self.port, self.upstream_ports = port, upstream_ports
        self.base = f"http://127.0.0.1:{port}"
        self.keep_alive = 75.0  # nginx's keepalive_timeout for clients (the block sets none)
        self.dir = RESULTS / "nginx"
        self.process: subprocess.Popen | None = None

    def configuration(self) -> str:
        block = readme_nginx_block()
        for old, port in zip(README_UPSTREAMS, self.upstream_ports):
            if old not in block:
                raise SystemExit(f"README.md's nginx block no longer names {old}")
            block = block.replace(old, f"127.0.0.1:{port}")
        if not re.search(r"\blisten 80;", block):
            raise SystemExit("README.md's nginx block no longer says `listen 80;`")
        block = re.sub(r"\blisten 80;", f"listen 127.0.0.1:{self.port};", block)
        block = PLAIN_HTTP_ONLY.sub("", block)  # the bench measures plain HTTP: no certificate
        temp = "".join(f"    {kind}_temp_path {self.dir / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        return (f"worker_processes 1;\nworker_rlimit_nofile 20000;\npid {self.dir / 'nginx.pid'};\n"
                f"error_log {self.dir / 'error.log'} warn;\nevents {{ worker_connections 10000; }}\n"
                f"http {{\n    access_log off;\n{temp}{block}}}\n")

    def __enter__(self) -> "Nginx":
        if not os.access(NGINX, os.X_OK):
            raise SystemExit(f"{NGINX} is not installed")
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        config = self.dir / "nginx.conf"
        config.write_text(self.configuration())
        self.log = open(self.dir / "output.log", "w")
        # -e: nginx writes its first lines before reading the configuration's error_log
        self.process = subprocess.Popen([NGINX, "-p", str(self.dir), "-e", str(self.dir / "error.log"),
                                         "-c", str(config), "-g", "daemon off;"],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        return self

    def __exit__(self, *_exc) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # nginx's fast shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def processes(self) -> list[psutil.Process]:
        try:
            master = psutil.Process(self.process.pid)
            return [master] + master.children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def errors(self) -> list[str]:
        """What nginx logged (warnings and worse): upstreams that failed, mostly."""
        path = self.dir / "error.log"
        return path.read_text(errors="replace").splitlines() if path.exists() else []

    async def wait_up(self, session: aiohttp.ClientSession) -> None:
        for _ in range(100):
            if self.process.poll() is not None:
                raise SystemExit(f"nginx exited: {(self.dir / 'output.log').read_text()[-500:]}"
                                 f"{' '.join(self.errors()[-3:])}")
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"{self.base}/healthz") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.1)
        raise SystemExit("nginx did not answer /healthz")


async def two_servers(args) -> list[str]:
    """Two servers of this code (one process each) on one PostgreSQL database, nginx in front
    with the README's configuration; every phone's request goes through nginx."""
    url = bench_database_url()
    shown = url.split("@")[-1]
    problem = reset_database(url)
    if problem:
        return [f"4. Two servers behind nginx: SKIPPED: PostgreSQL at {shown} is not reachable "
                f"({problem})"]
    instance = tempfile.mkdtemp(prefix="companion-bench-two-")  # one secret key: cookies work on both
    ports = [args.port + 1, args.port + 2]
    try:
        with contextlib.ExitStack() as stack, PgConnections(url) as pg:
            async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
                servers = []
                for name, port in zip(("two-a", "two-b"), ports):
                    server = stack.enter_context(Server(name, port, args, url, instance,
                                                        env={"TRUSTED_PROXIES": "1"}))
                    kind = await wait_up(plain, server)  # one after the other: one creates the tables
                    servers.append(server)
                nginx = stack.enter_context(Nginx(args.port + 10, ports))
                await nginx.wait_up(plain)
                await quiet_healthz(plain, nginx.base, 20)  # warm up
                with Window(servers) as quiet_window:
                    quiet = await quiet_healthz(plain, nginx.base, 200)
                log(f"two: setting up {args.tables} tables × {args.phones} phones through nginx …")
                tables = await set_up_tables(plain, None, nginx.base, args.tables, args.phones,
                                             keep_alive=nginx.keep_alive)
                phones = [p for table in tables for p in table]
                took = await open_streams(phones, 60)
                failed = streams_failed(phones)
                await asyncio.sleep(2)
                run = await run_changes(args, "two", tables, servers, plain, args.rate,
                                        args.seconds, proxy=nginx, base=nginx.base)
                await close_phones(tables)
                errors = nginx.errors()
    finally:
        shutil.rmtree(instance, ignore_errors=True)
    window = run["window"]
    lines = [f"4. Two servers behind nginx: {args.tables} tables × {args.phones} phones, every "
             f"request through nginx (the README's configuration: a table's requests go to the "
             f"server its code hashes to) to two servers ({kind}, TRUSTED_PROXIES=1) on one "
             f"PostgreSQL ({shown}); {args.rate:g} change per table per second for "
             f"{args.seconds} s",
             *push_lines(args, run, quiet, failed, took, quiet_window.server_seconds / 200),
             f"  CPU per server: {', '.join(f'{100 * used / window.seconds:.0f} %' for used in window.per_server)} "
             f"of one core; nginx {window.proxy_cpu:.0f} %, PostgreSQL {window.postgres_cpu:.0f} % "
             f"(not in the CPU per change)",
             f"  most connections to the database at once: {pg.peak} (the server's "
             f"max_connections: {pg.limit}); nginx's error log: {len(errors)} lines"
             + (f" (e.g. {errors[0][:200]})" if errors else "")]
    return lines


# -- part 7: the poll ---------------------------------------------------------------------


async def poll(args) -> list[str]:
    with Server("poll", args.port + 4, args, single_database(args)) as server:
        # Each phone's browser keeps its connection open between polls; so does the bench
        # (with --client-connections N, all phones share a pool of N instead).
        connector = client_connector(args.client_connections)
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)
            quiet = await quiet_healthz(plain, server.base)
            log(f"poll: setting up {args.tables} tables × {args.phones} phones …")
            tables = await set_up_tables(plain, connector, server.base, args.tables, args.phones)
            everyone = [p for table in tables for p in table]
            # Warm-up, not measured: the joins changed every table, so each phone first catches
            # up once (as a phone does after opening the page) before the evening's rhythm.
            await gather_limited((once_more(p.poll) for p in everyone), 50)
            log(f"poll: every phone polls each {args.interval:g} s, {args.rate:g} change per table "
                f"per second for {args.seconds} s …")
            results: dict[str, list[float]] = {"poll_204": [], "fragment": []}
            changes: list[Change] = []
            actions: list[float] = []
            failures: list[str] = []
            health: dict[str, list[float]] = {}
            stop_at = time.perf_counter() + args.seconds

            async def phone_loop(phone: Phone) -> None:
                await asyncio.sleep(random.random() * args.interval)
                while time.perf_counter() < stop_at:
                    tick = time.perf_counter()
                    try:
                        status, elapsed = await phone.poll()
                    except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
                        status, elapsed = type(exc).__name__, 0
                    if status == 204:
                        results["poll_204"].append(elapsed)
                    elif status == 200:
                        results["fragment"].append(elapsed)
                    else:
                        failures.append(f"poll answered {status}")
                    await asyncio.sleep(max(0.0, args.interval - (time.perf_counter() - tick)))

            with Window([server]) as window, LoopLag() as lag:
                await asyncio.gather(
                    *(phone_loop(p) for p in everyone),
                    *(table_changes(tables, i, stop_at, args.rate, False, changes, actions,
                                    failures) for i in range(len(tables))),
                    probe_health(plain, [server.base], stop_at, args.health, health))

            # The phones keep polling until the last changes arrived (not measured for CPU).
            straggle_until = time.perf_counter() + args.grace

            async def catch_up(phone: Phone) -> None:
                while time.perf_counter() < straggle_until and not all_delivered(changes, tables):
                    with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                        await phone.poll()
                    await asyncio.sleep(args.interval)

            await asyncio.gather(*(catch_up(p) for p in everyone))
            found = deliveries(changes, tables)

            # A burst of writers: many phones tapping back to back (SQLite queues them).
            burst: list[float] = []
            burst_until = time.perf_counter() + args.burst_seconds

            async def writer(phone: Phone) -> None:
                while time.perf_counter() < burst_until:
                    status, elapsed, _version, _sent = await phone.act(random.randint(0, 9), False)
                    if status == 200:
                        burst.append(elapsed)

            if args.writers:
                await asyncio.gather(*(writer(tables[i % len(tables)][i // len(tables) % args.phones])
                                       for i in range(args.writers)))
            await close_phones(tables)
        await connector.close()
    hz = combined_health(health)
    polls = len(results["poll_204"]) + len(results["fragment"])
    lines = [
        f"7. Poll (the fallback, as before the switch): {args.tables} tables × {args.phones} phones "
        f"polling every {args.interval:g} s, "
        + (f"sharing a pool of {args.client_connections} keep-alive connections, "
           if args.client_connections else "each on its own keep-alive connection, ")
        + f"{args.rate:g} change per table per second for {args.seconds} s, "
        f"{database_name(args)}",
        f"  polls {polls} ({polls / window.seconds:.0f}/s); changes made {len(changes)} "
        f"({len(changes) / window.seconds:.0f}/s); failures: {len(failures)}"
        f"{by_kind(failures)}",
        delivery_line(found, args.grace),
        timing_header(),
        *health_rows(health, quiet),
        timing_row("poll, nothing changed (204)", results["poll_204"], hz),
        timing_row("poll, changed regions (200)", results["fragment"], hz),
        timing_row("tap → every other phone has it", found["reach"], hz),
        timing_row("action (answer with regions)", actions, hz),
        propagation_line(found["reach"], hz),
        f"  {window.text()}; client {lag.text()}",
    ]
    if burst:
        lines.append(
            f"  burst of {args.writers} writers tapping back to back for {args.burst_seconds} s: "
            f"{len(burst) / args.burst_seconds:.0f} actions/s, p50 {median(burst) * 1000:.0f} ms, "
            f"p99 {percentile(burst, 0.99) * 1000:.0f} ms "
            f"({percentile(burst, 0.99) / median(hz):.0f}× healthz p50)")
    return lines


# -- part 6: bytes per update -----------------------------------------------------------------

FOUR = ["Ann", "Bob", "Cid", "Dee"]


def play(player, album, strength, character_type, colour, name=None):
    payload = dict(type="play_character", player=player, album=album, strength=strength,
                   character_type=character_type, colour=colour)
    return {**payload, "name": name} if name else payload


async def long_battle(act, snapshot) -> None:
    """As long_battle() in tests/web/test_asterix_co_web.py: 40 characters played in turn
    order on the four albums (14 a side: no album falls), 3 K.O.'d, a Potion; Cid to play."""
    names = iter(["Asterix", "Obelix", "Getafix", "Cacofonix", "Vitalstatistix", "Fulliautomatix",
                  "Unhygienix", "Geriatrix", "Impedimenta", "Bacteria"] * 4)
    strengths = (2, 3, 2, 3, 4)
    for index in range(10):
        for position, player in enumerate(FOUR):
            strength, plain = strengths[index // 2], (index // 2) % 2 == 0
            if index % 2 == 0:  # the Gaul side of the album on the player's left
                await act(play(player, position + 1, strength, "Hero", "Gaul" if plain else "Neutral",
                               f"{next(names)} {position + 1}"))
            else:  # the Roman side of the album on the player's right
                await act(play(player, (position - 1) % 4 + 1, strength, "Legionary",
                               "Roman" if plain else "Neutral"))
    slots = (await snapshot())["state"]["slots"]

    def nth(album, faction, index):
        return [c["id"] for c in slots[album - 1]["characters"] if c["faction"] == faction][index]

    for album, faction, index in ((1, "gaul", 1), (2, "roman", 1), (3, "gaul", 2)):
        await act({"type": "knock_out", "character": nth(album, faction, index)})
    await act({"type": "gain_bonus", "player": "Ann", "bonus": "potion"})
    await act({"type": "use_potion", "player": "Ann", "character": nth(1, "gaul", 0)})
    await act({"type": "reinforce_hand", "player": "Bob"})  # Cid's turn


def moves(*payloads: dict):
    async def opening(act, _snapshot) -> None:
        for payload in payloads:
            await act(payload)
    return opening


# (label, game, players, the moves before, the one move measured); payloads as in tests/web and
# tests/games, made with the host's token.
GAMES = [
    ("scorepad (3 rounds in)", "scorepad", FOUR,
     moves(*({"type": "enter_score", "player": p, "round": r, "points": 7 * r}
             for r in (1, 2, 3) for p in FOUR)),
     {"type": "enter_score", "player": "Ann", "round": 4, "points": 17}),
    ("asterix-obelix (an attack)", "asterix-obelix", ["Ann", "Bob"],
     moves({"type": "start_game", "starter": "Ann"},
           {"type": "choose_line", "line": "row", "number": 1}),
     {"type": "reveal_card", "kind": "legionary", "colour": "red"}),
    ("kartenspiel (tricks)", "kartenspiel", ["Ann", "Bob", "Cid"],
     moves({"type": "win_roman", "player": "Ann", "value": 10},
           {"type": "win_roman", "player": "Bob", "value": 10}),
     {"type": "win_roman", "player": "Cid", "value": 5}),
    ("asterix-co (2 characters out)", "asterix-co", FOUR,
     moves(play("Ann", 1, 3, "Chief", "Gaul", "Getafix"), play("Bob", 1, 4, "Legionary", "Roman")),
     play("Cid", 3, 2, "Hero", "Gaul", "Asterix")),
    ("asterix-co (long battle, 40 out)", "asterix-co", FOUR, long_battle,
     play("Cid", 2, 2, "Legionary", "Roman")),
    ("zaubertrank (a turn)", "zaubertrank", ["Ann", "Bob"],
     moves({"type": "draw_mishap", "symbol": "lightning"}, {"type": "place_mishap", "location": 2},
           {"type": "draw_mishap", "symbol": "knife"}, {"type": "place_mishap", "location": 3},
           {"type": "begin_play"}),
     {"type": "move", "location": 4}),
]


class Assets(HTMLParser):
    """The scripts and style sheets a page loads, and the service worker it registers over
    HTTPS (``worker``: browsers allow none over plain HTTP)."""

    def __init__(self, page: str):
        super().__init__()
        self.urls: list[str] = []
        self.worker: str | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.urls.append(attrs["src"])
        elif tag == "link" and "stylesheet" in (attrs.get("rel") or "") and attrs.get("href"):
            self.urls.append(attrs["href"])
        elif tag == "meta" and attrs.get("name") == "offline-worker" and attrs.get("content"):
            self.worker = attrs["content"]


HTTPS_ACCEPT = "gzip, deflate, br"


async def raw_get(session: aiohttp.ClientSession, url: str,
                  accept: str = "gzip, deflate") -> tuple[int, bytes]:
    """The body as it came over the wire (with what a browser asks for: over plain HTTP
    "gzip, deflate"; over HTTPS "gzip, deflate, br") and inflated."""
    async with session.get(url, headers={"Accept-Encoding": accept}, auto_decompress=False) as r:
        body = await r.read()
        assert r.status == 200, (url, r.status)
        coding = r.headers.get("Content-Encoding")
        if coding == "gzip":
            return len(body), zlib.decompress(body, 16 + zlib.MAX_WBITS)
        if coding == "br":
            return len(body), brotli.decompress(body)
        return len(body), body


async def measure_game(plain, base, label, game, players, before, move
                       ) -> tuple[str, int | None, int]:
    """The game's report row, its update event's gzip bytes (None: none came) and its first
    load's."""
    created = await create_table(plain, base, game, players)
    code, bearer = created["code"], {"Authorization": f"Bearer {created['token']}"}

    async def act(payload: dict) -> None:
        async with plain.post(f"{base}/api/tables/{code}/actions", json=payload, headers=bearer) as r:
            assert r.status == 200, (payload, await r.text())

    async def snapshot() -> dict:
        async with plain.get(f"{base}/api/tables/{code}") as r:
            return await r.json()

    await before(act, snapshot)
    async with aiohttp.ClientSession(connector=client_connector(),
                                     cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     timeout=REQUEST_TIMEOUT) as session:
        phone = Phone(session, base, code, players[0])
        await phone.join()
        page_wire, page = await raw_get(session, f"{base}/t/{code}")
        page_br, _ = await raw_get(session, f"{base}/t/{code}", HTTPS_ACCEPT)
        html = page.decode()
        phone.show_page(html)
        assets_wire = assets_br = assets_plain = 0
        loaded = Assets(html)
        for url in loaded.urls:
            wire, body = await raw_get(session, base + unescape(url))
            assets_wire, assets_plain = assets_wire + wire, assets_plain + len(body)
            assets_br += (await raw_get(session, base + unescape(url), HTTPS_ACCEPT))[0]
        if loaded.worker:  # fetched over HTTPS only, where browsers ask for brotli
            assets_br += (await raw_get(session, base + unescape(loaded.worker), HTTPS_ACCEPT))[0]
        phone.stream_task = asyncio.get_running_loop().create_task(phone.stream())
        await asyncio.wait_for(phone.ready.wait(), 30)
        await asyncio.sleep(0.3)  # anything the stream sends on opening has arrived
        before_move = phone.raw_bytes
        events_before = len(phone.events)
        async with plain.post(f"{base}/api/tables/{code}/actions", json=move, headers=bearer) as r:
            answer = await r.json()
            assert r.status == 200, (move, answer)
        deadline = time.perf_counter() + 10
        while phone.version < answer["version"] and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        update = [e for e in phone.events[events_before:] if e[0] == "regions"]
        phone.stream_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await phone.stream_task
    if not update:
        return (f"  {label:<34} no update event arrived ({phone.stream_error or 'timeout'})",
                None, page_wire + assets_wire)
    wire = update[-1][3] - before_move
    decoded = sum(e[2] for e in update)
    return (f"  {label:<34}{wire:>9,}{decoded:>10,}{page_wire:>10,}{page_br:>9,}{len(page):>10,}"
            f"{page_wire + assets_wire:>12,}{page_br + assets_br:>9,}{len(page) + assets_plain:>10,}"
            + ("" if len(update) == 1 else f"  ({len(update)} events)"), wire, page_wire + assets_wire)


async def bytes_per_update(args) -> list[str]:
    with Server("bytes", args.port + 5, args) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)
            log("bytes: one move per game …")
            rows, events, loads = [], [], []
            for label, game, players, before, move in GAMES:
                try:
                    row, event, first_load = await measure_game(plain, server.base, label, game,
                                                                players, before, move)
                except (AssertionError, aiohttp.ClientError, asyncio.TimeoutError) as exc:
                    row, event, first_load = f"  {label:<34} FAILED: {str(exc)[:240]}", None, None
                rows.append(row)
                events.append(event)
                loads.append(first_load)
    complete = None not in events and None not in loads
    return [
        "6. Bytes per update and first load, compressed (a seated phone's stream, one ordinary move made through the API; "
        "bytes are HTTP bodies as received: without headers and chunk framing)",
        f"  {'game':<34}{'event':>9}{'inflated':>10}{'page':>10}{'br':>9}{'inflated':>10}"
        f"{'first load':>12}{'br':>9}{'inflated':>10}",
        *rows,
        "  event/page: gzip bytes received; br: the same with brotli (what browsers ask for "
        "over HTTPS); inflated: their size unpacked; first load: the page and every script "
        "and style sheet it loads (minified), as received; its br column also the service "
        "worker, which a page registers over HTTPS only",
        goal("bytes", "first load ≤ 40 KB gzip per game", complete and max(loads) <= 40 * 1024,
             f"largest {max(filter(None, loads), default=0) / 1024:.1f} KB"
             + ("" if complete else "; some games FAILED")),
        goal("bytes", "an update ≤ 8 KB gzip", complete and max(events) <= 8 * 1024,
             f"largest {max(filter(None, events), default=0) / 1024:.1f} KB"
             + ("" if complete else "; some games FAILED")),
    ]


# -- part 9: idle and slow connections ----------------------------------------------------


def raise_open_files(wanted: int) -> int:
    """This process holds the slow connections: lift its open-files limit (as `companion
    serve` lifts the server's). Returns the soft limit in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(hard, max(wanted, soft))
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class SlowClients:
    """Attackers that hold connections open without finishing a request: ``idle`` ones
    connect and send nothing, ``trickling`` ones send a request line and Host, then one more
    header line every ``every`` seconds. Any the server closes is opened again at once, so
    that as many stay open as asked. Records after how long the server closed each."""

    def __init__(self, port: int, idle: int, trickling: int, every: float):
        self.port, self.every = port, every
        self.wanted = {"idle": idle, "trickling": trickling}
        self.open = {"idle": 0, "trickling": 0}
        self.closed_after: dict[str, list[float]] = {"idle": [], "trickling": []}
        self.answered: dict[str, list[bytes]] = {"idle": [], "trickling": []}  # what it sent first
        self.opened_since: dict[str, list[float]] = {"idle": [], "trickling": []}  # still open
        self.connect_failures: dict[str, int] = {}
        self.opened = 0
        self.tasks: list[asyncio.Task] = []
        self.stopping = False

    def start(self) -> None:
        # Not all in the same instant: a few hundred connects a second, as a script would.
        kinds = [k for k in ("trickling", "idle") for _ in range(self.wanted[k])]
        self.tasks = [asyncio.get_running_loop().create_task(self._hold(kind, index * 0.002))
                      for index, kind in enumerate(kinds)]

    def all_open(self) -> bool:
        return all(self.open[k] >= self.wanted[k] for k in self.wanted)

    async def _hold(self, kind: str, delay: float) -> None:
        await asyncio.sleep(delay)
        while not self.stopping:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port), 10)
            except (OSError, asyncio.TimeoutError) as exc:
                name = type(exc).__name__ if not isinstance(exc, OSError) or not exc.errno else \
                    errno_name(exc.errno)
                self.connect_failures[name] = self.connect_failures.get(name, 0) + 1
                await asyncio.sleep(0.5)
                continue
            self.opened += 1
            self.open[kind] += 1
            since = time.perf_counter()
            self.opened_since[kind].append(since)
            try:
                await (self._trickle(kind, reader, writer) if kind == "trickling"
                       else self._idle(kind, reader))
                if not self.stopping:
                    self.closed_after[kind].append(time.perf_counter() - since)
            except asyncio.CancelledError:
                raise
            finally:
                self.open[kind] -= 1
                self.opened_since[kind].remove(since)
                writer.close()

    async def _until_closed(self, kind: str, reader: asyncio.StreamReader, first: bytes) -> None:
        """The server sent something (an error answer?): note it and read to its close."""
        if first:
            self.answered[kind].append(first[:40])
            with contextlib.suppress(OSError, asyncio.TimeoutError):
                while await asyncio.wait_for(reader.read(4096), 30):
                    pass

    async def _idle(self, kind: str, reader: asyncio.StreamReader) -> None:
        try:
            first = await reader.read(4096)  # b"" when the server closes it
        except OSError:
            return
        await self._until_closed(kind, reader, first)

    async def _trickle(self, kind: str, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter) -> None:
        line = b"GET / HTTP/1.1\r\nHost: x\r\n"
        while True:
            try:
                writer.write(line)
                await writer.drain()
                first = await asyncio.wait_for(reader.read(4096), self.every)
            except asyncio.TimeoutError:
                line = b"X-a: b\r\n"
                continue
            except OSError:
                return
            await self._until_closed(kind, reader, first)
            return

    async def stop(self) -> None:
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    def oldest(self, kind: str) -> float:
        return time.perf_counter() - min(self.opened_since[kind], default=time.perf_counter())


def errno_name(number: int) -> str:
    import errno
    return errno.errorcode.get(number, str(number))


async def paced_requests(base: str, paths: dict[str, str], rounds: int, interval: float,
                         timeout: float, most_seconds: float = float("inf")
                         ) -> tuple[dict[str, list[float]], dict[str, list[str]]]:
    """``rounds`` rounds, one after the other, of one GET of each path, each on a NEW
    connection (as a phone arriving at the table would make one), a round started every
    ``interval`` s. A request not answered 200 within ``timeout`` s failed. No round starts
    after ``most_seconds`` (a server that answers nothing would take rounds × timeout)."""
    stop_at = time.perf_counter() + most_seconds
    times: dict[str, list[float]] = {label: [] for label in paths}
    failures: dict[str, list[str]] = {label: [] for label in paths}
    connector = aiohttp.TCPConnector(force_close=True, limit=0)
    async with aiohttp.ClientSession(connector=connector,
                                     timeout=aiohttp.ClientTimeout(total=timeout)) as session:
        for _ in range(rounds):
            began = time.perf_counter()
            if began > stop_at:
                break
            for label, path in paths.items():
                started = time.perf_counter()
                try:
                    async with session.get(base + path) as answer:
                        await answer.read()
                        if answer.status == 200:
                            times[label].append(time.perf_counter() - started)
                        else:
                            failures[label].append(f"answered {answer.status}")
                except asyncio.TimeoutError:
                    failures[label].append(f"no answer within {timeout:g} s")
                except aiohttp.ClientError as exc:
                    failures[label].append(type(exc).__name__)
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - began)))
    return times, failures


def seconds_text(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"median {median(values):.1f} s (min {min(values):.1f}, max {max(values):.1f}; "
            f"{len(values)} closed)")


def attacker_process(port: int, idle: int, trickling: int, every: float, pipe) -> None:
    """The slow clients, in a process of their own (multiprocessing, spawned): a burst of
    a thousand reconnects must not hold up the loop that times the measured requests. Sends
    the open counts each second and, when told "stop", what it saw."""
    raise_open_files(idle + trickling + 1000)
    asyncio.run(_attack(port, idle, trickling, every, pipe))


async def _attack(port: int, idle: int, trickling: int, every: float, pipe) -> None:
    attack = SlowClients(port, idle, trickling, every)
    attack.start()
    opened_at_start = 0
    ticks = 0
    while True:
        await asyncio.sleep(0.1)
        ticks += 1
        if ticks % 10 == 0:
            pipe.send(("open", dict(attack.open)))
        if pipe.poll():
            command = pipe.recv()
            if command == "mark":  # the measured stretch begins
                opened_at_start = attack.opened
                attack.closed_after = {"idle": [], "trickling": []}
                continue
            if command == "stop":
                break
    result = {"oldest": {k: attack.oldest(k) for k in attack.wanted}, "still": dict(attack.open),
              "connects": attack.opened - opened_at_start, "closed_after": attack.closed_after,
              "answered": attack.answered, "connect_failures": attack.connect_failures}
    await attack.stop()
    pipe.send(("result", result))


async def quiet_close_seconds(port: int, count: int = 5) -> list[float]:
    """After how long the server closes a connection left quiet after an answer (its
    keep-alive), timed on ``count`` connections at once."""
    async def one() -> float | None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            await reader.readexactly(int(re.search(rb"(?i)content-length: *(\d+)", head).group(1)))
            answered = time.perf_counter()
            while await asyncio.wait_for(reader.read(4096), 180):
                pass
            return time.perf_counter() - answered
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, AttributeError):
            return None
        finally:
            writer.close()

    return [took for took in await asyncio.gather(*(one() for _ in range(count))) if took]


async def slow_clients(args) -> list[str]:
    """/healthz and a table page, before and while 1,000 idle and 100 trickling
    connections are held open (by another process)."""
    with Server("slow", args.port + 6, args) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)
            table = await create_table(plain, server.base, "scorepad", ["Ann", "Bob", "Cem"])
            paths = {"/healthz": "/healthz", "table page /t/<code>": f"/t/{table['code']}"}
            async with plain.get(server.base + paths["table page /t/<code>"]) as answer:
                assert answer.status == 200, ("table page", answer.status)
        await paced_requests(server.base, paths, 20, 0.0, 5)  # warm up
        kept = asyncio.get_running_loop().create_task(quiet_close_seconds(server.port))
        log(f"slow: {args.slow_rounds} rounds unloaded …")
        quiet, quiet_failed = await paced_requests(server.base, paths, args.slow_rounds,
                                                   args.slow_interval, args.slow_timeout)
        log(f"slow: opening {args.slow_idle} idle and {args.slow_trickling} trickling "
            f"connections …")
        began = time.perf_counter()
        attacker = SecondProcess(attacker_process, server.port, args.slow_idle,
                                 args.slow_trickling, args.slow_every, sample_kind="open")
        samples, result, receive = attacker.samples, attacker.result, attacker.receive
        wanted = {"idle": args.slow_idle, "trickling": args.slow_trickling}
        while time.perf_counter() - began < 40:
            await asyncio.sleep(0.2)
            receive()
            if samples and all(samples[-1][k] >= wanted[k] for k in wanted):
                break
        ramp = time.perf_counter() - began
        log(f"slow: {samples[-1] if samples else 'nothing'} open after {ramp:.1f} s; "
            f"{args.slow_rounds} rounds under load …")
        attacker.send("mark")
        await asyncio.sleep(0.3)
        receive()
        samples.clear()
        fds: list[int] = []

        async def sample_fds() -> None:
            while True:
                await asyncio.sleep(1)
                count = 0
                for worker in server.workers():
                    with contextlib.suppress(psutil.Error):
                        count += worker.num_fds()
                fds.append(count)
                receive()

        sampler = asyncio.get_running_loop().create_task(sample_fds())
        attacker_before = attacker.cpu_seconds()
        try:
            with Window([server]) as window, LoopLag() as lag:
                loaded, loaded_failed = await paced_requests(
                    server.base, paths, args.slow_rounds, args.slow_interval, args.slow_timeout,
                    args.slow_max_seconds)
            # Held on past the server's keep-alive, so that its closing them is seen.
            await asyncio.sleep(max(0.0, server.keep_alive + 5 - (time.perf_counter() - began)))
        finally:
            sampler.cancel()
            attacker_cpu = 100 * (attacker.cpu_seconds() - attacker_before) / max(
                0.001, time.perf_counter() - window.began)
            await attacker.stop()
            attacker.end()
        closed_quiet = await asyncio.wait_for(kept, 180)
    if not result:
        raise RuntimeError("the attacking process sent no result")
    closed_after, answered = result["closed_after"], result["answered"]
    lines = [
        f"9. Idle and slow connections: {args.slow_idle} connections that send nothing and "
        f"{args.slow_trickling} that send one header line every {args.slow_every:g} s (from "
        f"another process), each opened again as soon as the server closes it; "
        f"{args.slow_rounds} rounds of the requests below, one every {args.slow_interval:g} s, "
        f"each on a new connection, before and during (failed: not 200 within "
        f"{args.slow_timeout:g} s)",
        timing_header(),
    ]
    ratios = {}
    for label in paths:
        lines.append(timing_row(f"{label} unloaded", quiet[label], quiet["/healthz"]))
        lines.append(timing_row(f"{label} loaded", loaded[label], quiet["/healthz"]))
        ratios[label] = percentile(loaded[label], 0.99) / percentile(quiet[label], 0.99)
    failures = result["connect_failures"]
    done = len(loaded["/healthz"]) + len(loaded_failed["/healthz"])
    if done < args.slow_rounds:
        lines.append(f"  under load only {done} of {args.slow_rounds} rounds were made in "
                     f"{args.slow_max_seconds:g} s (--slow-max-seconds)")
    lines += [
        goal("slow", "loaded p99 / unloaded p99 ≤ 5", max(ratios.values()) <= 5,
             ", ".join(f"{label} {ratio:.1f}×" for label, ratio in ratios.items())),
        "  failed: " + "; ".join(
            f"{label} unloaded {len(quiet_failed[label])}, loaded {len(loaded_failed[label])}"
            f"{by_kind(loaded_failed[label])}" for label in paths),
        f"  slow connections open (sampled each second during the load): idle min "
        f"{min((s['idle'] for s in samples), default=0)}, median "
        f"{median([s['idle'] for s in samples]):.0f}; trickling min "
        f"{min((s['trickling'] for s in samples), default=0)}, median "
        f"{median([s['trickling'] for s in samples]):.0f}; all open {ramp:.1f} s after the "
        f"attack began; {result['connects']} connects after that (each closed one opened again)"
        + (f"; failed connects: {', '.join(f'{k} {n}' for k, n in failures.items())}"
           if failures else ""),
        f"  the server's keep-alive (gunicorn's --keep-alive, KEEP_ALIVE_SECONDS: "
        f"{server.keep_alive:g} s) closed a connection left quiet after an answer after: "
        f"{seconds_text(closed_quiet)}",
        f"  the server closed a trickling connection after: {seconds_text(closed_after['trickling'])}"
        f"; at the end open {result['still']['trickling']}, the oldest {result['oldest']['trickling']:.0f} s",
        f"  the server closed an idle connection after: {seconds_text(closed_after['idle'])}"
        f"; at the end open {result['still']['idle']}, the oldest {result['oldest']['idle']:.0f} s",
    ]
    for kind in ("idle", "trickling"):
        if answered[kind]:
            first_lines = [a.split(b"\r\n")[0].decode(errors="replace") for a in answered[kind]]
            lines.append(f"  the server answered {len(first_lines)} {kind} connections before "
                         f"closing them{by_kind(first_lines)}")
    lines += [
        f"  during the load ({window.seconds:.0f} s): {window.text()}; the attacking process "
        f"{attacker_cpu:.0f} % (in everything else)",
        f"  workers' open files (sampled): max {max(fds, default=0)}; measuring client "
        f"{lag.text()}",
    ]
    return lines


# -- part 10: one client hammering ---------------------------------------------------------

HAMMER_ADDRESS = "127.0.0.2"  # Linux routes all of 127.0.0.0/8 to lo: a client of its own
OTHERS_FIRST = 10  # the other tables' clients: 127.0.0.10, 127.0.0.11, …


def loopback_connector(address: str, limit: int = 0) -> aiohttp.TCPConnector:
    """Connections from ``address`` (a loopback address other than 127.0.0.1): the server,
    which takes the client from the socket's peer address, sees another client."""
    return aiohttp.TCPConnector(limit=limit, keepalive_timeout=0.8 * server_keep_alive(),
                                local_addr=(address, 0))


def hammer_process(base: str, code: str, token: str, in_flight: int, pipe) -> None:
    """The hammering client, in a process of its own (multiprocessing, spawned), so that its
    busy loop does not delay the timestamps of the measured requests. Sends its counts each
    second; "mark" starts them afresh; on "stop" it sends what it saw since the mark."""
    asyncio.run(_hammer(base, code, token, in_flight, pipe))


async def _hammer(base: str, code: str, token: str, in_flight: int, pipe) -> None:
    counts: dict[tuple[str, str], int] = {}
    times: dict[tuple[str, str], list[float]] = {}
    marked = time.perf_counter()
    turn = 0
    live_headers = {"HX-Request": "true"}  # as app.js polls (a poll loop gone wild)
    act_headers = {"Authorization": f"Bearer {token}"}

    async def one(session: aiohttp.ClientSession) -> None:
        nonlocal turn
        while True:
            turn += 1
            started = time.perf_counter()
            try:
                if turn % 2:
                    kind = "live"
                    request = session.get(f"{base}/t/{code}/live", headers=live_headers,
                                          params={"v": random.randint(10**9, 10**12)})
                else:
                    kind = "action"
                    request = session.post(f"{base}/api/tables/{code}/actions", headers=act_headers,
                                           json={"type": "enter_score", "player": "P1", "round": 1,
                                                 "points": random.randint(-20, 50)})
                async with request as answer:
                    await answer.read()
                    status = str(answer.status)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a failure is counted, and it goes on
                status = type(exc).__name__
                await asyncio.sleep(0.05)
            counts[kind, status] = counts.get((kind, status), 0) + 1
            times.setdefault((kind, status), []).append(time.perf_counter() - started)

    connector = loopback_connector(HAMMER_ADDRESS)
    async with aiohttp.ClientSession(connector=connector,
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        tasks = [asyncio.get_running_loop().create_task(one(session)) for _ in range(in_flight)]
        ticks = 0
        try:
            while True:
                await asyncio.sleep(0.05)
                ticks += 1
                if ticks % 20 == 0:
                    pipe.send(("counts", {f"{k} {s}": n for (k, s), n in counts.items()}))
                if pipe.poll():
                    command = pipe.recv()
                    if command == "mark":
                        counts.clear()
                        times.clear()
                        marked = time.perf_counter()
                    elif command == "stop":
                        break
            took = time.perf_counter() - marked
            result = {"seconds": took, "counts": {f"{k} {s}": n for (k, s), n in counts.items()},
                      "p50": {f"{k} {s}": median(v) for (k, s), v in times.items()}}
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send(("result", result))


async def other_tables(base: str, tables: list[dict], sessions: list[aiohttp.ClientSession],
                       health: aiohttp.ClientSession, count: int, rate: float
                       ) -> tuple[dict[str, list[tuple[float, float]]], dict[str, list[str]]]:
    """``count`` reads (GET /api/tables/<code>), ``count`` actions (POST .../actions, a score
    entered with the host's token) and ``count`` /healthz, ``rate`` of each a second, round
    the tables, each table's from its own session (address). Sent on schedule whether or not
    the earlier ones were answered, so that a stall shows in the times of all it held up.
    Answers (when sent, time taken) by label, and the failures."""
    labels = ("read GET /api/tables/<code>", "action POST /api/tables/<code>/actions", "/healthz")
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in labels}
    failures: dict[str, list[str]] = {label: [] for label in labels}

    async def timed(label: str, request) -> None:
        started = time.perf_counter()
        try:
            async with request as answer:
                await answer.read()
                if answer.status == 200:
                    times[label].append((started, time.perf_counter() - started))
                else:
                    failures[label].append(f"answered {answer.status}")
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            failures[label].append(type(exc).__name__)

    tasks = []
    began = time.perf_counter()
    n = len(tables)
    for index in range(count):
        await asyncio.sleep(max(0.0, began + index / rate - time.perf_counter()))
        read, act = index % n, (index + n // 2) % n
        tasks += [
            asyncio.create_task(timed(labels[0], sessions[read].get(
                f"{base}/api/tables/{tables[read]['code']}"))),
            asyncio.create_task(timed(labels[1], sessions[act].post(
                f"{base}/api/tables/{tables[act]['code']}/actions",
                headers={"Authorization": f"Bearer {tables[act]['token']}"},
                json={"type": "enter_score", "player": f"P{1 + index % 4}",
                      "round": 1 + index // n % 20, "points": random.randint(-20, 50)}))),
            asyncio.create_task(timed(labels[2], health.get(f"{base}/healthz"))),
        ]
    await asyncio.gather(*tasks)
    return times, failures


class SecondProcess:
    """A process that loads the server for the slow and hammer parts (spawned, so its busy
    loop does not delay the measured requests' timestamps). ``target(*args, pipe)`` sends
    ``(sample_kind, counts)`` now and then and ``("result", {...})`` after "stop"; ``receive``
    collects them into ``samples`` and ``result``."""

    def __init__(self, target, *args, sample_kind: str):
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        # Their end stays referenced here: a spawned child takes it over after start(), and
        # it must not be closed (collected) before that.
        self.pipe, self.theirs = context.Pipe()
        self.process = context.Process(target=target, daemon=True, args=(*args, self.theirs))
        self.process.start()
        self.sample_kind = sample_kind
        self.samples: list[dict[str, int]] = []
        self.result: dict = {}

    def receive(self) -> None:
        while self.pipe.poll():
            kind, value = self.pipe.recv()
            if kind == self.sample_kind:
                self.samples.append(value)
            else:
                self.result.update(value)

    def send(self, command: str) -> None:
        self.pipe.send(command)

    def cpu_seconds(self) -> float:
        return sum(psutil.Process(self.process.pid).cpu_times()[:2])

    async def stop(self) -> None:
        """Ask for the result and wait for it (30 s at most)."""
        self.send("stop")
        for _ in range(150):
            await asyncio.sleep(0.2)
            self.receive()
            if self.result:
                break

    def end(self) -> None:
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()


# Default limits: the bench's lifted ones (and its join and stream allowances) removed.
DEFAULTS = {"RATE_LIMITS": None, "JOIN_LIMIT": None, "STREAMS_PER_CLIENT": None}


def other_sessions(args) -> list[aiohttp.ClientSession]:
    """The other tables' clients, each from a loopback address of its own (a household)."""
    return [aiohttp.ClientSession(connector=loopback_connector(f"127.0.0.{OTHERS_FIRST + index}"),
                                  timeout=REQUEST_TIMEOUT) for index in range(args.hammer_tables - 1)]


async def hammering(args) -> list[str]:
    """The other tables' reads and actions, before and while one client hammers its own
    table (from another process and address), with the server's default rate limits."""
    with Server("hammer", args.port + 7, args, single_database(args), env=DEFAULTS) as server:
        sessions = other_sessions(args)
        health = aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT)
        attacker = None
        try:
            await wait_up(health, server)
            # Each table made by its own client (one creation each: far under the limit).
            seats = ["P1", "P2", "P3", "P4"]
            async with aiohttp.ClientSession(connector=loopback_connector(HAMMER_ADDRESS),
                                             timeout=REQUEST_TIMEOUT) as hammerer:
                mine = await create_table(hammerer, server.base, "scorepad", seats)
            others = await gather_limited((create_table(session, server.base, "scorepad", seats)
                                           for session in sessions), 8)
            await other_tables(server.base, others, sessions, health, 2 * len(others),
                               args.hammer_rate)  # warm up (each worker, each table)
            log(f"hammer: {args.hammer_requests} reads and actions on {len(others)} tables, "
                f"unloaded …")
            quiet, quiet_failed = await other_tables(server.base, others, sessions, health,
                                                     args.hammer_requests, args.hammer_rate)
            attacker = SecondProcess(hammer_process, server.base, mine["code"], mine["token"],
                                     args.hammer_in_flight, sample_kind="counts")
            samples, result, receive = attacker.samples, attacker.result, attacker.receive
            began = time.perf_counter()
            while not any(samples) and time.perf_counter() - began < 30:
                await asyncio.sleep(0.2)
                receive()
            if not any(samples):
                raise RuntimeError("the hammering process answered nothing in 30 s")
            await asyncio.sleep(3)
            receive()
            # The hammering client ran into its limits in the seconds above: the loaded stretch
            # sees it held at their pace.
            log(f"hammer: {args.hammer_requests} reads and actions, loaded …")
            attacker.send("mark")
            attacker_before = attacker.cpu_seconds()
            workers_before = cpu_seconds([server])
            try:
                with Window([server]) as window, LoopLag() as lag:
                    loaded, loaded_failed = await other_tables(
                        server.base, others, sessions, health, args.hammer_requests,
                        args.hammer_rate)
            finally:
                workers_after = cpu_seconds([server])
                attacker_cpu = 100 * (attacker.cpu_seconds() - attacker_before) / max(
                    0.001, time.perf_counter() - window.began)
                await attacker.stop()
        finally:
            if attacker is not None:
                attacker.end()
            await asyncio.gather(*(s.close() for s in sessions), health.close())
    if not result:
        raise RuntimeError("the hammering process sent no result")

    def values(timed: list[tuple[float, float]]) -> list[float]:
        return [took for _sent, took in timed]

    hz_quiet = values(quiet["/healthz"])
    lines = [
        f"10. One client hammering: {args.hammer_in_flight} requests in flight from "
        f"{HAMMER_ADDRESS} (another process), GET /t/<code>/live?v=<never the version> and "
        f"POST /api/tables/<code>/actions alternately on its own table, with the DEFAULT rate "
        f"limits; {len(others)} other tables, each from its own address, read "
        f"(GET /api/tables/<code>) and enter scores (API) {args.hammer_rate:g} times a second "
        f"each, with /healthz, {args.hammer_requests} of each before and during",
        timing_header(),
    ]
    ratios, gated = [], []
    for label in quiet:
        lines.append(timing_row(f"{label.split(' ')[0]} unloaded", values(quiet[label]), hz_quiet))
        lines.append(timing_row(f"{label.split(' ')[0]} loaded", values(loaded[label]), hz_quiet))
        ratio = percentile(values(loaded[label]), 0.99) / percentile(values(quiet[label]), 0.99)
        middle = median(values(loaded[label])) / median(values(quiet[label]))
        ratios.append(f"{label.split(' ')[0]} {ratio:.1f}× (p50 {middle:.1f}×)")
        gated += [ratio] if label != "/healthz" else []
    lines.append("  (the ×hz columns divide by the UNLOADED /healthz)")
    lines.append(goal("hammer", "other tables' read and action loaded p99 / unloaded p99 ≤ 2",
                      max(gated) <= 2, ", ".join(ratios)))
    lines.append("  other tables' failures: " + "; ".join(
        f"{label.split(' ')[0]} unloaded {len(quiet_failed[label])}, loaded "
        f"{len(loaded_failed[label])}{by_kind(loaded_failed[label])}" for label in quiet))
    counts, took = result["counts"], result["seconds"]
    total = sum(counts.values())
    limited = sum(n for key, n in counts.items() if key.endswith(" 429"))
    lines.append(
        f"  the hammering client, over {took:.1f} s: {total} requests ({total / took:.0f}/s), "
        f"429 {limited} ({100 * limited / max(1, total):.1f} %); by kind and answer: "
        + ", ".join(f"{key} {n} (p50 {result['p50'][key] * 1000:.0f} ms)"
                    for key, n in sorted(counts.items())))
    per_process = [100 * (workers_after[pid] - workers_before.get(pid, 0.0)) / window.seconds
                   for pid in workers_after]
    lines += [
        f"  during the load ({window.seconds:.0f} s): {window.text()}; per server process "
        f"(master first): {', '.join(f'{v:.0f} %' for v in per_process)}; the hammering "
        f"process {attacker_cpu:.0f} % (in everything else)",
        f"  measuring client {lag.text()}",
    ]
    return lines


def loaded_rows(quiet: dict, loaded: dict, during: str) -> tuple[list[str], list[str], list[float]]:
    """Each label's timing rows unloaded and ``during`` the load, and its loaded p99 / unloaded
    p99 (the other tables' reads and actions gated; /healthz shown beside them)."""
    hz_quiet = [took for _sent, took in quiet["/healthz"]]
    lines, ratios, gated = [], [], []
    for label in quiet:
        name = label.split(" ")[0]
        unloaded, under = ([took for _sent, took in timed[label]] for timed in (quiet, loaded))
        lines.append(timing_row(f"{name} unloaded", unloaded, hz_quiet))
        lines.append(timing_row(f"{name} {during}", under, hz_quiet))
        ratio = percentile(under, 0.99) / percentile(unloaded, 0.99)
        ratios.append(f"{name} {ratio:.1f}× ({len(under)} requests)")
        gated += [ratio] if label != "/healthz" else []
    lines.append("  (the ×hz columns divide by the UNLOADED /healthz)")
    return lines, ratios, gated


def import_body(plays: int, names: int) -> bytes:
    """An export of ``plays`` score-pad plays, each of ``names`` players no other play has."""
    day = 86400
    return json.dumps({"plays": [{
        "uid": f"import-{number}", "game": "scorepad",
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(1_700_000_000 + number * day)),
        "ended_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(1_700_003_600 + number * day)),
        "players": [{"name": f"P{number}-{seat}", "score": seat, "winner": seat == 0}
                    for seat in range(names)]} for number in range(plays)]}).encode()


async def importing(args) -> list[str]:
    """The other tables' reads and actions (as in hammer), before and while a group imports
    ``--import-plays`` plays of 12 new names each."""
    with Server("import", args.port + 11, args, single_database(args)) as server:
        sessions = other_sessions(args)
        health = aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT)
        importer = aiohttp.ClientSession(connector=loopback_connector(HAMMER_ADDRESS),
                                         timeout=aiohttp.ClientTimeout(total=120))
        try:
            await wait_up(health, server)
            seats = ["P1", "P2", "P3", "P4"]
            others = await gather_limited((create_table(session, server.base, "scorepad", seats)
                                           for session in sessions), 8)
            async with importer.post(f"{server.base}/api/groups",
                                     json={"name": "Big import", "players": []}) as answer:
                made = await answer.json()
                code, owner = made["code"], {"Authorization": f"Bearer {made['owner_key']}"}
            body = import_body(args.import_plays, 12)
            await other_tables(server.base, others, sessions, health, 2 * len(others),
                               args.hammer_rate)  # warm up
            log(f"import: {args.hammer_requests} reads and actions, unloaded …")
            quiet, quiet_failed = await other_tables(server.base, others, sessions, health,
                                                     args.hammer_requests, args.hammer_rate)
            took: dict[str, float] = {}

            async def one_import() -> None:
                await asyncio.sleep(1)
                took["rss before"] = took["rss most"] = rss_bytes([server])
                started = time.perf_counter()
                sampling = asyncio.create_task(most_rss())
                async with importer.post(f"{server.base}/api/groups/{code}/plays", data=body,
                                         headers={"Content-Type": "application/json",
                                                  **owner}) as answer:
                    took["answer"] = answer.status
                    took["added"] = (await answer.json()).get("added", 0)
                took["seconds"] = time.perf_counter() - started
                sampling.cancel()

            async def most_rss() -> None:
                while True:
                    took["rss most"] = max(took["rss most"], rss_bytes([server]))
                    await asyncio.sleep(0.05)

            log(f"import: {args.hammer_requests} reads and actions while {args.import_plays} "
                f"plays are imported …")
            with Window([server]) as window, LoopLag() as lag:
                (loaded, loaded_failed), _ = await asyncio.gather(
                    other_tables(server.base, others, sessions, health, args.hammer_requests,
                                 args.hammer_rate), one_import())
            log(f"import: {IMPORTS_AT_ONCE} imports at once …")
            crowd = await imports_at_once(server, importer, body)
        finally:
            await asyncio.gather(*(s.close() for s in sessions), health.close(), importer.close())

    # Only the requests sent while the import ran: before and after it, nothing is loaded.
    began = window.began + 1
    during = {label: [t for t in loaded[label] if began <= t[0] <= began + took["seconds"]]
              for label in loaded}
    lines = [f"12. A group imports {args.import_plays} plays of 12 new names each "
             f"({len(body) / 2**20:.1f} MB, through the API, from {HAMMER_ADDRESS}) while "
             f"{len(others)} other tables read and enter scores {args.hammer_rate:g} times a "
             f"second each, with /healthz",
             f"  the import: answered {took['answer']} in {took['seconds']:.2f} s, "
             f"{took['added']} plays added; server RSS {mb(took['rss before'])} before, at most "
             f"{mb(took['rss most'])} during it (+{mb(took['rss most'] - took['rss before'])})",
             timing_header()]
    rows, ratios, gated = loaded_rows(quiet, during, "during the import")
    lines += rows
    lines.append(goal("import", f"the import of {args.import_plays} plays under 10 s",
                      took["seconds"] < 10 and took["answer"] == 200, f"{took['seconds']:.2f} s"))
    lines.append(goal("import", "other tables' read and action p99 during the import / "
                      "unloaded p99 ≤ 2", max(gated) <= 2 and took["answer"] == 200,
                      ", ".join(ratios)))
    lines.append("  other tables' failures: " + "; ".join(
        f"{label.split(' ')[0]} unloaded {len(quiet_failed[label])}, loaded "
        f"{len(loaded_failed[label])}{by_kind(loaded_failed[label])}" for label in quiet))
    lines += [f"  the server over the loaded stretch ({window.seconds:.0f} s): {window.text()}",
              f"  measuring client {lag.text()}"]
    answers = ", ".join(f"{status} × {crowd['answers'].count(status)}"
                        for status in sorted(set(crowd["answers"]), key=str))
    lines.append(f"  then {IMPORTS_AT_ONCE} connections send the same file at once to a new "
                 f"group: {answers}; server RSS {mb(crowd['before'])} before, at most "
                 f"{mb(crowd['most'])} (+{mb(crowd['most'] - crowd['before'])})")
    lines.append(goal("import", f"{IMPORTS_AT_ONCE} imports at once raise the server's memory "
                      "by < 50 MB", crowd["most"] - crowd["before"] < 50 * 2**20
                      and crowd["answers"].count(200) >= 1,
                      mb(crowd["most"] - crowd["before"])))
    return lines


STATS_LOOPS = 4
STATS_PATHS = {"statistics JSON": "/api/groups/{code}/stats", "statistics page": "/g/{code}/stats",
               "export CSV": "/g/{code}/plays.csv", "export JSON": "/g/{code}/plays.json"}


async def statistics_load(args) -> list[str]:
    """The other tables' reads and actions (as in import), before and while STATS_LOOPS loops
    from one address fetch a group's statistics and exports, with the server's default limits
    (the loops together paced at their address's minute's worth); then the first statistics
    of a big imported group."""
    with Server("stats", args.port + 13, args, single_database(args), env=DEFAULTS) as server:
        sessions = other_sessions(args)
        health = aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT)
        # The loops' client: bodies read as sent (gzip), not unpacked by this process.
        looper = aiohttp.ClientSession(connector=loopback_connector(HAMMER_ADDRESS),
                                       timeout=aiohttp.ClientTimeout(total=120),
                                       auto_decompress=False)
        owner = aiohttp.ClientSession(connector=loopback_connector("127.0.0.3"),
                                      timeout=aiohttp.ClientTimeout(total=300))
        try:
            await wait_up(health, server)
            others = await gather_limited((create_table(session, server.base, "scorepad",
                                                        ["P1", "P2", "P3", "P4"])
                                           for session in sessions), 8)
            code = await imported_group(owner, server.base, "Stats night",
                                        json.dumps({"plays": generated_plays(args.stats_plays)}).encode())
            await other_tables(server.base, others, sessions, health, 2 * len(others),
                               args.hammer_rate)  # warm up
            log(f"stats: {args.hammer_requests} reads and actions, unloaded …")
            quiet, quiet_failed = await other_tables(server.base, others, sessions, health,
                                                     args.hammer_requests, args.hammer_rate)
            fetched: dict[str, list[tuple[int, float, int]]] = {label: [] for label in STATS_PATHS}
            stop = asyncio.Event()
            loops = [asyncio.create_task(stats_loop(looper, server.base, code, number, fetched, stop))
                     for number in range(STATS_LOOPS)]
            newcomers = asyncio.create_task(newcomer_tables(looper, server.base, code, stop))
            # The loops under way, each body made once (its first fetch) before measuring.
            began = time.perf_counter()
            while (not all(any(status == 200 for status, _t, _b in times)
                           for times in fetched.values())
                   and time.perf_counter() - began < 120):
                await asyncio.sleep(0.5)
            log(f"stats: {args.hammer_requests} reads and actions while {STATS_LOOPS} loops "
                f"fetch statistics and exports …")
            before = {label: len(times) for label, times in fetched.items()}
            with Window([server]) as window, LoopLag() as lag:
                loaded, loaded_failed = await other_tables(server.base, others, sessions, health,
                                                           args.hammer_requests, args.hammer_rate)
            stop.set()
            added = await newcomers
            await asyncio.gather(*loops)
            log(f"stats: {args.hammer_requests} reads and actions, unloaded again …")
            again, again_failed = await other_tables(server.base, others, sessions, health,
                                                     args.hammer_requests, args.hammer_rate)
            quiet, quiet_failed = quieter((quiet, quiet_failed), (again, again_failed))
            log(f"stats: the first statistics of {args.stats_big_plays} plays of 12 new names …")
            big = await imported_group(owner, server.base, "Big import",
                                       import_body(args.stats_big_plays, 12))
            first = {}
            for label in ("statistics JSON", "statistics page", "export CSV"):
                started, cpu = time.perf_counter(), cpu_seconds([server])
                async with looper.get(server.base + STATS_PATHS[label].format(code=big),
                                      headers={"Accept-Encoding": "gzip"}) as answer:
                    body = await answer.read()
                first[label] = (answer.status, time.perf_counter() - started, len(body),
                                used_since(cpu, cpu_seconds([server])))
        finally:
            await asyncio.gather(*(s.close() for s in sessions), health.close(), looper.close(),
                                 owner.close())
    return stats_lines(args, quiet, loaded, quiet_failed, loaded_failed, window, lag, fetched,
                       before, added, first)


async def imported_group(session: aiohttp.ClientSession, base: str, name: str, body: bytes) -> str:
    """A new group holding the plays of ``body`` (an export), imported by its owner."""
    async with session.post(f"{base}/api/groups", json={"name": name, "players": []}) as answer:
        made = await answer.json()
    async with session.post(f"{base}/api/groups/{made['code']}/plays", data=body, headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {made['owner_key']}"}) as answer:
        imported = await answer.json()
        assert answer.status == 200, imported
    return made["code"]


STATS_PACE = 9.0  # the loops' requests a second together: under the address's 600 a minute


async def stats_loop(session: aiohttp.ClientSession, base: str, code: str, number: int,
                     fetched: dict, stop: asyncio.Event) -> None:
    """One loop: each statistics and export address in turn (starting at the ``number``th),
    gzip asked for, until ``stop``; (status, seconds, bytes) by label."""
    labels = list(STATS_PATHS)
    turn = number
    while not stop.is_set():
        label = labels[turn % len(labels)]
        turn += 1
        started = time.perf_counter()
        try:
            async with session.get(base + STATS_PATHS[label].format(code=code),
                                   headers={"Accept-Encoding": "gzip"}) as answer:
                body = await answer.read()
                fetched[label].append((answer.status, time.perf_counter() - started, len(body)))
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            fetched[label].append((type(error).__name__, time.perf_counter() - started, 0))
        await asyncio.sleep(max(0.0, STATS_LOOPS / STATS_PACE - (time.perf_counter() - started)))


async def newcomer_tables(session: aiohttp.ClientSession, base: str, code: str,
                          stop: asyncio.Event) -> int:
    """A table set up in the group with a player new to it every 3 s (under the address's
    limit of creations) until ``stop``: how many were."""
    made = 0
    while not stop.is_set():
        async with session.post(f"{base}/api/tables", json={
                "game": "scorepad", "players": [f"Newcomer {made}", "Katrin"], "options": {},
                "group": code}) as answer:
            await answer.read()
            made += answer.status == 201
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 3)
    return made


def quieter(*stretches: tuple[dict, dict]) -> tuple[dict, dict]:
    """Of unloaded stretches (times and failures by label), per label the one of the lower
    p99: on a shared machine the others' load comes and goes, and a baseline caught in a busy
    minute would flatter the loaded one."""
    def p99(timed: list[tuple[float, float]]) -> float:
        return percentile([took for _sent, took in timed], 0.99) if timed else float("inf")

    chosen = {label: min(stretches, key=lambda stretch: p99(stretch[0][label]))
              for label in stretches[0][0]}
    return ({label: stretch[0][label] for label, stretch in chosen.items()},
            {label: stretch[1][label] for label, stretch in chosen.items()})


def stats_lines(args, quiet, loaded, quiet_failed, loaded_failed, window, lag, fetched, before,
                added, first) -> list[str]:
    lines = [f"14. {STATS_LOOPS} loops from {HAMMER_ADDRESS} (DEFAULT rate limits, {STATS_PACE:g} "
             f"requests a second together) fetch the statistics (JSON, page) and exports (CSV, "
             f"JSON) of a group of {args.stats_plays} plays, gzip asked for, a table with a new "
             f"player set up in the group every 3 s; {args.hammer_tables - 1} other tables read "
             f"and enter scores {args.hammer_rate:g} times a second each, with /healthz "
             f"(unloaded: before and after the loops, per row the stretch of the lower p99)",
             timing_header()]
    rows, ratios, gated = loaded_rows(quiet, loaded, "during the loops")
    lines += rows
    lines.append(goal("stats", f"other tables' read and action p99 during {STATS_LOOPS} loops of "
                      "statistics and exports / unloaded p99 ≤ 2", max(gated) <= 2,
                      ", ".join(ratios)))
    lines.append("  other tables' failures: " + "; ".join(
        f"{label.split(' ')[0]} unloaded {len(quiet_failed[label])}, loaded "
        f"{len(loaded_failed[label])}{by_kind(loaded_failed[label])}" for label in quiet))
    lines.append(f"  the loops during the loaded stretch ({window.seconds:.0f} s), {added} tables "
                 f"with a new player set up meanwhile:")
    for label, times in fetched.items():
        during = times[before[label]:]
        answers = ", ".join(f"{status} × {n}" for status, n in
                            sorted(Counter(str(s) for s, _t, _b in during).items()))
        sizes = [size for status, _t, size in during if status == 200]
        lines.append(f"    {label:<16} {answers}; p50 {median([t for _s, t, _b in during]) * 1000:.0f} ms, "
                     f"max {max((t for _s, t, _b in during), default=0) * 1000:.0f} ms; "
                     f"{(median(sizes) if sizes else 0) / 1024:.0f} KB as sent")
    lines += [f"  the server over the loaded stretch: {window.text()}",
              f"  measuring client {lag.text()}"]
    lines.append(f"  a group of {args.stats_big_plays} imported plays of 12 new names each "
                 f"({12 * args.stats_big_plays:,} players), first fetch: " + ", ".join(
                     f"{label} {status} in {took:.2f} s, {cpu:.2f} s of server CPU "
                     f"({size / 2**20:.1f} MB as sent)"
                     for label, (status, took, size, cpu) in first.items()))
    status, took, _size, cpu = first["statistics JSON"]
    lines.append(goal("stats", f"the first statistics of {args.stats_big_plays} plays and "
                      f"{12 * args.stats_big_plays:,} players under 1 s", status == 200 and took < 1,
                      f"{took:.2f} s, {cpu:.2f} s of server CPU"))
    return lines


IMPORTS_AT_ONCE = 150


async def imports_at_once(server: "Server", session: aiohttp.ClientSession, body: bytes) -> dict:
    """The server's memory while IMPORTS_AT_ONCE connections send an import at once (one is
    read, the others are refused before their bodies are)."""
    async with session.post(f"{server.base}/api/groups", json={"name": "Crowd", "players": []}) as answer:
        made = await answer.json()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {made['owner_key']}"}
    found: dict = {"answers": [], "before": rss_bytes([server])}
    found["most"] = found["before"]

    async def one(client: aiohttp.ClientSession) -> None:
        try:
            async with client.post(f"{server.base}/api/groups/{made['code']}/plays", data=body,
                                   headers=headers) as answer:
                await answer.read()
                found["answers"].append(answer.status)
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            found["answers"].append(type(error).__name__)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=120)) as client:
        sending = asyncio.gather(*(one(client) for _ in range(IMPORTS_AT_ONCE)))
        while not sending.done():
            found["most"] = max(found["most"], rss_bytes([server]))
            await asyncio.sleep(0.05)
        await sending
    return found


VENUE_ADDRESS = "203.0.113.50"  # the café's one public address, as its router shows it


async def venue(args) -> list[str]:
    """Every phone of a café behind one address, with the default limits (see the docstring)."""
    defaults = {"RATE_LIMITS": None, "JOIN_LIMIT": None, "STREAMS_PER_CLIENT": None,
                "TRUSTED_PROXIES": "1"}
    behind = {"X-Forwarded-For": VENUE_ADDRESS}
    answers: dict[str, list[int]] = {"table created": [], "join page": [], "seat taken": [],
                                     "stream": [], "tap": []}
    with Server("venue", args.port + 12, args, single_database(args), env=defaults) as server:
        async with aiohttp.ClientSession(connector=client_connector(), headers=behind,
                                         timeout=REQUEST_TIMEOUT) as host:
            await wait_up(host, server)
            seats = [f"P{i + 1}" for i in range(args.venue_phones)]
            tables = []
            for _ in range(args.venue_tables):
                async with host.post(f"{server.base}/api/tables",
                                     json={"game": "scorepad", "players": seats}) as answer:
                    answers["table created"].append(answer.status)
                    if answer.status == 201:
                        tables.append((await answer.json())["code"])
        phones = [Phone(aiohttp.ClientSession(
            connector=client_connector(), headers=behind, cookie_jar=aiohttp.CookieJar(unsafe=True),
            timeout=REQUEST_TIMEOUT), server.base, code, seat) for code in tables for seat in seats]
        PHONES.append(phones)

        async def join(phone: Phone, delay: float) -> None:
            await asyncio.sleep(delay)  # the phones come in over two minutes, as people sit down
            async with phone.session.get(f"{phone.base}/j/{phone.code}") as answer:
                answers["join page"].append(answer.status)
                page = await answer.text()
            if answer.status != 200:
                return
            phone.token = CSRF.search(page).group(1)
            async with phone.session.post(f"{phone.base}/j/{phone.code}",
                                          data={"csrf_token": phone.token, "seat": phone.seat}) as answer:
                answers["seat taken"].append(answer.status)
                if answer.status == 200:
                    phone.show_page(await answer.text())

        log(f"venue: {len(phones)} phones join over {args.venue_join_seconds} s …")
        began = time.perf_counter()
        await asyncio.gather(*(join(phone, random.random() * args.venue_join_seconds)
                               for phone in phones))
        joined = [phone for phone in phones if phone.version >= 0]
        took = await open_streams(joined, 60)
        answers["stream"] = [200 if p.ready_at else 429 if "429" in p.stream_error else 0
                             for p in joined]
        log(f"venue: every phone taps every 5 s for {args.venue_seconds} s …")
        stop_at = time.perf_counter() + args.venue_seconds

        async def taps(phone: Phone) -> None:
            await asyncio.sleep(random.random() * 5)
            while time.perf_counter() < stop_at:
                status, *_ = await phone.act(random.randint(-20, 50), True)
                answers["tap"].append(status)
                await asyncio.sleep(5)

        with Window([server]) as window:
            await asyncio.gather(*(taps(phone) for phone in joined))
        await close_phones([phones])
        PHONES.clear()
    refused = {kind: statuses.count(429) for kind, statuses in answers.items()}
    others = {kind: len([s for s in statuses if s not in (200, 201, 429)])
              for kind, statuses in answers.items()}
    lines = [f"13. A café behind one address ({VENUE_ADDRESS} in X-Forwarded-For, "
             f"TRUSTED_PROXIES=1, default limits): {args.venue_tables} tables × "
             f"{args.venue_phones} phones joining within {args.venue_join_seconds} s, streams "
             f"open, every phone tapping every 5 s for {args.venue_seconds} s",
             f"  joined {len(joined)} of {len(phones)} phones in {time.perf_counter() - began:.0f} s "
             f"in all; streams ready in {took:.1f} s: {sum(1 for p in joined if p.ready_at)}",
             "  requests by kind (answered 429 / other failures / all): " + ", ".join(
                 f"{kind} {refused[kind]} / {others[kind]} / {len(statuses)}"
                 for kind, statuses in answers.items()),
             f"  the server over the taps ({window.seconds:.0f} s): {window.text()}"]
    lines.append(goal("venue", "no 429 for a café's phones behind one address",
                      sum(refused.values()) == 0 and len(joined) == len(phones),
                      f"{sum(refused.values())} answered 429, {len(joined)} of {len(phones)} "
                      f"phones seated"))
    return lines


# -- the whole run ------------------------------------------------------------------------


def scan_logs(names: list[str], since: float = 0.0) -> list[str]:
    """What went wrong in the servers' logs: tracebacks by their last line, other errors.
    Logs not written since ``since`` (a part that was skipped) are an earlier run's: left out."""
    exception = re.compile(r"^[\w.]+(Error|Exception|Timeout)\b.*")
    lines = []
    for name in names:
        path = RESULTS / f"{name}.log"
        if not path.exists() or path.stat().st_mtime < since:
            continue
        text = path.read_text(errors="replace").splitlines()
        tracebacks = sum(1 for line in text if line.startswith("Traceback"))
        kinds: dict[str, int] = {}
        for line in text:
            if exception.match(line):
                kinds[line[:150]] = kinds.get(line[:150], 0) + 1
        other = [line for line in text if re.search(r"\[(ERROR|CRITICAL)\]|WORKER TIMEOUT", line)
                 and "Error handling request" not in line]
        if tracebacks or kinds or other:
            lines.append(f"  {path.relative_to(ROOT)}: {tracebacks} tracebacks")
            lines += [f"    {count} × {kind}" for kind, count in
                      sorted(kinds.items(), key=lambda item: -item[1])[:3]]
            lines += [f"    {line[:150]}" for line in other[:3]]
    return lines or ["  no errors in the servers' logs (bench/results/*.log)"]


SERVER_KINDS: set[str] = set()  # what the servers of this run were, as gunicorn was told


def describe(server: Server) -> str:
    """Which code, its workers and connections per worker, from the gunicorn master's command
    line."""
    settings: dict[str, str] = {}
    with contextlib.suppress(psutil.Error):
        line = psutil.Process(server.process.pid).cmdline()
        settings = dict(zip(line, line[1:]))
    workers = settings.get("--workers") or str(len(server.workers()))
    return (f"{f'baseline {BASELINE}' if server.baseline else 'this code'}: {workers} gevent "
            f"worker{'' if workers == '1' else 's'} × {settings.get('--worker-connections', '?')} "
            f"connections")


def yardstick_ms() -> float:
    """How fast this machine runs Python right now: a fixed loop, timed (the middle of three
    tries). Neighbours on a shared host change it from minute to minute, and the server's
    times with it."""
    tries = []
    for _try in range(3):
        started = time.perf_counter()
        total = 0
        for number in range(400_000):
            total += number * number
        tries.append(time.perf_counter() - started)
    return 1000 * sorted(tries)[1]


async def wait_for_quiet(args) -> str:
    """On a shared machine: wait (at most args.quiet seconds) until the rest of the machine
    uses less than half a core, so that a part does not start in someone else's busy spell."""
    if args.quiet <= 0:
        return ""
    started = time.perf_counter()
    while True:
        before = busy_seconds()
        await asyncio.sleep(2)
        busy = 100 * (busy_seconds() - before) / 2
        waited = time.perf_counter() - started
        if busy < 50 or waited >= args.quiet:
            return f"  (started after waiting {waited:.0f} s for a quieter machine: {busy:.0f} % busy)"


def generated_plays(count: int) -> list[dict]:
    """``count`` plays of a group of six over the games, as an export holds them (seeded:
    the same plays in every run)."""
    chooser = random.Random(20261201)
    people = ["Katrin", "Ben", "Cem", "Dana", "Emil", "Frieda"]
    games = [("asterix-obelix", 2, 2), ("kartenspiel", 2, 5), ("asterix-co", 2, 4),
             ("zaubertrank", 2, 4), ("scorepad", 2, 6)]
    plays = []
    start = 1_700_000_000
    for number in range(count):
        game, least, most = chooser.choice(games)
        seated = chooser.sample(people, chooser.randint(least, most))
        began = start + number * 7 * 86400 // 3
        if game == "zaubertrank":
            won = chooser.random() < 0.5
            players = [{"name": n, "score": None, "winner": won} for n in seated]
            result, facts = ("won" if won else "lost"), {
                "difficulty": chooser.choice(["easy", "normal", "hard"]),
                "roman_spaces_left": chooser.randint(0, 12)}
        else:
            scores = [chooser.randint(0, 60) for _ in seated]
            players = [{"name": n, "score": s, "winner": s == max(scores)}
                       for n, s in zip(seated, scores)]
            result, facts = None, {}
        plays.append({"uid": f"bench-{number}", "game": game,
                      "started_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(began)),
                      "ended_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00",
                                                time.gmtime(began + chooser.randint(900, 5400))),
                      "players": players, "cooperative": game == "zaubertrank", "result": result,
                      "facts": facts})
    return plays


async def group_pages(args) -> list[str]:
    """A group with 200 plays: its page and its statistics page (and their JSON), as ratios
    to /healthz measured alternately on the same server."""
    with Server("group", args.port + 5, args, single_database(args)) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)
            async with plain.post(f"{server.base}/api/groups",
                                  json={"name": "Bench night", "players": []}) as answer:
                code = (await answer.json())["code"]
            plays = generated_plays(args.group_plays)
            async with plain.post(f"{server.base}/api/groups/{code}/plays",
                                  json={"plays": plays}) as answer:
                imported = await answer.json()
            assert imported.get("plays") == len(plays), imported
            pages = {"group page /g/<code>": f"/g/{code}",
                     "statistics page /g/<code>/stats": f"/g/{code}/stats",
                     "statistics JSON /api/groups/<code>/stats": f"/api/groups/{code}/stats",
                     "export JSON /g/<code>/plays.json": f"/g/{code}/plays.json"}
            timings: dict[str, list[float]] = {label: [] for label in pages}
            health: list[float] = []
            sizes: dict[str, int] = {}
            for round_number in range(args.group_rounds + 3):
                for label, path in pages.items():
                    for target, into in (("/healthz", health), (path, timings[label])):
                        started = time.perf_counter()
                        async with plain.get(server.base + target,
                                             headers={"Accept-Encoding": "gzip"}) as answer:
                            body = await answer.read()
                            assert answer.status == 200, (target, answer.status)
                        if round_number >= 3:  # the first rounds warm the server up
                            into.append(time.perf_counter() - started)
                        if target == path:
                            sizes[label] = answer.content_length or len(body)
    lines = [f"8. A group with {len(plays)} plays: pages and statistics, each fetched "
             f"{args.group_rounds} times alternating with /healthz",
             timing_header(),
             timing_row("/healthz", health, health)]
    lines += [timing_row(label, values, health) for label, values in timings.items()]
    lines.append("  sizes (gzip as sent): " + ", ".join(f"{label.split(' ')[0]} {label.split(' ')[1]} "
                                                          f"{size / 1024:.1f} KB"
                                                          for label, size in sizes.items()))
    return lines


async def long_games(args) -> list[str]:
    """An action, a snapshot and an undo + redo on a table of 10 log entries and on one of
    10,000 (score pad), alternately with /healthz on the same server."""
    with Server("long", args.port + 8, args, single_database(args)) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)

            async def call(method: str, path: str, token: str | None = None,
                           body: dict | None = None) -> dict:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                async with plain.request(method, server.base + path, json=body,
                                         headers=headers) as answer:
                    data = await answer.json()
                    assert answer.status in (200, 201), (path, answer.status, data)
                    return data

            async def table_of(entries: int) -> tuple[str, str]:
                made = await call("POST", "/api/tables", body={"game": "scorepad",
                                                               "players": ["Ann", "Ben"]})
                for number in range(entries):
                    await call("POST", f"/api/tables/{made['code']}/actions", made["token"], {
                        "type": "enter_score", "player": "Ann" if number % 2 else "Ben",
                        "round": 1 + number % 30, "points": number})
                return made["code"], made["token"]

            sizes = (10, args.long_entries)
            log(f"long: entering {args.long_entries} scores …")
            tables = {size: await table_of(size) for size in sizes}
            timings: dict[tuple[str, int], list[float]] = {}
            health: list[float] = []
            for round_number in range(args.long_rounds + 3):
                for size, (code, token) in tables.items():
                    steps = {
                        "action": [("POST", f"/api/tables/{code}/actions", {
                            "type": "enter_score", "player": "Ann", "round": 1 + round_number % 30,
                            "points": round_number})],
                        "snapshot": [("GET", f"/api/tables/{code}", None)],
                        "undo + redo": [("POST", f"/api/tables/{code}/undo", {}),
                                        ("POST", f"/api/tables/{code}/redo", {})]}
                    for label, requests in steps.items():
                        started = time.perf_counter()
                        async with plain.get(server.base + "/healthz") as answer:
                            await answer.read()
                        took = time.perf_counter() - started
                        if round_number >= 3:  # the first rounds warm the server up
                            health.append(took)
                        started = time.perf_counter()
                        for method, path, body in requests:
                            await call(method, path, token, body)
                        if round_number >= 3:
                            timings.setdefault((label, size), []).append(time.perf_counter() - started)
    lines = [f"11. Long games: a score pad with {sizes[0]:,} log entries and one with {sizes[1]:,}, "
             f"{args.long_rounds} rounds of an action, a snapshot and an undo + redo on each, "
             f"alternating with /healthz",
             timing_header(),
             timing_row("/healthz", health, health)]
    for label in ("action", "snapshot", "undo + redo"):
        lines += [timing_row(f"{label}, {size:,} entries", timings[(label, size)], health)
                  for size in sizes]
    ratios = {label: median(timings[(label, sizes[1])]) / median(timings[(label, sizes[0])])
              for label in ("action", "snapshot", "undo + redo")}
    lines.append(goal("long", "the long game / the short one, p50 ≤ 2", max(ratios.values()) <= 2,
                      ", ".join(f"{label} {ratio:.2f}×" for label, ratio in ratios.items())))
    return lines


async def run(args, parts: list[str]) -> list[str]:
    sections: list[list[str]] = []
    steps = [("1.-3. Café, busy and idle", {"cafe", "busy", "idle"} & set(parts),
              lambda: push_and_idle(args, parts)),
             ("4. Two servers behind nginx", "two" in parts, lambda: two_servers(args)),
             ("5. Scale", "scale" in parts, lambda: scale(args)),
             ("6. Bytes per update", "bytes" in parts, lambda: bytes_per_update(args)),
             ("7. Poll", "poll" in parts, lambda: poll(args)),
             ("8. Group pages", "group" in parts, lambda: group_pages(args)),
             ("9. Idle and slow connections", "slow" in parts, lambda: slow_clients(args)),
             ("10. One client hammering", "hammer" in parts, lambda: hammering(args)),
             ("11. Long games", "long" in parts, lambda: long_games(args)),
             ("12. A large import", "import" in parts, lambda: importing(args)),
             ("13. A café behind one address", "venue" in parts, lambda: venue(args)),
             ("14. Statistics and exports", "stats" in parts, lambda: statistics_load(args))]
    for title, wanted, part in steps:
        if wanted:
            note = await wait_for_quiet(args)
            speed = yardstick_ms()
            try:
                section = await part()
            except (SystemExit, Exception) as exc:  # noqa: BLE001 - the other parts still run
                log(f"part failed: {exc!r}")
                section = [f"{title}: FAILED: {str(exc)[:300] or type(exc).__name__}"]
                GOALS.append(f"{title}: FAILED, its goals were not measured")
            finally:
                await close_phones(PHONES)
                PHONES.clear()
            speed_line = (f"  machine speed at the start: a fixed Python loop took {speed:.0f} ms, "
                          f"{yardstick_ms():.0f} ms at the end (on a shared machine it varies by half "
                          f"from minute to minute: compare runs at like speeds)")
            while section and not section[-1]:
                section.pop()
            sections.append(section[:1] + ([note] if note else []) + [speed_line] + section[1:])
    return [line for section in sections for line in section + [""]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated, any of {', '.join(PARTS)}, or push (cafe and "
                             f"busy) (default: all)")
    parser.add_argument("--tables", type=int, default=100,
                        help="tables in cafe, busy, idle, two, poll")
    parser.add_argument("--phones", type=int, default=6, help="phones (seats) per table")
    parser.add_argument("--cafe-seconds", type=int, default=60, help="measured time of cafe")
    parser.add_argument("--slices", type=int, default=6,
                        help="turns each server takes at a load of cafe and busy (alternating)")
    parser.add_argument("--cafe-rate", type=float, default=0.2,
                        help="changes per table per second in cafe")
    parser.add_argument("--seconds", type=int, default=30, help="measured time of busy, two, poll")
    parser.add_argument("--rate", type=float, default=1.0,
                        help="changes per table per second in busy, two, poll")
    parser.add_argument("--idle-seconds", type=int, default=30)
    parser.add_argument("--scale-tables", type=int, default=1000)
    parser.add_argument("--scale-seconds", type=int, default=20)
    parser.add_argument("--scale-changes", type=float, default=5.0,
                        help="changes per second across random tables in scale")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between polls per phone")
    parser.add_argument("--health", type=float, default=20.0,
                        help="/healthz probes per second (cafe, busy, two: at most one for "
                             "five changes)")
    parser.add_argument("--grace", type=float, default=20.0,
                        help="seconds to wait for late deliveries after the last change")
    parser.add_argument("--writers", type=int, default=32, help="phones in poll's writer burst")
    parser.add_argument("--burst-seconds", type=int, default=5)
    parser.add_argument("--client-connections", type=int, default=0,
                        help="poll: all phones share a pool of this many keep-alive connections "
                             "(0: one per phone, as browsers; the bench before push used 64)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite",
                        help="database of cafe, busy, idle, scale and poll (postgres: the one of "
                             "BENCH_DATABASE_URL, emptied first); two always uses PostgreSQL")
    parser.add_argument("--group-plays", type=int, default=200, help="plays of the group part")
    parser.add_argument("--group-rounds", type=int, default=40,
                        help="fetches of each group page (and of /healthz beside each)")
    parser.add_argument("--slow-idle", type=int, default=1000,
                        help="slow: connections held open that send nothing")
    parser.add_argument("--slow-trickling", type=int, default=100,
                        help="slow: connections that send one header line every --slow-every s")
    parser.add_argument("--slow-every", type=float, default=3.0,
                        help="slow: seconds between a trickling connection's header lines")
    parser.add_argument("--slow-rounds", type=int, default=200,
                        help="slow: rounds of /healthz + a table page, before and during")
    parser.add_argument("--slow-interval", type=float, default=0.1,
                        help="slow: seconds from one round to the next")
    parser.add_argument("--slow-timeout", type=float, default=5.0,
                        help="slow: a request not answered within this many seconds failed")
    parser.add_argument("--slow-max-seconds", type=float, default=60.0,
                        help="slow: no round under load starts after this many seconds")
    parser.add_argument("--hammer-tables", type=int, default=20,
                        help="hammer: tables (one is the hammering client's)")
    parser.add_argument("--hammer-requests", type=int, default=300,
                        help="hammer: reads, and as many actions, on the other tables, before "
                             "and during")
    parser.add_argument("--hammer-rate", type=float, default=20.0,
                        help="hammer: reads (and actions, and /healthz) per second")
    parser.add_argument("--hammer-in-flight", type=int, default=50,
                        help="hammer: the hammering client's requests in flight at once")
    parser.add_argument("--long-entries", type=int, default=10_000,
                        help="long: log entries of the long game")
    parser.add_argument("--long-rounds", type=int, default=40,
                        help="long: rounds of an action, a snapshot and an undo + redo")
    parser.add_argument("--import-plays", type=int, default=5000,
                        help="import: plays of the import (12 new names each)")
    parser.add_argument("--venue-tables", type=int, default=20, help="venue: tables")
    parser.add_argument("--venue-phones", type=int, default=6, help="venue: phones per table")
    parser.add_argument("--venue-join-seconds", type=int, default=120,
                        help="venue: the phones join spread over this many seconds")
    parser.add_argument("--venue-seconds", type=int, default=60, help="venue: seconds of taps")
    parser.add_argument("--stats-plays", type=int, default=5000,
                        help="stats: plays of the group (six people) the loops fetch")
    parser.add_argument("--stats-big-plays", type=int, default=3000,
                        help="stats: plays of the big group (12 new names each)")
    parser.add_argument("--port", type=int, default=5077, help="first of fourteen ports used")
    parser.add_argument("--quiet", type=float, default=0,
                        help="before each part, wait up to this many seconds for the rest of "
                             "the machine to use under half a core (a shared machine)")
    parser.add_argument("--workers", type=int, default=None,
                        help="this code's server workers (default: as serve)")
    parser.add_argument("--baseline-workers", type=int, default=None,
                        help="the baseline's workers (default: its own, 2 on this machine)")
    parser.add_argument("--server-connections", type=int, default=None,
                        help="connections per worker (default: as serve)")
    args = parser.parse_args()
    parts = [q for p in args.parts.split(",") if p.strip() for q in ALIASES.get(p.strip(), [p.strip()])]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    began = time.perf_counter()
    began_at = time.time()
    load = os.getloadavg()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # as Ctrl-C: servers stopped
    lines = asyncio.run(run(args, parts))
    header = [
        f"make bench ({', '.join(parts)}): companion serve ({'; '.join(sorted(SERVER_KINDS))}) "
        f"at 127.0.0.1; client: one asyncio + aiohttp process",
        f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GB, "
        f"load average at start {load[0]:.2f}; Python {platform.python_version()}, aiohttp "
        f"{aiohttp.__version__}; ×hz = the time divided by /healthz p50 (or p99) measured on the "
        f"same server during the same part",
        "",
    ]
    names = [n for part, n in (("cafe", "push"), ("busy", "push"), ("idle", "push"),
                               ("cafe", "push-baseline"), ("busy", "push-baseline"),
                               ("scale", "scale"), ("two", "two-a"), ("two", "two-b"),
                               ("poll", "poll"), ("bytes", "bytes"), ("group", "group"),
                               ("slow", "slow"), ("hammer", "hammer"), ("long", "long"),
                               ("stats", "stats"))
             if part in parts]
    footer = ["Server logs:", *scan_logs(list(dict.fromkeys(names)), began_at),
              f"whole run: {time.perf_counter() - began:.0f} s", "",
              "Goals (met / NOT met), for docs/performance.md:",
              *(f"- {line}" for line in GOALS or ["none measured in these parts"])]
    report = "\n".join(header + lines + footer)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "report.txt").write_text(report + "\n")
    print(report)


if __name__ == "__main__":
    main()
