"""`make soak`: racing writers through three `kill -9` restarts; is every acknowledged tap kept once?

For each database (SQLite, then the bench PostgreSQL database; --database picks one), this
starts the production server (`companion serve`: gunicorn with gevent workers, on 127.0.0.1)
in a session of its own, sets up --tables score pads of --phones seats through the JSON API
and has every seat joined by its own phone (its own bearer token; each table's phones come
from a loopback address of their own, a household each). For --seconds, the phones
of a table enter their scores together, the way a score pad is filled at the end of a round:
each phone writes its own player's next round (one cell of the sheet, never written twice),
within a fraction of a second of its table-mates, with the `expected_version` it last saw. The
server merges such taps (each touches its own cell); a 409 means: read the table again and
send once more; a 429: wait `Retry-After`.

Every tap carries an `Idempotency-Key` of its own. --kills times, spread evenly through the run,
the server's whole process tree (master and workers) gets SIGKILL, is started again at once on
the same database, and the script waits for /healthz. A tap whose answer was lost (the
connection refused, reset or closed by the kill; a timeout; a 5xx) is sent again, the same
request with the same key, until it is answered or --retry-seconds have passed since its
first lost answer: then its outcome is unknown.

When the writing has stopped and every retry is settled, every table is read back through
the API (its whole log, page by page through `log_next`) and checked:

  acknowledged     taps answered 2xx (some only by a retry, some as `Idempotent-Replayed`)
  lost             acknowledged, but their cell is not in the final state with their points,
                   or their key is not in the log (read from the database)
  doubled          a cell written more than once in the log, or a key recorded twice
  unknown-outcome  never answered; how many of them were recorded anyway is shown
  corrupted        a table that cannot be read; a log with gaps or a log entry nobody sent;
                   a state that disagrees with its log (cells, or totals ≠ the sum of the
                   logged points); on SQLite `PRAGMA integrity_check` ≠ ok

plus the kills, how long each restart took (kill → /healthz answered), acknowledged taps
per second, answer times, refusals by status and the servers' logs. The exit status is 1 when
anything was lost, doubled or corrupted (or a database could not be soaked), else 0.

Not a test (`make test` does not run it): bounded in time, loopback only. The report is
printed and kept in bench/results/soak.txt, beside each server life's log
(bench/results/soak-<database>-<life>.log).

The slow-client run (1,000 idle + 100 trickling connections held open, /healthz p99 with
and without them) is a part of the benchmark: make bench BENCH_ARGS="--parts slow".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import random
import re
import signal
import sqlite3
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402 - the benchmark's server and PostgreSQL set-up, shared
from bench import (  # noqa: E402
    RESULTS,
    Server,
    bench_database_url,
    busy_seconds,
    client_connector,
    log,
    loopback_connector,
    percentile,
    postgres_seconds,
    reset_database,
    scan_logs,
    wait_up,
)

SLOW_PART = 'make bench BENCH_ARGS="--parts slow"'
MAX_ROUNDS = 200  # the score pad's last round (games/scorepad/moves.py)
LOG_PAGE = 500  # the most log entries one snapshot may carry (views/api.LogPage)
WROTE = re.compile(r"^(?P<actor>\S+) wrote (?P<points>-?\d+) points? for (?P<player>\S+) "
                   r"in round (?P<round>\d+)\.$")
CHANGED = re.compile(r"^(?P<actor>\S+) changed (?P<player>\S+)'s round (?P<round>\d+) from "
                     r"(?P<before>-?\d+) to (?P<points>-?\d+) points?\.$")
# A phone writing its own cell (every soak phone does): the log says so in its own words.
OWN_WROTE = re.compile(r"^(?P<player>\S+) wrote down (?P<points>-?\d+) points? in round "
                       r"(?P<round>\d+)\.$")
OWN_CHANGED = re.compile(r"^(?P<player>\S+) changed their round (?P<round>\d+) from "
                         r"(?P<before>-?\d+) to (?P<points>-?\d+) points?\.$")


# -- the server, killed and started again --------------------------------------------------


class SoakServer(Server):
    """bench.Server in a session of its own, so that kill() reaches the master and every
    worker at once; restart() starts it again on the same instance folder and database,
    each life with its own log."""

    own_session = True

    def __init__(self, kind: str, port: int, args, database_url: str | None):
        super().__init__(f"soak-{kind}", port, args, database_url)
        self.life = 0
        self.log_path = RESULTS / f"{self.name}-{self.life}.log"

    def log_names(self) -> list[str]:
        return [f"{self.name}-{life}" for life in range(self.life + 1)]

    def kill(self) -> int:
        """SIGKILL to the server's whole process group; answers how many processes died."""
        pid = self.process.pid
        if os.getpgid(pid) != pid:  # never signal a group that is not the server's own
            raise SystemExit(f"the server {pid} is not the leader of its own process group")
        tree = self.processes()
        os.killpg(pid, signal.SIGKILL)
        self.process.wait()
        gone, alive = psutil.wait_procs(tree, timeout=15)
        if alive:
            raise SystemExit(f"kill -9 left server processes alive: {[p.pid for p in alive]}")
        self.log.close()
        return len(tree)

    def restart(self) -> None:
        self.life += 1
        self.log_path = RESULTS / f"{self.name}-{self.life}.log"
        self.__enter__()

    def sqlite_file(self) -> Path | None:
        return None if self.database_url else Path(self.instance) / "companion.sqlite3"


