"""JSON Schema patterns of the text the server accepts, for the API's document."""

from __future__ import annotations

import functools
import sys

# Every string of a request body: no NUL (``service.inputs.text_problem``). A lone surrogate
# cannot be said portably in a JSON Schema pattern; it is refused all the same.
STORABLE_PATTERN = "^[^\\u0000]*$"


# A name's text holds no control character (a tab, a line break, …: Unicode's Cc).
NO_CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f"
NO_CONTROLS_PATTERN = f"^[^{NO_CONTROLS}]*$"


def something_left(gone, never: str = "\\u0000") -> str:
    """A pattern: none of ``never`` (a character class's inside; NUL by default), and at
    least one character for which ``gone`` is false."""
    codes = [code for code in range(sys.maxunicode + 1)
             if not 0xD800 <= code <= 0xDFFF and gone(chr(code))]
    ranges, start = [], codes[0]
    for before, code in zip(codes, codes[1:] + [None]):
        if code != before + 1:
            ranges.append((start, before))
            start = code

    def char(code: int) -> str:
        # \uXXXX in the BMP (what both ECMA-262 and Python read); past it the character itself.
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    kept_out = "".join(char(a) if a == b else f"{char(a)}-{char(b)}" for a, b in ranges)
    return f"^[^{never}]*[^{never}{kept_out}][^{never}]*$"


@functools.cache
def unblank_pattern() -> str:
    """Text that ``str.strip`` leaves something of (and no NUL)."""
    return something_left(str.isspace)
