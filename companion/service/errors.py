"""A refused request: the HTTP status it is answered with and the sentence the player reads."""

from __future__ import annotations


class TableProblem(Exception):
    """A refused request; ``status`` is the HTTP status, ``message`` the sentence to show."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(TableProblem):
    status = 404


class Unauthorized(TableProblem):
    status = 401


class Forbidden(TableProblem):
    status = 403


class Stale(TableProblem):
    status = 409


class Invalid(TableProblem):
    status = 422


class Busy(TableProblem):
    """Not now: the server is doing something that takes one at a time (answered with a
    Retry-After)."""

    status = 503


class AlreadyDone(TableProblem):
    """A retry of a change that was recorded already (its Idempotency-Key is in the log; ``seq``:
    the entry), or a move that would change nothing (``seq`` None): nothing is recorded; the
    answer is the table as it is."""

    status = 200

    def __init__(self, seq: int | None):
        super().__init__("")
        self.seq = seq
