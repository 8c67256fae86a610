"""`companion …` as on Windows, run on Linux: what Windows lacks is hidden from the companion
(fcntl, resource, gunicorn, os.getuid; msvcrt's file lock stands in, made of the hidden one),
then its command line runs. `companion serve` must then choose gevent's server by itself
(tests/browser/test_live_push_browser.py runs its checks through it).

    python tests/as_on_windows.py serve --host 127.0.0.1 --port 5000
"""

from __future__ import annotations

import fcntl
import os
import sys
import types

# On Linux these need fcntl themselves, so they load first; on Windows they bring their own.
import gevent.fileobject  # noqa: F401
import gevent.os  # noqa: F401
import gevent.subprocess  # noqa: F401
import psutil  # noqa: F401


def _locking(fd: int, _mode: int, _nbytes: int) -> None:
    """msvcrt.locking(fd, LK_NBLCK, 1): an OSError while another process holds the lock."""
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def hide_posix() -> None:
    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_NBLCK = 2
    msvcrt.locking = _locking
    sys.modules["msvcrt"] = msvcrt
    for name in ("fcntl", "resource", "gunicorn"):
        sys.modules[name] = None  # `import fcntl` raises ImportError, as on Windows
    del os.getuid


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    hide_posix()
    from companion.cli import main

    main()
