"""The score-trend chart: one line per player through their scores in one game, play by play,
each line with its own marker shape and dash, its name at its end and in the legend."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...games.markers import marker_path
from ...games.text import N_, Sentence, plural_sentence
from .compute import TrendSeries
from .results import Data
from .svg import (PAD, WIDTH, LegendItem, Table, TableRow, Tick, describe, fit, legend, nice_scale,
                  number, scale_ticks, series_style, text_width)

LABEL_ROOM = 78  # right of the plot: a marker and a name of up to 7 characters
LABEL_SPACING = 16  # end labels at least this far apart, so equal scores stay readable
PLOT_HEIGHT = 168
# Month abbreviations, each in the phone's language.
MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"), N_("Aug"),
          N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))


@dataclass
class Point(Data):
    x: float
    y: float
    path: str  # the marker
    tooltip: str


@dataclass
class Line(Data):
    player: str
    colour: str
    marker: str
    dash: str
    hollow: bool
    points: str  # the polyline's "x,y x,y …"
    markers: list[Point]
    label: str = ""  # the end label: the name, shortened to fit
    label_x: float = 0
    label_y: float = 0
    label_marker: str = ""


@dataclass
class LineChart(Data):
    id: str
    title: str
    description: str
    height: float
    plot: dict  # left, right, top, bottom
    legend: list[LegendItem]
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    x_axis: str
    table: Table
    kind: str = "lines"
    width: int = WIDTH


def day(date: str | None, with_year: bool):
    """"27 Nov" (with the year, "27 Nov 2026"), joined by no-break spaces so it never wraps; a
    Sentence, so a German phone reads "27. Nov." and "3. Dez. 2026"."""
    if not date:
        return "?"
    year, month, day_of_month = date.split("-")
    if with_year:
        return Sentence("%(day)s\u00a0%(month)s\u00a0%(year)s", day=int(day_of_month),
                        month=MONTHS[int(month) - 1], year=year)
    return Sentence("%(day)s\u00a0%(month)s", day=int(day_of_month), month=MONTHS[int(month) - 1])


def spread(wanted: list[float], low: float, high: float) -> list[float]:
    """End-label positions near ``wanted`` (sorted), at least LABEL_SPACING apart, within bounds."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, placed[-1] + LABEL_SPACING) if placed else max(y, low))
    limit = high
    for index in range(len(placed) - 1, -1, -1):
        placed[index] = limit = min(placed[index], limit)
        limit -= LABEL_SPACING
    return placed


def tick_indices(count: int, room: int) -> list[int]:
    """Up to ``room`` plays spread evenly from the first to the last, to write dates under."""
    shown = min(room, count)
    if shown <= 1:
        return [0] if count else []
    return sorted({round(i * (count - 1) / (shown - 1)) for i in range(shown)})


def latest(series: list[TrendSeries], dates: list[str | None], last: int) -> tuple[list[TrendSeries], list]:
    """Only the last ``last`` plays, counted from 0 again; players without a score in them go."""
    skip = max(0, len(dates) - last)
    kept = [TrendSeries(line.player, line.game, [replace(point, index=point.index - skip)
                                                 for point in line.points if point.index >= skip])
            for line in series]
    return [line for line in kept if line.points], dates[skip:]