class CpuSampler:
    """CPU used by the server's processes (whichever life) and by PostgreSQL, sampled every
    two seconds (a killed process's last two seconds are missed), and by the whole machine."""

    def __init__(self, server: SoakServer):
        self.server = server
        self.server_seconds: dict[int, float] = {}
        self.postgres_seconds: dict[int, float] = {}

    async def run(self) -> None:
        self.began = time.perf_counter()
        self.machine_before = busy_seconds()
        postgres_before = postgres_seconds()
        while True:
            for process in self.server.processes():
                with contextlib.suppress(psutil.Error):
                    times = process.cpu_times()
                    self.server_seconds[process.pid] = times.user + times.system
            for pid, seconds in postgres_seconds().items():
                self.postgres_seconds[pid] = seconds - postgres_before.get(pid, 0.0)
            self.seconds = time.perf_counter() - self.began
            self.machine = busy_seconds() - self.machine_before
            await asyncio.sleep(2)

    def text(self) -> str:
        if not getattr(self, "seconds", 0):
            return "CPU not sampled"
        share = lambda used: 100 * used / self.seconds  # noqa: E731
        postgres = sum(self.postgres_seconds.values())
        return (f"server CPU {share(sum(self.server_seconds.values())):.0f} % of one core"
                + (f", PostgreSQL {share(postgres):.0f} %" if postgres > 0.5 else "")
                + f", whole machine {share(self.machine):.0f} % of {100 * (os.cpu_count() or 1)} %"
                f" ({os.cpu_count()} cores; this client included)")


# -- phones and their taps -----------------------------------------------------------------


@dataclass
class Tap:
    """One score a phone means to enter: one cell (its player, its round), one key."""

    table: str  # the table's code
    player: str
    round: int
    points: int
    key: str
    outcome: str = "pending"  # acknowledged | unknown | refused
    status: int | None = None  # the final answer's status
    attempts: int = 0
    lost_answers: int = 0  # attempts that got no usable answer
    lost_kinds: list[str] = field(default_factory=list)  # what each of them was
    replayed: bool = False  # acknowledged with Idempotent-Replayed: true
    shown_in_answer: bool | None = None  # the 2xx answer's state held this cell and points


@dataclass
class Phone:
    code: str
    seat: str
    token: str
    version: int  # the state_version this phone saw last
    session: aiohttp.ClientSession  # its table's: one household, one address
    next_round: int = 1
    taps: list[Tap] = field(default_factory=list)


@dataclass
class Table:
    code: str
    host_token: str
    phones: list[Phone]


def failure_kind(exc: BaseException) -> str:
    """A lost answer, by what happened to the connection."""
    if isinstance(exc, asyncio.TimeoutError):
        return "timeout"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "closed without an answer"
    if isinstance(exc, aiohttp.ClientConnectorError):
        number = getattr(exc.os_error, "errno", None)
        return "connection refused" if number == errno.ECONNREFUSED else "could not connect"
    if isinstance(exc, aiohttp.ClientOSError):
        number = exc.errno
        if number == errno.ECONNRESET:
            return "connection reset"
        if number is None:
            said = re.sub(r"^\[Errno None\]\s*", "", str(exc)).split(" for ")[0].strip()
            return f"connection error ({said[:40] or type(exc).__name__})"
        return f"connection error ({errno.errorcode.get(number, number)})"
    if isinstance(exc, aiohttp.ClientPayloadError):
        return "answer cut off"
    if isinstance(exc, ValueError):  # a 2xx whose body is not the JSON it should be
        return "unreadable answer"
    return type(exc).__name__


