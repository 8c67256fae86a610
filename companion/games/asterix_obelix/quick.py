"""The quick score: two secured piles typed in by hand, for a game played without tracking
(``POST /api/games/asterix-obelix/score`` and the quick-score page)."""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..base import GameError, Whole, explain
from .cards import COLOUR_LIST, COLOURS, LEGIONARIES_PER_COLOUR, PIRATE_COUNT, normal_colour
from .scoring import score_piles


class QuickScorePile(BaseModel):
    """One player's secured pile, entered by hand."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="The player's name.")
    legionaries: dict[str, Whole] = Field(
        default_factory=dict,
        description="Legionaries per colour (red, blue, yellow, green, purple; black = purple); "
        "missing colours count as 0.",
    )
    centurions: list[str] = Field(default_factory=list, description="The colours of the centurions held.")
    pirates: Whole = Field(0, description="Pirates secured (0–3).")
    traitor: bool = Field(False, description="Whether this player secured the traitor.")


class QuickScoreRequest(BaseModel):
    """Both players' piles for scoring a game played without tracking."""

    model_config = ConfigDict(extra="forbid")

    players: list[QuickScorePile] = Field(description="Exactly two piles.")

    @model_validator(mode="after")
    def _possible(self) -> "QuickScoreRequest":
        check_piles(self.players)
        return self


class QuickScoreResult(BaseModel):
    """The scoring: token holders (null: nobody), tokens per player, winners, reasons."""

    tokens: dict[str, Optional[str]]
    points: dict[str, int]
    winners: list[str]
    explanation: list[str]


def _normal_legionaries(pile: QuickScorePile) -> dict[str, int]:
    counts = {colour: 0 for colour in COLOURS}
    named: set[str] = set()
    for raw, count in pile.legionaries.items():
        colour = normal_colour(raw)
        if colour not in COLOURS:
            raise ValueError(f"'{raw}' is not a legion colour; use {COLOUR_LIST} (black is purple)")
        if colour in named:
            raise ValueError(f"{pile.name}'s legionaries name purple twice (black is purple)")
        named.add(colour)
        if count < 0:
            raise ValueError(f"{pile.name} cannot have a negative number of {colour} legionaries ({count})")
        counts[colour] = count
    return counts


def _normal_centurions(pile: QuickScorePile) -> list[str]:
    colours: list[str] = []
    for raw in pile.centurions:
        colour = normal_colour(raw)
        if colour not in COLOURS:
            raise ValueError(f"'{raw}' is not a legion colour; use {COLOUR_LIST} (black is purple)")
        if colour in colours:
            raise ValueError(f"{pile.name} lists the {colour} centurion twice, but there is only one")
        colours.append(colour)
    return colours


def check_piles(players: list[QuickScorePile]) -> None:
    """Raise ValueError with a sentence when two entered piles cannot come from one game."""
    if len(players) != 2:
        raise ValueError(f"Asterix & Obelix is scored for exactly two players, not {len(players)}")
    names = [pile.name.strip() for pile in players]
    if not all(names):
        raise ValueError("Each player needs a name")
    if names[0] == names[1]:
        raise ValueError("The two players need different names")
    legionaries = [_normal_legionaries(pile) for pile in players]
    centurions = [_normal_centurions(pile) for pile in players]
    for pile in players:
        if pile.pirates < 0:
            raise ValueError(f"{pile.name} cannot have a negative number of pirates ({pile.pirates})")
    for colour in COLOURS:
        total = legionaries[0][colour] + legionaries[1][colour]
        if total > LEGIONARIES_PER_COLOUR:
            raise ValueError(
                f"There are only {LEGIONARIES_PER_COLOUR} {colour} legionaries, "
                f"but the piles hold {total} between them"
            )
        if colour in centurions[0] and colour in centurions[1]:
            raise ValueError(
                f"There is only one {colour} centurion, but both {names[0]} and {names[1]} list it"
            )
    pirates = players[0].pirates + players[1].pirates
    if pirates > PIRATE_COUNT:
        raise ValueError(f"There are only {PIRATE_COUNT} pirates, but the piles hold {pirates} between them")
    if players[0].traitor and players[1].traitor:
        raise ValueError(f"There is only one traitor, but both {names[0]} and {names[1]} claim him")


def quick_score(payload: dict) -> dict:
    """Score two piles entered by hand (``POST /api/games/asterix-obelix/score``).

    Returns {"tokens", "points", "winners", "explanation"}; raises GameError with one
    sentence when the input is malformed or the piles are impossible (answer 422).
    """
    try:
        request = QuickScoreRequest.model_validate(payload)
    except ValidationError as exc:
        raise GameError(explain(exc)) from None
    piles = [
        {
            "name": pile.name.strip(),
            "legionaries": _normal_legionaries(pile),
            "centurions": _normal_centurions(pile),
            "pirates": pile.pirates,
            "traitor": pile.traitor,
        }
        for pile in request.players
    ]
    result = score_piles(piles)
    return {key: result[key] for key in ("tokens", "points", "winners", "explanation")}
