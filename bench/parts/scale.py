"""Part 5: thousands of open streams on one server process."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import aiohttp
import psutil

from bench.changes import Change, deliveries, wait_delivered
from bench.phones import (REQUEST_TIMEOUT, close_phones, open_streams, set_up_tables, stream_drops,
                          streams_failed)
from bench.report import (combined_health, delivery_line, goal, health_rows, log, mb,
                          propagation_line, timing_header, timing_row)
from bench.servers import (Server, client_connector, database_name, probe_health, quiet_healthz,
                           single_database, wait_up)
from bench.timing import LoopLag, Window, percentile, rss_bytes


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
