"""Part 14: statistics and exports fetched round and round while the other tables play."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter

import aiohttp

from bench.households import (DEFAULTS, HAMMER_ADDRESS, loaded_rows, other_sessions, other_tables,
                              quieter)
from bench.phones import REQUEST_TIMEOUT, create_table, gather_limited
from bench.plays import generated_plays, import_body, imported_group
from bench.report import by_kind, goal, log, timing_header
from bench.servers import Server, client_connector, loopback_connector, single_database, wait_up
from bench.timing import LoopLag, Window, cpu_seconds, median, used_since


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
            firsts = []
            for number in range(1, BIG_GROUPS + 1):
                big = await imported_group(owner, server.base, f"Big import {number}",
                                           import_body(args.stats_big_plays, 12))
                first = {}
                for label in ("statistics JSON", "statistics page", "export CSV"):
                    started, cpu = time.perf_counter(), cpu_seconds([server])
                    async with looper.get(server.base + STATS_PATHS[label].format(code=big),
                                          headers={"Accept-Encoding": "gzip"}) as answer:
                        body = await answer.read()
                    first[label] = (answer.status, time.perf_counter() - started, len(body),
                                    used_since(cpu, cpu_seconds([server])))
                firsts.append(first)
        finally:
            await asyncio.gather(*(s.close() for s in sessions), health.close(), looper.close(),
                                 owner.close())
    return stats_lines(args, quiet, loaded, quiet_failed, loaded_failed, window, lag, fetched,
                       before, added, firsts)


BIG_GROUPS = 3  # big groups imported, each fetched for the first time: the goal takes the median
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


def stats_lines(args, quiet, loaded, quiet_failed, loaded_failed, window, lag, fetched, before,
                added, firsts) -> list[str]:
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
    lines.append(f"  {BIG_GROUPS} groups of {args.stats_big_plays} imported plays of 12 new names "
                 f"each ({12 * args.stats_big_plays:,} players), imported and fetched one after "
                 "the other; each one's first fetch:")
    for number, first in enumerate(firsts, start=1):
        lines.append(f"    group {number}: " + ", ".join(
            f"{label} {status} in {took:.2f} s, {cpu:.2f} s of server CPU "
            f"({size / 2**20:.1f} MB as sent)" for label, (status, took, size, cpu) in first.items()))
    statistics = [first["statistics JSON"] for first in firsts]
    took, cpu = median([s[1] for s in statistics]), median([s[3] for s in statistics])
    lines.append(goal("stats", f"the first statistics of {args.stats_big_plays} plays and "
                      f"{12 * args.stats_big_plays:,} players under 1 s (the median of "
                      f"{BIG_GROUPS} groups)", all(s[0] == 200 for s in statistics) and took < 1,
                      f"{took:.2f} s, {cpu:.2f} s of server CPU"))
    return lines
