"""gunicorn's hooks for the companion's workers (``companion serve`` passes this module as
gunicorn's config; the command line's settings stay in cli.gunicorn_args)."""

from __future__ import annotations

import gc


def post_worker_init(_worker) -> None:
    """The app is loaded: what it made at start-up (templates, catalogues, the database's
    metadata: some 150,000 objects) lives as long as the worker. Moved out of the collector's
    sight, a full collection no longer walks through all of it, which took 30-70 ms in which
    the worker served nobody: every phone's live stream and tap waited."""
    gc.collect()
    gc.freeze()
