"""Numbers as the phone's language writes them: German "26,5" and "67 %", English "26.5" and "67%"."""

from __future__ import annotations

from babel.numbers import format_decimal, format_percent
from ...games.text import current_language as _language


def number_text(value: float | None) -> str:
    """A statistic: whole numbers plainly, others to one decimal ("13.5", in German "13,5");
    "–" for none."""
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return format_decimal(value, format="0.0", locale=_language())


def percent_text(rate: float | None) -> str:
    """A rate from 0 to 1 as a whole percentage ("71%", in German "71 %" with a space that does
    not break); "–" for none."""
    if rate is None:
        return "–"
    return format_percent(round(rate * 100) / 100, locale=_language())