class Soak:
    """One database's run: the server, the phones, the kills, and what was counted."""

    def __init__(self, args, kind: str, server: SoakServer, session: aiohttp.ClientSession):
        self.args, self.kind, self.server, self.session = args, kind, server, session
        self.base = server.base
        self.tables: list[Table] = []
        self.refusals: Counter[str] = Counter()  # non-2xx answers and lost answers, by kind
        self.first_answers: dict[int, str] = {}  # the first answer's body, per non-2xx status
        self.sessions: list[aiohttp.ClientSession] = []  # one per table
        self.answer_times: list[tuple[float, float]] = []  # (sent, took) of every 2xx answer
        self.kills: list[dict] = []
        self.in_flight = 0
        self.rng = random.Random(f"soak-{kind}")
        self.timeout = aiohttp.ClientTimeout(total=args.timeout)

    # -- set-up --------------------------------------------------------------------------

    async def set_up(self) -> None:
        seats = [f"P{i + 1}" for i in range(self.args.phones)]
        gate = asyncio.Semaphore(16)

        async def post(path: str, body: dict, expect: int) -> dict:
            async with gate, self.session.post(self.base + path, json=body) as answer:
                data = await answer.json()
                if answer.status != expect:
                    raise SystemExit(f"set-up: POST {path} answered {answer.status}: {data}")
                return data

        async def one_table(index: int) -> Table:
            created = await post("/api/tables", {"game": "scorepad", "players": seats}, 201)
            code = created["code"]
            joined = await asyncio.gather(*(post(f"/api/tables/{code}/join", {"seat": seat}, 200)
                                            for seat in seats))
            # Each table is a household with an address of its own (127.1.x.y), as the
            # server's per-address limits expect; the set-up and the checks use 127.0.0.1.
            session = aiohttp.ClientSession(
                connector=loopback_connector(f"127.1.{index // 250}.{1 + index % 250}"),
                timeout=self.timeout)
            self.sessions.append(session)
            # Joins change the table, not the game: the state_version a phone starts from
            # is the one of the new table.
            return Table(code, created["token"],
                         [Phone(code, j["seat"], j["token"], created["version"], session)
                          for j in joined])

        self.tables = list(await asyncio.gather(*(one_table(i) for i in range(self.args.tables))))

    async def close(self) -> None:
        for session in self.sessions:
            await session.close()

    # -- the writing -----------------------------------------------------------------------

    async def phone_loop(self, table_start: float, phone: Phone, end: float) -> None:
        """At every tick of its table (1/rate s apart, within --spread s of its table-mates)
        the phone enters its player's next round; a tick missed while a tap was still being
        retried is skipped, not made up for."""
        period = 1 / self.args.rate
        tick = 0
        while phone.next_round <= MAX_ROUNDS:
            at = table_start + tick * period + self.rng.uniform(0, self.args.spread)
            if at >= end:
                return
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            await self.tap(phone)
            tick = max(tick + 1, int((time.perf_counter() - table_start) / period) + 1)

    async def tap(self, phone: Phone) -> None:
        tap = Tap(phone.code, phone.seat, phone.next_round, self.rng.randint(-50, 150),
                  f"soak-{uuid.uuid4().hex}")
        phone.next_round += 1
        phone.taps.append(tap)
        body = {"type": "enter_score", "player": tap.player, "round": tap.round,
                "points": tap.points, "expected_version": phone.version}
        headers = {"Authorization": f"Bearer {phone.token}", "Idempotency-Key": tap.key}
        url = f"{self.base}/api/tables/{phone.code}/actions"
        give_up_at: float | None = None  # set by the first lost answer
        stale = 0
        backoff = 0.25
        while True:
            tap.attempts += 1
            started = time.perf_counter()
            self.in_flight += 1
            try:
                async with phone.session.post(url, json=body, headers=headers,
                                              timeout=self.timeout) as answer:
                    status = answer.status
                    if 200 <= status < 300:
                        data = await answer.json()
                        cells = data["state"]["entries"].get(tap.player, {})
                        version = data["state_version"]
                        self.answer_times.append((started, time.perf_counter() - started))
                        tap.outcome, tap.status = "acknowledged", status
                        tap.replayed = answer.headers.get("Idempotent-Replayed") == "true"
                        tap.shown_in_answer = cells.get(str(tap.round)) == tap.points
                        phone.version = max(phone.version, version)
                        return
                    text = (await answer.read()).decode(errors="replace")
                    self.first_answers.setdefault(status, " ".join(text.split())[:160])
                    retry_after = answer.headers.get("Retry-After")
            except (aiohttp.ClientError, asyncio.TimeoutError, ValueError, KeyError) as exc:
                kind = failure_kind(exc)
                self.refusals[kind] += 1
                tap.lost_kinds.append(kind)
                status = None
            finally:
                self.in_flight -= 1
            now = time.perf_counter()
            if status is None or status >= 500:
                # No answer to go by: the same request again, later, for a bounded time.
                if status is not None:
                    self.refusals[f"{status}"] += 1
                    tap.lost_kinds.append(f"{status}")
                tap.lost_answers += 1
                give_up_at = give_up_at or now + self.args.retry_seconds
                if now >= give_up_at:
                    tap.outcome = "unknown"
                    return
                await asyncio.sleep(backoff * self.rng.uniform(0.5, 1.5))
                backoff = min(backoff * 2, 2.0)
                continue
            self.refusals[f"{status}"] += 1
            if status == 409 and stale < self.args.stale_retries:
                # Nothing was recorded: read the table again and send it with what was read.
                stale += 1
                fresh = await self.read_version(phone)
                if fresh is not None:
                    phone.version = max(phone.version, fresh)
                    body["expected_version"] = phone.version
                continue
            if status == 429:
                with contextlib.suppress(ValueError, TypeError):
                    await asyncio.sleep(float(retry_after or 1))
                continue
            tap.outcome, tap.status = "refused", status  # 4xx: not recorded, not retried
            return

    async def read_version(self, phone: Phone) -> int | None:
        with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError, ValueError, KeyError):
            async with phone.session.get(f"{self.base}/api/tables/{phone.code}?log=1",
                                         timeout=self.timeout) as answer:
                if answer.status == 200:
                    return (await answer.json())["state_version"]
        return None

    async def killer(self, began: float) -> None:
        for number in range(1, self.args.kills + 1):
            at = began + self.args.seconds * number / (self.args.kills + 1)
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            # Strike while taps are on their way (a commit may be cut off from its answer),
            # waiting at most one tick for one to be.
            waited_until = time.perf_counter() + 1 / self.args.rate
            while self.in_flight == 0 and time.perf_counter() < waited_until:
                await asyncio.sleep(0.005)
            in_flight = self.in_flight
            killed_at = time.perf_counter()
            processes = self.server.kill()
            log(f"{self.kind}: kill -9 #{number} at {killed_at - began:.0f} s "
                f"({processes} processes, {in_flight} taps in flight); starting again")
            self.server.restart()
            await wait_up(self.session, self.server)
            took = time.perf_counter() - killed_at
            log(f"{self.kind}: back up after {took:.1f} s")
            self.kills.append({"at": killed_at - began, "processes": processes,
                               "in_flight": in_flight, "restart": took,
                               "killed": killed_at, "back": killed_at + took})

    async def write(self) -> float:
        """The phones write for --seconds with the kills; answers the writing time (until
        the last tap is answered or given up)."""
        began = time.perf_counter()
        end = began + self.args.seconds
        period = 1 / self.args.rate
        phones = []
        for table in self.tables:
            table_start = began + self.rng.uniform(0, period)
            phones += [self.phone_loop(table_start, phone, end) for phone in table.phones]
        killer = asyncio.create_task(self.killer(began))
        await asyncio.gather(*phones)
        await killer  # a kill late in the run may still be waiting for /healthz
        return time.perf_counter() - began

    # -- reading back ----------------------------------------------------------------------

    async def read_table(self, code: str) -> tuple[dict, list[dict]]:
        """The table's snapshot and its whole log (oldest first), page by page."""
        entries: list[dict] = []
        before = None
        first = None
        while True:
            query = f"?log={LOG_PAGE}" + (f"&log_before={before}" if before else "")
            for attempt in range(5):
                try:
                    async with self.session.get(f"{self.base}/api/tables/{code}{query}",
                                                timeout=self.timeout) as answer:
                        data = await answer.json()
                        if answer.status != 200:
                            raise ValueError(f"answered {answer.status}: {data}")
                        break
                except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as exc:
                    if attempt == 4:
                        raise ValueError(f"GET {query}: {exc}") from None
                    await asyncio.sleep(1)
            first = first or data
            entries += data["log"]
            before = data["log_next"]
            if before is None:
                return first, entries[::-1]

    async def check(self) -> dict:
        """Every table read back and compared with the taps; the database's own view."""
        taps = {tap.key: tap for table in self.tables for phone in table.phones for tap in phone.taps}
        by_cell = {(tap.table, tap.player, tap.round): tap for tap in taps.values()}
        found: dict[str, int] = {}  # problems by kind
        bad_tables: set[str] = set()  # the corrupted tables
        examples: list[str] = []

        def problem(kind: str, text: str, code: str) -> None:
            found[kind] = found.get(kind, 0) + 1
            bad_tables.add(code)
            if len(examples) < 8:
                examples.append(f"corrupted: {text}")

        logged: dict[tuple, list[int]] = {}  # cell → the points of every log entry writing it
        final: dict[tuple, int] = {}  # cell → its points in the final state
        gate = asyncio.Semaphore(8)

        async def one(table: Table) -> None:
            async with gate:
                try:
                    snapshot, entries = await self.read_table(table.code)
                except (ValueError, KeyError) as exc:
                    problem("unreadable table", f"{table.code}: {exc}", table.code)
                    return
            seqs = [entry["seq"] for entry in entries]
            if seqs != list(range(1, snapshot["version"] + 1)):
                problem("log with gaps or repeats",
                        f"{table.code}: seqs {seqs[:3]}…{seqs[-3:]}, version {snapshot['version']}",
                        table.code)
            replayed: dict[str, dict[str, int]] = {p: {} for p in snapshot["players"]}
            for entry in entries:
                if entry["kind"] == "admin":
                    continue
                match = next((m for m in (pattern.match(entry["text"]) for pattern in
                                          (WROTE, CHANGED, OWN_WROTE, OWN_CHANGED)) if m), None)
                if entry["kind"] != "action" or match is None:
                    problem("log entry nobody sent", f"{table.code} #{entry['seq']}: {entry['text']}",
                            table.code)
                    continue
                player, points = match["player"], int(match["points"])
                cell = (table.code, player, int(match["round"]))
                actor = match.groupdict().get("actor", player)
                if actor != player or entry["actor"] != player or cell not in by_cell:
                    problem("log entry nobody sent", f"{table.code} #{entry['seq']}: {entry['text']}",
                            table.code)
                logged.setdefault(cell, []).append(points)
                replayed.setdefault(player, {})[match["round"]] = points
            state = snapshot["state"]["entries"]
            if state != replayed:
                problem("state ≠ log", f"{table.code}: the state's cells differ from the log's",
                        table.code)
            totals = {p: sum(cells.values()) for p, cells in replayed.items()}
            if snapshot["scores"] != {p: sum(state.get(p, {}).values()) for p in snapshot["players"]} \
                    or snapshot["scores"] != totals:
                problem("totals ≠ sum of the log", f"{table.code}: scores {snapshot['scores']}, "
                                                   f"log {totals}", table.code)
            for player, cells in state.items():
                for number, points in cells.items():
                    final[(table.code, player, int(number))] = points

        await asyncio.gather(*(one(table) for table in self.tables))

        keys = self.recorded_keys()
        result = {"taps": len(taps), "problems": found, "examples": examples,
                  "database": keys.get("integrity")}
        acknowledged = [t for t in taps.values() if t.outcome == "acknowledged"]
        unknown = [t for t in taps.values() if t.outcome == "unknown"]
        refused = [t for t in taps.values() if t.outcome == "refused"]
        recorded = keys.get("counts")  # key → times in the log (None: not readable)

        def in_state(tap: Tap) -> bool:
            return final.get((tap.table, tap.player, tap.round)) == tap.points

        def by_key(tap: Tap) -> bool:
            return recorded is None or recorded.get(tap.key, 0) > 0

        lost = [t for t in acknowledged if not (in_state(t) and by_key(t))]
        for tap in lost[:5]:
            examples.append(f"lost: table {tap.table} {tap.player} round {tap.round} = "
                            f"{tap.points} (key {tap.key}, {tap.attempts} attempts, "
                            f"in state: {in_state(tap)}, key in log: {by_key(tap)})")
        doubled_cells = [cell for cell, points in logged.items() if len(points) > 1]
        doubled_keys = [key for key, count in (recorded or {}).items() if count > 1]
        for cell in doubled_cells[:5]:
            examples.append(f"doubled: table {cell[0]} {cell[1]} round {cell[2]} "
                            f"logged {len(logged[cell])} times ({logged[cell]})")
        for key in (recorded or {}):
            if key not in taps:
                problem("key in the log nobody sent", f"key {key} ({keys['tables'][key]})",
                        keys["tables"][key])
        for tap in refused:
            if in_state(tap) or (recorded or {}).get(tap.key):
                problem("refused, yet recorded", f"{tap.table} {tap.player} round {tap.round} "
                        f"(answered {tap.status})", tap.table)
        result.update(
            acknowledged=len(acknowledged),
            replayed=sum(t.replayed for t in acknowledged),
            after_lost_answer=sum(1 for t in acknowledged if t.lost_answers),
            not_shown=sum(1 for t in acknowledged if t.shown_in_answer is False),
            # Replayed although no attempt could have committed but one answered 5xx (the
            # others never reached the server): the 5xx came after the commit.
            replayed_after={status: sum(1 for t in acknowledged
                                        if t.replayed and status in t.lost_kinds
                                        and all(k.isdigit() or k == "connection refused"
                                                for k in t.lost_kinds))
                            for status in {k for t in acknowledged for k in t.lost_kinds
                                           if k.isdigit()}},
            lost=len(lost),
            doubled=len(set(doubled_cells)) + len(doubled_keys),
            unknown=len(unknown),
            unknown_recorded=sum(1 for t in unknown
                                 if in_state(t) or (recorded or {}).get(t.key, 0) > 0),
            refused=Counter(t.status for t in refused),
            corrupted=len(bad_tables) + (0 if keys.get("integrity") in (None, "ok") else 1),
            keys_read=recorded is not None, key_problem=keys.get("problem"),
        )
        return result

    def recorded_keys(self) -> dict:
        """From the database itself: how often each Idempotency-Key is in the log, and on
        SQLite `PRAGMA integrity_check`."""
        query = ("SELECT l.request_key, min(t.code), count(*) FROM log_entry l JOIN game_table t "
                 "ON t.id = l.table_id WHERE l.request_key IS NOT NULL GROUP BY l.request_key")
        path = self.server.sqlite_file()
        try:
            if path is not None:
                with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True,
                                                        timeout=30)) as connection:
                    integrity = "; ".join(row[0] for row in
                                          connection.execute("PRAGMA integrity_check").fetchall())
                    rows = connection.execute(query).fetchall()
                return {"integrity": integrity, "counts": {key: n for key, _code, n in rows},
                        "tables": {key: code for key, code, _n in rows}}
            import psycopg

            with psycopg.connect(self.server.database_url, autocommit=True) as connection:
                rows = connection.execute(query).fetchall()
            return {"counts": {key: n for key, _code, n in rows},
                    "tables": {key: code for key, code, _n in rows}}
        except Exception as exc:  # noqa: BLE001 - reported, and the API's view still counts
            return {"problem": f"{type(exc).__name__}: {exc}", "integrity": "not checked"
                    if path is not None else None}


