"""The rules engine's errors: each carries one sentence that can be shown to a player as it is."""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error the rules engine raises on purpose."""


class RulesFormatError(RulesError, ValueError):
    """A content or alias file is malformed; the message names the file and line."""


class UnknownGame(RulesError, LookupError):
    """There are no rules for the requested game id."""


class UnknownSection(RulesError, LookupError):
    """The game has no section with the requested id."""


class QueryTooLong(RulesError, ValueError):
    """A search longer than ``MAX_QUERY_LENGTH`` characters is refused rather than cut."""
