"""Text that arrives from outside, made safe to store and to compare.

- ``tidy_name``: a person's or group's name as it will be shown. Unicode-normalised (NFC, so
  "Zoë" typed two ways is one name), with invisible characters removed: control characters,
  zero-width and joiner characters, bidirectional overrides and isolates (which would let a
  name display backwards or spoof another), lone surrogates; runs of spaces become one.
- ``name_key``: what two names must share to count as the same player: the tidy name,
  case-folded and normalised again ("STRASSE" and "straße", "Zoë" and "ZOË").
- ``text_problem``: the first string anywhere in a decoded JSON value or a form that no
  database can store (a NUL, a lone surrogate), as a sentence; None when all is well.
  ``depth_problem``: a value nested deeper than any real action, as a sentence.

Pure Python (no Flask): the sentences are ``Sentence`` objects, rendered by the caller.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from ..games.patterns import NO_CONTROLS, something_left
from ..games.text import Sentence, quote

# A person's name: as long as a seat's label on a phone can show.
NAME_MAX = 24
# Deeper than any action, option set or import a phone or script sends.
MAX_DEPTH = 32


def _invisible(char: str) -> bool:
    category = unicodedata.category(char)
    # Cc: controls (NUL, tab, newline …); Cf: format characters (zero-width space and joiners,
    # bidirectional marks, overrides and isolates, the byte-order mark); Cs: lone surrogates.
    return category in ("Cc", "Cf", "Cs")


def tidy_name(raw: str) -> str:
    """The name as stored and shown (may be empty: the caller says a name is needed)."""
    visible = "".join(" " if char in "\t\n\r\v\f" else char
                      for char in raw if not _invisible(char) or char in "\t\n\r\v\f")
    return " ".join(unicodedata.normalize("NFC", visible).split())


def name_key(name: str) -> str:
    """Two names with the same key are the same name to the players at the table: in any case,
    and in any width (a phone's keyboard may type "Ｂｅｎ" for "Ben")."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


# A NUL or a lone surrogate (U+D800 to U+DFFF): one scan in C, as every field of every tap passes.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _bad_character(text: str) -> str | None:
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    return "NUL" if found.group() == "\x00" else "surrogate"


def text_problem(value: Any, depth: int = 0) -> Sentence | None:
    """The first string in ``value`` (dicts, lists, strings) that cannot be stored."""
    if depth > MAX_DEPTH:
        return depth_problem()
    if isinstance(value, str):
        bad = _bad_character(value)
        if bad == "NUL":
            return Sentence("The text '%(text)s' holds a NUL character, which cannot be stored.",
                            text=quote(value.replace("\x00", "")))
        if bad:
            return Sentence("The text '%(text)s' holds a broken character (a lone surrogate); "
                            "send it as proper UTF-8.",
                            text=quote(value.encode("utf-8", "replace").decode("utf-8")))
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem(key, depth + 1) or text_problem(item, depth + 1)
            if problem:
                return problem
    elif isinstance(value, (list, tuple)):
        for item in value:
            problem = text_problem(item, depth + 1)
            if problem:
                return problem
    return None


# One past the largest id or version every database holds (PostgreSQL's INTEGER: 32 bits).
ID_MOST = 2**31


def stored_id(value) -> int | None:
    """``value`` when it is a whole number a database id could be, else None (an id far past
    any row is simply no row: no query is sent that the database would refuse)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < ID_MOST:
        return value
    return None


def depth_problem() -> Sentence:
    return Sentence("The request is nested more than %(most)s levels deep; no action needs that.",
                    most=MAX_DEPTH)


# -- the same limits, said in the API's JSON schemas (web/openapi.py) -------------------------


@functools.cache
def name_pattern() -> str:
    """A name as the API takes it: no control character (``CONTROL``), and at least one
    character that is neither invisible (as ``_invisible``) nor a space."""
    return something_left(lambda char: _invisible(char) or char.isspace(), never=NO_CONTROLS)


# What the API refuses in a name (the pages' forms have them tidied away): Unicode's Cc.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
