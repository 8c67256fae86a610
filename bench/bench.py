"""`make bench`: the production server on loopback under a table-night load.

Starts gunicorn (as `companion serve`) on a fresh database, sets up N tables with M joined
phones each, then for a fixed time every phone polls once a second while a stream of score
actions runs, and probes /healthz on the same server throughout. It prints requests/s and
p50/p99 of the "nothing changed" poll, the board fragment and an action, the p95 time for a
change to reach the other phones, and each figure as a ratio to /healthz of the same run.

Not a test: nothing here asserts a time. Bounded in count and time, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'id="live-meta"[^>]*data-version="(\d+)"')
REGION = re.compile(r'data-region="(\w+)" data-hash="(\w+)"')


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Phone:
    """One joined browser: its cookie jar, CSRF token, known version and region hashes."""

    def __init__(self, session: aiohttp.ClientSession, base: str, code: str, seat: str):
        self.session, self.base, self.code, self.seat = session, base, code, seat
        self.token = ""
        self.version = -1
        self.have: dict[str, str] = {}
        self.seen_at: list[tuple[int, float]] = []  # (version, when this phone first showed it)
        self.waiting: list[tuple[int, float]] = []  # (version of a change, when it was sent)

    async def join(self) -> None:
        async with self.session.get(f"{self.base}/j/{self.code}") as response:
            self.token = CSRF.search(await response.text()).group(1)
        async with self.session.post(f"{self.base}/j/{self.code}",
                                     data={"csrf_token": self.token, "seat": self.seat}) as response:
            page = await response.text()
            assert response.status == 200, (response.status, page[:300])
        self.version = int(VERSION.search(page).group(1))
        self.have = dict(REGION.findall(page))
        self.token = CSRF.search(page).group(1)

    async def poll(self) -> tuple[int, float]:
        started = time.perf_counter()
        async with self.session.get(
            f"{self.base}/t/{self.code}/live", params={"v": self.version, "have": ",".join(f"{n}:{h}" for n, h in self.have.items())},
            headers={"HX-Request": "true"},
        ) as response:
            body = await response.read()
            status = response.status
        elapsed = time.perf_counter() - started
        if status == 200:
            text = body.decode()
            self.version = int(VERSION.search(text).group(1))
            self.have.update(REGION.findall(text))  # as app.js does: the swapped regions' hashes
            self.seen_at.append((self.version, time.perf_counter()))
        return status, elapsed

    def delivered(self) -> list[float]:
        """How long each change waited until this phone showed it (those it has shown)."""
        reached = [self.first_seen(version) - sent for version, sent in self.waiting
                   if version <= self.version]
        self.waiting = [(version, sent) for version, sent in self.waiting if version > self.version]
        return reached

    def first_seen(self, version: int) -> float:
        return min((when for seen, when in self.seen_at if seen >= version), default=time.perf_counter())

    async def act(self, points: int) -> tuple[int, float, int]:
        """Enter a score; answers the status, the time taken and the table's new version."""
        started = time.perf_counter()
        async with self.session.post(
            f"{self.base}/t/{self.code}/act", headers={"HX-Request": "true", "X-CSRFToken": self.token},
            data={"type": "enter_score", "player": self.seat, "round": 1, "points": points},
        ) as response:
            body = (await response.read()).decode()
            status = response.status
        found = VERSION.search(body)
        return status, time.perf_counter() - started, int(found.group(1)) if found else -1


