"""Mishap markers drawn from the bag and placed on the ring: two at the setup, one to end
every turn.

The bag is kept as 16 markers, 4 per symbol, each drawn marker counted by the symbol seen and
returned as the symbol of the space it lay on. The markers are two-sided and only the drawn side
is seen, so that split is bookkeeping, not a fact: a symbol whose count is 0 can still come out.
Such a draw is accepted (never refused, a real table must not be blocked) and counted against
the symbol with most markers left, which keeps the bag's total exact; the page says so."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError, Whole, enter_phase
from ..text import Sentence
from .board import bag_symbol_taken, legal_spaces, loc_name, roman_location
from .components import (
    LOCATION_COUNT, OPENING_MARKERS, SYMBOL_NAMES, UNPLACEABLE_PENALTY, Symbol,
)
from .scoring import step_roman
from .turn import next_turn


class DrawMishap(Action):
    """Say which symbol the marker just drawn from the bag shows."""

    type: Literal["draw_mishap"] = "draw_mishap"
    symbol: Symbol


class PlaceMishap(Action):
    """Put the drawn mishap marker on a free space with its symbol."""

    type: Literal["place_mishap"] = "place_mishap"
    location: Whole = Field(ge=1, le=LOCATION_COUNT, description="The location card's number.")
    slot: Optional[Whole] = Field(
        None, ge=1, le=2, description="Which of its two spaces; empty: the one that fits."
    )


def can_draw(game, state: dict) -> str | None:
    if state["drawn"] is not None:
        return Sentence("The %(symbol)s marker drawn before must be placed first.",
                        symbol=SYMBOL_NAMES[state["drawn"]])
    if state["phase"] == "setup" and state["opening_placed"] >= OPENING_MARKERS:
        return Sentence("Both opening mishap markers are placed; begin play now.")
    if sum(state["bag"].values()) == 0:
        return Sentence("The bag is empty: every mishap marker lies on a location.")
    return None


def marker_waiting(game, state: dict) -> str | None:
    """A marker is placed whenever one has been drawn: at the setup or to end a turn."""
    if state["drawn"] is None:
        return Sentence("No mishap marker is waiting; draw one from the bag first.")
    return None


def draw_mishap(game, state: dict, action: DrawMishap, actor: str | None) -> Sentence:
    symbol = action.symbol
    shown = SYMBOL_NAMES[symbol]
    if legal_spaces(state, symbol):
        counted = bag_symbol_taken(state, symbol)
        state["bag"][counted] -= 1
        state["drawn"] = symbol
        if state["phase"] == "draw":
            enter_phase(state, "place")
        if counted != symbol:
            return Sentence("A %(symbol)s marker was drawn from the bag (the other side of a "
                            "marker counted as %(counted)s).", symbol=shown,
                            counted=SYMBOL_NAMES[counted])
        return Sentence("A %(symbol)s marker was drawn from the bag.", symbol=shown)
    # Nowhere to put it: the marker goes straight back into the bag.
    if state["phase"] == "setup":
        return Sentence("A %(symbol)s marker was drawn, fitted nowhere and went back into the "
                        "bag.", symbol=shown)
    step_roman(state, UNPLACEABLE_PENALTY)
    if not state["finished"]:
        next_turn(state)
    return Sentence("A %(symbol)s marker was drawn and fitted nowhere: back into the bag, and "
                    "the Roman marched %(steps)s spaces on.", symbol=shown,
                    steps=UNPLACEABLE_PENALTY)


def place_mishap(game, state: dict, action: PlaceMishap, actor: str | None) -> Sentence:
    symbol = state["drawn"]
    location = state["locations"][action.location - 1]
    place = loc_name(state, action.location)
    if action.location == roman_location(state):
        raise GameError(Sentence(
            "The Roman stands on the %(place)s; no mishap marker may go there.", place=place))
    slots = [action.slot - 1] if action.slot else [0, 1]
    if action.slot:
        shown = location["symbols"][action.slot - 1]
        if shown != symbol:
            raise GameError(Sentence(
                "Space %(slot)s of the %(place)s shows a %(shown)s, not a %(symbol)s.",
                slot=action.slot, place=place, shown=SYMBOL_NAMES[shown],
                symbol=SYMBOL_NAMES[symbol]))
        if location["covered"][action.slot - 1]:
            raise GameError(Sentence("Space %(slot)s of the %(place)s is already covered.",
                                     slot=action.slot, place=place))
    free = [i for i in slots if location["symbols"][i] == symbol and not location["covered"][i]]
    if not free:
        raise GameError(Sentence("The %(place)s has no free space with the %(symbol)s symbol.",
                                 place=place, symbol=SYMBOL_NAMES[symbol]))
    location["covered"][free[0]] = True
    state["drawn"] = None
    if state["phase"] == "setup":
        state["opening_placed"] += 1
    else:
        next_turn(state)
    return Sentence("The %(symbol)s marker was placed on the %(place)s.",
                    symbol=SYMBOL_NAMES[symbol], place=place)