# -- one database, and the report ------------------------------------------------------------


def soak_database_url() -> str:
    """SOAK_DATABASE_URL, else the bench's server and role (BENCH_DATABASE_URL) with a database
    of the soak's own, so that a `make bench --database postgres` meanwhile empties nothing of
    it (and the soak's kills cut nothing of the bench's)."""
    return os.environ.get("SOAK_DATABASE_URL") or (
        bench_database_url().rsplit("/", 1)[0] + "/companion_soak")


def role_of(url: str) -> str:
    return url.split("://", 1)[-1].split("@")[0].split(":")[0] or "companion"


def ensure_database(url: str) -> str | None:
    """Create the soak database when it is missing (the role needs CREATEDB for that); None
    when it is there, else why not."""
    try:
        import psycopg
        from psycopg import sql
    except ImportError:
        return "psycopg is not installed"
    name = url.rsplit("/", 1)[-1].split("?")[0]
    try:
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True,
                             connect_timeout=5) as connection:
            if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  (name,)).fetchone():
                return None
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except Exception as exc:  # noqa: BLE001 - any reason is a reason not to run
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc) else ''}"
    return None


async def soak_database(args, kind: str) -> tuple[list[str], bool]:
    """One database's soak: its report lines, and whether it passed."""
    title = "SQLite" if kind == "sqlite" else f"PostgreSQL ({soak_database_url().split('@')[-1]})"
    url = None
    if kind == "postgres":
        url = soak_database_url()
        problem = ensure_database(url) or reset_database(url)  # emptied first, as the bench's
        if problem:
            return [f"{title}: NOT RUN: the database is not usable ({problem}); create it once "
                    f"with: runuser -u postgres -- psql -c \"CREATE DATABASE "
                    f"{url.rsplit('/', 1)[-1]} OWNER {role_of(url)}\""], False
    server = SoakServer(kind, args.port, args, url)
    with server:
        connector = client_connector()
        async with aiohttp.ClientSession(connector=connector,
                                         timeout=aiohttp.ClientTimeout(total=args.timeout)) as session:
            await wait_up(session, server)
            soak = Soak(args, kind, server, session)
            log(f"{kind}: setting up {args.tables} tables × {args.phones} phones")
            try:
                await soak.set_up()
                return await write_and_check(args, kind, title, soak, server)
            finally:
                await soak.close()