class Server:
    def __init__(self, port: int, workers: int | None, threads: int | None):
        self.port = port
        self.workers = workers
        self.threads = threads
        self.instance = tempfile.mkdtemp(prefix="companion-bench-")
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        env = {**os.environ, "COMPANION_INSTANCE": self.instance, "JOIN_LIMIT": "100000"}
        env.pop("DATABASE_URL", None)
        args = [str(Path(sys.executable).with_name("companion")), "serve", "--host", "127.0.0.1",
                "--port", str(self.port)]
        if self.workers:
            args += ["--workers", str(self.workers)]
        if self.threads:
            args += ["--threads", str(self.threads)]
        self.log = open(Path(self.instance) / "server.log", "w")
        self.process = subprocess.Popen(args, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        return self

    def __exit__(self, exc_type, *_exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)
        self.log.close()
        if exc_type is not None:  # show why the server failed, not only that it did
            print((Path(self.instance) / "server.log").read_text()[-3000:], file=sys.stderr)


async def wait_up(session: aiohttp.ClientSession, base: str) -> None:
    for _ in range(300):
        try:
            async with session.get(f"{base}/healthz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("the server did not start")


async def create_table(session, base: str, players: list[str]) -> str:
    async with session.post(f"{base}/api/tables", json={"game": "scorepad", "players": players}) as r:
        return (await r.json())["code"]


async def run(args) -> dict:
    base = f"http://127.0.0.1:{args.port}"
    # Phones' browsers keep connections open between polls; so does the bench.
    connector = aiohttp.TCPConnector(limit=args.connections)
    timeout = aiohttp.ClientTimeout(total=30)
    results: dict[str, list[float]] = {k: [] for k in
                                       ("poll_204", "fragment", "action", "healthz", "reach",
                                        "burst")}
    failures = {"count": 0}  # answers other than 200/204: they would make the figures lie
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as plain:
        await wait_up(plain, base)
        seats = [f"P{i + 1}" for i in range(args.phones)]
        codes = await asyncio.gather(*(create_table(plain, base, seats) for _ in range(args.tables)))
        tables: list[list[Phone]] = []
        for code in codes:
            phones = []
            for seat in seats:
                jar = aiohttp.CookieJar(unsafe=True)
                session = aiohttp.ClientSession(connector=connector, connector_owner=False,
                                                cookie_jar=jar, timeout=timeout)
                phones.append(Phone(session, base, code, seat))
            tables.append(phones)
        await asyncio.gather(*(p.join() for phones in tables for p in phones))
        # Warm-up, not measured: the joins changed every table, so each phone first catches up
        # once (as a phone does after opening the page) before the evening's rhythm starts.
        everyone = [p for phones in tables for p in phones]
        for start in range(0, len(everyone), 50):
            await asyncio.gather(*(p.poll() for p in everyone[start:start + 50]))
        print(f"{args.tables} tables × {args.phones} phones joined; measuring {args.seconds} s …",
              file=sys.stderr)

        stop_at = time.perf_counter() + args.seconds

        async def phone_loop(phone: Phone) -> None:
            await asyncio.sleep(random.random() * args.interval)
            while time.perf_counter() < stop_at:
                tick = time.perf_counter()
                status, elapsed = await phone.poll()
                if status == 204:
                    results["poll_204"].append(elapsed)
                elif status == 200:
                    results["fragment"].append(elapsed)
                    results["reach"].extend(phone.delivered())
                else:
                    failures["count"] += 1
                await asyncio.sleep(max(0.0, args.interval - (time.perf_counter() - tick)))

        async def action_loop() -> None:
            while time.perf_counter() < stop_at - 2:
                phones = random.choice(tables)
                actor = random.choice(phones)
                sent = time.perf_counter()
                status, elapsed, version = await actor.act(random.randint(-20, 50))
                if status == 200:
                    results["action"].append(elapsed)
                    # Time from the tap to each other phone showing it (a phone may even have
                    # shown it before the tapping phone got its answer).
                    for other in phones:
                        if other is not actor:
                            other.waiting.append((version, sent))
                            results["reach"].extend(other.delivered())
                else:
                    failures["count"] += 1
                await asyncio.sleep(1 / args.actions)

        async def health_loop() -> None:
            while time.perf_counter() < stop_at:
                started = time.perf_counter()
                async with plain.get(f"{base}/healthz") as response:
                    await response.read()
                results["healthz"].append(time.perf_counter() - started)
                await asyncio.sleep(1 / args.health)

        began = time.perf_counter()
        await asyncio.gather(*(phone_loop(p) for phones in tables for p in phones),
                             action_loop(), health_loop())
        wall = time.perf_counter() - began

        # A burst of writers: many phones tapping back to back (SQLite queues them).
        burst_until = time.perf_counter() + args.burst_seconds

        async def writer(phone: Phone) -> None:
            while time.perf_counter() < burst_until:
                status, elapsed, _version = await phone.act(random.randint(0, 9))
                if status == 200:
                    results["burst"].append(elapsed)

        if args.writers:
            await asyncio.gather(*(writer(tables[i % len(tables)][i // len(tables) % args.phones])
                                   for i in range(args.writers)))
        for phones in tables:
            for phone in phones:
                await phone.session.close()
    await connector.close()
    return {"results": results, "failures": failures["count"], "wall": wall}


def server_kind(args) -> str:
    # The same defaults as `companion serve`.
    workers = args.workers or int(os.environ.get("WORKERS", min((os.cpu_count() or 1) + 1, 9)))
    threads = args.threads or int(os.environ.get("THREADS", "4"))
    if threads == 1:
        return f"{workers} sync workers"
    return f"{workers} workers × {threads} threads, keep-alive"


def report(args, measured: dict) -> str:
    results, wall = measured["results"], measured["wall"]
    health_p50 = statistics.median(results["healthz"]) if results["healthz"] else float("nan")
    health_p99 = percentile(results["healthz"], 0.99)
    lines = [
        f"make bench: {args.tables} tables × {args.phones} phones, one poll per phone every "
        f"{args.interval:g} s, {args.actions:g} actions/s, {args.seconds} s on gunicorn "
        f"({server_kind(args)}) at 127.0.0.1, SQLite in WAL mode",
        f"{'request':<28}{'count':>7}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'p50 ×hz':>9}{'p99 ×hz':>9}",
    ]
    names = [("healthz", "/healthz (yardstick)"), ("poll_204", "poll, nothing changed (204)"),
             ("fragment", "poll, changed regions (200)"), ("action", "action (enter a score)")]
    for key, label in names:
        values = results[key]
        if not values:
            continue
        p50, p99 = statistics.median(values), percentile(values, 0.99)
        lines.append(f"{label:<28}{len(values):>7}{len(values) / wall:>9.1f}{p50 * 1000:>9.2f}"
                     f"{p99 * 1000:>9.2f}{p50 / health_p50:>9.2f}{p99 / health_p99:>9.2f}")
    reach = results["reach"]
    if reach:
        lines.append(f"change reaches the other phones: p50 {statistics.median(reach) * 1000:.0f} ms, "
                     f"p95 {percentile(reach, 0.95) * 1000:.0f} ms, max {max(reach) * 1000:.0f} ms "
                     f"over {len(reach)} deliveries (p95 = {percentile(reach, 0.95) / health_p50:.0f}× healthz p50)")
    burst = results["burst"]
    if burst:
        lines.append(f"burst of {args.writers} writers tapping back to back for {args.burst_seconds} s: "
                     f"{len(burst) / args.burst_seconds:.0f} actions/s, p50 {statistics.median(burst) * 1000:.0f} ms, "
                     f"p99 {percentile(burst, 0.99) * 1000:.0f} ms "
                     f"({percentile(burst, 0.99) / health_p50:.0f}× healthz p50)")
    total = sum(len(v) for k, v in results.items() if k not in ("reach", "burst"))
    lines.append(f"all requests: {total} in {wall:.1f} s = {total / wall:.0f} req/s; "
                 f"answers other than 200/204: {measured['failures']}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=6)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between polls per phone")
    parser.add_argument("--actions", type=float, default=5.0, help="actions per second, all tables")
    parser.add_argument("--health", type=float, default=20.0, help="/healthz probes per second")
    parser.add_argument("--writers", type=int, default=32, help="phones in the writer burst")
    parser.add_argument("--burst-seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--port", type=int, default=5077)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    with Server(args.port, args.workers, args.threads):
        measured = asyncio.run(run(args))
    print(report(args, measured))


if __name__ == "__main__":
    main()
