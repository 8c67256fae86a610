"""The cards of Das Kartenspiel, the words the table uses for them, and what a state says
about the deck and the hands (which Romans and pirates are still in the deck, who still
holds cards)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field

from ..base import GameError, Whole, no_such_player
from ..text import N_, Name, Sentence, plural_sentence

MIN_PLAYERS, MAX_PLAYERS = 2, 5
DECK_SIZE = 50
ROMAN_COUNT = 44
LOW_VALUES = range(1, 11)  # the values printed four times each
LOW_COPIES = 4
HIGH_VALUE_RANGE = (11, 15)  # the single high Romans come from these values
DEFAULT_HIGH_VALUES = "11,12,13,14"
HAND_GAULS = 10  # each character has ten Gaul cards, plus one Idefix

# Gaul characters by key, with the name the English edition prints (the German catalogue gives
# the German edition's: Majestix, Miraculix, Troubadix). Each phone shows its own language's set.
GAULS: dict[str, Name] = {
    "asterix": N_("Asterix"),
    "obelix": N_("Obelix"),
    "majestix": N_("Vitalstatistix"),
    "miraculix": N_("Getafix"),
    "troubadix": N_("Cacofonix"),
}
# English names (and a few spellings) typed in place of the key.
GAUL_ALIASES = {"vitalstatistix": "majestix", "getafix": "miraculix", "cacofonix": "troubadix"}
DOG = N_("Dogmatix")  # German: Idefix

RANKS = ("dekurio", "zenturio", "general")
# The rank names as the companion's English rules use them (the English edition's printed
# rank names are not known for these values).
RANK_NAMES = {"dekurio": N_("Dekurio"), "zenturio": N_("Zenturio"), "general": N_("General")}
PIRATE_KINDS = ("highest", "lowest", "choice", "dekurio", "zenturio", "general")
PIRATE_LABELS = {
    "highest": N_("the highest Roman escapes"),
    "lowest": N_("the lowest Roman escapes"),
    "choice": N_("a Roman of the owner's choice escapes"),
    "dekurio": N_("a Dekurio escapes"),
    "zenturio": N_("a Zenturio escapes"),
    "general": N_("a General escapes"),
}
# Short names for buttons and chips; the labels above say what each one does. German: the
# pirates as the German rules name them (Ranghöchste, Rangniedrigste, Beliebiger).
PIRATE_NAMES = {
    "highest": N_("Highest"),
    "lowest": N_("Lowest"),
    "choice": N_("Choice"),
    "dekurio": RANK_NAMES["dekurio"],
    "zenturio": RANK_NAMES["zenturio"],
    "general": RANK_NAMES["general"],
}
# Rank pirates name one card, so they go first; the free choice goes last (see the package docstring).
ESCAPE_ORDER = ("dekurio", "zenturio", "general", "highest", "lowest", "choice")

PirateKind = Literal["highest", "lowest", "choice", "dekurio", "zenturio", "general"]
RomanValue = Annotated[Whole, Field(ge=1, le=HIGH_VALUE_RANGE[1])]


# -- words ------------------------------------------------------------------------------


class NotAValue(ValueError):
    """A piece of typed text that is not a whole number (``piece``)."""

    def __init__(self, piece: str):
        super().__init__(piece)
        self.piece = piece


def parse_values(text: str) -> list[int]:
    """Read whole numbers separated by commas or spaces; ``NotAValue`` names the first other piece."""
    values = []
    # Phones offer a space more readily than a comma, so either separates the values.
    for piece in re.split(r"[,;\s]+", text):
        if not piece:
            continue
        if not piece.isdigit():
            raise NotAValue(piece)
        values.append(int(piece))
    return values


def roman_word(value: int, start: bool = False) -> Sentence:
    """"a Roman worth 7" (``start``: with a capital, to begin a sentence)."""
    if start:
        return Sentence("A Roman worth %(value)s", value=value)
    return Sentence("a Roman worth %(value)s", value=value)


def pirate_word(kind: str, start: bool = False) -> Sentence:
    """"the pirate (the highest Roman escapes)" (``start``: with a capital)."""
    if start:
        return Sentence("The pirate (%(label)s)", label=PIRATE_LABELS[kind])
    return Sentence("the pirate (%(label)s)", label=PIRATE_LABELS[kind])


def cards_word(count: int) -> Sentence:
    return plural_sentence("%(count)s card", "%(count)s cards", count)


def and_list(items: list[str]) -> Sentence | str:
    """Player names joined with "and" in the phone's language."""
    if len(items) <= 1:
        return "".join(items)
    return Sentence("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])


def dog(state: dict) -> Name:
    return DOG


def gaul_name(state: dict, player: str) -> Name:
    return GAULS[state["gauls"][player]]


# -- what the state says about the deck and the hands ------------------------------------


def romans_left(state: dict) -> dict[str, int]:
    """Romans of each value still in the deck (the deck minus every pile)."""
    left = dict(state["deck"])
    for pile in state["piles"].values():
        for value in pile["romans"]:
            left[str(value)] -= 1
    return left


def pirates_left(state: dict) -> list[str]:
    owned = {kind for pile in state["piles"].values() for kind in pile["pirates"]}
    return [kind for kind in PIRATE_KINDS if kind not in owned]


def deck_left(state: dict) -> int:
    return sum(romans_left(state).values()) + len(pirates_left(state))


def still_in(state: dict) -> list[str]:
    """The players still holding cards this round, in seating order."""
    return [name for name in state["players"] if not state["hands"][name]["out"]]


def piles_missing(state: dict) -> list[str]:
    """In the scoring, the players whose Romans are not in yet: none once the tricks were tapped
    to the end (deck empty or every hand played out), else those not typed in this round."""
    if deck_left(state) == 0 or not still_in(state):
        return []
    typed = state.get("typed", [])  # a table from before typed piles were counted has none
    return [name for name in state["players"] if name not in typed]


# -- refusals shared by the moves ---------------------------------------------------------


def require_seated(state: dict, player: str | None) -> None:
    if player not in state["players"]:
        raise no_such_player(player)


def require_in_round(state: dict, player: str) -> None:
    if state["hands"][player]["out"]:
        raise GameError(Sentence("%(player)s is out of cards for this round.", player=player))


def require_roman_in_deck(state: dict, value: int) -> None:
    held = state["deck"].get(str(value), 0)
    if not held:
        raise GameError(Sentence("The deck has no Roman worth %(value)s.", value=value))
    if romans_left(state)[str(value)] <= 0:
        raise GameError(plural_sentence(
            "The only Roman worth %(value)s is already in a pile; the deck has none left.",
            "All %(count)s Romans worth %(value)s are already in the piles; the deck has none left.",
            held, value=value,
        ))


def require_pirate_in_deck(state: dict, kind: str) -> None:
    for name, pile in state["piles"].items():
        if kind in pile["pirates"]:
            raise GameError(Sentence(
                "The deck has one pirate where %(label)s, and it is already in %(player)s's pile.",
                label=PIRATE_LABELS[kind], player=name,
            ))


# -- checks shared by the moves (None: the move can be made in ``state``) --------------------


def romans_in_deck(game, state: dict) -> Sentence | None:
    if not any(count > 0 for count in romans_left(state).values()):
        return Sentence("Every Roman of the deck is already in the piles.")
    return None


def pirates_in_deck(game, state: dict) -> Sentence | None:
    return None if pirates_left(state) else Sentence("All six pirates are already in the piles.")
