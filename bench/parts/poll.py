"""Part 7: the poll, the fallback of phones without a live stream."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import aiohttp

from bench.changes import Change, all_delivered, deliveries, table_changes
from bench.phones import (Phone, REQUEST_TIMEOUT, close_phones, gather_limited, once_more,
                          set_up_tables)
from bench.report import (by_kind, combined_health, delivery_line, health_rows, log,
                          propagation_line, timing_header, timing_row)
from bench.servers import (Server, client_connector, database_name, probe_health, quiet_healthz,
                           single_database, wait_up)
from bench.timing import LoopLag, Window, median, percentile


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
