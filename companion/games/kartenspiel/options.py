"""The table's options: names on the cards, which Romans the deck holds, rank values, bonuses."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from ..base import Options, Whole
from .cards import (
    DEFAULT_HIGH_VALUES,
    HIGH_VALUE_RANGE,
    LOW_COPIES,
    LOW_VALUES,
    RANK_NAMES,
    RANKS,
    ROMAN_COUNT,
    parse_values,
)

# The setup form shows a language by its name; the API also takes the codes "de" and "en".
LANGUAGES = {"German": "de", "English": "en"}


def _language_name(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        by_code = {code: name for name, code in LANGUAGES.items()}
        return by_code.get(text.lower(), text.capitalize())
    return value


class KartenspielOptions(Options):
    # Titles are shown with only their first letter capitalised, so proper names come first.
    language: Annotated[Literal["German", "English"], BeforeValidator(_language_name)] = Field(
        "German",
        title="Names on the cards",
        description="German: Majestix, Miraculix, Troubadix, Idefix. English: Vitalstatistix, "
        "Getafix, Cacofonix, Dogmatix.",
    )
    high_values: str = Field(
        DEFAULT_HIGH_VALUES,
        max_length=40,
        title="High values in the deck",
        description="The single high Romans, values 11 to 15 separated by commas. Four of them "
        "unless a low value has only three cards. Which ones the deck holds is not known for "
        "sure: check your cards (default 11, 12, 13, 14).",
    )
    short_value: Whole | None = Field(
        None,
        ge=1,
        le=10,
        title="Low value with only three cards",
        description="Leave empty for the usual deck (1 to 10 four times each). Set it only when "
        "your deck has five high Romans.",
    )
    dekurio: Whole | None = Field(
        None,
        ge=1,
        le=15,
        title="Dekurio's value",
        description="Leave empty if your cards do not show it: its pirate then lets nothing escape.",
    )
    zenturio: Whole | None = Field(
        10, ge=1, le=15, title="Zenturio's value", description="10 on the printed cards."
    )
    general: Whole | None = Field(
        None,
        ge=1,
        le=15,
        title="General's value",
        description="Leave empty if your cards do not show it: its pirate then lets nothing escape.",
    )
    pair_bonus: Whole = Field(
        20, ge=0, le=1000, title="Bonus for a pair", description="Two Romans of one rank (default 20)."
    )
    three_bonus: Whole = Field(
        50, ge=0, le=1000, title="Bonus for three of a kind",
        description="Three Romans of one rank (default 50).",
    )
    four_bonus: Whole = Field(
        100, ge=0, le=1000, title="Bonus for four of a kind",
        description="Four Romans of one rank (default 100).",
    )
    rounds: Whole = Field(4, ge=1, le=10, title="Rounds", description="The game has four rounds.")

    @model_validator(mode="after")
    def deck_is_sound(self) -> "KartenspielOptions":
        high = parse_values(self.high_values, "The high values")
        low, top = HIGH_VALUE_RANGE
        for value in high:
            if not low <= value <= top:
                raise ValueError(f"The high values must lie between {low} and {top}; {value} does not")
        if len(set(high)) != len(high):
            raise ValueError("Each high value is a single card, so list it only once")
        self.high_values = ",".join(str(value) for value in sorted(high))
        romans = len(LOW_VALUES) * LOW_COPIES - (1 if self.short_value else 0) + len(high)
        if romans != ROMAN_COUNT:
            raise ValueError(
                f"The deck holds {ROMAN_COUNT} Romans, but these settings give {romans}; "
                "use four high values, or five with one low value of only three cards"
            )
        deck_values = set(LOW_VALUES) | set(high)
        taken: dict[int, str] = {}
        for rank in RANKS:
            value = getattr(self, rank)
            if value is None:
                continue
            if value not in deck_values:
                raise ValueError(f"The {RANK_NAMES[rank]}'s value {value} is not in the deck")
            if value in taken:
                raise ValueError(
                    f"The {taken[value]} and the {RANK_NAMES[rank]} cannot both be worth {value}"
                )
            taken[value] = RANK_NAMES[rank]
        return self

    def deck(self) -> dict[str, int]:
        """How many Romans of each value the deck holds."""
        counts = {str(value): LOW_COPIES for value in LOW_VALUES}
        if self.short_value:
            counts[str(self.short_value)] -= 1
        for value in parse_values(self.high_values, "The high values"):
            counts[str(value)] = 1
        return counts
