"""`make bench`: the production server on loopback under a table-night load, push and poll.

Every part starts `companion serve` of this checkout (gunicorn, gevent) on 127.0.0.1 with a
fresh database, joins phones the way a browser does (GET and POST /j/<code>: a seat and a
cookie; no page sends anything when its stream is ready), and measures against the trivial
/healthz of the same server in the same run. The café and busy loads run on the code before
issue 28 too (the baseline, commit 39d83a4, prepared once in bench/results/baseline-39d83a4
and started through its own command line, with its own default workers): both servers up with
their phones, each load taken in turns (--slices), so both meet the machine at like speeds.

  cafe   (the gate) N tables × M phones each holding the live stream open; one change per
         table every 5 s, tapped by a random phone of the table with `X-Live-Stream: open`.
         Every change must reach every other phone of its table: delivered/lost, the time
         from the tap being sent to each other phone having the event with that version
         (`id:`), and the server's CPU per change; this code and the baseline in turns.
  busy   the same phones, one change per table per second; in turns as cafe.
  push   cafe and busy.
  two    busy's load through nginx (the README's configuration, read from it at run time) in
         front of two servers of this code on one PostgreSQL database (BENCH_DATABASE_URL);
         nginx's and PostgreSQL's CPU apart.
  idle   cafe's phones with their streams idle, before its load: server CPU, and server
         memory per open stream.
  scale  1,000 tables × 6 phones = 6,000 open streams on one process: /healthz and a few
         changes a second while they are open; streams that failed to open.
  bytes  per game, the gzip bytes on the wire of one update event on a stream, and of the
         first load of the table page (its HTML, and with every script and style sheet), as
         browsers ask over plain HTTP (gzip) and over HTTPS (brotli too).
  poll   the fallback: every phone polls once a second while the same changes run.
  group  a group with 200 plays (imported through the API): its page, its statistics page,
         the statistics JSON and the export, each fetched alternately with /healthz.
  slow   /healthz and a table page, each on a new connection, before and while 1,000
         connections that send nothing and 100 that trickle one header line every 3 s are held
         open by a second client process (re-opened as soon as the server closes them): loaded
         p99 / unloaded p99, failed requests, after how long the server closes an idle, a
         trickling, and an answered but quiet connection (its keep-alive).
  hammer one client (a second process, from 127.0.0.2) sending GET /t/<code>/live with a
         version that never matches and POST /api/tables/<code>/actions on its own table, 50
         requests in flight, against the server's DEFAULT rate limits (the other parts lift
         them); meanwhile the other tables, each from its own loopback address as each table
         is a household of its own, read their snapshot and enter scores through the API at a
         steady pace, with /healthz: loaded p99 / unloaded p99, the hammering client's
         requests per second and share answered 429.
  long   a score pad with 10 log entries and one with 10,000 (entered through the API first):
         an action, a snapshot and an undo followed by its redo on each, alternately with
         /healthz: the long game's time / the short one's.
  import the other tables of hammer, reading and entering scores at a steady pace with
         /healthz, before and while a group imports 5,000 plays of 12 new names each through
         the API (from its own address): loaded p99 / unloaded p99, and the import's time.
  stats  the other tables of hammer, reading and entering scores at a steady pace with
         /healthz, before and while four loops from one address (the DEFAULT rate limits, paced
         within its minute's worth) fetch a group's statistics (JSON and page) and its exports
         (CSV and JSON) round and round, a table being set up in the group with a new player
         every few seconds: loaded p99 / unloaded p99, and the server's CPU; then the first
         statistics of a group of 3,000 imported plays and 36,000 players.
  venue  a game café behind one public address (TRUSTED_PROXIES=1, every request carrying the
         same X-Forwarded-For), with the DEFAULT rate limits: 20 tables × 6 phones join within
         two minutes, open their streams, and every phone taps every 5 s for a minute: how
         many requests of each kind were answered 429 (the goal: none).

Server CPU is the sum of utime+stime of the gunicorn master and its workers (psutil), as % of
one core over the measured window, and per change: those CPU seconds ÷ the changes made in the
window; memory is the sum of their RSS. The load generator is one asyncio process (slow and
hammer run their attacker in a second process, its CPU printed apart); its own CPU and the lag
of its event loop are printed beside each part, so a starved client would show (its timestamps
are taken when it gets round to reading a socket). On a shared machine, "everything else" is
the CPU other programs used.

Not a test: nothing here asserts a time; goal lines say met or NOT met, and are gathered at the
end. Bounded in count and time, loopback only. The report is printed at the end and kept in
bench/results/report.txt, beside each server's log.
"""

import sys
from pathlib import Path

# Run as a script: the repository's root on the path (not bench/, where this file would hide
# the bench package of the same name), so that the parts import as bench.*, in spawned
# processes too.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bench.harness import main  # noqa: E402

if __name__ == "__main__":
    main(__doc__)
