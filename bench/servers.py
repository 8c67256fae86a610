"""The bench's servers: `companion serve` of this checkout (or of the baseline before issue 28)
with the bench's settings, waited for and described; the clients' connectors; the bench's
database; what went wrong in the servers' logs."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import psutil

from bench.report import RESULTS, ROOT, log
from bench.server import ServerProcess, stop_process
from bench.timing import process_tree


DEFAULT_PG = "postgresql://companion:companion@127.0.0.1:5432/companion_bench"


def server_keep_alive() -> float:
    """How long a server keeps a quiet connection after an answer: gunicorn's --keep-alive
    (KEEP_ALIVE_SECONDS, 60), as the baseline's own worker did."""
    return float(os.environ.get("KEEP_ALIVE_SECONDS") or 60)


def client_connector(limit: int = 0, keep_alive: float | None = None) -> aiohttp.TCPConnector:
    """Keep-alive connections as a browser keeps them: dropped before the server's keep-alive
    (``keep_alive``, default this code's) runs out, so that no request goes out on a connection
    the server is closing."""
    return aiohttp.TCPConnector(limit=limit,
                                keepalive_timeout=0.8 * (keep_alive or server_keep_alive()))


def loopback_connector(address: str, limit: int = 0) -> aiohttp.TCPConnector:
    """Connections from ``address`` (a loopback address other than 127.0.0.1): the server,
    which takes the client from the socket's peer address, sees another client."""
    return aiohttp.TCPConnector(limit=limit, keepalive_timeout=0.8 * server_keep_alive(),
                                local_addr=(address, 0))


class Server(ServerProcess):
    """One `companion serve` (gunicorn master + gevent workers) of this checkout's code, or of
    the code before issue 28 (``baseline``: its folder, bench/results/baseline-<commit>); its
    output goes to bench/results/<name>.log."""

    # True: the server gets a session (and process group) of its own, so that its whole
    # process tree can be killed at once (bench/soak.py's kill -9).
    own_session = False

    def __init__(self, name: str, port: int, args, database_url: str | None = None,
                 instance: str | None = None, env: dict[str, str | None] | None = None,
                 baseline: Path | None = None, connections: int | None = None):
        # It imports the app from its folder (python -c and gunicorn put the working directory
        # first on sys.path, PYTHONPATH after): this checkout, or the baseline's, with its own
        # command line.
        command = ([sys.executable, "-c", "import sys; from companion.cli import main; main()"]
                   if baseline else None)
        super().__init__(instance or tempfile.mkdtemp(prefix=f"companion-bench-{name}-"), port,
                         RESULTS / f"{name}.log", env=env, command=command, cwd=baseline or ROOT)
        self.name, self.args, self.baseline = name, args, baseline
        self.database_url = database_url
        self.connections = connections or args.server_connections
        self.own_instance = instance is None
        self.keep_alive = server_keep_alive()

    @property
    def base(self) -> str:
        return self.url

    def __enter__(self) -> "Server":
        RESULTS.mkdir(parents=True, exist_ok=True)
        # Another server on the port would answer /healthz while ours fails to bind.
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            try:
                probe.bind(("127.0.0.1", self.port))
            except OSError:
                raise SystemExit(f"port {self.port} is in use; choose others with --port") from None
        # The bench's phones all come from 127.0.0.1: lift the per-address limits (JOIN_LIMIT:
        # the baseline's join limiter, which this code no longer has).
        env = self.environment({
            "JOIN_LIMIT": "100000",
            # Counted as always (its cost is part of what is measured), never reached.
            "RATE_LIMITS": "code=999999999,action=999999999,live=999999999,create=999999999",
            "STREAMS_PER_CLIENT": "1000000",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(self.cwd), os.environ.get("PYTHONPATH")]))})
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        if self.baseline:  # its own default workers
            env.pop("WORKERS", None)
        options = []
        workers = self.args.baseline_workers if self.baseline else self.args.workers
        if workers:
            options += ["--workers", str(workers)]
        if self.connections:
            options += ["--connections", str(self.connections)]
        self.launch(env, options, mode="w", own_session=self.own_session)
        return self

    def __exit__(self, exc_type, *_exc) -> None:
        stop_process(self.process, 20)
        if exc_type is not None:  # show why the server failed, not only that it did
            print(self.log.read_text()[-3000:], file=sys.stderr)
        elif self.own_instance:
            shutil.rmtree(self.instance, ignore_errors=True)

    def processes(self) -> list[psutil.Process]:
        """The gunicorn master (`companion serve` execs it) and all its workers."""
        return process_tree(self.process.pid)

    def workers(self) -> list[psutil.Process]:
        return self.processes()[1:]


BASELINE = "39d83a4"  # the code before issue 28 (one process per server)


