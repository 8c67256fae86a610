"""The cards of Das Kartenspiel, the words the table uses for them, and what a state says
about the deck and the hands (which Romans and pirates are still in the deck, who still
holds cards)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field

from ..base import GameError, Whole

MIN_PLAYERS, MAX_PLAYERS = 2, 5
DECK_SIZE = 50
ROMAN_COUNT = 44
LOW_VALUES = range(1, 11)  # the values printed four times each
LOW_COPIES = 4
HIGH_VALUE_RANGE = (11, 15)  # the single high Romans come from these values
DEFAULT_HIGH_VALUES = "11,12,13,14"
HAND_GAULS = 10  # each character has ten Gaul cards, plus one Idefix

# Gaul characters by key, with their German and English names.
GAULS: dict[str, dict[str, str]] = {
    "asterix": {"de": "Asterix", "en": "Asterix"},
    "obelix": {"de": "Obelix", "en": "Obelix"},
    "majestix": {"de": "Majestix", "en": "Vitalstatistix"},
    "miraculix": {"de": "Miraculix", "en": "Getafix"},
    "troubadix": {"de": "Troubadix", "en": "Cacofonix"},
}
# English names (and a few spellings) typed in place of the key.
GAUL_ALIASES = {"vitalstatistix": "majestix", "getafix": "miraculix", "cacofonix": "troubadix"}
DOG = {"de": "Idefix", "en": "Dogmatix"}

RANKS = ("dekurio", "zenturio", "general")
RANK_NAMES = {"dekurio": "Dekurio", "zenturio": "Zenturio", "general": "General"}
PIRATE_KINDS = ("highest", "lowest", "choice", "dekurio", "zenturio", "general")
PIRATE_LABELS = {
    "highest": "the highest Roman escapes",
    "lowest": "the lowest Roman escapes",
    "choice": "a Roman of the owner's choice escapes",
    "dekurio": "a Dekurio escapes",
    "zenturio": "a Zenturio escapes",
    "general": "a General escapes",
}
# Short names for buttons and chips; the labels above say what each one does.
PIRATE_NAMES = {
    "highest": "Highest",
    "lowest": "Lowest",
    "choice": "Choice",
    "dekurio": "Dekurio",
    "zenturio": "Zenturio",
    "general": "General",
}
# Rank pirates name one card, so they go first; the free choice goes last (see the package docstring).
ESCAPE_ORDER = ("dekurio", "zenturio", "general", "highest", "lowest", "choice")

PirateKind = Literal["highest", "lowest", "choice", "dekurio", "zenturio", "general"]
RomanValue = Annotated[Whole, Field(ge=1, le=HIGH_VALUE_RANGE[1])]


# -- words ------------------------------------------------------------------------------


def parse_values(text: str, what: str) -> list[int]:
    """Read whole numbers separated by commas or spaces, refusing anything else with a sentence."""
    values = []
    # Phones offer a space more readily than a comma, so either separates the values.
    for piece in re.split(r"[,;\s]+", text):
        if not piece:
            continue
        if not piece.isdigit():
            raise ValueError(f"{what} must be whole numbers separated by commas or spaces; '{piece}' is not")
        values.append(int(piece))
    return values


def roman_word(value: int) -> str:
    return f"a Roman worth {value}"


def pirate_word(kind: str) -> str:
    return f"the pirate ({PIRATE_LABELS[kind]})"


def sentence_start(words: str) -> str:
    """``words`` with a capital first letter (``str.capitalize`` would lower "Roman")."""
    return words[:1].upper() + words[1:]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def dog(state: dict) -> str:
    return DOG[state["language"]]


def gaul_name(state: dict, player: str) -> str:
    return GAULS[state["gauls"][player]][state["language"]]


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


# -- refusals shared by the moves ---------------------------------------------------------


def require_seated(state: dict, player: str | None) -> None:
    if player not in state["players"]:
        raise GameError(f"There is no player called '{player}' at this table.")


def require_in_round(state: dict, player: str) -> None:
    if state["hands"][player]["out"]:
        raise GameError(f"{player} is out of cards for this round.")


def require_roman_in_deck(state: dict, value: int) -> None:
    held = state["deck"].get(str(value), 0)
    if not held:
        raise GameError(f"The deck has no Roman worth {value}.")
    if romans_left(state)[str(value)] <= 0:
        raise GameError(
            f"All {plural(held, 'Roman')} worth {value} are already in the piles; the deck has none left."
        )


def require_pirate_in_deck(state: dict, kind: str) -> None:
    for name, pile in state["piles"].items():
        if kind in pile["pirates"]:
            raise GameError(
                f"The deck has one pirate where {PIRATE_LABELS[kind]}, and it is already in {name}'s pile."
            )


# -- checks shared by the moves (None: the move can be made in ``state``) --------------------


def romans_in_deck(game, state: dict) -> str | None:
    if not any(count > 0 for count in romans_left(state).values()):
        return "Every Roman of the deck is already in the piles."
    return None


def pirates_in_deck(game, state: dict) -> str | None:
    return None if pirates_left(state) else "All six pirates are already in the piles."
