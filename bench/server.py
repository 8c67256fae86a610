"""`companion serve` of a checkout on loopback, on an instance folder of its own: the one way
the bench, the soak and the real-browser tests (tests/browser/conftest.py) start a server.

Standard library only, so that the tests import it (`bench` from the repository's root, which
pytest puts on sys.path) without anything the app does not need."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def companion_command() -> list[str]:
    """This virtualenv's `companion` (the checkout's, installed editable)."""
    return [str(Path(sys.executable).with_name("companion"))]


def wait_until_up(url: str, process: subprocess.Popen, log: Path, seconds: float = 30) -> None:
    """Until ``url``/healthz answers; a process that stopped meanwhile shows its log's end."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at start-up: {log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer /healthz in time")


def stop_process(process: subprocess.Popen | None, seconds: float = 10) -> None:
    """SIGTERM, and SIGKILL after ``seconds``: a server that is still running ends."""
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class ServerProcess:
    """`companion serve --host <host> --port <port>` (``command``: another `companion`, e.g.
    an installed wheel's, run in ``cwd``) with COMPANION_INSTANCE=``instance``, its output
    written to ``log``; it can be stopped and launched again on the same port. ``env``
    goes over the caller's environment (None removes a variable); DATABASE_URL is never
    inherited: only ``env`` sets it."""

    def __init__(self, instance: Path | str, port: int, log: Path, host: str = "127.0.0.1",
                 env: dict[str, str | None] | None = None, command: list[str] | None = None,
                 cwd: Path | None = None):
        self.instance, self.port, self.log = Path(instance), port, log
        self.host, self.env, self.cwd = host, env or {}, cwd
        self.command = command or companion_command()
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None

    def environment(self, settings: dict[str, str]) -> dict[str, str]:
        """The server's environment: the caller's, the instance, ``settings``, then ``env``."""
        env = {**os.environ, "COMPANION_INSTANCE": str(self.instance), **settings}
        env.pop("DATABASE_URL", None)
        for variable, value in self.env.items():
            if value is None:
                env.pop(variable, None)
            else:
                env[variable] = value
        return env

    def launch(self, env: dict[str, str], options: list[str] | None = None, mode: str = "a",
               own_session: bool = False) -> None:
        """Start it (not waiting for it). The output goes to the log file: a pipe nobody reads
        would fill up and stall the server. ``own_session``: a process group of its own, so
        that its whole tree can be killed at once."""
        with open(self.log, mode) as output:
            self.process = subprocess.Popen(
                [*self.command, "serve", "--host", self.host, "--port", str(self.port),
                 *(options or [])], env=env, cwd=self.cwd, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=own_session)

    def wait_until_up(self, seconds: float = 30) -> None:
        wait_until_up(self.url, self.process, self.log, seconds)

    def stop(self, seconds: float = 10) -> None:
        stop_process(self.process, seconds)
        self.process = None
