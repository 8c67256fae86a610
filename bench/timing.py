"""How the bench measures: percentiles, the CPU and memory of the servers (and of the proxy and
PostgreSQL beside them) over a stretch of time, this client's event loop lag, and how fast the
machine runs Python right now. A server here is anything with processes(): servers.Server,
parts.two_servers.Nginx."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import statistics
import time

import psutil


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def process_tree(pid: int) -> list[psutil.Process]:
    """A process and all its descendants (none once it has ended)."""
    try:
        master = psutil.Process(pid)
        return [master] + master.children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def cpu_seconds(servers: list) -> dict[int, float]:
    """utime+stime of every process of these servers, by pid."""
    seconds = {}
    for server in servers:
        for process in server.processes():
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                seconds[process.pid] = times.user + times.system
    return seconds


def rss_bytes(servers: list) -> int:
    total = 0
    for server in servers:
        for process in server.processes():
            with contextlib.suppress(psutil.Error):
                total += process.memory_info().rss
    return total


class Window:
    """CPU of the servers (and of the proxy in front, if any) and of this client over one
    measured stretch of time."""

    def __init__(self, servers: list, proxy=None):
        self.servers, self.proxy = servers, proxy
        self.me = psutil.Process()

    def __enter__(self) -> "Window":
        self.server_before = [cpu_seconds([server]) for server in self.servers]
        self.proxy_before = cpu_seconds([self.proxy]) if self.proxy else {}
        self.client_before = sum(self.me.cpu_times()[:2])
        self.machine_before = busy_seconds()
        self.postgres_before = postgres_seconds()
        self.began = time.perf_counter()
        return self

    def __exit__(self, *_exc) -> None:
        self.seconds = time.perf_counter() - self.began
        self.per_server = [used_since(before, cpu_seconds([server]))
                           for server, before in zip(self.servers, self.server_before)]
        self.server_seconds = sum(self.per_server)  # CPU seconds of all server processes
        self.server_cpu = 100 * self.server_seconds / self.seconds
        self.proxy_cpu = (100 * used_since(self.proxy_before, cpu_seconds([self.proxy]))
                          / self.seconds if self.proxy else 0.0)
        self.client_cpu = 100 * (sum(self.me.cpu_times()[:2]) - self.client_before) / self.seconds
        machine = 100 * (busy_seconds() - self.machine_before) / self.seconds
        self.postgres_cpu = 100 * used_since(self.postgres_before, postgres_seconds()) / self.seconds
        # Whatever else ran on this shared machine meanwhile.
        self.other_cpu = max(0.0, machine - self.server_cpu - self.proxy_cpu - self.client_cpu
                             - self.postgres_cpu)

    @classmethod
    def combined(cls, windows: list["Window"]) -> "Window":
        """Several stretches as one: CPU seconds added up, shares weighted by their length."""
        whole = cls.__new__(cls)
        whole.proxy = windows[0].proxy
        whole.seconds = sum(window.seconds for window in windows)
        whole.per_server = [sum(seconds) for seconds in zip(*(w.per_server for w in windows))]
        whole.server_seconds = sum(whole.per_server)
        for share in ("server_cpu", "proxy_cpu", "client_cpu", "postgres_cpu", "other_cpu"):
            setattr(whole, share, sum(getattr(w, share) * w.seconds for w in windows)
                    / max(whole.seconds, 1e-9))
        return whole

    def text(self) -> str:
        postgres = (f"PostgreSQL (all its processes) {self.postgres_cpu:.0f} %; "
                    if self.postgres_cpu >= 0.5 else "")
        proxy = f"nginx {self.proxy_cpu:.0f} %; " if self.proxy else ""
        return (f"server CPU {self.server_cpu:.0f} % of one core; {proxy}{postgres}client CPU "
                f"{self.client_cpu:.0f} %; everything else on the machine {self.other_cpu:.0f} % "
                f"(of {os.cpu_count()} cores = {100 * (os.cpu_count() or 1)} %)")


def used_since(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two cpu_seconds() of the same processes (new ones in full)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def postgres_seconds() -> dict[int, float]:
    """utime+stime of the PostgreSQL server's processes (any database), by pid."""
    seconds = {}
    for process in psutil.process_iter(["name"]):
        if process.info["name"] in ("postgres", "postmaster"):
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                seconds[process.pid] = times.user + times.system
    return seconds


def busy_seconds() -> float:
    """CPU seconds the whole machine has been busy (all cores)."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


class LoopLag:
    """How late this process's event loop wakes up (and how long its garbage collections
    took): a busy or starved client shows here first."""

    def __init__(self):
        self.lags: list[float] = []
        self.collections: list[float] = []
        self.task: asyncio.Task | None = None

    async def _run(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(time.perf_counter() - started - 0.05)

    def _collecting(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self.gc_started = time.perf_counter()
        else:
            self.collections.append(time.perf_counter() - self.gc_started)

    def __enter__(self) -> "LoopLag":
        # What the set-up left (sessions, phones) is kept out of the collections made while
        # measuring, so that they stay short.
        gc.collect()
        gc.freeze()
        self.task = asyncio.get_running_loop().create_task(self._run())
        gc.callbacks.append(self._collecting)
        return self

    def __exit__(self, *_exc) -> None:
        self.task.cancel()
        gc.callbacks.remove(self._collecting)
        gc.unfreeze()

    @classmethod
    def combined(cls, lags: list["LoopLag"]) -> "LoopLag":
        whole = cls()
        for lag in lags:
            whole.lags += lag.lags
            whole.collections += lag.collections
        return whole

    def text(self) -> str:
        return (f"loop lag p99 {percentile(self.lags, 0.99) * 1000:.0f} ms, "
                f"max {max(self.lags, default=0) * 1000:.0f} ms (its longest garbage collection "
                f"{max(self.collections, default=0) * 1000:.0f} ms)")


def yardstick_ms() -> float:
    """How fast this machine runs Python right now: a fixed loop, timed (the middle of three
    tries). Neighbours on a shared host change it from minute to minute, and the server's
    times with it."""
    tries = []
    for _try in range(3):
        started = time.perf_counter()
        total = 0
        for number in range(400_000):
            total += number * number
        tries.append(time.perf_counter() - started)
    return 1000 * sorted(tries)[1]
