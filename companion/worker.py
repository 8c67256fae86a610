"""gunicorn's hooks for the companion's workers (``companion serve`` passes this module as
gunicorn's config; the command line's settings stay in cli.gunicorn_args)."""

from __future__ import annotations

import gc
import os
import shutil

from . import handoff


# The collector's thresholds in a worker: the young objects are collected every 20,000
# allocations (Python's 700 made a worker stop some 5 times a second, and collect its older
# generations every few seconds for 6 ms and every half minute for 25-60 ms); the older ones
# after 50 and 20 such collections. Push bench, two runs each (tap to every phone, p95 / p99 /
# max): 22-28 / 31-44 / 59-68 ms against 35-38 / 58 / 112-115 ms with Python's (700, 10, 10),
# server CPU 66-70 % against 75-76 %. Cyclic garbage still goes, at the latest with the
# oldest generation's collection, some 20 million allocations apart.
GC_THRESHOLDS = (20_000, 50, 20)


def when_ready(server) -> None:
    """The master is up: forget the hand-over folders of servers killed without clean-up."""
    handoff.sweep()


def post_worker_init(worker) -> None:
    """The app is loaded; before the first request:

    - this worker joins its server's hand-over of connections (handoff.py): a table's
      phones all go to one worker, which commits, loads and draws each change once for all;
    - every script and style sheet is minified and compressed now (htmx at brotli's highest
      level alone takes some 100 ms);
    - every template is compiled now, not at the first page or live update that needs it
      (table.html and a game's template with their macros took 50-100 ms, in which the
      worker served nobody else);
    - what the app made at start-up (templates, catalogues, the database's metadata: some
      150,000 objects) lives as long as the worker. Moved out of the collector's sight, a full
      collection no longer walks through all of it, which took 30-70 ms, every phone's live
      stream and tap waiting;
    - the collector runs less often (GC_THRESHOLDS)."""
    worker.wsgi.extensions["table_handoff"].start(handoff.folder_of(worker.ppid), worker)
    worker.wsgi.extensions["companion.assets"].warm()
    environment = worker.wsgi.jinja_env
    for name in environment.list_templates(extensions=["html"]):
        environment.get_template(name)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def worker_exit(server, worker) -> None:
    """A worker leaves: no connection is handed to it any more."""
    worker.wsgi.extensions["table_handoff"].stop()


def on_exit(server) -> None:
    shutil.rmtree(handoff.folder_of(os.getpid()), ignore_errors=True)
