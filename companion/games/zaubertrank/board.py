"""The ring of six location cards, the Roman on it, the bag, and how the log names things."""

from __future__ import annotations

from ..base import no_such_player
from ..text import N_, Sentence
from .components import CHARACTER_NAMES, SYMBOLS, location_name


def player(state: dict, name: str) -> str:
    """``name`` if it is a seated player; else the refusal naming it."""
    if name not in state["seats"]:
        raise no_such_player(name)
    return name


def loc_name(state: dict, location: int):
    """A location card's name as the phone reads it ("Forest" / "Wald")."""
    return location_name(state["locations"][location - 1]["name"])


def place_name(state: dict, location: int | None):
    """A place as a name of its own: the task stack, or a location card's name."""
    if location is None:
        return N_("Task stack")
    return loc_name(state, location)


def at_place(state: dict, location: int | None) -> Sentence:
    """Where a figure stands: "at the task stack", "at the Forest"."""
    if location is None:
        return Sentence("at the task stack")
    return Sentence("at the %(place)s", place=loc_name(state, location))


def who(state: dict, name: str | None):
    """A player as the log names them, with their character: "Ann (Asterix)"."""
    if name is None:
        name = state["turn"]["player"] if state["turn"] else N_("Someone")
    seat = state["seats"].get(name)
    if not seat:
        return name
    return Sentence("%(player)s (%(character)s)", player=name,
                    character=CHARACTER_NAMES[seat["character"]])


def roman_position(state: dict) -> tuple[int, int]:
    """The Roman's location number and space on it (both from 1)."""
    steps = state["roman_steps"] % state["lap_length"]
    for location in state["locations"]:
        if steps < location["spaces"]:
            return location["number"], steps + 1
        steps -= location["spaces"]
    raise AssertionError("the lap length is the sum of the spaces")


def roman_location(state: dict) -> int:
    """The number of the location card the Roman stands on."""
    return roman_position(state)[0]


def spaces_to_camp(state: dict) -> int:
    """Roman steps left before he is back at his camp and the village loses."""
    return state["lap_length"] - state["roman_steps"]


def legal_spaces(state: dict, symbol: str) -> list[dict]:
    """Free spaces showing ``symbol``, away from the Roman's location; ``shuts``: the
    location's other space is covered already, so a marker here shuts it."""
    roman = roman_location(state)
    spaces = []
    for location in state["locations"]:
        if location["number"] == roman:
            continue
        for slot in (0, 1):
            if location["symbols"][slot] == symbol and not location["covered"][slot]:
                spaces.append({"location": location["number"], "slot": slot + 1,
                               "name": location_name(location["name"]),
                               "shuts": location["covered"][1 - slot]})
    return spaces


def bag_symbol_taken(state: dict, symbol: str) -> str:
    """The bag count a drawn ``symbol`` is taken from.

    Markers show a symbol on each side and the player sees only the side drawn, so the
    bag's "4 of each symbol" is the app's bookkeeping, not a fact: a fifth knife can come
    out. Rather than refuse what lies on the table, such a draw is counted against the
    symbol with the most markers left, which keeps the bag's total exact."""
    if state["bag"][symbol] > 0:
        return symbol
    return max(SYMBOLS, key=lambda other: state["bag"][other])
