"""Part 4: two servers of this code behind nginx (the README's configuration) on one PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading

import aiohttp
import psutil

from bench.changes import push_lines, run_changes
from bench.phones import REQUEST_TIMEOUT, close_phones, open_streams, set_up_tables, streams_failed
from bench.report import RESULTS, ROOT, log
from bench.server import stop_process
from bench.servers import (Server, bench_database_url, client_connector, quiet_healthz,
                           reset_database, wait_up)
from bench.timing import Window, process_tree


class PgConnections:
    """The most connections to the bench database seen at once (sampled twice a second)."""

    def __init__(self, url: str):
        self.url, self.peak, self.limit, self.stop = url, 0, "?", threading.Event()

    def _run(self) -> None:
        import psycopg

        with contextlib.suppress(Exception), psycopg.connect(self.url, autocommit=True) as conn:
            self.limit = conn.execute("SHOW max_connections").fetchone()[0]
            while not self.stop.is_set():
                count = conn.execute("SELECT count(*) FROM pg_stat_activity "
                                     "WHERE datname = current_database()").fetchone()[0]
                self.peak = max(self.peak, count - 1)
                self.stop.wait(0.5)

    def __enter__(self) -> "PgConnections":
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stop.set()
        self.thread.join(timeout=5)


NGINX = "/usr/sbin/nginx"


README_UPSTREAMS = ("127.0.0.1:5001", "127.0.0.1:5002")


# The README block's HTTPS lines (its port and certificate), left out where plain HTTP is run.
PLAIN_HTTP_ONLY = re.compile(r"^\s*(listen 443 |ssl_certificate).*\n", re.M)


def readme_nginx_block() -> str:
    """The fenced ```nginx block of the README's "Several servers on one PostgreSQL"."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Several servers on one PostgreSQL", 1)[-1].split("\n## ", 1)[0]
    found = re.search(r"```nginx\n(.*?)```", section, re.S)
    if not found:
        raise SystemExit("README.md: no ```nginx block under 'Several servers on one PostgreSQL'")
    return found.group(1)


class Nginx:
    """Debian's nginx in the foreground, configured with the README's block (its servers and
    its port replaced by the bench's), everything it writes under bench/results/nginx/."""

    def __init__(self, port: int, upstream_ports: list[int]):
        self.port, self.upstream_ports = port, upstream_ports
        self.base = f"http://127.0.0.1:{port}"
        self.keep_alive = 75.0  # nginx's keepalive_timeout for clients (the block sets none)
        self.dir = RESULTS / "nginx"
        self.process: subprocess.Popen | None = None

    def configuration(self) -> str:
        block = readme_nginx_block()
        for old, port in zip(README_UPSTREAMS, self.upstream_ports):
            if old not in block:
                raise SystemExit(f"README.md's nginx block no longer names {old}")
            block = block.replace(old, f"127.0.0.1:{port}")
        if not re.search(r"\blisten 80;", block):
            raise SystemExit("README.md's nginx block no longer says `listen 80;`")
        block = re.sub(r"\blisten 80;", f"listen 127.0.0.1:{self.port};", block)
        block = PLAIN_HTTP_ONLY.sub("", block)  # the bench measures plain HTTP: no certificate
        temp = "".join(f"    {kind}_temp_path {self.dir / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        return (f"worker_processes 1;\nworker_rlimit_nofile 20000;\npid {self.dir / 'nginx.pid'};\n"
                f"error_log {self.dir / 'error.log'} warn;\nevents {{ worker_connections 10000; }}\n"
                f"http {{\n    access_log off;\n{temp}{block}}}\n")

    def __enter__(self) -> "Nginx":
        if not os.access(NGINX, os.X_OK):
            raise SystemExit(f"{NGINX} is not installed")
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        config = self.dir / "nginx.conf"
        config.write_text(self.configuration())
        self.log = open(self.dir / "output.log", "w")
        # -e: nginx writes its first lines before reading the configuration's error_log
        self.process = subprocess.Popen([NGINX, "-p", str(self.dir), "-e", str(self.dir / "error.log"),
                                         "-c", str(config), "-g", "daemon off;"],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        return self

    def __exit__(self, *_exc) -> None:
        stop_process(self.process)  # SIGTERM: nginx's fast shutdown
        self.log.close()

    def processes(self) -> list[psutil.Process]:
        return process_tree(self.process.pid)

    def errors(self) -> list[str]:
        """What nginx logged (warnings and worse): upstreams that failed, mostly."""
        path = self.dir / "error.log"
        return path.read_text(errors="replace").splitlines() if path.exists() else []

    async def wait_up(self, session: aiohttp.ClientSession) -> None:
        for _ in range(100):
            if self.process.poll() is not None:
                raise SystemExit(f"nginx exited: {(self.dir / 'output.log').read_text()[-500:]}"
                                 f"{' '.join(self.errors()[-3:])}")
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"{self.base}/healthz") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.1)
        raise SystemExit("nginx did not answer /healthz")


