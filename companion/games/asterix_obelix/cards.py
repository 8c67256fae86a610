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

from ..base import GameError, Whole, unblank
from ..text import N_, Sentence

COLOURS = ("red", "blue", "yellow", "green", "purple")
COLOUR_LIST = N_("red, blue, yellow, green or purple")
# Colours as a word of their own (a chip, a table row): "Red" / "Rot".
COLOUR_TITLES = {"red": N_("Red"), "blue": N_("Blue"), "yellow": N_("Yellow"), "green": N_("Green"),
                 "purple": N_("Purple")}
LEGIONARIES_PER_COLOUR = 5
PIRATE_COUNT = 3
FEAST_COUNT = 5
GRID_SIZE = 4
DECK_SIZE = 40
SUPPLY_AT_START = DECK_SIZE - GRID_SIZE * GRID_SIZE
FIGHT_CARDS_IN_HAND = 5
FIGHT_CARDS_EACH = 15  # 3 of each of the 5 colours per player
# What a card just turned costs in fight cards to beat (feasts cost none, the boar ends the attack).
FIGHT_CARD_COST = {"legionary": 1, "centurion": 1, "pirate": 1, "traitor": 2}

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
# The document says what the stripping means: something besides spaces must be in it.
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200),
                   Field(json_schema_extra=unblank)]


# -- cards ------------------------------------------------------------------------
def card_key(card: dict) -> str:
    """The counting key of a card: 'legionary:red', 'centurion:blue', 'pirate', ..."""
    if card["kind"] in ("legionary", "centurion"):
        return f"{card['kind']}:{card['colour']}"
    return card["kind"]


# A card with its article, as a log sentence names it (German: the accusative, "einen roten
# Legionär", since the sentences say what was turned over, beaten or secured).
CARD_NAMES = {
    "legionary:red": N_("a red legionary"), "legionary:blue": N_("a blue legionary"),
    "legionary:yellow": N_("a yellow legionary"), "legionary:green": N_("a green legionary"),
    "legionary:purple": N_("a purple legionary"),
    "centurion:red": N_("the red centurion"), "centurion:blue": N_("the blue centurion"),
    "centurion:yellow": N_("the yellow centurion"), "centurion:green": N_("the green centurion"),
    "centurion:purple": N_("the purple centurion"),
    "pirate": N_("a pirate"), "traitor": N_("the traitor"), "boar": N_("the wild boar"),
    "feast": N_("a village feast"),
}
# A card without article, as a label names it ("red legionary" / "roter Legionär").
CARD_TITLES = {
    "legionary:red": N_("red legionary"), "legionary:blue": N_("blue legionary"),
    "legionary:yellow": N_("yellow legionary"), "legionary:green": N_("green legionary"),
    "legionary:purple": N_("purple legionary"),
    "centurion:red": N_("red centurion"), "centurion:blue": N_("blue centurion"),
    "centurion:yellow": N_("yellow centurion"), "centurion:green": N_("green centurion"),
    "centurion:purple": N_("purple centurion"),
    "pirate": N_("pirate"), "traitor": N_("traitor"), "boar": N_("wild boar"), "feast": N_("village feast"),
}


# "Discard a red fight card" / "Wirf eine rote Kampfkarte ab": what beating a card takes,
# as the object of a verb.
A_FIGHT_CARD = {"red": N_("a red fight card"), "blue": N_("a blue fight card"),
                "yellow": N_("a yellow fight card"), "green": N_("a green fight card"),
                "purple": N_("a purple fight card")}


def cost_words(card: dict) -> str:
    """What beating ``card`` takes from the hand: 'a red fight card', 'two of one colour'."""
    if card["kind"] == "pirate":
        return N_("any fight card")
    if card["kind"] == "traitor":
        return N_("two fight cards of one colour")
    return A_FIGHT_CARD[card["colour"]]


def card_name(card: dict) -> str:
    """A card with its article, as a player says it: 'a red legionary', 'the traitor'."""
    return CARD_NAMES[card_key(card)]


def card_title(card: dict) -> str:
    """A card without article: 'red legionary', 'pirate'."""
    return CARD_TITLES[card_key(card)]


def make_card(kind: str, colour: str | None) -> dict:
    """A card dict; legionaries and centurions need a colour, other cards carry none."""
    if kind in ("legionary", "centurion"):
        if colour is None:
            if kind == "legionary":
                raise GameError(Sentence("Say which colour the legionary is: %(colours)s.", colours=COLOUR_LIST))
            raise GameError(Sentence("Say which colour the centurion is: %(colours)s.", colours=COLOUR_LIST))
        return {"kind": kind, "colour": colour}
    return {"kind": kind, "colour": None}


# German: "alle 5 roten Legionäre" declines the colour, so each colour has its sentence.
ALL_LEGIONARIES_SEEN = {
    "red": Sentence("All 5 red legionaries are already accounted for, so this cannot be another one."),
    "blue": Sentence("All 5 blue legionaries are already accounted for, so this cannot be another one."),
    "yellow": Sentence("All 5 yellow legionaries are already accounted for, so this cannot be another one."),
    "green": Sentence("All 5 green legionaries are already accounted for, so this cannot be another one."),
    "purple": Sentence("All 5 purple legionaries are already accounted for, so this cannot be another one."),
}


def impossible(card: dict) -> Sentence:
    """Why a card cannot be turned over: every card like it is already accounted for."""
    kind, colour = card["kind"], card.get("colour")
    if kind == "legionary":
        reason = ALL_LEGIONARIES_SEEN[colour]
    elif kind == "pirate":
        reason = Sentence("All 3 pirates are already accounted for; there is no fourth.")
    elif kind == "feast":
        reason = Sentence("All 5 village feasts are already accounted for; there is no sixth.")
    else:
        reason = Sentence("There is only one card like %(card)s, and it is already accounted for.",
                          card=card_name(card))
    return Sentence("%(reason)s If an earlier tap was wrong, correct it first.", reason=reason)


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
