"""`companion serve` and `companion init-db`: what `make run` does, for an installed package
(served by gunicorn, or where gunicorn cannot run, on Windows, by gevent's own server); and an
operator's `companion backup FILE`, `companion restore FILE` and `companion purge --days N`
(docs/operating.md).

The banner before serving (the address, its QR code, or why phones cannot join) speaks the
terminal's language: German when the terminal's locale says so (``LANGUAGE``, else ``LC_ALL``,
else ``LC_MESSAGES``, else ``LANG`` starts with ``de``), English otherwise. Its German words
come from the app's catalogue (companion/translations), like the pages'.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import math
import os
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from babel.support import Translations
from gevent import monkey

from . import create_app, gevent_server
from .web.network import LISTEN_HOST_VARIABLE, LISTEN_PORT_VARIABLE, is_loopback_host, lan_addresses
from .web.qr import qr_text

try:  # POSIX: the SQLite file's lock, and gunicorn's open-files limit
    import fcntl
    import resource
except ImportError:  # Windows: its own lock; gevent's server, no gunicorn (SERVERS)
    import msvcrt

    fcntl = resource = None


def init_db() -> tuple[str, str | None]:
    """Bring the database (under instance/ unless DATABASE_URL says otherwise) to the newest
    schema; answer its address without the password, and what was done (None: the database
    cannot be reached, and the app has said why in a line)."""
    app = create_app()
    url = app.config["DATABASE_URL"].split("@")[-1]
    app.extensions["engine"].dispose()
    return url, app.extensions["schema_upgrade"]


def phone_url(host: str, port: int) -> str:
    """The address to print and to put in the terminal's QR code."""
    public = os.environ.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + "/"
    if is_loopback_host(host):
        return f"http://127.0.0.1:{port}/"  # served on loopback: only this machine can open it
    if host in ("0.0.0.0", "::", ""):
        lan = lan_addresses()
        return f"http://{lan[0] if lan else '127.0.0.1'}:{port}/"
    return f"http://{host}:{port}/"


def terminal_language() -> str:
    """"de" when the terminal's locale is German, else "en" (the first of LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG that is set decides, as gettext does)."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def _gettext(language: str):
    """The catalogue's gettext for ``language`` (English: the text as it is)."""
    if language == "de":
        found = Translations.load(str(Path(__file__).parent / "translations"), ["de"])
        return found.gettext
    return lambda text: text


def banner(host: str, port: int, language: str | None = None) -> str:
    """What the terminal shows before serving: the address and its QR code, or why phones
    cannot join (the server listens on loopback only, or this machine has no network).
    ``language``: "en" or "de" (default: the terminal's, ``terminal_language``)."""
    _ = _gettext(language or terminal_language())
    address = phone_url(host, port)
    if os.environ.get("PUBLIC_URL") or not is_loopback_host(urlsplit(address).hostname or ""):
        return ("\n" + _("Table companion on %(address)s") % {"address": address} + "\n"
                + _("Phones: scan this, or open the address above.") + "\n\n" + qr_text(address))
    if is_loopback_host(host):
        why = (_("It listens on %(host)s only, so other phones cannot join (the invite on each "
                 "table page says so too).") % {"host": host} + "\n"
               + _("For phones, stop it and start `make run` (it listens on every network: "
                   "HOST=0.0.0.0) or `companion serve --host 0.0.0.0`."))
    else:
        why = (_("This machine has no network address a phone could reach, so other phones "
                 "cannot join.") + "\n" + _("Connect it to the table's Wi-Fi, then start it again."))
    return ("\n" + _("Table companion on %(address)s (this computer only).") % {"address": address}
            + f"\n{why}\n")


def gunicorn_args(host: str, port: int, workers: int, connections: int,
                  keep_alive: float) -> list[str]:
    return [
        # This very Python's gunicorn: its script may lie elsewhere (pip install --user).
        sys.executable, "-m", "gunicorn",
        "--bind", f"{host}:{port}",
        "--workers", str(workers),
        # gevent: every phone keeps a live stream open, and each costs a greenlet, not a thread;
        # its refusals before the app answer in the app's shape (web/worker.py).
        "--worker-class", "companion.web.worker.Worker",
        "--worker-connections", str(connections),
        # Idle connections and trickling headers go after this (a body: guards.body_in_time).
        "--keep-alive", f"{keep_alive:g}",
        "--timeout", "30",
        "--graceful-timeout", "3",
        "--no-control-socket",
        # ACCESS_LOG=1 logs every request to the terminal; without, none is even formatted.
        *(["--access-logfile", "-"] if os.environ.get("ACCESS_LOG") else []),
        "--config", "python:companion.cli",  # post_worker_init and child_exit below
        "companion:create_app()",
    ]


