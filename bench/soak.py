"""`make soak`: racing writers through three `kill -9` restarts; is every acknowledged tap kept once?

For each database (SQLite, then the bench PostgreSQL database; --database picks one), this
starts the production server (`companion serve`: gunicorn with gevent workers, on 127.0.0.1)
in a session of its own, sets up --tables score pads of --phones seats through the JSON API
and has every seat joined by its own phone (its own bearer token; each table's phones come
from a loopback address of their own, a household each). For --seconds, the phones
of a table enter their scores together, the way a score pad is filled at the end of a round:
each phone writes its own player's next round (one cell of the sheet, never written twice),
within a fraction of a second of its table-mates, with the `expected_version` it last saw. The
server merges such taps (each touches its own cell); a 409 means: read the table again and
send once more; a 429: wait `Retry-After`.

Every tap carries an `Idempotency-Key` of its own. --kills times, spread evenly through the run,
the server's whole process tree (master and workers) gets SIGKILL, is started again at once on
the same database, and the script waits for /healthz. A tap whose answer was lost (the
connection refused, reset or closed by the kill; a timeout; a 5xx) is sent again, the same
request with the same key, until it is answered or --retry-seconds have passed since its
first lost answer: then its outcome is unknown.

When the writing has stopped and every retry is settled, every table is read back through
the API (its whole log, page by page through `log_next`) and checked:

  acknowledged     taps answered 2xx (some only by a retry, some as `Idempotent-Replayed`)
  lost             acknowledged, but their cell is not in the final state with their points,
                   or their key is not in the log (read from the database)
  doubled          a cell written more than once in the log, or a key recorded twice
  unknown-outcome  never answered; how many of them were recorded anyway is shown
  corrupted        a table that cannot be read; a log with gaps or a log entry nobody sent;
                   a state that disagrees with its log (cells, or totals ≠ the sum of the
                   logged points); on SQLite `PRAGMA integrity_check` ≠ ok

plus the kills, how long each restart took (kill → /healthz answered), acknowledged taps
per second, answer times, refusals by status and the servers' logs. The exit status is 1 when
anything was lost, doubled or corrupted (or a database could not be soaked), else 0.

Not a test (`make test` does not run it): bounded in time, loopback only. The report is
printed and kept in bench/results/soak.txt, beside each server life's log
(bench/results/soak-<database>-<life>.log).

The slow-client run (1,000 idle + 100 trickling connections held open, /healthz p99 with
and without them) is a part of the benchmark: make bench BENCH_ARGS="--parts slow".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
from pathlib import Path

import aiohttp

# Run as a script: the repository's root on the path (not bench/, where bench/bench.py would
# hide the bench package of the same name), so that it imports as bench.*.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bench.report import RESULTS, log  # noqa: E402
from bench.servers import (SERVER_KINDS, bench_database_url, client_connector,  # noqa: E402
                           reset_database, scan_logs, wait_up)
from bench.soaking import CpuSampler, Soak, SoakServer  # noqa: E402
from bench.timing import percentile  # noqa: E402

SLOW_PART = 'make bench BENCH_ARGS="--parts slow"'


# -- one database, and the report ------------------------------------------------------------


def soak_database_url() -> str:
    """SOAK_DATABASE_URL, else the bench's server and role (BENCH_DATABASE_URL) with a database
    of the soak's own, so that a `make bench --database postgres` meanwhile empties nothing of
    it (and the soak's kills cut nothing of the bench's)."""
    return os.environ.get("SOAK_DATABASE_URL") or (
        bench_database_url().rsplit("/", 1)[0] + "/companion_soak")


def role_of(url: str) -> str:
    return url.split("://", 1)[-1].split("@")[0].split(":")[0] or "companion"


def ensure_database(url: str) -> str | None:
    """Create the soak database when it is missing (the role needs CREATEDB for that); None
    when it is there, else why not."""
    try:
        import psycopg
        from psycopg import sql
    except ImportError:
        return "psycopg is not installed"
    name = url.rsplit("/", 1)[-1].split("?")[0]
    try:
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True,
                             connect_timeout=5) as connection:
            if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  (name,)).fetchone():
                return None
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except Exception as exc:  # noqa: BLE001 - any reason is a reason not to run
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc) else ''}"
    return None


async def soak_database(args, kind: str) -> tuple[list[str], bool]:
    """One database's soak: its report lines, and whether it passed."""
    title = "SQLite" if kind == "sqlite" else f"PostgreSQL ({soak_database_url().split('@')[-1]})"
    url = None
    if kind == "postgres":
        url = soak_database_url()
        problem = ensure_database(url) or reset_database(url)  # emptied first, as the bench's
        if problem:
            return [f"{title}: NOT RUN: the database is not usable ({problem}); create it once "
                    f"with: runuser -u postgres -- psql -c \"CREATE DATABASE "
                    f"{url.rsplit('/', 1)[-1]} OWNER {role_of(url)}\""], False
    server = SoakServer(kind, args.port, args, url)
    with server:
        connector = client_connector()
        async with aiohttp.ClientSession(connector=connector,
                                         timeout=aiohttp.ClientTimeout(total=args.timeout)) as session:
            await wait_up(session, server)
            soak = Soak(args, kind, server, session)
            log(f"{kind}: setting up {args.tables} tables × {args.phones} phones")
            try:
                await soak.set_up()
                return await write_and_check(args, kind, title, soak, server)
            finally:
                await soak.close()