def baseline_folder(commit: str = BASELINE) -> Path:
    """The baseline's code (``commit``), prepared once under bench/results/ as a checkout is for
    serving (static/vendor copied from this one, its German catalogue compiled); reused after."""
    folder = RESULTS / f"baseline-{commit}"
    if (folder / ".prepared").exists():
        return folder
    log(f"preparing the baseline {commit} in {folder.relative_to(ROOT)} …")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True)
        if archive.returncode:
            raise SystemExit(f"git archive {commit} failed: {archive.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        if not (ROOT / "static" / "vendor").is_dir():
            raise SystemExit("static/vendor is missing: run `make setup` first")
        shutil.copytree(ROOT / "static" / "vendor", folder / "static" / "vendor")
        subprocess.run([str(Path(sys.executable).with_name("pybabel")), "-q", "compile", "-d",
                        str(folder / "companion" / "translations"), "-l", "de"], check=True)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    (folder / ".prepared").touch()
    return folder


SERVER_KINDS: set[str] = set()  # what the servers of this run were, as gunicorn was told


def describe(server: Server) -> str:
    """Which code, its workers and connections per worker, from the gunicorn master's command
    line."""
    settings: dict[str, str] = {}
    with contextlib.suppress(psutil.Error):
        line = psutil.Process(server.process.pid).cmdline()
        settings = dict(zip(line, line[1:]))
    workers = settings.get("--workers") or str(len(server.workers()))
    which = f"baseline {server.baseline.name.removeprefix('baseline-')}" if server.baseline else "this code"
    return (f"{which}: {workers} gevent "
            f"worker{'' if workers == '1' else 's'} × {settings.get('--worker-connections', '?')} "
            f"connections")


async def wait_up(session: aiohttp.ClientSession, server: Server) -> str:
    """Until the server answers /healthz; answers what it runs (describe())."""
    for _ in range(600):
        if server.process.poll() is not None:
            raise SystemExit(f"the server {server.name} exited; see {server.log}")
        try:
            async with session.get(f"{server.base}/healthz") as response:
                if response.status == 200:
                    SERVER_KINDS.add(describe(server))
                    return describe(server)
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit(f"the server {server.name} did not start; see {server.log}")


async def quiet_healthz(session: aiohttp.ClientSession, base: str, count: int = 100) -> list[float]:
    """/healthz one at a time on a server with nothing else to do."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        async with session.get(f"{base}/healthz") as response:
            await response.read()
        times.append(time.perf_counter() - started)
    return times


async def probe_health(session: aiohttp.ClientSession, bases: list[str], stop_at: float,
                       rate: float, out: dict[str, list[float]]) -> None:
    """/healthz at ``rate`` per second, round the servers, until ``stop_at``."""
    turn = 0
    while time.perf_counter() < stop_at:
        base = bases[turn % len(bases)]
        turn += 1
        started = time.perf_counter()
        try:
            async with session.get(f"{base}/healthz") as response:
                await response.read()
                if response.status == 200:
                    out.setdefault(base, []).append(time.perf_counter() - started)
                else:
                    out.setdefault("failed", []).append(0.0)
        except (aiohttp.ClientError, asyncio.TimeoutError):
            out.setdefault("failed", []).append(0.0)
        await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - started)))


def bench_database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", DEFAULT_PG)


def single_database(args) -> str | None:
    """The database of the one-server parts: a fresh SQLite file, or the bench PostgreSQL
    database emptied first (--database postgres)."""
    if args.database == "sqlite":
        return None
    url = bench_database_url()
    problem = reset_database(url)
    if problem:
        raise SystemExit(f"--database postgres: {url.split('@')[-1]} is not usable ({problem})")
    return url


def database_name(args) -> str:
    return "SQLite" if args.database == "sqlite" else f"PostgreSQL ({bench_database_url().split('@')[-1]})"


def reset_database(url: str) -> str | None:
    """Drop and recreate the bench database's tables; None when done, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            connection.execute("DROP SCHEMA public CASCADE")
            connection.execute("CREATE SCHEMA public")
    except Exception as exc:  # noqa: BLE001 - any reason is a reason to skip
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc) else ''}"
    return None


def scan_logs(names: list[str], since: float = 0.0) -> list[str]:
    """What went wrong in the servers' logs: tracebacks by their last line, other errors.
    Logs not written since ``since`` (a part that was skipped) are an earlier run's: left out."""
    exception = re.compile(r"^[\w.]+(Error|Exception|Timeout)\b.*")
    lines = []
    for name in names:
        path = RESULTS / f"{name}.log"
        if not path.exists() or path.stat().st_mtime < since:
            continue
        text = path.read_text(errors="replace").splitlines()
        tracebacks = sum(1 for line in text if line.startswith("Traceback"))
        kinds: dict[str, int] = {}
        for line in text:
            if exception.match(line):
                kinds[line[:150]] = kinds.get(line[:150], 0) + 1
        other = [line for line in text if re.search(r"\[(ERROR|CRITICAL)\]|WORKER TIMEOUT", line)
                 and "Error handling request" not in line]
        if tracebacks or kinds or other:
            lines.append(f"  {path.relative_to(ROOT)}: {tracebacks} tracebacks")
            lines += [f"    {count} × {kind}" for kind, count in
                      sorted(kinds.items(), key=lambda item: -item[1])[:3]]
            lines += [f"    {line[:150]}" for line in other[:3]]
    return lines or ["  no errors in the servers' logs (bench/results/*.log)"]