def trend_chart(series: list[TrendSeries], chart_id: str = "score-trend", title=N_("Scores over time"),
                dates: list[str | None] | None = None, last: int | None = 20) -> LineChart:
    """Lines through each player's scores (x: the game's plays in order, oldest left), over the
    ``last`` plays (None: all; more than about 20 plays of 4 players no longer read as lines).
    ``dates``: every play's date by index, for the axis and the table (default: the points')."""
    if dates is None:
        known = {point.index: point.date for line in series for point in line.points}
        dates = [known.get(index) for index in range(max(known, default=-1) + 1)]
    x_axis = N_("plays, oldest to newest")
    if last is not None and len(dates) > last:
        series, dates = latest(series, dates, last)
        x_axis = plural_sentence("the last %(count)s play, oldest to newest",
                                 "the last %(count)s plays, oldest to newest", last)
    count = len(dates)
    styles = [series_style(index) for index in range(len(series))]
    placed, top = legend([{"text": line.player, "colour": style["colour"], "dash": style["dash"],
                           "hollow": style["hollow"]} for line, style in zip(series, styles)], PAD)
    for item, style in zip(placed, styles):
        item.marker = marker_path(style["marker"], item.x + 13, item.y - 4.5)

    scores = [point.score for line in series for point in line.points]
    low, high, step = nice_scale(min(scores, default=0), max(scores, default=1), 5)
    values = scale_ticks(low, high, step)
    plot = {"left": round(PAD + max(text_width(number(v)) for v in values) + 6, 1), "right": WIDTH - LABEL_ROOM,
            "top": top + 10, "bottom": top + 10 + PLOT_HEIGHT}

    def x_of(index: int) -> float:
        if count <= 1:
            return round((plot["left"] + plot["right"]) / 2, 1)
        return round(plot["left"] + (plot["right"] - plot["left"]) * index / (count - 1), 1)

    def y_of(value: float) -> float:
        return round(plot["bottom"] - (plot["bottom"] - plot["top"]) * (value - low) / (high - low), 1)

    with_year = len({date[:4] for date in dates if date}) > 1
    room = int((plot["right"] - plot["left"]) / (text_width(day("2026-12-28", with_year)) + 10))
    x_ticks = [Tick(x_of(index), day(dates[index], with_year)) for index in tick_indices(count, max(1, room))]
    y_ticks = [Tick(y_of(value), number(value)) for value in values]

    lines = []
    for line, style in zip(series, styles):
        points = [Point(x_of(p.index), y_of(p.score), marker_path(style["marker"], x_of(p.index), y_of(p.score)),
                        _tooltip(line.player, p)) for p in line.points]
        lines.append(Line(player=line.player, colour=style["colour"], marker=style["marker"], dash=style["dash"],
                          hollow=style["hollow"], points=" ".join(f"{p.x},{p.y}" for p in points), markers=points,
                          label=fit(line.player, LABEL_ROOM - 22, bold=True)))
    # The end labels sit right of the plot, beside each line's last score, nudged apart.
    ordered = sorted(lines, key=lambda item: item.markers[-1].y if item.markers else plot["bottom"])
    wanted = [item.markers[-1].y if item.markers else plot["bottom"] for item in ordered]
    for item, y in zip(ordered, spread(wanted, plot["top"], plot["bottom"] + 4)):
        item.label_x, item.label_y = plot["right"] + 20, y + 4.5
        item.label_marker = marker_path(item.marker, plot["right"] + 11, y)

    return LineChart(id=chart_id, title=title, description=_description(title, series),
                     height=plot["bottom"] + 44, plot=plot, legend=placed, lines=lines, x_ticks=x_ticks,
                     y_ticks=y_ticks, x_axis=x_axis, table=_table(title, series, dates))


def _tooltip(player: str, point) -> Sentence:
    """A marker's tooltip: "Ann, 27 Nov 26: 80 (won)"."""
    if point.won:
        return Sentence("%(player)s, %(day)s: %(score)s (won)", player=player, day=day(point.date, True),
                        score=number(point.score))
    return Sentence("%(player)s, %(day)s: %(score)s", player=player, day=day(point.date, True),
                    score=number(point.score))


def _description(title, series: list[TrendSeries]) -> Sentence:
    return describe(title, [
        plural_sentence("%(player)s: %(count)s score from %(low)s to %(high)s, latest %(latest)s",
                        "%(player)s: %(count)s scores from %(low)s to %(high)s, latest %(latest)s",
                        len(line.points), player=line.player,
                        low=number(min(p.score for p in line.points)),
                        high=number(max(p.score for p in line.points)),
                        latest=number(line.points[-1].score))
        for line in series if line.points])


def _table(title, series: list[TrendSeries], dates: list[str | None]) -> Table:
    """One row per play: its date, each player's score (– when they sat out) and who won."""
    table = Table(title, [N_("Date")] + [line.player for line in series] + [N_("Won")], [], text_columns=[len(series)])
    scored = {(line.player, point.index): point for line in series for point in line.points}
    for index, date in enumerate(dates):
        points = [scored.get((line.player, index)) for line in series]
        cells = [number(point.score) if point else "–" for point in points]
        winners = [line.player for line, point in zip(series, points) if point and point.won]
        table.rows.append(TableRow(day(date, True), cells + [", ".join(winners) or "–"]))
    return table
