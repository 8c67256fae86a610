"""Changes tapped at tables of phones and their delivery to every other phone of the table: a
load run at a rate, and its report (cafe, busy and two)."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp

from bench.phones import Phone, stream_drops
from bench.report import (by_kind, combined_health, delivery_line, health_rows, log,
                          propagation_line, timing_header, timing_row)
from bench.servers import Server, probe_health
from bench.timing import LoopLag, Window


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


async def run_changes(args, name: str, tables: list[list[Phone]], servers: list[Server],
                      plain: aiohttp.ClientSession, rate: float, seconds: float,
                      proxy=None, base: str | None = None) -> dict:
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
