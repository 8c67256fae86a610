"""The drawing kit of the charts: sizes, scales, marker shapes, fill patterns, the legend.

Every chart is 320 units wide (its viewBox) and drawn at the width of its box: on a 360 px
phone the box is about 300 px, so 13-unit text shows at 12 px or more; on a tablet it grows.
Series are told apart by shape, dash or fill pattern and by a text label, never by colour alone.

Words (titles, column heads, series, notes, tooltips, descriptions) are ``Name``/``Sentence``
values (games/text.py): the template prints them in the phone's language. Sizes are measured
on the words as the current language says them (``say``), so a longer German label still fits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ...games.text import Name, Sentence, say
from .numbers import number_text, percent_text
from .results import Data

WIDTH = 320
PAD = 8
FONT = 13  # the smallest text: 13 units, 12 px or more in a 296 px wide box
NAME_FONT = 14
CHAR = 0.62  # a character's width as a share of the font size, a little generous
BOLD_CHAR = 0.7
PALETTE = ("#0b4fa8", "#a40e0e", "#0d6b2f", "#5b2a86", "#7a4a00", "#00636b", "#b0006d", "#3d3d3d")
MARKERS = ("circle", "square", "triangle", "diamond", "plus", "cross", "triangle-down", "star")
DASHES = ("", "8 4", "2 4", "12 4 3 4", "5 2", "1 3", "10 3 2 3", "6 6")
PATTERNS = ("solid", "diagonal", "dots", "horizontal", "crosshatch", "vertical", "checks", "backdiagonal")
NICE = (1, 2, 2.5, 5)


@dataclass
class Tick(Data):
    at: float  # x or y, depending on the axis
    text: str


@dataclass
class Pattern(Data):
    id: str
    kind: str  # one of PATTERNS
    colour: str
    label: str


@dataclass
class LegendItem(Data):
    text: str
    x: float  # where the swatch starts
    y: float  # the text's baseline
    text_x: float
    pattern: str | None = None  # a fill pattern's id (bars)
    marker: str | None = None  # a marker's path (lines)
    colour: str = "#111"
    dash: str = ""
    hollow: bool = False


@dataclass
class TableRow(Data):
    header: str
    cells: list[str]


@dataclass
class Table(Data):
    caption: str
    columns: list[str]  # the first one heads the row headers
    rows: list[TableRow]
    # Cells of words, not numbers, by position after the row header (left-aligned).
    text_columns: list[int] = field(default_factory=list)


class Joined(Sentence):
    """Words joined by ``sep``, each part (a Sentence, Name or plain value) in the phone's
    language: "Ann 60%; Ben 40%"."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts, sep: str = "; "):
        super().__init__("%(text)s")
        self.parts = list(parts)
        self.sep = sep

    def render(self, gettext=lambda text: text,
               ngettext=lambda one, many, count: one if count == 1 else many) -> str:
        words = []
        for part in self.parts:
            if isinstance(part, Sentence):
                words.append(part.render(gettext, ngettext))
            elif isinstance(part, Name):
                words.append(gettext(str(part)))
            else:
                words.append(str(part))
        return self.sep.join(words)

    def __repr__(self) -> str:
        return f"Joined({self.parts!r}, {self.sep!r})"


def text_width(text, size: float = FONT) -> float:
    return len(say(text)) * size * CHAR


def fit(text, width: float, size: float = FONT, bold: bool = False):
    """``text`` cut with an ellipsis to fit ``width`` units (the table keeps it whole). A Name or
    Sentence that fits stays one (it prints in the phone's language); one cut is plain text."""
    most = max(1, int(width / (size * (BOLD_CHAR if bold else CHAR))))
    shown = say(text) if isinstance(text, (Name, Sentence)) else text
    return text if len(shown) <= most else shown[: most - 1] + "…"


def number(value: float | None) -> str:
    """A value as the chart writes it: whole numbers plainly, others to one decimal, in the
    phone's language."""
    return number_text(value)


def describe(title, parts: list) -> Sentence:
    """A chart's <desc>: every number in words, or that there is nothing yet."""
    if not parts:
        return Sentence("%(title)s: no plays to show yet.", title=title)
    return Sentence("%(title)s: %(parts)s.", title=title, parts=Joined(parts))


def percent(rate: float | None) -> str:
    """A rate from 0 to 1 as a whole percentage in the phone's language."""
    return percent_text(rate)


def nice_scale(low: float, high: float, steps: int = 5) -> tuple[float, float, float]:
    """An axis from a round number at or below ``low`` to one at or above ``high``, in at most
    ``steps`` round steps (1, 2, 2.5 or 5 times a power of ten); zero is always on it."""
    low, high = min(low, 0.0), max(high, 0.0)
    if high == low:
        high = low + 1
    raw = (high - low) / steps
    power = 10 ** math.floor(math.log10(raw))
    # Each round step in turn; one of twice ``raw`` or more always fits (four steps or more).
    for factor in NICE + tuple(10 * nice for nice in NICE):
        step = round(factor * power, 12)  # 0.1, not 0.30000000000000004 / 3
        bottom, top = round(math.floor(low / step) * step, 12), round(math.ceil(high / step) * step, 12)
        if round((top - bottom) / step) <= steps:
            return bottom, top, step
    raise AssertionError("a step of twice the raw step always fits")  # pragma: no cover


def scale_ticks(bottom: float, top: float, step: float) -> list[float]:
    count = round((top - bottom) / step)
    return [round(bottom + step * index, 10) for index in range(count + 1)]


def series_style(index: int) -> dict:
    """The look of the ``index``-th line: a colour, a marker and a dash; past eight, the same
    shapes hollow, so no two of sixteen lines look alike even in grey."""
    return {
        "colour": PALETTE[index % len(PALETTE)],
        "marker": MARKERS[index % len(MARKERS)],
        "dash": DASHES[index % len(DASHES)],
        "hollow": (index // len(MARKERS)) % 2 == 1,
    }


def patterns(chart_id: str, labels: list[str], colours: list[str | None] | None = None) -> list[Pattern]:
    """One fill pattern per bar series, its id unique on the page; ``colours`` where the colour
    means something (a legion's token), else the palette's."""
    colours = colours or [None] * len(labels)
    return [
        Pattern(f"{chart_id}-fill-{index}", PATTERNS[index % len(PATTERNS)],
                colour or PALETTE[index % len(PALETTE)], label)
        for index, (label, colour) in enumerate(zip(labels, colours))
    ]


def legend(items: list[dict], top: float, swatch: float = 26) -> tuple[list[LegendItem], float]:
    """Lay legend items out in lines across the chart; returns them and the y below the legend.
    Each item is a dict of LegendItem's fields without positions."""
    placed, x, line = [], PAD, 0
    for item in items:
        text = fit(item["text"], WIDTH - 2 * PAD - swatch - 6)
        width = swatch + 6 + text_width(text) + 14
        if x > PAD and x + width - 14 > WIDTH - PAD:
            x, line = PAD, line + 1
        y = top + 14 + line * 22
        placed.append(LegendItem(**{**item, "text": text, "x": round(x, 1), "y": y,
                                    "text_x": round(x + swatch + 6, 1)}))
        x += width
    return placed, (top + 22 + line * 22 if items else top)
