"""What is in the box of Mission Zaubertrank!, as the app counts it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

Character = Literal["asterix", "obelix", "getafix", "dogmatix"]
Ingredient = Literal["mistletoe", "strawberries", "fish"]
Symbol = Literal["knife", "skull", "lightning", "fist"]
PotionOutcome = Literal[
    "ingredient_or_card", "two_ingredients", "three_ingredients",
    "remove_one_mishap", "remove_two_mishaps",
]

CHARACTERS: tuple[str, ...] = ("asterix", "obelix", "getafix", "dogmatix")
CHARACTER_NAMES = {character: character.capitalize() for character in CHARACTERS}
INGREDIENTS: tuple[str, ...] = ("mistletoe", "strawberries", "fish")
SYMBOLS: tuple[str, ...] = ("knife", "skull", "lightning", "fist")
# Task cards dealt face down for each difficulty, named after the rulebook's challenges. The
# names are the option values themselves, so the generated setup form shows them as they read.
TASK_CARDS = {
    "one Roman": 4, "a small patrol": 5, "a cohort": 6, "Caesar's army": 7, "conquer Rome": 8,
}
DIFFICULTY_NAMES = {name: name for name in TASK_CARDS}
# Also accepted from scripts: short ids and the number of task cards.
DIFFICULTY_ALIASES = {
    "one_roman": "one Roman", "small_patrol": "a small patrol", "cohort": "a cohort",
    "caesars_army": "Caesar's army", "conquer_rome": "conquer Rome",
    **{str(count): name for name, count in TASK_CARDS.items()},
    **{name.lower(): name for name in TASK_CARDS},
}


def _difficulty_alias(value):
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str):
        return DIFFICULTY_ALIASES.get(value.strip().lower(), value.strip())
    return value


Difficulty = Annotated[
    Literal["one Roman", "a small patrol", "a cohort", "Caesar's army", "conquer Rome"],
    BeforeValidator(_difficulty_alias),
]
POTION_OUTCOMES = {
    "ingredient_or_card": "take 1 ingredient or draw 1 helper card",
    "two_ingredients": "take 2 ingredients of any kinds",
    "three_ingredients": "take 3 ingredients of any kinds",
    "remove_one_mishap": "remove 1 mishap marker",
    "remove_two_mishaps": "remove 2 mishap markers",
}

# The colour of each ingredient on the task cards' sub-tasks.
INGREDIENT_COLOURS = {"mistletoe": "green", "strawberries": "red", "fish": "blue"}

# The die's faces as printed, short enough for a button.
POTION_FACES = {
    "ingredient_or_card": "+1 ingredient or card",
    "two_ingredients": "+2 ingredients",
    "three_ingredients": "+3 ingredients",
    "remove_one_mishap": "1 mishap marker off",
    "remove_two_mishaps": "2 mishap markers off",
}

SUPPLY_PER_INGREDIENT = 10
MARKERS_PER_SYMBOL = 4
HELPER_CARDS_PER_CHARACTER = 12
ROAST_BOARS = 3
ACTIONS_PER_TURN = 2
MOVES_PER_TURN = 2
OPENING_MARKERS = 2
PASS_LIMIT = 2
UNPLACEABLE_PENALTY = 2  # extra Roman steps when a drawn marker fits nowhere
SUBTASKS_PER_TASK = 3
LOCATION_COUNT = 6
MAX_QUANTITY = SUPPLY_PER_INGREDIENT

# Defaults for the six location cards (name, timeline spaces, the two mishap symbols). The
# names follow the places GAMES.md lists; the space counts and symbols are not known, so every
# location gets 4 spaces (a 24-space lap) and each symbol sits on exactly three of the twelve
# mishap spaces, every pair of symbols on one card.
DEFAULT_LOCATIONS = (
    ("Forest", 4, "knife", "skull"),
    ("Fishmonger's stall", 4, "lightning", "fist"),
    ("Druid's Cave", 4, "knife", "lightning"),
    ("Mistletoe grove", 4, "skull", "fist"),
    ("Bard's Hut", 4, "knife", "fist"),
    ("Strawberry patch", 4, "skull", "lightning"),
)


def subtask_limit(character: str) -> int:
    """Sub-tasks a character may complete in one turn (Obelix: two)."""
    return 2 if character == "obelix" else 1


def extra_draws(character: str) -> int:
    """Helper cards drawn on top of the number asked for (Asterix's ability)."""
    return 1 if character == "asterix" else 0


def fresh_seat(character: str) -> dict:
    """A player's place at the table before the game: no ingredients, no cards."""
    return {
        "character": character,
        "location": None,  # None: standing at the task stack
        "ingredients": {ingredient: 0 for ingredient in INGREDIENTS},
        "hand": {other: 0 for other in CHARACTERS},
        "potion_fresh": character != "obelix",
        "roast_boars": ROAST_BOARS if character == "obelix" else 0,
    }
