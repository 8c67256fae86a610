"""Part 9: idle and slow connections held open by a second process."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

import aiohttp
import psutil

from bench.households import SecondProcess
from bench.phones import REQUEST_TIMEOUT, create_table
from bench.report import by_kind, goal, log, seconds_text, timing_header, timing_row
from bench.servers import Server, client_connector, wait_up
from bench.timing import LoopLag, Window, median, percentile


def raise_open_files(wanted: int) -> int:
    """This process holds the slow connections: lift its open-files limit (as `companion
    serve` lifts the server's). Returns the soft limit in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(hard, max(wanted, soft))
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class SlowClients:
    """Attackers that hold connections open without finishing a request: ``idle`` ones
    connect and send nothing, ``trickling`` ones send a request line and Host, then one more
    header line every ``every`` seconds. Any the server closes is opened again at once, so
    that as many stay open as asked. Records after how long the server closed each."""

    def __init__(self, port: int, idle: int, trickling: int, every: float):
        self.port, self.every = port, every
        self.wanted = {"idle": idle, "trickling": trickling}
        self.open = {"idle": 0, "trickling": 0}
        self.closed_after: dict[str, list[float]] = {"idle": [], "trickling": []}
        self.answered: dict[str, list[bytes]] = {"idle": [], "trickling": []}  # what it sent first
        self.opened_since: dict[str, list[float]] = {"idle": [], "trickling": []}  # still open
        self.connect_failures: dict[str, int] = {}
        self.opened = 0
        self.tasks: list[asyncio.Task] = []
        self.stopping = False

    def start(self) -> None:
        # Not all in the same instant: a few hundred connects a second, as a script would.
        kinds = [k for k in ("trickling", "idle") for _ in range(self.wanted[k])]
        self.tasks = [asyncio.get_running_loop().create_task(self._hold(kind, index * 0.002))
                      for index, kind in enumerate(kinds)]

    def all_open(self) -> bool:
        return all(self.open[k] >= self.wanted[k] for k in self.wanted)

    async def _hold(self, kind: str, delay: float) -> None:
        await asyncio.sleep(delay)
        while not self.stopping:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port), 10)
            except (OSError, asyncio.TimeoutError) as exc:
                name = type(exc).__name__ if not isinstance(exc, OSError) or not exc.errno else \
                    errno_name(exc.errno)
                self.connect_failures[name] = self.connect_failures.get(name, 0) + 1
                await asyncio.sleep(0.5)
                continue
            self.opened += 1
            self.open[kind] += 1
            since = time.perf_counter()
            self.opened_since[kind].append(since)
            try:
                await (self._trickle(kind, reader, writer) if kind == "trickling"
                       else self._idle(kind, reader))
                if not self.stopping:
                    self.closed_after[kind].append(time.perf_counter() - since)
            except asyncio.CancelledError:
                raise
            finally:
                self.open[kind] -= 1
                self.opened_since[kind].remove(since)
                writer.close()

    async def _until_closed(self, kind: str, reader: asyncio.StreamReader, first: bytes) -> None:
        """The server sent something (an error answer?): note it and read to its close."""
        if first:
            self.answered[kind].append(first[:40])
            with contextlib.suppress(OSError, asyncio.TimeoutError):
                while await asyncio.wait_for(reader.read(4096), 30):
                    pass

    async def _idle(self, kind: str, reader: asyncio.StreamReader) -> None:
        try:
            first = await reader.read(4096)  # b"" when the server closes it
        except OSError:
            return
        await self._until_closed(kind, reader, first)

    async def _trickle(self, kind: str, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter) -> None:
        line = b"GET / HTTP/1.1\r\nHost: x\r\n"
        while True:
            try:
                writer.write(line)
                await writer.drain()
                first = await asyncio.wait_for(reader.read(4096), self.every)
            except asyncio.TimeoutError:
                line = b"X-a: b\r\n"
                continue
            except OSError:
                return
            await self._until_closed(kind, reader, first)
            return

    async def stop(self) -> None:
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    def oldest(self, kind: str) -> float:
        return time.perf_counter() - min(self.opened_since[kind], default=time.perf_counter())


def errno_name(number: int) -> str:
    import errno
    return errno.errorcode.get(number, str(number))


