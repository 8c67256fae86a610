"""SQLite's writers take turns through a file lock shared by every process of the server
(database.WriterQueue); a gevent worker waiting for it must not stop its other phones for
long."""

from __future__ import annotations

import fcntl
import os
import select
import subprocess
import sys
import textwrap

import pytest

# A gevent worker in miniature: one greenlet waits for the write lock, another says when it
# gets to run.
WORKER = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import os, sys
    import gevent
    from companion.database import _wait_for_lock

    def other_phone():
        print("other greenlet ran", flush=True)

    gevent.spawn(other_phone)
    fd = os.open(sys.argv[1], os.O_RDWR)
    _wait_for_lock(fd)
    print("writer has the lock", flush=True)
""")


def next_line(worker, seconds=60.0) -> str:
    """The worker's next line; "" when it says nothing for ``seconds`` (it is stuck)."""
    ready, _, _ = select.select([worker.stdout], [], [], seconds)
    return worker.stdout.readline().strip() if ready else ""


@pytest.fixture
def held_lock(tmp_path):
    path = tmp_path / "companion.db.writers"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    yield path, fd
    os.close(fd)


def test_a_worker_waiting_for_a_long_held_write_lock_lets_its_other_phones_go_on(held_lock):
    """Another process holds the lock and frees it only once the waiting worker's other
    greenlet has run: a worker that stopped everything until the lock was free would wait
    for ever here (a minute, then the test fails)."""
    path, fd = held_lock
    worker = subprocess.Popen([sys.executable, "-c", WORKER, str(path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    try:
        assert next_line(worker) == "other greenlet ran"
        fcntl.flock(fd, fcntl.LOCK_UN)
        assert next_line(worker) == "writer has the lock"
        assert worker.wait(timeout=60) == 0, worker.stderr.read()
    finally:
        worker.kill()
        worker.wait()
        worker.stdout.close()
        worker.stderr.close()