# Collections rarer than Python's defaults: each stops every phone (docs/performance.md).
GC_THRESHOLDS = (20_000, 50, 20)


def post_worker_init(worker) -> None:
    """gunicorn's hook, the app loaded in its worker: prepare_process."""
    prepare_process(worker.wsgi)


def prepare_process(app) -> None:
    """The app loaded in its serving process: what the imports of the server's last run left
    half-written goes; every template compiled now (the first table page would stop every
    phone meanwhile), then what the app holds for good moved out of the garbage collector's
    sight (each full collection walked all of it, every phone waiting), and the collector run
    less often."""
    from .web.app import forget_dead_imports  # here: the process has patched for gevent by now

    forget_dead_imports(app)
    environment = app.jinja_env
    for name in environment.list_templates(extensions=["html"]):
        environment.get_template(name)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def child_exit(_server, worker) -> None:
    """gunicorn's hook, a worker gone: its open streams leave the sum /metrics shows."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def _raise_open_files_limit() -> None:
    """Each open stream is a socket: allow as many as the system lets this user have."""
    if resource is None:
        return  # Windows: no such limit to raise
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass


def setting_problem(workers: int, keep_alive: str) -> str | None:
    """Why the server cannot start as asked, in a sentence (None: it can)."""
    try:
        seconds = float(keep_alive)
    except ValueError:
        seconds = -1.0
    if not math.isfinite(seconds) or seconds <= 0:
        return (f"KEEP_ALIVE_SECONDS must be a number of seconds above 0 "
                f"(it is {keep_alive[:20]!r}).")
    if workers < 1:
        return f"--workers must be 1 or more (it is {workers})."
    return None


SEVERAL_NEED_POSTGRES = ("Several server processes need PostgreSQL (DATABASE_URL); on SQLite the "
                         "companion is one process, which holds thousands of phones.")


def _lock(held: int) -> None:
    """An exclusive lock on the open file; BlockingIOError while another process holds it.
    Either server takes the same lock, so neither starts beside the other on one file."""
    if fcntl:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    try:
        msvcrt.locking(held, msvcrt.LK_NBLCK, 1)  # Windows: its first byte
    except OSError:
        raise BlockingIOError(f"{held} is locked") from None


def claim_sqlite(url: str, workers: int) -> int:
    """This server's hold on its SQLite file, kept open for its whole life (gunicorn inherits
    it); SystemExit with a sentence when another server holds it, or for several workers."""
    if workers > 1:
        raise SystemExit(f"--workers {workers}: {SEVERAL_NEED_POSTGRES}")
    path = url.split(":///", 1)[-1] + ".server"
    held = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _lock(held)
    except BlockingIOError:
        os.close(held)
        raise SystemExit(f"Another companion server already serves {url.split(':///', 1)[-1]}. "
                         f"{SEVERAL_NEED_POSTGRES}") from None
    os.set_inheritable(held, True)
    return held


# gunicorn: one or more processes, POSIX only; gevent: its own WSGI server in this process.
SERVERS = ("gunicorn", "gevent")


def gunicorn_runs() -> bool:
    """Whether gunicorn is installed and has the fcntl it needs (not on Windows), found
    without importing either."""
    return all(importlib.util.find_spec(name) for name in ("fcntl", "gunicorn"))


def chosen_server(asked: str | None) -> str:
    """``--server``, else SERVER, else gunicorn where it runs, else gevent."""
    return asked or os.environ.get("SERVER") or ("gunicorn" if gunicorn_runs() else "gevent")


def server_problem(server: str, workers: int) -> str | None:
    """Why ``server`` cannot serve as asked, in a sentence (None: it can)."""
    if server not in SERVERS:
        return f"SERVER must be gunicorn or gevent (it is {server[:20]!r})."
    if server == "gevent" and workers > 1:
        return (f"--workers {workers}: gevent's server is one process; several need gunicorn "
                f"(Linux, macOS) and PostgreSQL.")
    if server == "gunicorn" and not gunicorn_runs():
        return "gunicorn cannot run on this system (it needs Linux or macOS): use --server gevent."
    return None


def serve(host: str, port: int, workers: int, connections: int, server: str | None = None) -> None:
    """Prepare the database, print the address and its QR code, then run gunicorn, or gevent's
    server in this process (``chosen_server``)."""
    server = chosen_server(server)
    # A phone taps every few seconds to a minute: each tap on a new connection is a handshake.
    keep_alive = os.environ.get("KEEP_ALIVE_SECONDS") or "60"
    problem = setting_problem(workers, keep_alive) or server_problem(server, workers)
    if problem:
        raise SystemExit(problem)
    if server == "gevent":
        # Before the app's modules load, as in gunicorn's worker: their waits become greenlets'.
        monkey.patch_all()
    url, done = init_db()
    if url.startswith("sqlite"):
        claim_sqlite(url, workers)
    # Served all the same: /healthz answers, /readyz says 503 until the database does.
    print(f"Database: {url} ({done or 'not reached yet: /readyz answers 503 until it is'})")
    print(banner(host, port))
    sys.stdout.flush()
    # The server process inherits it: its invites then know whether phones can reach them.
    os.environ[LISTEN_HOST_VARIABLE] = host
    os.environ[LISTEN_PORT_VARIABLE] = str(port)
    _raise_open_files_limit()
    if server == "gevent":
        app = create_app()
        prepare_process(app)
        gevent_server.run(app, host, port, connections, float(keep_alive))
        return
    if workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Each worker writes its figures there and /metrics adds them up (prometheus_client).
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="companion-metrics-")
    args = gunicorn_args(host, port, workers, connections, float(keep_alive))
    os.execv(args[0], args)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="prepare the database and serve the app")
    run.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
    run.add_argument("--port", type=int, default=int(os.environ.get("PORT", "5000")))
    run.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS") or "1"),
                     help="server processes (one holds thousands of phones; several need "
                          "PostgreSQL)")
    run.add_argument("--connections", type=int,
                     default=int(os.environ.get("CONNECTIONS") or "10000"),
                     help="open connections (phones' live streams included) per process")
    run.add_argument("--server", choices=SERVERS,
                     help="gunicorn (the default where it runs: Linux, macOS) or gevent's own "
                          "server in one process (the default on Windows); or SERVER")
    commands.add_parser("init-db", help="create the database tables or upgrade them to the "
                                         "current schema")
    saving = commands.add_parser("backup", help="write one file holding everything a restore "
                                               "needs (SQLite; PostgreSQL: see docs)")
    saving.add_argument("file", type=Path)
    loading = commands.add_parser("restore", help="bring a backup into an empty instance")
    loading.add_argument("file", type=Path)
    purging = commands.add_parser("purge", help="remove archived tables' logs and phones, "
                                               "keeping the groups' plays")
    purging.add_argument("--days", type=int, required=True,
                         help="tables without activity for this many days (at least the "
                              "archive period, ARCHIVE_DAYS)")
    args = parser.parse_args(argv)
    if args.command == "init-db":
        url, done = init_db()
        if done is None:
            raise SystemExit(f"companion init-db: the database {url} cannot be reached.")
        print(f"Database {url}: {done}.")
    elif args.command in ("backup", "restore", "purge"):
        # Imported here: gunicorn reads this module as its config before its worker patches
        # the standard library for gevent, and the database drivers must load after that.
        from .web.backup import BackupProblem
        try:
            print(operate(args))
        except BackupProblem as problem:
            raise SystemExit(f"companion {args.command}: {problem}") from None
    else:
        serve(args.host, args.port, args.workers, args.connections, args.server)


def operate(args) -> str:
    """An operator's command; what it did, in a line (BackupProblem: nothing was done)."""
    from flask import Flask

    from .web import backup
    from .web.app import _instance_path, database_url

    # The instance folder and database as create_app finds them, its config.py included.
    settings = Flask("companion", instance_relative_config=True, instance_path=_instance_path())
    settings.config.from_pyfile("config.py", silent=True)
    instance = Path(settings.instance_path)
    url = database_url(settings.config.get("DATABASE_URL"), str(instance))
    if args.command == "restore":
        manifest, done = backup.restore(args.file, instance, url)  # at this code's schema
        restored, _ = init_db()
        return (f"Restored {args.file} (made {manifest['created']}) into {restored}: "
                f"{sum(manifest['rows'].values())} rows; {done}.")
    if args.command == "backup":
        if args.file.is_dir() or not args.file.parent.is_dir():
            raise backup.BackupProblem(f"{args.file} is not a file in a folder that exists.")
        manifest = backup.backup(instance, url, args.file)
        rows = manifest["rows"]
        return (f"Wrote {args.file}: {rows.get('game_table', 0)} tables, "
                f"{rows.get('log_entry', 0)} log entries, {rows.get('player_group', 0)} groups, "
                f"{rows.get('play', 0)} plays, and the secret key.")
    app = create_app()
    removed = backup.purge(app.extensions["engine"], args.days, app.config["ARCHIVE_DAYS"])
    app.extensions["engine"].dispose()
    return (f"Purged the {removed['tables']} tables without activity for {args.days} days: "
            f"{removed['log entries']} log entries, {removed['checkpoints']} checkpoints and "
            f"{removed['phones']} phones removed; their groups' plays stay.")


if __name__ == "__main__":
    main()
