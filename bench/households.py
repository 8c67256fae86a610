"""The other tables of hammer, import and stats: each from a loopback address of its own (a
household), reading and entering scores at a steady pace with /healthz, before and during a
load; and the second process that loads the server (slow, hammer)."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp
import psutil

from bench.phones import REQUEST_TIMEOUT
from bench.report import timing_row
from bench.servers import loopback_connector
from bench.timing import percentile


HAMMER_ADDRESS = "127.0.0.2"  # Linux routes all of 127.0.0.0/8 to lo: a client of its own


OTHERS_FIRST = 10  # the other tables' clients: 127.0.0.10, 127.0.0.11, …


# Default limits: the bench's lifted ones (and its join and stream allowances) removed.
DEFAULTS = {"RATE_LIMITS": None, "JOIN_LIMIT": None, "STREAMS_PER_CLIENT": None}


def other_sessions(args) -> list[aiohttp.ClientSession]:
    """The other tables' clients, each from a loopback address of its own (a household)."""
    return [aiohttp.ClientSession(connector=loopback_connector(f"127.0.0.{OTHERS_FIRST + index}"),
                                  timeout=REQUEST_TIMEOUT) for index in range(args.hammer_tables - 1)]


async def other_tables(base: str, tables: list[dict], sessions: list[aiohttp.ClientSession],
                       health: aiohttp.ClientSession, count: int, rate: float
                       ) -> tuple[dict[str, list[tuple[float, float]]], dict[str, list[str]]]:
    """``count`` reads (GET /api/tables/<code>), ``count`` actions (POST .../actions, a score
    entered with the host's token) and ``count`` /healthz, ``rate`` of each a second, round
    the tables, each table's from its own session (address). Sent on schedule whether or not
    the earlier ones were answered, so that a stall shows in the times of all it held up.
    Answers (when sent, time taken) by label, and the failures."""
    labels = ("read GET /api/tables/<code>", "action POST /api/tables/<code>/actions", "/healthz")
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in labels}
    failures: dict[str, list[str]] = {label: [] for label in labels}

    async def timed(label: str, request) -> None:
        started = time.perf_counter()
        try:
            async with request as answer:
                await answer.read()
                if answer.status == 200:
                    times[label].append((started, time.perf_counter() - started))
                else:
                    failures[label].append(f"answered {answer.status}")
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            failures[label].append(type(exc).__name__)

    tasks = []
    began = time.perf_counter()
    n = len(tables)
    for index in range(count):
        await asyncio.sleep(max(0.0, began + index / rate - time.perf_counter()))
        read, act = index % n, (index + n // 2) % n
        tasks += [
            asyncio.create_task(timed(labels[0], sessions[read].get(
                f"{base}/api/tables/{tables[read]['code']}"))),
            asyncio.create_task(timed(labels[1], sessions[act].post(
                f"{base}/api/tables/{tables[act]['code']}/actions",
                headers={"Authorization": f"Bearer {tables[act]['token']}"},
                json={"type": "enter_score", "player": f"P{1 + index % 4}",
                      "round": 1 + index // n % 20, "points": random.randint(-20, 50)}))),
            asyncio.create_task(timed(labels[2], health.get(f"{base}/healthz"))),
        ]
    await asyncio.gather(*tasks)
    return times, failures


class SecondProcess:
    """A process that loads the server for the slow and hammer parts (spawned, so its busy
    loop does not delay the measured requests' timestamps). ``target(*args, pipe)`` sends
    ``(sample_kind, counts)`` now and then and ``("result", {...})`` after "stop"; ``receive``
    collects them into ``samples`` and ``result``."""

    def __init__(self, target, *args, sample_kind: str):
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        # Their end stays referenced here: a spawned child takes it over after start(), and
        # it must not be closed (collected) before that.
        self.pipe, self.theirs = context.Pipe()
        self.process = context.Process(target=target, daemon=True, args=(*args, self.theirs))
        self.process.start()
        self.sample_kind = sample_kind
        self.samples: list[dict[str, int]] = []
        self.result: dict = {}

    def receive(self) -> None:
        while self.pipe.poll():
            kind, value = self.pipe.recv()
            if kind == self.sample_kind:
                self.samples.append(value)
            else:
                self.result.update(value)

    def send(self, command: str) -> None:
        self.pipe.send(command)

    def cpu_seconds(self) -> float:
        return sum(psutil.Process(self.process.pid).cpu_times()[:2])

    async def stop(self) -> None:
        """Ask for the result and wait for it (30 s at most)."""
        self.send("stop")
        for _ in range(150):
            await asyncio.sleep(0.2)
            self.receive()
            if self.result:
                break

    def end(self) -> None:
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()


def loaded_rows(quiet: dict, loaded: dict, during: str) -> tuple[list[str], list[str], list[float]]:
    """Each label's timing rows unloaded and ``during`` the load, and its loaded p99 / unloaded
    p99 (the other tables' reads and actions gated; /healthz shown beside them)."""
    hz_quiet = [took for _sent, took in quiet["/healthz"]]
    lines, ratios, gated = [], [], []
    for label in quiet:
        name = label.split(" ")[0]
        unloaded, under = ([took for _sent, took in timed[label]] for timed in (quiet, loaded))
        lines.append(timing_row(f"{name} unloaded", unloaded, hz_quiet))
        lines.append(timing_row(f"{name} {during}", under, hz_quiet))
        ratio = percentile(under, 0.99) / percentile(unloaded, 0.99)
        ratios.append(f"{name} {ratio:.1f}× ({len(under)} requests)")
        gated += [ratio] if label != "/healthz" else []
    lines.append("  (the ×hz columns divide by the UNLOADED /healthz)")
    return lines, ratios, gated


def quieter(*stretches: tuple[dict, dict]) -> tuple[dict, dict]:
    """Of unloaded stretches (times and failures by label), per label the one of the lower
    p99: on a shared machine the others' load comes and goes, and a baseline caught in a busy
    minute would flatter the loaded one."""
    def p99(timed: list[tuple[float, float]]) -> float:
        return percentile([took for _sent, took in timed], 0.99) if timed else float("inf")

    chosen = {label: min(stretches, key=lambda stretch: p99(stretch[0][label]))
              for label in stretches[0][0]}
    return ({label: stretch[0][label] for label, stretch in chosen.items()},
            {label: stretch[1][label] for label, stretch in chosen.items()})
