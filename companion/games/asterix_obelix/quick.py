"""The quick score: two secured piles typed in by hand, for a game played without tracking
(``POST /api/games/asterix-obelix/score`` and the quick-score page)."""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..base import GameError, Whole, typed_by
from ..refusals import explain
from ..text import Sentence, say
from .cards import COLOUR_LIST, COLOURS, LEGIONARIES_PER_COLOUR, PIRATE_COUNT, card_name, normal_colour
from .moves import ITEM_WORDS
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
    traitor: bool = Field(False, strict=True,
                          description="Whether this player secured the traitor.")


class QuickScoreRequest(BaseModel):
    """Both players' piles for scoring a game played without tracking."""

    model_config = ConfigDict(extra="forbid")

    # The bound said in the document too; check_piles names the count sent.
    players: list[QuickScorePile] = Field(description="Exactly two piles.",
                                          json_schema_extra={"minItems": 2, "maxItems": 2})

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
            raise _refused(Sentence("'%(raw)s' is not a legion colour; use %(colours)s (black is purple)",
                                    raw=str(raw)[:20], colours=COLOUR_LIST))
        if colour in named:
            raise _refused(Sentence("%(player)s's legionaries name purple twice (black is purple)",
                                    player=pile.name))
        named.add(colour)
        if count < 0:
            raise _refused(Sentence("%(player)s cannot have a negative number of %(item)s (%(count)s)",
                                    player=pile.name, item=ITEM_WORDS[f"legionary:{colour}"], count=count))
        counts[colour] = count
    return counts


def _normal_centurions(pile: QuickScorePile) -> list[str]:
    colours: list[str] = []
    for raw in pile.centurions:
        colour = normal_colour(raw)
        if colour not in COLOURS:
            raise _refused(Sentence("'%(raw)s' is not a legion colour; use %(colours)s (black is purple)",
                                    raw=str(raw)[:20], colours=COLOUR_LIST))
        if colour in colours:
            raise _refused(Sentence("%(player)s lists %(centurion)s twice, but there is only one",
                                    player=pile.name, centurion=card_name({"kind": "centurion", "colour": colour})))
        colours.append(colour)
    return colours


def _refused(sentence: Sentence) -> GameError:
    """Impossible piles: the sentence ends with a full stop, like every refusal."""
    return GameError(Sentence("%(problem)s.", problem=sentence))


def check_piles(players: list[QuickScorePile]) -> None:
    """Raise GameError with a sentence when two entered piles cannot come from one game."""
    if len(players) != 2:
        raise _refused(Sentence("Asterix & Obelix is scored for exactly two players, not %(count)s",
                                count=len(players)))
    names = [pile.name.strip() for pile in players]
    if not all(names):
        raise _refused(Sentence("Each player needs a name"))
    if names[0] == names[1]:
        raise _refused(Sentence("The two players need different names"))
    legionaries = [_normal_legionaries(pile) for pile in players]
    centurions = [_normal_centurions(pile) for pile in players]
    for pile in players:
        if pile.pirates < 0:
            raise _refused(Sentence("%(player)s cannot have a negative number of %(item)s (%(count)s)",
                                    player=pile.name, item=ITEM_WORDS["pirate"], count=pile.pirates))
    for colour in COLOURS:
        total = legionaries[0][colour] + legionaries[1][colour]
        if total > LEGIONARIES_PER_COLOUR:
            raise _refused(Sentence("There are only %(limit)s %(item)s, but the piles hold %(total)s between them",
                                    limit=LEGIONARIES_PER_COLOUR, item=ITEM_WORDS[f"legionary:{colour}"],
                                    total=total))
        if colour in centurions[0] and colour in centurions[1]:
            raise _refused(Sentence("There is only one %(centurion)s, but both %(first)s and %(second)s list it",
                                    centurion=ITEM_WORDS[f"centurion:{colour}"], first=names[0], second=names[1]))
    pirates = players[0].pirates + players[1].pirates
    if pirates > PIRATE_COUNT:
        raise _refused(Sentence("There are only %(limit)s %(item)s, but the piles hold %(total)s between them",
                                limit=PIRATE_COUNT, item=ITEM_WORDS["pirate"], total=pirates))
    if players[0].traitor and players[1].traitor:
        raise _refused(Sentence("There is only one traitor, but both %(first)s and %(second)s claim him",
                                first=names[0], second=names[1]))


def quick_score(payload: dict) -> dict:
    """Score two piles entered by hand (``POST /api/games/asterix-obelix/score``).

    Returns {"tokens", "points", "winners", "explanation"}; raises GameError with one
    sentence when the input is malformed or the piles are impossible (answer 422).
    """
    try:
        request = QuickScoreRequest.model_validate(payload, context=typed_by(payload))
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
    # Plain text in the asking phone's language (the API answers JSON; the page shows it as is).
    result["explanation"] = [say(sentence) for sentence in result["explanation"]]
    return {key: result[key] for key in ("tokens", "points", "winners", "explanation")}
