"""The chart macros rendered in a small Jinja environment (no Flask): well-formed SVG with its
numbers as text, an accessible name, a data table, names escaped, and no colour-only series."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader, select_autoescape

from companion.service.stats import (difficulty_chart, game_insights, pirate_chart, player_stats, score_trends,
                             sesterces_chart, token_chart, trend_chart, win_rate_chart)
from companion.service.stats.svg import FONT, WIDTH

SVG = "{http://www.w3.org/2000/svg}"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                  extensions=["jinja2.ext.i18n"])
ENV.install_null_translations(newstyle=True)  # type: ignore[attr-defined]  # the macros say _("…")
ODD = "<b>Ann & Co</b>"


def play(uid: str, game: str, day: int, seats: list[tuple], facts: dict | None = None, result=None) -> dict:
    started = datetime(2026, 11, day, 19)
    return {"uid": uid, "game": game, "started_at": started.isoformat() + "+00:00",
            "ended_at": (started + timedelta(minutes=40)).isoformat() + "+00:00",
            "players": [{"name": n, "score": s, "winner": w} for n, s, w in seats],
            "cooperative": result is not None, "result": result, "facts": facts or {}}


# Kartenspiel: Katrin wins 2 of 3, Ann & Co 1 of 3 (the 120 in the last play), Ben none of 2.
PLAYS = [
    play("k1", "kartenspiel", 6, [("Katrin", 100, True), (ODD, 80, False), ("Ben", 40, False)],
         {"rounds": [{"round": 1, "lost_to_pirates": {"Katrin": 3, ODD: 10, "Ben": 0}}]}),
    play("k2", "kartenspiel", 13, [("Katrin", 90, True), (ODD, 60, False)],
         {"rounds": [{"round": 1, "lost_to_pirates": {"Katrin": 0, ODD: 5}}]}),
    play("k3", "kartenspiel", 20, [("Katrin", 70, False), (ODD, 120, True), ("Ben", 50, False)]),
    play("a1", "asterix-obelix", 6, [("Katrin", 4, True), (ODD, 3, False)],
         {"tokens_won": {"Katrin": ["traitor", "red", "blue", "green"], ODD: ["pirates", "yellow", "purple"]},
          "fifth_feast_ended": True}),
    play("c1", "asterix-co", 13, [("Katrin", 50, True), (ODD, 19, False)],
         {"sesterces": {"Katrin": {"albums": 45, "centurion_helmets": 3, "legionary_helmets": 2},
                        ODD: {"albums": 15, "centurion_helmets": 3, "legionary_helmets": 1}},
          "albums_won": {"Katrin": 3, ODD: 1}}),
    play("z1", "zaubertrank", 20, [("Katrin", None, True), (ODD, None, True)],
         {"difficulty": "a cohort", "roman_spaces_left": 5}, result="won"),
    play("z2", "zaubertrank", 27, [("Katrin", None, False), (ODD, None, False)],
         {"difficulty": "one Roman", "roman_spaces_left": 0}, result="lost"),
]


def render(chart) -> tuple[str, ET.Element]:
    html = ENV.from_string('{% from "stats/charts.html" import chart %}{{ chart(c) }}').render(c=chart)
    return html, ET.fromstring(html)


def svg_of(figure: ET.Element) -> ET.Element:
    return figure.find(f".//{SVG}svg")


def texts(element: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def table_cells(figure: ET.Element) -> list[list[str]]:
    rows = figure.find(".//table").iter("tr")
    return [["".join(cell.itertext()) for cell in row] for row in rows]


def all_charts():
    kartenspiel = [p for p in PLAYS if p["game"] == "kartenspiel"]
    return [
        win_rate_chart(player_stats(PLAYS)),
        trend_chart(score_trends(PLAYS, "kartenspiel"), dates=[p["started_at"][:10] for p in kartenspiel]),
        token_chart(game_insights("asterix-obelix", PLAYS)),
        sesterces_chart(game_insights("asterix-co", PLAYS)),
        pirate_chart(game_insights("kartenspiel", PLAYS)),
        difficulty_chart(game_insights("zaubertrank", PLAYS)),
    ]


@pytest.mark.parametrize("chart", all_charts(), ids=lambda c: c.id)
def test_every_chart_is_accessible_svg_with_a_table(chart):
    html, figure = render(chart)
    assert figure.tag == "figure" and figure.get("id") == chart.id
    svg = svg_of(figure)
    # Scales with its box: a viewBox and no fixed size.
    assert svg.get("viewBox") == f"0 0 {WIDTH} {chart.height}"
    assert svg.get("width") is None and svg.get("height") is None
    assert not re.search(r"\d\.\d{3,}", html)  # coordinates to a tenth: no float noise
    # An image with an accessible name: its <title> and <desc>, found by id.
    assert svg.get("role") == "img"
    title_id, desc_id = svg.get("aria-labelledby"), svg.get("aria-describedby")
    assert svg.find(f"{SVG}title").get("id") == title_id and svg.find(f"{SVG}title").text == chart.title
    assert svg.find(f"{SVG}desc").get("id") == desc_id and chart.title in svg.find(f"{SVG}desc").text
    # The table is the accessible version: a caption, column headers, row headers.
    table = figure.find(".//table")
    assert table.find("caption").text == chart.title
    assert [th.get("scope") for th in table.find("thead").iter("th")] == ["col"] * len(chart.table.columns)
    assert all(row.find("th").get("scope") == "row" for row in table.find("tbody").iter("tr"))
    # No text smaller than 13 units: 12 px or more wherever the box is 296 px or wider (360 px phone).
    sizes = [float(t.get("font-size", svg.get("font-size"))) for t in svg.iter(f"{SVG}text")]
    assert min(sizes) >= FONT == 13 and float(svg.get("font-size")) == 13
    assert WIDTH * 12 / FONT <= 296
    # The odd name is escaped everywhere and reads back as itself (difficulties name no player).
    assert "<b>" not in html
    if chart.id != "difficulty":
        assert "&lt;b&gt;Ann &amp; Co&lt;/b&gt;" in html and ODD in "".join(figure.itertext())


def test_win_rate_bars_carry_names_and_percentages():
    chart = win_rate_chart(player_stats(PLAYS))
    _html, figure = render(chart)
    # Katrin 5 of 7 (k1 k2 a1 c1 z1) = 71%; Ann & Co 2 of 7 (k3 z1) = 29%; Ben 0 of 2.
    drawn = texts(svg_of(figure))
    assert drawn[:5] == ["0%", "25%", "50%", "75%", "100%"]
    assert drawn[5:] == ["Katrin", "71%", ODD, "29%", "Ben", "0%"]
    assert table_cells(figure) == [["Player", "Plays", "Wins", "Win rate"], ["Katrin", "7", "5", "71%"],
                                   [ODD, "7", "2", "29%"], ["Ben", "2", "0", "0%"]]
    # The bar lengths follow the rates: 0.7143 and 0.2857 of the same axis; Ben has none.
    rows = svg_of(figure).findall(f".//{SVG}g[@class='stats-row']")
    widths = [float(r.find(f"{SVG}rect").get("width")) if r.find(f"{SVG}rect") is not None else 0 for r in rows]
    assert widths[0] == pytest.approx(widths[1] * 2.5, abs=0.2) and widths[2] == 0
    # The one series has a fill pattern, defined, and a name.
    series = svg_of(figure).find(f".//{SVG}g[@class='stats-series']")
    assert series.get("data-series") == "Win rate"
    assert svg_of(figure).find(f".//{SVG}pattern[@id='{series.get('data-pattern')}']") is not None


def test_stacked_bars_have_a_pattern_and_a_legend_label_per_source():
    chart = token_chart(game_insights("asterix-obelix", PLAYS))
    _html, figure = render(chart)
    svg = svg_of(figure)
    patterns = {p.get("id") for p in svg.iter(f"{SVG}pattern")}
    legend = svg.find(f".//{SVG}g[@class='stats-legend']")
    items = [(g.get("data-series"), g.get("data-pattern"), "".join(g.find(f"{SVG}text").itertext()))
             for g in legend.findall(f"{SVG}g")]
    assert [label for label, _p, _t in items] == ["Traitor", "Pirates", "Red", "Blue", "Yellow", "Green", "Purple"]
    assert all(label == text for label, _p, text in items)
    assert len({pattern for _l, pattern, _t in items}) == 7 and {p for _l, p, _t in items} == patterns
    # Seven different pattern kinds: told apart without colour.
    assert len({p.kind for p in chart.patterns}) == 7
    # Every drawn segment uses one of them; each row has its name and total as text.
    for segment in svg.iter(f"{SVG}g"):
        if segment.get("data-pattern") and segment.find(f"{SVG}rect") is not None:
            assert segment.find(f"{SVG}rect").get("fill") == f"url(#{segment.get('data-pattern')})"
    # Katrin 4 tokens (traitor, red, blue, green), Ann & Co 3 (pirates, yellow, purple).
    drawn = texts(svg)
    assert "Katrin" in drawn and ODD in drawn and "4" in drawn and "3" in drawn
    assert table_cells(figure)[1:] == [
        ["Katrin", "1", "1", "0", "1", "1", "0", "1", "0", "4"],
        [ODD, "1", "0", "1", "0", "0", "1", "0", "1", "3"],
    ]


def test_sesterces_by_source_per_play():
    chart = sesterces_chart(game_insights("asterix-co", PLAYS))
    _html, figure = render(chart)
    assert table_cells(figure) == [
        ["Player", "Plays", "Albums won", "From albums", "From centurion helmets", "From legionary helmets",
         "Sesterces per play"],
        ["Katrin", "1", "3", "45", "3", "2", "50"],
        [ODD, "1", "1", "15", "3", "1", "19"],
    ]
    drawn = texts(svg_of(figure))
    # Totals at the ends of the bars, and the album share written on its segment.
    assert "50" in drawn and "19" in drawn and "45" in drawn and "15" in drawn


def test_score_trend_lines_differ_by_marker_and_dash_and_are_labelled():
    chart = trend_chart(score_trends(PLAYS, "kartenspiel"))
    _html, figure = render(chart)
    svg = svg_of(figure)
    lines = svg.findall(f".//{SVG}g[@class='stats-line']")
    assert [g.get("data-series") for g in lines] == [ODD, "Katrin", "Ben"]  # 3, 3 and 2 scores
    assert len({g.get("data-marker") for g in lines}) == 3
    assert len({line.dash for line in chart.lines}) == 3
    for g, line in zip(lines, chart.lines):
        # A marker at every score, each with its own tooltip, and the name as an end label.
        markers = [p for p in g.findall(f"{SVG}path") if p.find(f"{SVG}title") is not None]
        assert len(markers) == len(line.markers)
        assert "".join(g.find(f"{SVG}text").itertext()) == line.label
    legend = [g.get("data-series") for g in svg.find(f".//{SVG}g[@class='stats-legend']")]
    assert legend == [ODD, "Katrin", "Ben"]
    # Ann & Co's last score is 120, the highest: her end label is the highest (smallest y).
    ends = {line.player: line.label_y for line in chart.lines}
    assert ends[ODD] < ends["Katrin"] and ends[ODD] < ends["Ben"]
    assert all(abs(a - b) >= 16 for a in ends.values() for b in ends.values() if a != b)
    # The axis: 0 to 120 and a little more, in at most five round steps; dates under it.
    assert [t.text for t in chart.y_ticks] == ["0", "25", "50", "75", "100", "125"]
    assert {t.text for t in chart.x_ticks} <= {"6\u00a0Nov", "13\u00a0Nov", "20\u00a0Nov"}
    # The table: one row per play, a score per player, who won.
    assert table_cells(figure) == [
        ["Date", ODD, "Katrin", "Ben", "Won"],
        ["6\u00a0Nov\u00a02026", "80", "100", "40", "Katrin"],
        ["13\u00a0Nov\u00a02026", "60", "90", "–", "Katrin"],
        ["20\u00a0Nov\u00a02026", "120", "70", "50", ODD],
    ]
    points = {line.player: [(m.x, m.y) for m in line.markers] for line in chart.lines}
    assert points["Ben"][0][0] == points["Katrin"][0][0]  # the same play: the same x
    assert points["Katrin"][0][1] < points["Katrin"][2][1]  # 100 above 70


def test_more_lines_than_shapes_stay_distinct():
    seats = [(f"P{index}", index * 3, index == 0) for index in range(12)]
    plays = [play("s1", "scorepad", 6, seats), play("s2", "scorepad", 13, seats)]
    chart = trend_chart(score_trends(plays, "scorepad"))
    looks = {(line.marker, line.hollow, line.dash) for line in chart.lines}
    assert len(looks) == 12
    _html, figure = render(chart)
    assert len({g.get("data-marker") for g in figure.iter(f"{SVG}g") if g.get("data-marker")}) == 12


def test_pirates_and_difficulty_bars():
    _html, figure = render(pirate_chart(game_insights("kartenspiel", PLAYS)))
    # Ann & Co lost 10 + 5 in 2 rounds: 7.5 a round; Katrin 3 in 2: 1.5; Ben 0 in 1.
    assert table_cells(figure)[1:] == [[ODD, "2", "15", "7.5"], ["Katrin", "2", "3", "1.5"], ["Ben", "1", "0", "0"]]
    assert [t for t in texts(svg_of(figure)) if "." in t] == ["7.5", "1.5"]
    _html, figure = render(difficulty_chart(game_insights("zaubertrank", PLAYS)))
    assert table_cells(figure)[1:] == [["one Roman", "1", "0", "0%", "–"], ["a cohort", "1", "1", "100%", "5"]]


@pytest.mark.parametrize("chart", [
    win_rate_chart([]), trend_chart([]), token_chart(game_insights("asterix-obelix", [])),
    trend_chart(score_trends([play("x", "scorepad", 6, [("Solo", 7, True)])], "scorepad")),
], ids=["no-players", "no-lines", "no-tokens", "one-point"])
def test_empty_and_tiny_charts_still_render(chart):
    _html, figure = render(chart)
    assert svg_of(figure).get("role") == "img"
    assert "no plays to show yet" in svg_of(figure).find(f"{SVG}desc").text or chart.id == "score-trend"


def test_the_styles_come_with_the_macros():
    css = ENV.from_string('{% from "stats/charts.html" import chart_styles %}{{ chart_styles() }}').render()
    assert css.startswith("<style>") and ".stats-chart svg" in css
    assert not re.search(r"font-size:\s*(\d+)px", css)  # sizes follow the page's


def test_a_long_history_draws_its_last_plays():
    # 30 plays on 30 days: Ann scores the play's number, Bo plays only the first five.
    plays = []
    for n in range(30):
        plays.append(play(f"s{n}", "scorepad", 1, [("Ann", n, True)] + ([("Bo", 0, False)] if n < 5 else [])))
        plays[-1]["ended_at"] = (datetime(2026, 11, 1, 20) + timedelta(days=n)).isoformat() + "+00:00"
    chart = trend_chart(score_trends(plays, "scorepad"), last=20)
    # Plays 10 to 29: Ann's scores 10 … 29 from left to right; Bo, only in plays 0-4, is not drawn.
    assert [line.player for line in chart.lines] == ["Ann"]
    assert [str(m.tooltip).split(": ")[1] for m in chart.lines[0].markers] == [f"{n} (won)" for n in range(10, 30)]
    assert chart.lines[0].markers[0].x == chart.plot["left"] and chart.lines[0].markers[-1].x == chart.plot["right"]
    assert len(chart.table.rows) == 20 and chart.x_axis == "the last 20 plays, oldest to newest"
    assert chart.table.rows[0].header == "11\u00a0Nov\u00a02026"
    assert len(trend_chart(score_trends(plays, "scorepad"), last=None).table.rows) == 30


def test_axes_run_in_round_steps_over_any_range():
    from companion.service.stats.svg import nice_scale, scale_ticks

    assert nice_scale(0, 166) == (0, 200, 50)
    assert nice_scale(-7, 12) == (-10, 15, 5)
    assert nice_scale(0, 0.3, 4) == (0, 0.3, 0.1)
    rnd = random.Random(7)
    for _ in range(2000):
        low, high = sorted(rnd.uniform(-1000, 1000) * rnd.choice([0.001, 1, 100]) for _ in range(2))
        for steps in (4, 5):
            bottom, top, step = nice_scale(low, high, steps)
            ticks = scale_ticks(bottom, top, step)
            assert bottom <= min(low, 0) and top >= max(high, 0) and 2 <= len(ticks) <= steps + 1
            assert 0 in ticks