async def write_and_check(args, kind: str, title: str, soak: Soak, server: SoakServer
                          ) -> tuple[list[str], bool]:
    """The writing with its kills, then every table read back: the report and the verdict."""
    sampler = CpuSampler(server)
    sampling = asyncio.create_task(sampler.run())
    log(f"{kind}: writing for {args.seconds} s with {args.kills} kill -9")
    try:
        took = await soak.write()
    finally:
        sampling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampling
    log(f"{kind}: reading every table back")
    await asyncio.sleep(1)  # calm: nothing is being written any more
    result = await soak.check()
    return report(args, title, soak, result, took, sampler, server), passed(result)


def passed(result: dict) -> bool:
    return result["lost"] == 0 and result["doubled"] == 0 and result["corrupted"] == 0


def report(args, title: str, soak: Soak, result: dict, took: float, sampler: CpuSampler,
           server: SoakServer) -> list[str]:
    phones = args.tables * args.phones
    kills = soak.kills
    restarts = ", ".join(f"{k['restart']:.1f} s" for k in kills) or "-"
    at = ", ".join(f"{k['at']:.0f} s" for k in kills) or "-"
    in_flight = ", ".join(str(k["in_flight"]) for k in kills) or "-"
    labels = {"409": "409 stale (read again, sent again)", "429": "429 (waited Retry-After)"}
    refusals = ", ".join(f"{labels.get(kind, kind)} × {count}" for kind, count in
                         sorted(soak.refusals.items(), key=lambda item: (-item[1], item[0])))
    problems = ", ".join(f"{kind} × {count}" for kind, count in result["problems"].items())
    integrity = result["database"]
    unknown = result["unknown"]
    lines = [
        f"{title}: {args.tables} tables × {args.phones} phones = {phones} phones, "
        f"{result['taps']} taps sent in {took:.0f} s (writing {args.seconds} s, then retries "
        f"settled)",
        f"  kills: {len(kills)} of {args.kills} kill -9 of the whole server (at {at}; taps in "
        f"flight {in_flight}); back up (kill → /healthz 200) after {restarts}",
        f"  acknowledged     {result['acknowledged']}  ({result['acknowledged'] / took:.1f} "
        f"actions/s; {result['after_lost_answer']} only after a lost answer, "
        f"{result['replayed']} of them Idempotent-Replayed)",
        f"  lost             {result['lost']}",
        f"  doubled          {result['doubled']}",
        f"  unknown-outcome  {unknown}" + (f"  ({result['unknown_recorded']} of them recorded, "
                                          f"{unknown - result['unknown_recorded']} not)"
                                          if unknown else ""),
        f"  corrupted        {result['corrupted']}"
        + (f"  ({problems})" if problems else "")
        + (f"; PRAGMA integrity_check: {integrity}" if integrity else ""),
        f"  refusals and lost answers by status: {refusals or 'none'}",
        f"  answer time of the 2xx answers: {answer_times(soak)}",
        f"  {sampler.text()}",
    ]
    for status, text in sorted(soak.first_answers.items()):
        lines.append(f"  the first {status} answer said: {text}")
    if result["refused"]:
        lines.append("  refused for good (4xx, not retried): " + ", ".join(
            f"{status} × {count}" for status, count in result["refused"].items()))
    for status, count in sorted(result["replayed_after"].items()):
        if count:
            lines.append(f"  recorded although answered {status} (no other attempt reached the "
                         f"server; the retry was answered Idempotent-Replayed): {count}")
    if result["not_shown"]:
        lines.append(f"  2xx answers whose state did not show their own cell: {result['not_shown']}")
    if not result["keys_read"]:
        lines.append(f"  keys not read from the database: {result['key_problem']}")
    lines += [f"  {example}" for example in result["examples"]]
    lines += scan_logs(server.log_names())
    lines.append("  verdict: " + ("PASS (nothing lost, doubled or corrupted)" if passed(result)
                                  else "FAIL"))
    return lines