async def paced_requests(base: str, paths: dict[str, str], rounds: int, interval: float,
                         timeout: float, most_seconds: float = float("inf")
                         ) -> tuple[dict[str, list[float]], dict[str, list[str]]]:
    """``rounds`` rounds, one after the other, of one GET of each path, each on a NEW
    connection (as a phone arriving at the table would make one), a round started every
    ``interval`` s. A request not answered 200 within ``timeout`` s failed. No round starts
    after ``most_seconds`` (a server that answers nothing would take rounds × timeout)."""
    stop_at = time.perf_counter() + most_seconds
    times: dict[str, list[float]] = {label: [] for label in paths}
    failures: dict[str, list[str]] = {label: [] for label in paths}
    connector = aiohttp.TCPConnector(force_close=True, limit=0)
    async with aiohttp.ClientSession(connector=connector,
                                     timeout=aiohttp.ClientTimeout(total=timeout)) as session:
        for _ in range(rounds):
            began = time.perf_counter()
            if began > stop_at:
                break
            for label, path in paths.items():
                started = time.perf_counter()
                try:
                    async with session.get(base + path) as answer:
                        await answer.read()
                        if answer.status == 200:
                            times[label].append(time.perf_counter() - started)
                        else:
                            failures[label].append(f"answered {answer.status}")
                except asyncio.TimeoutError:
                    failures[label].append(f"no answer within {timeout:g} s")
                except aiohttp.ClientError as exc:
                    failures[label].append(type(exc).__name__)
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - began)))
    return times, failures


def attacker_process(port: int, idle: int, trickling: int, every: float, pipe) -> None:
    """The slow clients, in a process of their own (multiprocessing, spawned): a burst of
    a thousand reconnects must not hold up the loop that times the measured requests. Sends
    the open counts each second and, when told "stop", what it saw."""
    raise_open_files(idle + trickling + 1000)
    asyncio.run(_attack(port, idle, trickling, every, pipe))


async def _attack(port: int, idle: int, trickling: int, every: float, pipe) -> None:
    attack = SlowClients(port, idle, trickling, every)
    attack.start()
    opened_at_start = 0
    ticks = 0
    while True:
        await asyncio.sleep(0.1)
        ticks += 1
        if ticks % 10 == 0:
            pipe.send(("open", dict(attack.open)))
        if pipe.poll():
            command = pipe.recv()
            if command == "mark":  # the measured stretch begins
                opened_at_start = attack.opened
                attack.closed_after = {"idle": [], "trickling": []}
                continue
            if command == "stop":
                break
    result = {"oldest": {k: attack.oldest(k) for k in attack.wanted}, "still": dict(attack.open),
              "connects": attack.opened - opened_at_start, "closed_after": attack.closed_after,
              "answered": attack.answered, "connect_failures": attack.connect_failures}
    await attack.stop()
    pipe.send(("result", result))


async def quiet_close_seconds(port: int, count: int = 5) -> list[float]:
    """After how long the server closes a connection left quiet after an answer (its
    keep-alive), timed on ``count`` connections at once."""
    async def one() -> float | None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            await reader.readexactly(int(re.search(rb"(?i)content-length: *(\d+)", head).group(1)))
            answered = time.perf_counter()
            while await asyncio.wait_for(reader.read(4096), 180):
                pass
            return time.perf_counter() - answered
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, AttributeError):
            return None
        finally:
            writer.close()

    return [took for took in await asyncio.gather(*(one() for _ in range(count))) if took]


