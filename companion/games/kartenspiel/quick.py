"""The quick score (POST /api/games/kartenspiel/score and its page): one round scored from
each player's final pile, with the default deck of 1–10 four times and 11–14 once."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..base import GameError, Whole, typed_by
from ..refusals import explain
from ..text import Name, Sentence, plural_sentence
from .cards import MAX_PLAYERS, MIN_PLAYERS, PIRATE_KINDS, PIRATE_LABELS, RANKS
from .options import KartenspielOptions
from .scoring import work_out_pile


class KartenspielBonus(BaseModel):
    """The set bonus table: keys are the set sizes "2", "3" and "4"."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    pair: Whole = Field(20, ge=0, le=1000, alias="2")
    three: Whole = Field(50, ge=0, le=1000, alias="3")
    four: Whole = Field(100, ge=0, le=1000, alias="4")


class KartenspielRanks(BaseModel):
    """The values of the ranks named by the rank pirates (null: unknown, removes nothing)."""

    model_config = ConfigDict(extra="forbid")

    dekurio: Whole | None = Field(None, ge=1, le=15)
    zenturio: Whole | None = Field(10, ge=1, le=15)
    general: Whole | None = Field(None, ge=1, le=15)


class KartenspielPile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    romans: list[Whole] = Field(default_factory=list, description="The values of the Romans won.")
    pirates: list[Any] = Field(
        default_factory=list,
        description='Pirate kinds: "highest", "lowest", "choice" (the cheapest escape), '
        '{"choice": value}, "dekurio", "zenturio", "general".',
    )


class KartenspielScoreRequest(BaseModel):
    """One round of Das Kartenspiel to score: each player's Romans and pirates."""

    model_config = ConfigDict(extra="forbid")

    # The bounds said in the document too; the server's own check names the count sent.
    players: list[KartenspielPile] = Field(json_schema_extra={
        "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
        "description": f"{MIN_PLAYERS} to {MAX_PLAYERS} piles, one per player."})
    bonus: KartenspielBonus | None = None
    ranks: KartenspielRanks | None = None


# The OpenAPI document names schemas by class name, so this one carries the game's name.
QuickScoreRequest = KartenspielScoreRequest


def _read_pirate(player: str, pirate: Any) -> tuple[str, int | None]:
    """A pirate entry as (kind, named value); refuses unknown kinds with a sentence."""
    if isinstance(pirate, str) and pirate in PIRATE_KINDS:
        return pirate, None
    if (
        isinstance(pirate, dict)
        and list(pirate) == ["choice"]
        and isinstance(pirate["choice"], int)
        and not isinstance(pirate["choice"], bool)
    ):
        return "choice", pirate["choice"]
    shown = repr(pirate) if not isinstance(pirate, str) else f"'{pirate}'"
    raise GameError(Sentence(
        "%(player)s has a pirate %(shown)s of no known kind; use highest, lowest, choice, "
        '{"choice": value}, dekurio, zenturio or general.',
        player=player, shown=shown,
    ))


def _check_piles_fit_the_deck(request: KartenspielScoreRequest) -> dict[str, list[tuple[str, int | None]]]:
    """Refuse piles the default deck cannot hold; return each player's pirates as read."""
    count = len(request.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise GameError(Sentence("%(game)s is scored for %(least)s to %(most)s players, not %(count)s.",
                                 game=Name("Asterix: Das Kartenspiel"), least=MIN_PLAYERS,
                                 most=MAX_PLAYERS, count=count))
    names = [player.name for player in request.players]
    for name in names:
        if names.count(name) > 1:
            raise GameError(Sentence("Two players are called %(player)s; give each a different name.",
                                     player=name))
    deck = KartenspielOptions().deck()
    known = ", ".join(sorted(deck, key=int))
    in_piles: dict[str, int] = {}
    for player in request.players:
        for value in player.romans:
            if str(value) not in deck:
                raise GameError(Sentence(
                    "%(player)s has a Roman worth %(value)s, but the deck has no such card (values %(known)s).",
                    player=player.name, value=value, known=known,
                ))
            in_piles[str(value)] = in_piles.get(str(value), 0) + 1
    for value, held in sorted(in_piles.items(), key=lambda item: int(item[0])):
        if held > deck[value]:
            raise GameError(plural_sentence(
                "The deck holds %(count)s Roman worth %(value)s, but the piles have %(held)s.",
                "The deck holds %(count)s Romans worth %(value)s, but the piles have %(held)s.",
                deck[value], value=value, held=held,
            ))
    pirate_count = sum(len(player.pirates) for player in request.players)
    if pirate_count > len(PIRATE_KINDS):
        raise GameError(Sentence("The deck has %(deck)s pirates, but the piles have %(held)s.",
                                 deck=len(PIRATE_KINDS), held=pirate_count))
    read = {player.name: [_read_pirate(player.name, p) for p in player.pirates] for player in request.players}
    owners: dict[str, str] = {}
    for name, pirates in read.items():
        for kind, _ in pirates:
            if kind in owners:
                raise GameError(
                    Sentence("The deck has one pirate where %(label)s, but both %(first)s and %(second)s have it.",
                             label=PIRATE_LABELS[kind], first=owners[kind], second=name)
                    if owners[kind] != name
                    else Sentence("The deck has one pirate where %(label)s, but %(player)s has it twice.",
                                  label=PIRATE_LABELS[kind], player=name)
                )
            owners[kind] = name
    return read


def quick_score(payload: dict) -> dict:
    """Score one round from each player's Romans and pirates, with the default deck 1–10 ×4, 11–14.

    Returns ``{"players": [{"name", "kept", "escaped", "points", "bonus", "total"}]}`` in the
    order given; raises :class:`GameError` with a sentence for anything the deck cannot hold.
    """
    try:
        request = KartenspielScoreRequest.model_validate(payload, context=typed_by(payload))
    except ValidationError as exc:
        raise GameError(explain(exc)) from None
    read = _check_piles_fit_the_deck(request)
    bonus_table = request.bonus or KartenspielBonus()
    bonus = {"2": bonus_table.pair, "3": bonus_table.three, "4": bonus_table.four}
    rank_table = request.ranks or KartenspielRanks()
    ranks = {rank: getattr(rank_table, rank) for rank in RANKS}
    results = []
    for player in request.players:
        kinds = [kind for kind, _ in read[player.name]]
        named = next((value for kind, value in read[player.name] if kind == "choice"), None)
        if named is not None and named not in player.romans:
            raise GameError(Sentence("%(player)s's pirate of choice names %(value)s, but that pile has no %(value)s.",
                                     player=player.name, value=named))
        working = work_out_pile(player.romans, kinds, ranks, bonus, named)
        if working["choice_fell_back"]:
            raise GameError(Sentence(
                "%(player)s's pirate of choice names %(value)s, but the other pirates already take "
                "every %(value)s in that pile.",
                player=player.name, value=named,
            ))
        results.append(
            {
                "name": player.name,
                "kept": working["kept"],
                "escaped": working["escaped"],
                "points": working["points"],
                "bonus": working["bonus"],
                "total": working["total"],
            }
        )
    return {"players": results}
