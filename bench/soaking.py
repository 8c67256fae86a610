"""The soak's load (bench/soak.py): its server, killed with its whole process tree and started
again on the same database; the CPU sampled across the server's lives; the phones of each table
writing their own cells with retries; and every table read back and checked."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import random
import re
import signal
import sqlite3
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import psutil

from bench.report import RESULTS, log
from bench.servers import Server, loopback_connector, wait_up
from bench.timing import busy_seconds, postgres_seconds


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


class SoakServer(Server):
    """servers.Server in a session of its own, so that kill() reaches the master and every
    worker at once; restart() starts it again on the same instance folder and database,
    each life with its own log."""

    own_session = True

    def __init__(self, kind: str, port: int, args, database_url: str | None):
        super().__init__(f"soak-{kind}", port, args, database_url)
        self.life = 0
        self.log = RESULTS / f"{self.name}-{self.life}.log"

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
        return len(tree)

    def restart(self) -> None:
        self.life += 1
        self.log = RESULTS / f"{self.name}-{self.life}.log"
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
