"""What is in the box of Mission Zaubertrank!, as the app counts it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from ..text import N_, Name, Sentence, plural_sentence

Character = Literal["asterix", "obelix", "getafix", "dogmatix"]
Ingredient = Literal["mistletoe", "strawberries", "fish"]
Symbol = Literal["knife", "skull", "lightning", "fist"]
PotionOutcome = Literal[
    "ingredient_or_card", "two_ingredients", "three_ingredients",
    "remove_one_mishap", "remove_two_mishaps",
]

CHARACTERS: tuple[str, ...] = ("asterix", "obelix", "getafix", "dogmatix")
# The printed names, in each phone's language (Getafix/Miraculix, Dogmatix/Idefix).
CHARACTER_NAMES = {"asterix": N_("Asterix"), "obelix": N_("Obelix"),
                   "getafix": N_("Getafix"), "dogmatix": N_("Dogmatix")}
INGREDIENTS: tuple[str, ...] = ("mistletoe", "strawberries", "fish")
# The ingredients as a word (a label, a list); ``amount`` counts them.
INGREDIENT_NAMES = {"mistletoe": N_("mistletoe"), "strawberries": N_("strawberries"),
                    "fish": N_("fish")}
SYMBOLS: tuple[str, ...] = ("knife", "skull", "lightning", "fist")
SYMBOL_NAMES = {"knife": N_("knife"), "skull": N_("skull"), "lightning": N_("lightning"),
                "fist": N_("fist")}
# The colours of the sub-tasks as words.
COLOUR_NAMES = {"green": N_("green"), "red": N_("red"), "blue": N_("blue")}
# Task cards dealt face down for each difficulty, named after the rulebook's challenges. The
# names are the option values themselves, so the generated setup form shows them as they read.
TASK_CARDS = {
    "one Roman": 4, "a small patrol": 5, "a cohort": 6, "Caesar's army": 7, "conquer Rome": 8,
}
# The stored value stays the English name; a phone shows its language's.
DIFFICULTY_NAMES = {"one Roman": N_("one Roman"), "a small patrol": N_("a small patrol"),
                    "a cohort": N_("a cohort"), "Caesar's army": N_("Caesar's army"),
                    "conquer Rome": N_("conquer Rome")}
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
    "ingredient_or_card": N_("take 1 ingredient or draw 1 helper card"),
    "two_ingredients": N_("take 2 ingredients of any kinds"),
    "three_ingredients": N_("take 3 ingredients of any kinds"),
    "remove_one_mishap": N_("remove 1 mishap marker"),
    "remove_two_mishaps": N_("remove 2 mishap markers"),
}

# The colour of each ingredient on the task cards' sub-tasks.
INGREDIENT_COLOURS = {"mistletoe": "green", "strawberries": "red", "fish": "blue"}

# The die's faces as printed, short enough for a button.
POTION_FACES = {
    "ingredient_or_card": N_("+1 ingredient or card"),
    "two_ingredients": N_("+2 ingredients"),
    "three_ingredients": N_("+3 ingredients"),
    "remove_one_mishap": N_("1 mishap marker off"),
    "remove_two_mishaps": N_("2 mishap markers off"),
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

# The default location names (the stored value; a phone shows its language's). The German
# edition's printed names are not known, except as the German rules name the places (Wald,
# Höhle des Druiden, Fischhändler); natural German words are chosen for the rest.
LOCATION_NAMES = {
    "Forest": N_("Forest"), "Fishmonger's stall": N_("Fishmonger's stall"),
    "Druid's Cave": N_("Druid's Cave"), "Mistletoe grove": N_("Mistletoe grove"),
    "Bard's Hut": N_("Bard's Hut"), "Strawberry patch": N_("Strawberry patch"),
}


def location_name(name: str) -> Name:
    """A location card's name as each phone reads it (a name the table typed stays as typed)."""
    return LOCATION_NAMES.get(name) or Name(name)


def amount(ingredient: str, count: int):
    """"3 fish", "1 strawberry": a number of one ingredient, in the phone's language."""
    if ingredient == "mistletoe":
        return plural_sentence("%(count)s mistletoe", "%(count)s mistletoe", count)
    if ingredient == "strawberries":
        return plural_sentence("%(count)s strawberry", "%(count)s strawberries", count)
    return plural_sentence("%(count)s fish", "%(count)s fish", count)


def joined(items: list):
    """One, two or three things: "2 fish", "2 fish and 1 strawberry", "a and b and c"."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Sentence("%(first)s and %(second)s", first=items[0], second=items[1])
    return Sentence("%(first)s and %(second)s and %(third)s", first=items[0], second=items[1],
                    third=items[2])


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


# What each default location gives: the free tap that enters it, the ingredient, and how many
# such taps at most. Only the Bard's Hut (its example: two markers drawn, two matching ones
# off) and the Druid's Cave (up to 2 potions) are described by the rulebook; the ingredient
# places follow their names, and the Forest is the one left for helper cards (GAMES.md). A
# location the table renamed gives what its card says: the coach then names no kind.
LOCATION_GAINS = {
    "Forest": ("draw_helpers", None, 1),
    "Fishmonger's stall": ("take_ingredients", "fish", 1),
    "Druid's Cave": ("refill_potion", None, 2),
    "Mistletoe grove": ("take_ingredients", "mistletoe", 1),
    "Bard's Hut": ("remove_mishap", None, 2),
    "Strawberry patch": ("take_ingredients", "strawberries", 1),
}
# Where each figure starts by default, as a location card's number. The character cards print
# it and the sources do not say it, so this is a guess each player corrects from the card;
# the four start apart, as the rulebook's "the location indicated on the character card" reads.
CHARACTER_STARTS = {"asterix": 2, "obelix": 1, "getafix": 3, "dogmatix": 6}


def subtask_limit(character: str) -> int:
    """Sub-tasks a character may complete in one turn (Obelix: two)."""
    return 2 if character == "obelix" else 1


def extra_draws(character: str) -> int:
    """Helper cards drawn on top of the number asked for (Asterix's ability)."""
    return 1 if character == "asterix" else 0


def fresh_seat(character: str) -> dict:
    """A player's place at the table before the game: no ingredients, no cards, the figure on
    its character's usual start; nothing chosen, placed or taken at the set-up yet."""
    return {
        "character": character,
        "location": CHARACTER_STARTS[character],  # None: standing at the task stack
        "chosen": False,  # the player chose this character at the set-up
        "placed": False,  # the player set the figure's start place
        "stocked": False,  # the player took the starting ingredients
        "ingredients": {ingredient: 0 for ingredient in INGREDIENTS},
        "hand": {other: 0 for other in CHARACTERS},
        "potion_fresh": character != "obelix",
        "roast_boars": ROAST_BOARS if character == "obelix" else 0,
    }
