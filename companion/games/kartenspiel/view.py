"""What the pages show: the table page's data down to the chart's coordinates, and the
quick-score page's form read back into a quick-score request."""

from __future__ import annotations

from typing import Any

from ..base import GameError
from .cards import (
    GAULS,
    PIRATE_KINDS,
    PIRATE_LABELS,
    PIRATE_NAMES,
    RANK_NAMES,
    RANKS,
    deck_left,
    NotAValue,
    and_list,
    dog,
    gaul_name,
    parse_values,
    piles_missing,
    pirates_left,
    romans_left,
    still_in,
)
from ..text import N_, Sentence, quote
from .scoring import escape_reason, left_for_choice, totals, working
from ..markers import marker_path  # the same marker shapes as the group charts

# -- the score-progress chart, drawn on the server as SVG --------------------------------

# Drawn narrow enough that its 13.5-unit text is still 12 px on a 320 px phone (the chart is
# scaled to the width of the page).
CHART_WIDTH, CHART_HEIGHT = 300, 232
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 36, 172, 12, 196
LABEL_SPACING = 16  # end labels at least this far apart, so equal totals stay readable
LABEL_NAME_CHARS = 7  # what fits right of the plot at 13.5 units
NICE_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)
# Each line differs in marker shape and dash as well as colour: never colour alone.
LINE_STYLES = (
    {"marker": "circle", "dash": "", "colour": "#0b4fa8"},
    {"marker": "square", "dash": "8 4", "colour": "#a40e0e"},
    {"marker": "triangle", "dash": "2 4", "colour": "#0d6b2f"},
    {"marker": "diamond", "dash": "12 4 3 4", "colour": "#5b2a86"},
    {"marker": "plus", "dash": "5 2", "colour": "#7a4a00"},
)

# The marker's shape, named in the legend beside the line.
MARKER_NAMES = {"circle": N_("circle"), "square": N_("square"), "triangle": N_("triangle"),
                "diamond": N_("diamond"), "plus": N_("plus")}


