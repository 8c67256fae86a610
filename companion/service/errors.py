"""A refused request: the HTTP status it is answered with, the sentence the player reads, and
its kind, which the API answers beside the sentence for a script to tell refusals apart."""

from __future__ import annotations

# Every kind of refusal the API answers, with what it means (the OpenAPI document says these).
KINDS = {
    "invalid": "The request is malformed or a value is not allowed: fix it before sending again.",
    "rule": "The game's rules do not allow this move now.",
    "conflict": "The table changed since the version sent: look at it again, then decide.",
    "not_found": "Nothing has that code or address (or it was put away).",
    "unauthorized": "No token, or one that gives no rights here.",
    "forbidden": "Not allowed to this caller (a watcher, a non-owner, a finished game's seat).",
    "rate_limited": "Too many requests: wait the Retry-After seconds.",
    "too_large": "The body (or the address, or the headers) is larger than this server takes.",
    "too_slow": "The body did not arrive in time.",
    "method_not_allowed": "This address does not take that method.",
    "busy": "The server cannot do it just now: send it again after the Retry-After seconds.",
    "server_error": "The server failed; nothing was changed.",
}


class TableProblem(Exception):
    """A refused request; ``status`` is the HTTP status, ``message`` the sentence to show."""

    status = 400
    kind = "invalid"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(TableProblem):
    status = 404
    kind = "not_found"


class Unauthorized(TableProblem):
    status = 401
    kind = "unauthorized"


class Forbidden(TableProblem):
    status = 403
    kind = "forbidden"


class Stale(TableProblem):
    status = 409
    kind = "conflict"


class Invalid(TableProblem):
    status = 422


class RuleRefused(Invalid):
    """A well-formed move the game's rules refuse now."""

    kind = "rule"


class Busy(TableProblem):
    """Not now: the server is doing something that takes one at a time (answered with a
    Retry-After)."""

    status = 503
    kind = "busy"


class AlreadyDone(TableProblem):
    """A retry of a change that was recorded already (its Idempotency-Key is in the log; ``seq``:
    the entry), or a move that would change nothing (``seq`` None): nothing is recorded; the
    answer is the table as it is."""

    status = 200

    def __init__(self, seq: int | None):
        super().__init__("")
        self.seq = seq
