"""The harness of `make bench`: the command line, each part asked for run in turn (bench/parts/,
in the order registered there), and the report printed and kept in bench/results/report.txt."""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import signal
import time

import aiohttp
import psutil

from bench.parts import ALIASES, NAMES, PARTS
from bench.phones import PHONES, close_phones
from bench.report import GOALS, RESULTS, log
from bench.servers import BASELINE, SERVER_KINDS, scan_logs
from bench.timing import busy_seconds, yardstick_ms


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


async def run(args, parts: list[str]) -> list[str]:
    """Each part asked for, in the registry's order: its lines, after a note on how fast the
    machine ran at its start and end; a part that fails says so, and the others still run."""
    sections: list[list[str]] = []
    for part in PARTS:
        if set(part.names) & set(parts):
            note = await wait_for_quiet(args)
            speed = yardstick_ms()
            try:
                section = await part.measure(args)
            except (SystemExit, Exception) as exc:  # noqa: BLE001 - the other parts still run
                log(f"part failed: {exc!r}")
                section = [f"{part.title}: FAILED: {str(exc)[:300] or type(exc).__name__}"]
                GOALS.append(f"{part.title}: FAILED, its goals were not measured")
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


def arguments(doc: str) -> argparse.ArgumentParser:
    """The command line; ``doc`` (bench/bench.py's docstring) is its description and epilog."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=doc.split("\n\n", 1)[1])
    parser.add_argument("--parts", default=",".join(NAMES),
                        help=f"comma-separated, any of {', '.join(NAMES)}, or push (cafe and "
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
    parser.add_argument("--baseline", default=BASELINE,
                        help="the commit café and busy run in turns with (default: the code "
                             "before issue 28; e.g. the code before a change of yours)")
    parser.add_argument("--baseline-workers", type=int, default=None,
                        help="the baseline's workers (default: its own, 2 on this machine)")
    parser.add_argument("--server-connections", type=int, default=None,
                        help="connections per worker (default: as serve)")
    return parser


def main(doc: str) -> None:
    parser = arguments(doc)
    args = parser.parse_args()
    parts = [q for p in args.parts.split(",") if p.strip() for q in ALIASES.get(p.strip(), [p.strip()])]
    unknown = set(parts) - set(NAMES)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    args.asked = parts  # which of its names a part of several was asked for (cafe, busy, idle)
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
    names = [name for part in PARTS if set(part.names) & set(parts) for name in part.logs]
    footer = ["Server logs:", *scan_logs(list(dict.fromkeys(names)), began_at),
              f"whole run: {time.perf_counter() - began:.0f} s", "",
              "Goals (met / NOT met), for docs/performance.md:",
              *(f"- {line}" for line in GOALS or ["none measured in these parts"])]
    report = "\n".join(header + lines + footer)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "report.txt").write_text(report + "\n")
    print(report)
