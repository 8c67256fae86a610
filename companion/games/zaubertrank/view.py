"""What the table page shows, derived from the state: the ring down to each timeline space, the
bag, the tasks, the players and the turn. Whether a move may be made now is not decided here:
the page reads that from ``legal`` (the game's table of moves), with the reason why not."""

from __future__ import annotations

from ..text import N_
from . import gains
from .setup_moves import setup_step
from .board import (
    bag_symbol_taken, legal_spaces, loc_name, place_name, roman_position,
    spaces_to_camp,
)
from .components import (
    ACTIONS_PER_TURN, CHARACTER_NAMES, CHARACTERS, COLOUR_NAMES, DIFFICULTY_NAMES,
    INGREDIENT_COLOURS, INGREDIENT_NAMES, INGREDIENTS, MOVES_PER_TURN, OPENING_MARKERS,
    POTION_FACES, POTION_OUTCOMES, SUPPLY_PER_INGREDIENT, SYMBOL_NAMES, SYMBOLS,
    extra_draws, location_name, subtask_limit,
)


def table_view(state: dict) -> dict:
    """The ring, the bag, the tasks, the players and the turn, ready for the templates."""
    drawn = state["drawn"]
    figures = _figures(state)
    roman_location, roman_space = roman_position(state)
    return {
        "phase": state["phase"],
        "playing": state["phase"] in ("actions", "draw", "place"),
        "result": state["result"],
        "ring": _ring(state, figures),
        "stack_figures": figures[None],
        "roman": {"location": roman_location, "space": roman_space,
                  "name": loc_name(state, roman_location),
                  "steps": state["roman_steps"], "lap_length": state["lap_length"],
                  "spaces_to_camp": spaces_to_camp(state),
                  "at_camp": state["roman_steps"] >= state["lap_length"]},
        "bag": dict(state["bag"]),
        "bag_size": sum(state["bag"].values()),
        "bag_out": [symbol for symbol in SYMBOLS if state["bag"][symbol] == 0],
        "drawn": drawn,
        "legal_spaces": legal_spaces(state, drawn) if drawn else [],
        "drawable_symbols": [s for s in SYMBOLS if state["bag"][s]],
        "draw_choices": [_draw_choice(state, symbol) for symbol in SYMBOLS],
        "covered_spaces": [
            {"location": loc["number"], "slot": slot + 1, "symbol": loc["symbols"][slot],
             "name": location_name(loc["name"])}
            for loc in state["locations"] for slot in (0, 1) if loc["covered"][slot]
        ],
        "shut_locations": [loc["number"] for loc in state["locations"] if all(loc["covered"])],
        "opening_placed": state["opening_placed"],
        "opening_total": OPENING_MARKERS,
        "supply": dict(state["supply"]),
        "supply_max": SUPPLY_PER_INGREDIENT,
        "ingredient_colours": dict(INGREDIENT_COLOURS),
        # The words a phone reads (the keys above stay the ids the forms post).
        "ingredient_names": dict(INGREDIENT_NAMES),
        "colour_names": {i: COLOUR_NAMES[c] for i, c in INGREDIENT_COLOURS.items()},
        "symbol_names": dict(SYMBOL_NAMES),
        "tasks": _tasks(state),
        "players": [_player(state, name) for name in state["players"]],
        "characters": [{"id": c, "name": CHARACTER_NAMES[c]} for c in CHARACTERS],
        "places": [{"location": None, "name": N_("Task stack")}] + [
            {"location": loc["number"], "name": location_name(loc["name"])}
            for loc in state["locations"]
        ],
        "turn": _turn(state) if state["turn"] else None,
        "setup_step": setup_step(state) if state["phase"] == "setup" else None,
        "difficulty": DIFFICULTY_NAMES[state["difficulty"]],
        "challenge": state["challenge"],
        "potion_outcomes": dict(POTION_OUTCOMES),
        "potion_faces": dict(POTION_FACES),
    }


def _figures(state: dict) -> dict:
    """The figures on each location number (None: the task stack)."""
    figures: dict = {None: []}
    for name in state["players"]:
        seat = state["seats"][name]
        figures.setdefault(seat["location"], []).append({
            "name": name, "character": seat["character"],
            "character_name": CHARACTER_NAMES[seat["character"]],
        })
    return figures


def _ring(state: dict, figures: dict) -> list[dict]:
    """The six cards with the Roman's track on each, counted from the camp."""
    roman_location, roman_space = roman_position(state)
    drawn = state["drawn"]
    legal_keys = {(space["location"], space["slot"])
                  for space in (legal_spaces(state, drawn) if drawn else [])}
    ring = []
    step = 0
    here = state["roman_steps"] % state["lap_length"]
    for location in state["locations"]:
        spaces = []
        for space in range(1, location["spaces"] + 1):
            spaces.append({
                "space": space,
                "camp": step == 0,
                "roman": step == here,
                "passed": step < state["roman_steps"] and step != here,
                "to_camp": state["lap_length"] - step,
            })
            step += 1
        number = location["number"]
        ring.append({
            **location,
            "name": location_name(location["name"]),
            "shut": all(location["covered"]),
            "markers": sum(location["covered"]),
            "roman_here": number == roman_location,
            "roman_space": roman_space if number == roman_location else None,
            "figures": figures.get(number, []),
            "slots": [{"slot": slot + 1, "symbol": location["symbols"][slot],
                       "covered": location["covered"][slot],
                       "legal": (number, slot + 1) in legal_keys} for slot in (0, 1)],
            "timeline": spaces,
        })
    return ring