async def write_and_check(args, kind: str, title: str, soak: Soak, server: SoakServer
                          ) -> tuple[list[str], bool]:
    """The writing with its kills, then every table read back: the report and the verdict."""
    sampler = CpuSampler(server)
    sampling = asyncio.create_task(sampler.run())
    log(f"{kind}: writing for {args.seconds} s with {args.kills} kill -9")
    try:
        took = await soak.write()
    finally:
        sampling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampling
    log(f"{kind}: reading every table back")
    await asyncio.sleep(1)  # calm: nothing is being written any more
    result = await soak.check()
    return report(args, title, soak, result, took, sampler, server), passed(result)


def passed(result: dict) -> bool:
    return result["lost"] == 0 and result["doubled"] == 0 and result["corrupted"] == 0


def report(args, title: str, soak: Soak, result: dict, took: float, sampler: CpuSampler,
           server: SoakServer) -> list[str]:
    phones = args.tables * args.phones
    kills = soak.kills
    restarts = ", ".join(f"{k['restart']:.1f} s" for k in kills) or "-"
    at = ", ".join(f"{k['at']:.0f} s" for k in kills) or "-"
    in_flight = ", ".join(str(k["in_flight"]) for k in kills) or "-"
    labels = {"409": "409 stale (read again, sent again)", "429": "429 (waited Retry-After)"}
    refusals = ", ".join(f"{labels.get(kind, kind)} × {count}" for kind, count in
                         sorted(soak.refusals.items(), key=lambda item: (-item[1], item[0])))
    problems = ", ".join(f"{kind} × {count}" for kind, count in result["problems"].items())
    integrity = result["database"]
    unknown = result["unknown"]
    lines = [
        f"{title}: {args.tables} tables × {args.phones} phones = {phones} phones, "
        f"{result['taps']} taps sent in {took:.0f} s (writing {args.seconds} s, then retries "
        f"settled)",
        f"  kills: {len(kills)} of {args.kills} kill -9 of the whole server (at {at}; taps in "
        f"flight {in_flight}); back up (kill → /healthz 200) after {restarts}",
        f"  acknowledged     {result['acknowledged']}  ({result['acknowledged'] / took:.1f} "
        f"actions/s; {result['after_lost_answer']} only after a lost answer, "
        f"{result['replayed']} of them Idempotent-Replayed)",
        f"  lost             {result['lost']}",
        f"  doubled          {result['doubled']}",
        f"  unknown-outcome  {unknown}" + (f"  ({result['unknown_recorded']} of them recorded, "
                                          f"{unknown - result['unknown_recorded']} not)"
                                          if unknown else ""),
        f"  corrupted        {result['corrupted']}"
        + (f"  ({problems})" if problems else "")
        + (f"; PRAGMA integrity_check: {integrity}" if integrity else ""),
        f"  refusals and lost answers by status: {refusals or 'none'}",
        f"  answer time of the 2xx answers: {answer_times(soak)}",
        f"  {sampler.text()}",
    ]
    for status, text in sorted(soak.first_answers.items()):
        lines.append(f"  the first {status} answer said: {text}")
    if result["refused"]:
        lines.append("  refused for good (4xx, not retried): " + ", ".join(
            f"{status} × {count}" for status, count in result["refused"].items()))
    for status, count in sorted(result["replayed_after"].items()):
        if count:
            lines.append(f"  recorded although answered {status} (no other attempt reached the "
                         f"server; the retry was answered Idempotent-Replayed): {count}")
    if result["not_shown"]:
        lines.append(f"  2xx answers whose state did not show their own cell: {result['not_shown']}")
    if not result["keys_read"]:
        lines.append(f"  keys not read from the database: {result['key_problem']}")
    lines += [f"  {example}" for example in result["examples"]]
    lines += scan_logs(server.log_names())
    lines.append("  verdict: " + ("PASS (nothing lost, doubled or corrupted)" if passed(result)
                                  else "FAIL"))
    return lines


