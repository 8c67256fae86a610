"""The codes of tables (six characters) and groups (ten): what phones type, scan and share."""

from __future__ import annotations

import secrets


from ..games.text import gettext as _
from .inputs import quote

# Six characters without look-alikes: no 0/O, no 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
# A group's code opens its whole history and lives for years: 31^10 codes, so that guessing
# one of 1,000 groups from 100 addresses at the code limit (10 a second each) takes 26 years
# on average (31^10 / 1,000 groups / 1,000 guesses a second = 8.2e8 s).
GROUP_CODE_LENGTH = 10


def random_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _position in range(length))


def normalise_code(raw: str) -> str:
    """Upper-case, drop spaces and dashes; the code box accepts "abc 234" too. Anything
    else that could not be part of a code (a NUL, a control or non-ASCII character) becomes
    "?", which no code holds and every database stores."""
    return "".join(ch if ch.isascii() and ch.isprintable() else "?"
                   for ch in (raw or "")[:64].upper() if ch not in " -\t")


def code_problem(code: str) -> str | None:
    """Why this text cannot be a table code, or None when it could be one."""
    if len(code) != CODE_LENGTH:
        return _("A table code has %(length)d characters; '%(code)s' has %(count)d.",
                 length=CODE_LENGTH, code=quote(code), count=len(code))
    wrong = sorted({ch for ch in code if ch not in CODE_ALPHABET})
    if wrong:
        return _("'%(letters)s' never appears in a table code (codes use no 0, O, 1, I or L).",
                 letters="".join(wrong))
    return None