def answer_times(soak: Soak) -> str:
    """p50/p99 of the 2xx answers to requests sent in calm times, and apart those sent
    between a kill and ten seconds after the server was back (cold workers, the retries)."""
    def near_kill(sent: float) -> bool:
        return any(k["killed"] <= sent <= k["back"] + 10 for k in soak.kills)

    def text(values: list[float]) -> str:
        return (f"p50 {percentile(values, 0.5) * 1000:.0f} ms, p99 "
                f"{percentile(values, 0.99) * 1000:.0f} ms, max {max(values, default=0) * 1000:.0f} "
                f"ms ({len(values)})")

    calm = [took for sent, took in soak.answer_times if not near_kill(sent)]
    restarting = [took for sent, took in soak.answer_times if near_kill(sent)]
    return (f"calm {text(calm)}"
            + (f"; up to 10 s after a restart {text(restarting)}" if restarting else ""))


async def run(args) -> tuple[list[str], bool]:
    kinds = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    lines, ok = [], True
    for kind in kinds:
        try:
            section, good = await soak_database(args, kind)
        except (SystemExit, Exception) as exc:  # noqa: BLE001 - the other database still runs
            log(f"{kind}: failed: {exc!r}")
            section, good = [f"{kind}: FAILED: {str(exc)[:300] or type(exc).__name__}"], False
        lines += section + [""]
        ok = ok and good
    return lines, ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--database", choices=("sqlite", "postgres", "both"), default="both",
                        help="both: SQLite, then PostgreSQL (SOAK_DATABASE_URL, default the "
                             "bench's server with the database companion_soak, emptied first)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=6, help="phones (seats) per table")
    parser.add_argument("--seconds", type=int, default=300, help="writing time per database")
    parser.add_argument("--kills", type=int, default=3,
                        help="kill -9 restarts per database, spread evenly through the writing")
    parser.add_argument("--rate", type=float, default=0.1,
                        help="taps per phone per second (the phones of a table tap together)")
    parser.add_argument("--spread", type=float, default=0.3,
                        help="seconds within which the phones of a table tap")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds before an unanswered request counts as a lost answer")
    parser.add_argument("--retry-seconds", type=float, default=60.0,
                        help="how long after its first lost answer a tap is still sent again")
    parser.add_argument("--stale-retries", type=int, default=20,
                        help="409s after which a tap is given up (refused)")
    parser.add_argument("--port", type=int, default=5097)
    parser.add_argument("--workers", type=int, default=None, help="server workers (default: as serve)")
    parser.add_argument("--server-connections", type=int, default=None,
                        help="connections per worker (default: as serve)")
    args = parser.parse_args()
    if args.rate <= 0 or args.tables < 1 or not 1 <= args.phones <= 12:
        parser.error("--rate must be positive, --tables at least 1, --phones 1 to 12")
    began = time.perf_counter()
    load = os.getloadavg()
    lines, ok = asyncio.run(run(args))
    header = [
        f"make soak: racing writers through kill -9 restarts; companion serve "
        f"({'; '.join(sorted(SERVER_KINDS)) or '?'}) at 127.0.0.1; {args.rate:g} taps "
        f"per phone per second, a table's phones within {args.spread:g} s of each other; "
        f"retries with the same Idempotency-Key for {args.retry_seconds:g} s",
        f"machine: {os.cpu_count()} cores, load average at start {load[0]:.2f}",
        "",
    ]
    footer = [f"The slow-client run (1,000 idle + 100 trickling connections, /healthz p99): "
              f"{SLOW_PART}",
              f"whole run: {time.perf_counter() - began:.0f} s; "
              + ("PASS" if ok else "FAIL: see above")]
    text = "\n".join(header + lines + footer)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "soak.txt").write_text(text + "\n")
    print(text)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
