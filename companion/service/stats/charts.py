"""Charts as coordinates: what ``templates/stats/charts.html`` draws as SVG, with the same
numbers in a data table (the accessible version of each chart).

Each chart is a dataclass with ``kind`` for the ``chart`` macro: here ``bars`` (one value per
row, e.g. win rate per player) and ``stacked`` (a row's value split by source, each source its
own fill pattern); ``lines.py`` draws ``lines`` (scores over time). Names are plain text here;
the template escapes them. Words are ``N_`` names and ``Sentence``s (games/text.py): each phone
reads the chart in its own language.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...games.text import N_, Name, Sentence, plural_sentence
from .compute import PlayerStats
from .insights import (SOURCE_LABELS, TOKEN_LABELS, AsterixCoInsights, AsterixObelixInsights,
                       KartenspielInsights, ZaubertrankInsights)
from .results import Data
from .svg import (NAME_FONT, PAD, WIDTH, Joined, LegendItem, Pattern, Table, TableRow, Tick, describe, fit, legend,
                  nice_scale, number, patterns, percent, scale_ticks, text_width)

# The table's column of each source's sesterces (German nouns keep their capital, so no lower()).
SOURCE_COLUMNS = {"albums": N_("From albums"), "centurion_helmets": N_("From centurion helmets"),
                  "legionary_helmets": N_("From legionary helmets")}

# A legion's token in its own colour (a dark yellow that shows on white); patterns still differ.
TOKEN_COLOURS = {"traitor": "#3d3d3d", "pirates": "#7a4a00", "red": "#a40e0e", "blue": "#0b4fa8",
                 "yellow": "#9a7a00", "green": "#0d6b2f", "purple": "#5b2a86"}
ROW = 46  # a bar row: its label line, then the bar
BAR = 18
AXIS = 24  # room for the tick labels under the rows


@dataclass
class Bar(Data):
    label: str  # drawn (shortened to fit)
    name: str  # whole
    label_y: float
    x: float
    y: float
    width: float
    value: str
    value_x: float
    value_y: float
    tooltip: str


@dataclass
class BarChart(Data):
    id: str
    title: str
    description: str
    height: float
    pattern: Pattern
    rows: list[Bar]
    ticks: list[Tick]
    grid_top: float
    grid_bottom: float
    table: Table
    kind: str = "bars"
    width: int = WIDTH
    bar: int = BAR


@dataclass
class Segment(Data):
    pattern: str
    x: float
    width: float
    value: str
    tooltip: str
    chip: bool  # wide enough to carry its value on a white chip
    chip_x: float = 0
    chip_width: float = 0
    text_x: float = 0  # the middle of the segment


@dataclass
class StackRow(Data):
    label: str
    name: str
    note: str  # right of the label, e.g. "6 plays"
    label_y: float
    y: float
    segments: list[Segment]
    total: str
    total_x: float


@dataclass
class StackedChart(Data):
    id: str
    title: str
    description: str
    height: float
    patterns: list[Pattern]
    legend: list[LegendItem]
    rows: list[StackRow]
    ticks: list[Tick]
    grid_top: float
    grid_bottom: float
    table: Table
    kind: str = "stacked"
    width: int = WIDTH
    bar: int = BAR


def _value_axis(maximum: float, percent_axis: bool, left: float, right: float):
    """The x scale of bars from ``left`` to ``right`` and its ticks (a rate: 0 to 100%)."""
    if percent_axis:
        top, values = 1.0, [0, 0.25, 0.5, 0.75, 1.0]
    else:
        _bottom, top, step = nice_scale(0, maximum or 1, 4)
        values = scale_ticks(0, top, step)

    def x_of(value: float) -> float:
        return round(left + (right - left) * max(0.0, value) / top, 1)

    ticks = [Tick(x_of(v), percent(v) if percent_axis else number(v)) for v in values]
    return x_of, ticks


# -- one value per row -----------------------------------------------------------------------------
def bar_chart(chart_id: str, title: str, rows: list[dict], table: Table, *, series: str,
              percent_axis: bool = False) -> BarChart:
    """Horizontal bars, one per row: each row a dict with ``name``, ``value`` (a number; for a
    percent axis a rate from 0 to 1), ``text`` (the value as written) and ``tooltip``."""
    value_room = round(max([text_width(row["text"]) for row in rows] + [text_width("100%")]) + 6)
    left, right = PAD, WIDTH - PAD - value_room
    grid_bottom = PAD + ROW * len(rows)
    x_of, ticks = _value_axis(max([row["value"] or 0 for row in rows] + [0]), percent_axis, left, right)
    bars = []
    for index, row in enumerate(rows):
        top = PAD + ROW * index
        end = x_of(row["value"] or 0)
        bars.append(Bar(label=fit(row["name"], WIDTH - 2 * PAD, NAME_FONT, bold=True), name=row["name"],
                        label_y=top + 15, x=left, y=top + 21, width=round(end - left, 1),
                        value=row["text"], value_x=round(end + 5, 1), value_y=top + 21 + BAR - 4,
                        tooltip=row["tooltip"]))
    description = describe(title, [Joined([row["name"], row["text"]], " ") for row in rows])
    return BarChart(id=chart_id, title=title, description=description,
                    height=grid_bottom + AXIS, pattern=patterns(chart_id, [series])[0], rows=bars,
                    ticks=ticks, grid_top=PAD, grid_bottom=grid_bottom, table=table)


def win_rate_chart(players: list[PlayerStats], chart_id: str = "win-rate",
                   title=N_("Win rate per player")) -> BarChart:
    """Each player's share of plays won (highest first), with wins and plays in the table."""
    players = sorted(players, key=lambda p: (-(p.win_rate or 0), -p.plays, p.name.casefold()))
    rows = [{"name": p.name, "value": p.win_rate or 0, "text": percent(p.win_rate),
             "tooltip": plural_sentence("%(player)s: %(rate)s, %(wins)s of %(count)s play won",
                                        "%(player)s: %(rate)s, %(wins)s of %(count)s plays won",
                                        p.plays, player=p.name, rate=percent(p.win_rate), wins=p.wins)}
            for p in players]
    table = Table(title, [N_("Player"), N_("Plays"), N_("Wins"), N_("Win rate")],
                  [TableRow(p.name, [str(p.plays), str(p.wins), percent(p.win_rate)]) for p in players])
    return bar_chart(chart_id, title, rows, table, series=N_("Win rate"), percent_axis=True)