async def slow_clients(args) -> list[str]:
    """/healthz and a table page, before and while 1,000 idle and 100 trickling
    connections are held open (by another process)."""
    with Server("slow", args.port + 6, args) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)
            table = await create_table(plain, server.base, "scorepad", ["Ann", "Bob", "Cem"])
            paths = {"/healthz": "/healthz", "table page /t/<code>": f"/t/{table['code']}"}
            async with plain.get(server.base + paths["table page /t/<code>"]) as answer:
                assert answer.status == 200, ("table page", answer.status)
        await paced_requests(server.base, paths, 20, 0.0, 5)  # warm up
        kept = asyncio.get_running_loop().create_task(quiet_close_seconds(server.port))
        log(f"slow: {args.slow_rounds} rounds unloaded …")
        quiet, quiet_failed = await paced_requests(server.base, paths, args.slow_rounds,
                                                   args.slow_interval, args.slow_timeout)
        log(f"slow: opening {args.slow_idle} idle and {args.slow_trickling} trickling "
            f"connections …")
        began = time.perf_counter()
        attacker = SecondProcess(attacker_process, server.port, args.slow_idle,
                                 args.slow_trickling, args.slow_every, sample_kind="open")
        samples, result, receive = attacker.samples, attacker.result, attacker.receive
        wanted = {"idle": args.slow_idle, "trickling": args.slow_trickling}
        while time.perf_counter() - began < 40:
            await asyncio.sleep(0.2)
            receive()
            if samples and all(samples[-1][k] >= wanted[k] for k in wanted):
                break
        ramp = time.perf_counter() - began
        log(f"slow: {samples[-1] if samples else 'nothing'} open after {ramp:.1f} s; "
            f"{args.slow_rounds} rounds under load …")
        attacker.send("mark")
        await asyncio.sleep(0.3)
        receive()
        samples.clear()
        fds: list[int] = []

        async def sample_fds() -> None:
            while True:
                await asyncio.sleep(1)
                count = 0
                for worker in server.workers():
                    with contextlib.suppress(psutil.Error):
                        count += worker.num_fds()
                fds.append(count)
                receive()

        sampler = asyncio.get_running_loop().create_task(sample_fds())
        attacker_before = attacker.cpu_seconds()
        try:
            with Window([server]) as window, LoopLag() as lag:
                loaded, loaded_failed = await paced_requests(
                    server.base, paths, args.slow_rounds, args.slow_interval, args.slow_timeout,
                    args.slow_max_seconds)
            # Held on past the server's keep-alive, so that its closing them is seen.
            await asyncio.sleep(max(0.0, server.keep_alive + 5 - (time.perf_counter() - began)))
        finally:
            sampler.cancel()
            attacker_cpu = 100 * (attacker.cpu_seconds() - attacker_before) / max(
                0.001, time.perf_counter() - window.began)
            await attacker.stop()
            attacker.end()
        closed_quiet = await asyncio.wait_for(kept, 180)
    if not result:
        raise RuntimeError("the attacking process sent no result")
    closed_after, answered = result["closed_after"], result["answered"]
    lines = [
        f"9. Idle and slow connections: {args.slow_idle} connections that send nothing and "
        f"{args.slow_trickling} that send one header line every {args.slow_every:g} s (from "
        f"another process), each opened again as soon as the server closes it; "
        f"{args.slow_rounds} rounds of the requests below, one every {args.slow_interval:g} s, "
        f"each on a new connection, before and during (failed: not 200 within "
        f"{args.slow_timeout:g} s)",
        timing_header(),
    ]
    ratios = {}
    for label in paths:
        lines.append(timing_row(f"{label} unloaded", quiet[label], quiet["/healthz"]))
        lines.append(timing_row(f"{label} loaded", loaded[label], quiet["/healthz"]))
        ratios[label] = percentile(loaded[label], 0.99) / percentile(quiet[label], 0.99)
    failures = result["connect_failures"]
    done = len(loaded["/healthz"]) + len(loaded_failed["/healthz"])
    if done < args.slow_rounds:
        lines.append(f"  under load only {done} of {args.slow_rounds} rounds were made in "
                     f"{args.slow_max_seconds:g} s (--slow-max-seconds)")
    lines += [
        goal("slow", "loaded p99 / unloaded p99 ≤ 5", max(ratios.values()) <= 5,
             ", ".join(f"{label} {ratio:.1f}×" for label, ratio in ratios.items())),
        "  failed: " + "; ".join(
            f"{label} unloaded {len(quiet_failed[label])}, loaded {len(loaded_failed[label])}"
            f"{by_kind(loaded_failed[label])}" for label in paths),
        f"  slow connections open (sampled each second during the load): idle min "
        f"{min((s['idle'] for s in samples), default=0)}, median "
        f"{median([s['idle'] for s in samples]):.0f}; trickling min "
        f"{min((s['trickling'] for s in samples), default=0)}, median "
        f"{median([s['trickling'] for s in samples]):.0f}; all open {ramp:.1f} s after the "
        f"attack began; {result['connects']} connects after that (each closed one opened again)"
        + (f"; failed connects: {', '.join(f'{k} {n}' for k, n in failures.items())}"
           if failures else ""),
        f"  the server's keep-alive (gunicorn's --keep-alive, KEEP_ALIVE_SECONDS: "
        f"{server.keep_alive:g} s) closed a connection left quiet after an answer after: "
        f"{seconds_text(closed_quiet)}",
        f"  the server closed a trickling connection after: {seconds_text(closed_after['trickling'])}"
        f"; at the end open {result['still']['trickling']}, the oldest {result['oldest']['trickling']:.0f} s",
        f"  the server closed an idle connection after: {seconds_text(closed_after['idle'])}"
        f"; at the end open {result['still']['idle']}, the oldest {result['oldest']['idle']:.0f} s",
    ]
    for kind in ("idle", "trickling"):
        if answered[kind]:
            first_lines = [a.split(b"\r\n")[0].decode(errors="replace") for a in answered[kind]]
            lines.append(f"  the server answered {len(first_lines)} {kind} connections before "
                         f"closing them{by_kind(first_lines)}")
    lines += [
        f"  during the load ({window.seconds:.0f} s): {window.text()}; the attacking process "
        f"{attacker_cpu:.0f} % (in everything else)",
        f"  workers' open files (sampled): max {max(fds, default=0)}; measuring client "
        f"{lag.text()}",
    ]
    return lines