def nice_top(highest: int) -> tuple[int, int]:
    """The top of the y axis and its gridline step: at most five steps, round numbers."""
    for step in NICE_STEPS:
        steps = max(1, -(-highest // step))
        if steps <= 5:
            return step * steps, step
    step = NICE_STEPS[-1]
    return step * -(-highest // step), step


def short_name(name: str) -> str:
    return name if len(name) <= LABEL_NAME_CHARS else name[: LABEL_NAME_CHARS - 1] + "…"


def progress_chart(players: list[str], progress: dict[str, list[int]], rounds: int) -> dict:
    """Coordinates of the running-totals chart: one line per player from 0 through each closed round."""
    highest = max([total for series in progress.values() for total in series], default=0)
    top, step = nice_top(highest)

    def x_of(round_number: int) -> float:
        return round(PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * round_number / rounds, 1)

    def y_of(total: int) -> float:
        return round(PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * total / top, 1)

    series = []
    for index, name in enumerate(players):
        style = LINE_STYLES[index % len(LINE_STYLES)]
        points = [{"round": 0, "total": 0, "x": x_of(0), "y": y_of(0)}] + [
            {"round": number, "total": total, "x": x_of(number), "y": y_of(total)}
            for number, total in enumerate(progress[name], start=1)
        ]
        series.append(
            {
                "player": name,
                "cumulative": progress[name],
                "summary": f"{name} {', '.join(str(total) for total in progress[name])}",
                "marker": style["marker"],
                "marker_name": MARKER_NAMES[style["marker"]],
                "dash": style["dash"],
                "colour": style["colour"],
                "line": " ".join(f"{p['x']},{p['y']}" for p in points),
                "points": points[1:],
                "marker_paths": [marker_path(style["marker"], p["x"], p["y"]) for p in points[1:]],
                "legend_marker": marker_path(style["marker"], 16, 9),
                "total": progress[name][-1] if progress[name] else 0,
            }
        )
    # End labels ("▲ Ann 166") beside the last points, nudged apart where totals are close.
    ordered = sorted(series, key=lambda item: (item["points"][-1]["y"] if item["points"] else PLOT_BOTTOM))
    label_ys: list[float] = []
    for item in ordered:
        y = item["points"][-1]["y"] if item["points"] else PLOT_BOTTOM
        label_ys.append(max(y, label_ys[-1] + LABEL_SPACING) if label_ys else y)
    limit = PLOT_BOTTOM + 4
    for position in range(len(label_ys) - 1, -1, -1):
        limit = min(label_ys[position], limit)
        label_ys[position] = limit
        limit -= LABEL_SPACING
    for item, y in zip(ordered, label_ys):
        x = (item["points"][-1]["x"] if item["points"] else x_of(0)) + 13
        item["label"] = {
            "x": round(x + 12, 1),
            "y": round(y + 4, 1),
            "text": f"{short_name(item['player'])} {item['total']}",
            "marker_path": marker_path(item["marker"], x + 4, y),
        }
    return {
        "rounds": list(range(1, rounds + 1)),
        "series": series,
        "max_total": highest,
        "drawn": any(progress[name] for name in players),
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "plot": {"left": PLOT_LEFT, "right": PLOT_RIGHT, "top": PLOT_TOP, "bottom": PLOT_BOTTOM},
        "x_ticks": [{"round": number, "x": x_of(number)} for number in range(1, rounds + 1)],
        "y_ticks": [{"value": value, "y": y_of(value)} for value in range(0, top + 1, step)],
    }


# -- the table page ------------------------------------------------------------------------


def pirate_chips(kinds) -> list[dict]:
    return [{"kind": kind, "name": PIRATE_NAMES[kind], "label": PIRATE_LABELS[kind]} for kind in kinds]


def _with_reasons(scored: dict, ranks: dict) -> dict:
    """A pile's working with each "nobody escapes" reason as a sentence in the phone's language."""
    escapes = [
        {**escape, "reason": escape_reason(escape["pirate"], ranks) if escape["reason"] else ""}
        for escape in scored["escapes"]
    ]
    return {**scored, "escapes": escapes}


def _typing_note(state: dict) -> Sentence | None:
    """While a round is typed in: whose Romans are still to come (None: every pile is in)."""
    missing = piles_missing(state)
    if not missing:
        return None
    return Sentence("Round %(round)s is being typed in: the Romans of %(players)s are still to "
                    "come (under “Type in round %(round)s's piles”).", round=state["round"],
                    players=and_list(missing))


def table_view(state: dict, phase: str, winners: list[str]) -> dict:
    """The template's data for one state: deck, hands, piles, their scoring, totals and chart.

    ``phase`` is the game's phase, the one its moves are declared for (with "last_hand")."""
    players = state["players"]
    left = romans_left(state)
    running = {name: 0 for name in players}
    table = []
    progress: dict[str, list[int]] = {name: [] for name in players}
    for closed in state["closed"]:
        cells = []
        for name in players:
            running[name] += closed["totals"][name]
            progress[name].append(running[name])
            cells.append({"player": name, "points": closed["totals"][name], "running": running[name]})
        table.append({"round": closed["round"], "cells": cells})
    holding = still_in(state)
    last_hint = None
    if phase == "last_hand":
        hand = state["hands"][holding[0]]
        last_hint = {
            "player": holding[0],
            "cards_left": hand["gauls"] + (1 if hand["idefix"] else 0),
            "idefix_among": hand["idefix"],
        }
    return {
        "gauls": {name: gaul_name(state, name) for name in players},
        "gaul_choices": [{"key": key, "name": name} for key, name in GAULS.items()],
        "dog": dog(state),
        "round": state["round"],
        "rounds": state["rounds"],
        "phase": phase,
        "deck_size": sum(state["deck"].values()) + len(PIRATE_KINDS),
        "deck_left": deck_left(state),
        "deck_values": [
            {
                "value": int(value),
                "total": count,
                "left": left[value],
                "rank": next((RANK_NAMES[r] for r in RANKS if state["ranks"][r] == int(value)), None),
            }
            for value, count in sorted(state["deck"].items(), key=lambda item: int(item[0]))
        ],
        "pirates_left": pirate_chips(pirates_left(state)),
        "pirate_kinds": pirate_chips(PIRATE_KINDS),
        "pirate_names": PIRATE_NAMES,
        "hands": state["hands"],
        "still_in": holding,
        "last_player": state["last_player"],
        "draws_left": state["draws_left"],
        "last_player_hint": last_hint,
        "clashes": state["clashes"],
        "piles": state["piles"],
        "working": {name: _with_reasons(scored, state["ranks"]) for name, scored in working(state).items()},
        # The Romans its owner may name for the pirate of choice (none: nothing to choose).
        "choice_options": {
            name: sorted(set(left_for_choice(state, name)))
            for name in players
            if "choice" in state["piles"][name]["pirates"]
            and len(set(left_for_choice(state, name))) >= 2
        },
        "typing_note": _typing_note(state) if phase == "scoring" else None,
        "ranks": state["ranks"],
        "bonus": state["bonus"],
        "table": table,
        "totals": totals(state),
        "chart": progress_chart(players, progress, state["rounds"]),
        "winners": winners,
    }


# -- the quick-score page's form -------------------------------------------------------------

QUICK_ROWS = 5
QUICK_NUMBERS = {
    "bonus_2": ("bonus", "2", N_("The bonus for a pair")),
    "bonus_3": ("bonus", "3", N_("The bonus for three of a kind")),
    "bonus_4": ("bonus", "4", N_("The bonus for four of a kind")),
    "dekurio": ("ranks", "dekurio", N_("The Dekurio's value")),
    "zenturio": ("ranks", "zenturio", N_("The Zenturio's value")),
    "general": ("ranks", "general", N_("The General's value")),
}


def _first(form: dict[str, list[str]], key: str) -> str:
    values = form.get(key) or [""]
    return (values[0] or "").strip()


def quick_score_payload(form: dict[str, list[str]]) -> dict:
    """Read the quick-score page: up to five rows of name, Romans, pirates and the choice pirate.

    A row without a name is skipped when it is empty and refused when it holds cards."""
    names = form.get("name") or []
    romans = form.get("romans") or []
    players = []
    for index in range(min(len(names), QUICK_ROWS)):
        name = (names[index] or "").strip()
        text = (romans[index] if index < len(romans) else "") or ""
        pirates: list[Any] = [kind for kind in form.get(f"pirates-{index}") or [] if kind]
        choice = _first(form, f"choice-{index}")
        if not name:
            if text.strip() or pirates or choice:
                raise GameError(Sentence("Row %(row)s has cards but no name; write the player's name.",
                                         row=index + 1))
            continue
        try:
            values = parse_values(text)
        except NotAValue as exc:
            raise GameError(Sentence(
                "%(player)s's Romans must be whole numbers separated by commas or spaces; '%(piece)s' is not.",
                player=name, piece=quote(exc.piece),
            )) from None
        if choice == "cheapest":
            pirates.append("choice")
        elif choice:
            if not choice.isdigit():
                raise GameError(Sentence("%(player)s's pirate of choice must name a Roman's value.",
                                         player=name))
            pirates.append({"choice": int(choice)})
        players.append({"name": name, "romans": values, "pirates": pirates})
    payload: dict[str, Any] = {"players": players}
    for key, (group, field, label) in QUICK_NUMBERS.items():
        raw = _first(form, key)
        if key not in form:
            continue
        if raw and not raw.isdigit():
            raise GameError(Sentence("%(what)s must be a whole number, not '%(raw)s'.", what=label, raw=quote(raw)))
        # An empty rank means "not known" (lets nothing escape); an empty bonus keeps the default.
        if raw or group == "ranks":
            payload.setdefault(group, {})[field] = int(raw) if raw else None
    return payload
