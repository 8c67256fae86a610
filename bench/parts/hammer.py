"""Part 10: one client hammering its own table, with the default rate limits."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp

from bench.households import DEFAULTS, HAMMER_ADDRESS, SecondProcess, other_sessions, other_tables
from bench.phones import REQUEST_TIMEOUT, create_table, gather_limited
from bench.report import by_kind, goal, log, timing_header, timing_row
from bench.servers import Server, client_connector, loopback_connector, single_database, wait_up
from bench.timing import LoopLag, Window, cpu_seconds, median, percentile


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
    live_headers = {"HX-Request": "true"}  # as static/app/live.js polls (a poll loop gone wild)
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