async def two_servers(args) -> list[str]:
    """Two servers of this code (one process each) on one PostgreSQL database, nginx in front
    with the README's configuration; every phone's request goes through nginx."""
    url = bench_database_url()
    shown = url.split("@")[-1]
    problem = reset_database(url)
    if problem:
        return [f"4. Two servers behind nginx: SKIPPED: PostgreSQL at {shown} is not reachable "
                f"({problem})"]
    instance = tempfile.mkdtemp(prefix="companion-bench-two-")  # one secret key: cookies work on both
    ports = [args.port + 1, args.port + 2]
    try:
        with contextlib.ExitStack() as stack, PgConnections(url) as pg:
            async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
                servers = []
                for name, port in zip(("two-a", "two-b"), ports):
                    server = stack.enter_context(Server(name, port, args, url, instance,
                                                        env={"TRUSTED_PROXIES": "1"}))
                    kind = await wait_up(plain, server)  # one after the other: one creates the tables
                    servers.append(server)
                nginx = stack.enter_context(Nginx(args.port + 10, ports))
                await nginx.wait_up(plain)
                await quiet_healthz(plain, nginx.base, 20)  # warm up
                with Window(servers) as quiet_window:
                    quiet = await quiet_healthz(plain, nginx.base, 200)
                log(f"two: setting up {args.tables} tables × {args.phones} phones through nginx …")
                tables = await set_up_tables(plain, None, nginx.base, args.tables, args.phones,
                                             keep_alive=nginx.keep_alive)
                phones = [p for table in tables for p in table]
                took = await open_streams(phones, 60)
                failed = streams_failed(phones)
                await asyncio.sleep(2)
                run = await run_changes(args, "two", tables, servers, plain, args.rate,
                                        args.seconds, proxy=nginx, base=nginx.base)
                await close_phones(tables)
                errors = nginx.errors()
    finally:
        shutil.rmtree(instance, ignore_errors=True)
    window = run["window"]
    lines = [f"4. Two servers behind nginx: {args.tables} tables × {args.phones} phones, every "
             f"request through nginx (the README's configuration: a table's requests go to the "
             f"server its code hashes to) to two servers ({kind}, TRUSTED_PROXIES=1) on one "
             f"PostgreSQL ({shown}); {args.rate:g} change per table per second for "
             f"{args.seconds} s",
             *push_lines(args, run, quiet, failed, took, quiet_window.server_seconds / 200),
             f"  CPU per server: {', '.join(f'{100 * used / window.seconds:.0f} %' for used in window.per_server)} "
             f"of one core; nginx {window.proxy_cpu:.0f} %, PostgreSQL {window.postgres_cpu:.0f} % "
             f"(not in the CPU per change)",
             f"  most connections to the database at once: {pg.peak} (the server's "
             f"max_connections: {pg.limit}); nginx's error log: {len(errors)} lines"
             + (f" (e.g. {errors[0][:200]})" if errors else "")]
    return lines
