"""Parts 1 to 3: café and busy (this code and the baseline in turns) and idle streams."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import aiohttp

from bench.changes import cpu_per_change, deliveries, push_lines, run_changes
from bench.phones import (Phone, REQUEST_TIMEOUT, close_phones, open_streams, set_up_tables,
                          streams_failed)
from bench.report import GOALS, goal, log, mb
from bench.servers import (Server, baseline_folder, client_connector, database_name,
                           describe, quiet_healthz, single_database, wait_up)
from bench.timing import LoopLag, Window, percentile, rss_bytes


async def push_and_idle(args) -> list[str]:
    """The café and busy loads on this code's server and the baseline's, both up with their
    phones' streams open, each load taken in turns (``--slices`` turns each, alternating who
    goes first): this machine's speed drifts by half within minutes, so both meet the same
    stretches of it. Idle on this code's phones before the baseline starts."""
    parts = args.asked
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
                    phones_on_server(args, "push-baseline", args.port + 9,
                                     baseline_folder(args.baseline), False))
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


def load_section(args, name: str, rate: float, seconds: int, mine: dict, theirs: dict | None,
                 problem: str) -> list[str]:
    """One load's report: this code's run, the baseline's, and the two side by side."""
    runs = [("this code", mine)] + ([(f"the baseline {args.baseline}", theirs)] if theirs else [])
    title = {"cafe": "1. Café (the gate)", "busy": "2. Busy"}[name]
    lines = [f"{title}: {args.tables} tables × {args.phones} phones with open streams (gzip), "
             f"{rate:g} change per table per second for {seconds} s, {database_name(args)}; this "
             f"code and the baseline ({args.baseline}) under the same load, in "
             f"{args.slices} turns each"]
    for _label, found in runs:
        lines.append(f"  {found['kind']}:")
        lines += push_lines(args, found["runs"][name], found["quiet"], found["failed"],
                            found["took"], found["probe_cpu"])
    if problem:
        lines.append(f"  the baseline {args.baseline}: FAILED: {problem}")
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
