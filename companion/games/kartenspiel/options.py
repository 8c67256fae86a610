"""The table's options: which Romans the deck holds, rank values, bonuses and rounds.

The names on the cards (German or English edition) follow each phone's language, so the table
has no setting for them; a "language" sent by older tables and API clients is ignored."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from ..base import Options, Whole
from ..text import N_
from .cards import (
    DEFAULT_HIGH_VALUES,
    HIGH_VALUE_RANGE,
    LOW_COPIES,
    LOW_VALUES,
    RANKS,
    ROMAN_COUNT,
    NotAValue,
    parse_values,
)

# Refusals of a whole-model check are shown as fixed sentences (the web layer translates them
# by their text), so they carry no numbers of their own.
NOT_IN_DECK = {
    "dekurio": N_("The Dekurio's value is not in the deck"),
    "zenturio": N_("The Zenturio's value is not in the deck"),
    "general": N_("The General's value is not in the deck"),
}
LEAVE_EMPTY = N_("Leave empty if your cards do not show it: its pirate then lets nothing escape.")


class KartenspielOptions(Options):
    # Titles are shown with only their first letter capitalised, so proper names come first.
    high_values: str = Field(
        DEFAULT_HIGH_VALUES,
        max_length=40,
        title=N_("High values in the deck"),
        description=N_(
            "The single high Romans, values 11 to 15 separated by commas. Four of them unless a "
            "low value has only three cards. Which ones the deck holds is not known for sure: "
            "check your cards (default 11, 12, 13, 14)."
        ),
    )
    short_value: Whole | None = Field(
        None,
        ge=1,
        le=10,
        title=N_("Low value with only three cards"),
        description=N_(
            "Leave empty for the usual deck (1 to 10 four times each). Set it only when your "
            "deck has five high Romans."
        ),
    )
    dekurio: Whole | None = Field(None, ge=1, le=15, title=N_("Dekurio's value"), description=LEAVE_EMPTY)
    zenturio: Whole | None = Field(
        10, ge=1, le=15, title=N_("Zenturio's value"), description=N_("10 on the printed cards.")
    )
    general: Whole | None = Field(None, ge=1, le=15, title=N_("General's value"), description=LEAVE_EMPTY)
    pair_bonus: Whole = Field(
        20, ge=0, le=1000, title=N_("Bonus for a pair"),
        description=N_("Two Romans of one rank (default 20)."),
    )
    three_bonus: Whole = Field(
        50, ge=0, le=1000, title=N_("Bonus for three of a kind"),
        description=N_("Three Romans of one rank (default 50)."),
    )
    four_bonus: Whole = Field(
        100, ge=0, le=1000, title=N_("Bonus for four of a kind"),
        description=N_("Four Romans of one rank (default 100)."),
    )
    rounds: Whole = Field(4, ge=1, le=10, title=N_("Rounds"), description=N_("The game has four rounds."))

    @model_validator(mode="before")
    @classmethod
    def _forget_language(cls, data: Any) -> Any:
        if isinstance(data, dict) and "language" in data:
            data = {key: value for key, value in data.items() if key != "language"}
        return data

    @model_validator(mode="after")
    def deck_is_sound(self) -> "KartenspielOptions":
        try:
            high = parse_values(self.high_values)
        except NotAValue:
            raise ValueError(N_("The high values must be whole numbers separated by commas or spaces")) from None
        low, top = HIGH_VALUE_RANGE
        if any(not low <= value <= top for value in high):
            raise ValueError(N_("The high values must lie between 11 and 15"))
        if len(set(high)) != len(high):
            raise ValueError(N_("Each high value is a single card, so list it only once"))
        self.high_values = ",".join(str(value) for value in sorted(high))
        romans = len(LOW_VALUES) * LOW_COPIES - (1 if self.short_value else 0) + len(high)
        if romans != ROMAN_COUNT:
            raise ValueError(N_(
                "The deck holds 44 Romans: use four high values, or five with one low value "
                "of only three cards"
            ))
        deck_values = set(LOW_VALUES) | set(high)
        taken: set[int] = set()
        for rank in RANKS:
            value = getattr(self, rank)
            if value is None:
                continue
            if value not in deck_values:
                raise ValueError(NOT_IN_DECK[rank])
            if value in taken:
                raise ValueError(N_("Two ranks cannot be worth the same value"))
            taken.add(value)
        return self

    def deck(self) -> dict[str, int]:
        """How many Romans of each value the deck holds."""
        counts = {str(value): LOW_COPIES for value in LOW_VALUES}
        if self.short_value:
            counts[str(self.short_value)] -= 1
        for value in parse_values(self.high_values):
            counts[str(value)] = 1
        return counts