def pirate_chart(insights: KartenspielInsights, chart_id: str = "pirate-losses") -> BarChart:
    """Das Kartenspiel: points each player lost to pirates in an average round."""
    title = N_("Points lost to pirates per round")
    rows = [{"name": p.name, "value": p.per_round or 0, "text": number(p.per_round),
             "tooltip": plural_sentence("%(player)s: %(points)s points a round (%(lost)s in %(count)s round)",
                                        "%(player)s: %(points)s points a round (%(lost)s in %(count)s rounds)",
                                        p.rounds, player=p.name, points=number(p.per_round), lost=p.lost)}
            for p in insights.players]
    table = Table(title, [N_("Player"), N_("Rounds"), N_("Points lost"), N_("Per round")],
                  [TableRow(p.name, [str(p.rounds), str(p.lost), number(p.per_round)])
                   for p in insights.players])
    return bar_chart(chart_id, title, rows, table, series=N_("Points lost per round"))


def _level(level):
    """A difficulty as the phone says it: the game's name for it (an N_ name of Mission
    Zaubertrank!), with "+ challenge" when the challenge card was in."""
    if level.challenge:
        return Sentence("%(difficulty)s + challenge", difficulty=Name(level.difficulty))
    return Name(level.difficulty)


def difficulty_chart(insights: ZaubertrankInsights, chart_id: str = "difficulty") -> BarChart:
    """Mission Zaubertrank!: the share of plays won at each difficulty."""
    title = N_("Win rate by difficulty")
    levels = insights.by_difficulty
    rows = [{"name": _level(level), "value": level.win_rate or 0, "text": percent(level.win_rate),
             "tooltip": Sentence("%(level)s: %(wins)s of %(plays)s won", level=_level(level),
                                 wins=level.wins, plays=level.plays)} for level in levels]
    table = Table(title, [N_("Difficulty"), N_("Plays"), N_("Won"), N_("Win rate"), N_("Spaces left when won")],
                  [TableRow(_level(level), [str(level.plays), str(level.wins), percent(level.win_rate),
                                          number(level.spaces_left_when_won)]) for level in levels])
    return bar_chart(chart_id, title, rows, table, series=N_("Win rate"), percent_axis=True)