def answer_times(soak: Soak) -> str:
    """p50/p99 of the 2xx answers to requests sent in calm times, and apart those sent
    between a kill and ten seconds after the server was back (cold workers, the retries)."""
    def near_kill(sent: float) -> bool:
        return any(k["killed"] <= sent <= k["back"] + 10 for k in soak.kills)

    def text(values: list[float]) -> str:
        return (f"p50 {percentile(values, 0.5) * 1000:.0f} ms, p99 "
                f"{percentile(values, 0.99) * 1000:.0f} ms, max {max(values, default=0) * 1000:.0f} "
                f"ms ({len(values)})")

    calm = [took for sent, took in soak.answer_times if not near_kill(sent)]
    restarting = [took for sent, took in soak.answer_times if near_kill(sent)]
    return (f"calm {text(calm)}"
            + (f"; up to 10 s after a restart {text(restarting)}" if restarting else ""))


async def run(args) -> tuple[list[str], bool]:
    kinds = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    lines, ok = [], True
    for kind in kinds:
        try:
            section, good = await soak_database(args, kind)
        except (SystemExit, Exception) as exc:  # noqa: BLE001 - the other database still runs
            log(f"{kind}: failed: {exc!r}")
            section, good = [f"{kind}: FAILED: {str(exc)[:300] or type(exc).__name__}"], False
        lines += section + [""]
        ok = ok and good
    return lines, ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--database", choices=("sqlite", "postgres", "both"), default="both",
                        help="both: SQLite, then PostgreSQL (SOAK_DATABASE_URL, default the "
                             "bench's server with the database companion_soak, emptied first)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=6, help="phones (seats) per table")
    parser.add_argument("--seconds", type=int, default=300, help="writing time per database")
    parser.add_argument("--kills", type=int, default=3,
                        help="kill -9 restarts per database, spread evenly through the writing")
    parser.add_argument("--rate", type=float, default=0.1,
                        help="taps per phone per second (the phones of a table tap together)")
    parser.add_argument("--spread", type=float, default=0.3,
                        help="seconds within which the phones of a table tap")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds before an unanswered request counts as a lost answer")
    parser.add_argument("--retry-seconds", type=float, default=60.0,
                        help="how long after its first lost answer a tap is still sent again")
    parser.add_argument("--stale-retries", type=int, default=20,
                        help="409s after which a tap is given up (refused)")
    parser.add_argument("--port", type=int, default=5097)
    parser.add_argument("--workers", type=int, default=None, help="server workers (default: as serve)")
    parser.add_argument("--server-connections", type=int, default=None,
                        help="connections per worker (default: as serve)")
    args = parser.parse_args()
    if args.rate <= 0 or args.tables < 1 or not 1 <= args.phones <= 12:
        parser.error("--rate must be positive, --tables at least 1, --phones 1 to 12")
    began = time.perf_counter()
    load = os.getloadavg()
    lines, ok = asyncio.run(run(args))
    header = [
        f"make soak: racing writers through kill -9 restarts; companion serve "
        f"({'; '.join(sorted(bench.SERVER_KINDS)) or '?'}) at 127.0.0.1; {args.rate:g} taps "
        f"per phone per second, a table's phones within {args.spread:g} s of each other; "
        f"retries with the same Idempotency-Key for {args.retry_seconds:g} s",
        f"machine: {os.cpu_count()} cores, load average at start {load[0]:.2f}",
        "",
    ]
    footer = [f"The slow-client run (1,000 idle + 100 trickling connections, /healthz p99): "
              f"{SLOW_PART}",
              f"whole run: {time.perf_counter() - began:.0f} s; "
              + ("PASS" if ok else "FAIL: see above")]
    text = "\n".join(header + lines + footer)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "soak.txt").write_text(text + "\n")
    print(text)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