def _draw_choice(state: dict, symbol: str) -> dict:
    fits = legal_spaces(state, symbol)
    return {"symbol": symbol, "in_bag": state["bag"][symbol], "spaces": len(fits),
            "places": [space["name"] for space in fits],
            "counted_as": bag_symbol_taken(state, symbol)}


def _tasks(state: dict) -> dict:
    tasks = state["tasks"]
    current = tasks["current"]
    subtasks = []
    if current:
        subtasks = [
            {**sub, "number": index + 1, "covered": index < tasks["covered"],
             "colour": COLOUR_NAMES[INGREDIENT_COLOURS[sub["ingredient"]]],
             "next": index == tasks["covered"]}
            for index, sub in enumerate(current["subtasks"])
        ]
    return {"total": tasks["total"], "completed": tasks["completed"],
            "left": tasks["total"] - tasks["completed"],
            "face_down": max(tasks["total"] - tasks["completed"] - 1, 0),
            "current": current, "subtasks": subtasks,
            "next_subtask": subtasks[tasks["covered"]] if current else None,
            "menhirs_placed": tasks["covered"],
            "awaiting_entry": current is None and tasks["completed"] < tasks["total"],
            "last_reward": tasks["last_reward"]}


def _hand_cards(seat: dict) -> list[dict]:
    return [{"character": c, "name": CHARACTER_NAMES[c], "count": n}
            for c, n in seat["hand"].items() if n]


def _player(state: dict, name: str) -> dict:
    seat = state["seats"][name]
    character = seat["character"]
    pile = state["draw_piles"][character]
    turn = state["turn"]
    return {
        "name": name,
        "character": character,
        "character_name": CHARACTER_NAMES[character],
        "place": place_name(state, seat["location"]),
        "location": seat["location"],
        "ingredients": dict(seat["ingredients"]),
        "hand": {c: n for c, n in seat["hand"].items() if n},
        "hand_cards": _hand_cards(seat),
        "hand_size": sum(seat["hand"].values()),
        "draw_pile": pile,
        "draw_extra": extra_draws(character),
        "draw_sizes": [n for n in (1, 2, 3) if n <= pile],
        "discards": state["discards"][character],
        "potion_fresh": seat["potion_fresh"] if character != "obelix" else None,
        "roast_boars": seat["roast_boars"] if character == "obelix" else None,
        "can_refill": character != "obelix" and not seat["potion_fresh"],
        "on_turn": bool(turn) and turn["player"] == name,
        "chosen": seat.get("chosen", True),
        "placed": seat.get("placed", True),
        "stocked": seat.get("stocked", True),
    }


def _gain(state: dict) -> dict | None:
    """What the turn earned and the table has still to enter (``gains.due``), for its box."""
    gain = gains.due(state)
    if gain is None:
        return None
    return {**gain,
            "place": loc_name(state, gain["location"]) if gain.get("location") else None,
            "outcome_text": POTION_OUTCOMES.get(gain.get("outcome") or ""),
            "ingredient_name": INGREDIENT_NAMES.get(gain.get("ingredient") or ""),
            "tap": gain.get("control") or "take_ingredients"}


def _turn(state: dict) -> dict:
    """Whose turn, what is left of it, and what the forms of its actions offer."""
    turn = state["turn"]
    name = turn["player"]
    seat = state["seats"][name]
    character = seat["character"]
    where = seat["location"]
    return {
        "player": name,
        "character": character,
        "character_name": CHARACTER_NAMES[character],
        "actions_left": ACTIONS_PER_TURN - turn["actions_used"],
        "actions_used": turn["actions_used"],
        "moves_left": MOVES_PER_TURN - turn["moves_used"],
        "moves_used": turn["moves_used"],
        "used_locations": list(turn["used_locations"]),
        "used_names": [loc_name(state, n) for n in turn["used_locations"]],
        "here": where,
        "here_name": place_name(state, where),
        "at_stack": where is None,
        "subtasks_left": subtask_limit(character) - turn["subtasks_done"],
        "drink": N_("Gnaw a roast boar") if character == "obelix" else N_("Drink the magic potion"),
        "double_roll": character == "getafix",
        "hand_cards": _hand_cards(seat),
        "ingredients_held": [i for i in INGREDIENTS if seat["ingredients"][i]],
        "potion_outcome": turn["potion_outcome"],
        "gain": _gain(state),
        "partners": [other for other in state["players"] if other != name
                     and state["seats"][other]["location"] == where],
        "others": [other for other in state["players"] if other != name],
    }
