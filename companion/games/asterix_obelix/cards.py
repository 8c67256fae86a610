"""The Roman deck: what the 40 cards are, how a player names them, and the secured piles.

Card counting: every physical Roman card whose face is known sits in exactly one place —
a secured pile, out of the game, the feast track, face up in the formation during an
attack, or face down in the formation after a failed attack turned it back (its position
is known). "Unseen" is the 40-card composition minus those cards, so a card that was turned
back face down counts as seen and is never counted twice when it is turned over again.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StringConstraints

from ..base import GameError, Whole

COLOURS = ("red", "blue", "yellow", "green", "purple")
COLOUR_LIST = "red, blue, yellow, green or purple"
LEGIONARIES_PER_COLOUR = 5
PIRATE_COUNT = 3
FEAST_COUNT = 5
GRID_SIZE = 4
DECK_SIZE = 40
SUPPLY_AT_START = DECK_SIZE - GRID_SIZE * GRID_SIZE
FIGHT_CARDS_IN_HAND = 5

# How many of each card the 40-card Roman deck holds, by counting key.
COMPOSITION: dict[str, int] = {
    **{f"legionary:{colour}": LEGIONARIES_PER_COLOUR for colour in COLOURS},
    **{f"centurion:{colour}": 1 for colour in COLOURS},
    "pirate": PIRATE_COUNT,
    "traitor": 1,
    "boar": 1,
    "feast": FEAST_COUNT,
}
assert sum(COMPOSITION.values()) == DECK_SIZE

TOKEN_ORDER = ("traitor", "pirates") + COLOURS


# -- input normalisation -------------------------------------------------------
def _text(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def normal_colour(value: Any) -> Any:
    value = _text(value)
    # The overview's "black" legion is the purple one.
    return "purple" if value == "black" else value


_KIND_ALIASES = {"wild boar": "boar", "wild_boar": "boar", "village feast": "feast",
                 "village_feast": "feast", "legionnaire": "legionary"}


def _kind(value: Any) -> Any:
    value = _text(value)
    return _KIND_ALIASES.get(value, value)


Colour = Annotated[Literal["red", "blue", "yellow", "green", "purple"], BeforeValidator(normal_colour)]
CardKind = Annotated[
    Literal["legionary", "centurion", "pirate", "traitor", "boar", "feast"], BeforeValidator(_kind)
]
PileItem = Annotated[Literal["legionary", "centurion", "pirate", "traitor"], BeforeValidator(_kind)]
LineKind = Annotated[Literal["row", "column"], BeforeValidator(_text)]
LineStart = Annotated[Literal["left", "right", "top", "bottom"], BeforeValidator(_text)]
LineNumber = Annotated[Whole, Field(ge=1, le=GRID_SIZE)]
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


# -- cards ------------------------------------------------------------------------
def card_key(card: dict) -> str:
    """The counting key of a card: 'legionary:red', 'centurion:blue', 'pirate', ..."""
    if card["kind"] in ("legionary", "centurion"):
        return f"{card['kind']}:{card['colour']}"
    return card["kind"]


def card_name(card: dict) -> str:
    """A card with its article, as a player says it: 'a red legionary', 'the traitor'."""
    kind, colour = card["kind"], card.get("colour")
    return {
        "legionary": f"a {colour} legionary",
        "centurion": f"the {colour} centurion",
        "pirate": "a pirate",
        "traitor": "the traitor",
        "boar": "the wild boar",
        "feast": "a village feast",
    }[kind]


def make_card(kind: str, colour: str | None) -> dict:
    """A card dict; legionaries and centurions need a colour, other cards carry none."""
    if kind in ("legionary", "centurion"):
        if colour is None:
            raise GameError(f"Say which colour the {kind} is: {COLOUR_LIST}.")
        return {"kind": kind, "colour": colour}
    return {"kind": kind, "colour": None}


def impossible(card: dict) -> str:
    """Why a card cannot be turned over: every card like it is already accounted for."""
    hint = " If an earlier tap was wrong, correct it first."
    kind, colour = card["kind"], card.get("colour")
    if kind == "legionary":
        return f"All 5 {colour} legionaries are already accounted for, so this cannot be another one." + hint
    if kind == "pirate":
        return "All 3 pirates are already accounted for; there is no fourth." + hint
    if kind == "feast":
        return "All 5 village feasts are already accounted for; there is no sixth." + hint
    name = {"centurion": f"the {colour} centurion", "traitor": "the traitor",
            "boar": "the wild boar"}[kind]
    return f"There is only one card like {name}, and it is already accounted for." + hint


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


# -- secured piles -------------------------------------------------------------------
def empty_pile() -> dict:
    """A secured pile with nothing in it."""
    return {
        "legionaries": {colour: 0 for colour in COLOURS},
        "centurions": {colour: 0 for colour in COLOURS},
        "pirates": 0,
        "traitor": 0,
    }


def add_to_pile(pile: dict, card: dict) -> None:
    """Put a defeated card on a secured pile (in place)."""
    kind = card["kind"]
    if kind == "legionary":
        pile["legionaries"][card["colour"]] += 1
    elif kind == "centurion":
        pile["centurions"][card["colour"]] += 1
    elif kind == "pirate":
        pile["pirates"] += 1
    elif kind == "traitor":
        pile["traitor"] += 1


def pile_cards(pile: dict) -> int:
    """How many cards a secured pile holds."""
    return (sum(pile["legionaries"].values()) + sum(pile["centurions"].values())
            + pile["pirates"] + pile["traitor"])