# -- a value split by source -----------------------------------------------------------------------
def stacked_chart(chart_id: str, title, parts: list[tuple], rows: list[dict],
                  table: Table, unit, colours: list[str | None] | None = None) -> StackedChart:
    """Horizontal stacked bars. ``parts``: (key, label) per source, in stacking order; each row a
    dict with ``name``, ``note`` and ``values`` {key: number}; ``unit`` names the values;
    ``colours``: one per part where its colour means something."""
    fills = patterns(chart_id, [label for _key, label in parts], colours)
    placed, top = legend([{"text": p.label, "pattern": p.id, "colour": p.colour} for p in fills], PAD)
    totals = [sum(row["values"].get(key) or 0 for key, _l in parts) for row in rows]
    total_room = round(max([text_width(number(total)) for total in totals] + [text_width("0")]) + 6)
    left, right = PAD, WIDTH - PAD - total_room
    grid_top = top + 2
    grid_bottom = grid_top + ROW * len(rows)
    x_of, ticks = _value_axis(max(totals + [0]), False, left, right)
    stacks = []
    for index, (row, total) in enumerate(zip(rows, totals)):
        y = grid_top + ROW * index
        at, segments = 0.0, []
        for (key, label), fill in zip(parts, fills):
            value = row["values"].get(key) or 0
            if value <= 0:
                continue
            start, end = x_of(at), x_of(at + value)
            at += value
            text = number(value)
            chip = text_width(text) + 6
            segments.append(Segment(fill.id, start, round(end - start, 1), text,
                                    Sentence("%(player)s, %(part)s: %(value)s %(unit)s", player=row["name"],
                                             part=label, value=text, unit=unit), chip=end - start >= chip + 4,
                                    chip_x=round((start + end - chip) / 2, 1), chip_width=round(chip, 1),
                                    text_x=round((start + end) / 2, 1)))
        note = row.get("note", "")
        stacks.append(StackRow(
            label=fit(row["name"], WIDTH - 2 * PAD - text_width(note) - 8, NAME_FONT, bold=True), name=row["name"],
            note=note, label_y=y + 15, y=y + 21, segments=segments, total=number(total),
            total_x=round(x_of(total) + 5, 1)))
    description = describe(Sentence("%(title)s, in %(unit)s", title=title, unit=unit), [
        Sentence("%(player)s %(parts)s, total %(total)s", player=row["name"], total=number(total),
                 parts=Joined([Joined([label, number(row["values"].get(key) or 0)], " ") for key, label in parts],
                              ", "))
        for row, total in zip(rows, totals)])
    return StackedChart(id=chart_id, title=title, description=description, height=grid_bottom + AXIS,
                        patterns=fills, legend=placed, rows=stacks, ticks=ticks, grid_top=grid_top,
                        grid_bottom=grid_bottom, table=table)


def _plays(count: int) -> Sentence:
    return plural_sentence("%(count)s play", "%(count)s plays", count)


def token_chart(insights: AsterixObelixInsights, chart_id: str = "tokens") -> StackedChart:
    """Asterix & Obelix: the victory tokens each player won, by kind, over all plays."""
    title = N_("Victory tokens won by kind")
    parts = [(kind, TOKEN_LABELS[kind]) for kind in insights.token_kinds]
    rows = [{"name": p.name, "note": _plays(p.plays), "values": p.tokens} for p in insights.players]
    table = Table(title, [N_("Player"), N_("Plays")] + [label for _k, label in parts] + [N_("Total")],
                  [TableRow(p.name, [str(p.plays)] + [str(p.tokens[k]) for k, _l in parts] + [str(p.total)])
                   for p in insights.players])
    return stacked_chart(chart_id, title, parts, rows, table, unit=N_("tokens"),
                         colours=[TOKEN_COLOURS.get(kind) for kind, _l in parts])


def sesterces_chart(insights: AsterixCoInsights, chart_id: str = "sesterces") -> StackedChart:
    """Asterix & Co.: each player's sesterces in an average play, by source."""
    title = N_("Sesterces per play by source")
    parts = [(source, SOURCE_LABELS[source]) for source in insights.sources]
    rows = [{"name": p.name, "note": _plays(p.plays), "values": p.per_play} for p in insights.players]
    table = Table(title, [N_("Player"), N_("Plays"), N_("Albums won")]
                  + [SOURCE_COLUMNS.get(key) or Sentence("From %(source)s", source=label) for key, label in parts]
                  + [N_("Sesterces per play")],
                  [TableRow(p.name, [str(p.plays), str(p.albums_won)]
                            + [number(p.per_play[k]) for k, _l in parts] + [number(p.total_per_play)])
                   for p in insights.players])
    return stacked_chart(chart_id, title, parts, rows, table, unit=N_("sesterces per play"))
