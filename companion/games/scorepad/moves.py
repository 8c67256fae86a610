"""The score pad's moves: what a player may write on the sheet, and what it does."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Action, GameError, Whole
from ..text import Sentence, plural_sentence

MAX_ROUNDS = 200
MAX_POINTS = 1_000_000


class EnterScore(Action):
    """Write a player's points for a round; a second entry for the same cell replaces it."""

    type: Literal["enter_score"] = "enter_score"
    player: str = Field(description="The player's name, as seated.")
    round: Whole = Field(ge=1, le=MAX_ROUNDS, description="The round, counted from 1.")
    points: Whole = Field(
        ge=-MAX_POINTS, le=MAX_POINTS, description="Whole points; negative allowed."
    )


class FinishGame(Action):
    """End the game now and show the winner."""

    type: Literal["finish_game"] = "finish_game"


def enter_score(game, state: dict, action: EnterScore, actor: str | None) -> Sentence:
    if action.player not in state["players"]:
        raise GameError(Sentence("There is no player called '%(player)s' at this table.",
                                 player=action.player))
    planned = state["rounds"]
    if planned is not None and action.round > planned:
        raise GameError(plural_sentence("This game has %(count)s round; there is no round %(round)s.",
                                        "This game has %(count)s rounds; there is no round %(round)s.",
                                        planned, round=action.round))
    cells = state["entries"][action.player]
    before = cells.get(str(action.round))
    cells[str(action.round)] = action.points
    if planned is not None and all(str(planned) in state["entries"][n] for n in state["players"]):
        state["finished"] = True
    # The plural follows the points' size: "-1 point", "2 points" (count is the absolute value,
    # the number shown is the points as written).
    count = abs(action.points)
    if before is None:
        if actor:
            return plural_sentence("%(actor)s wrote %(points)s point for %(player)s in round %(round)s.",
                                   "%(actor)s wrote %(points)s points for %(player)s in round %(round)s.",
                                   count, actor=actor, points=action.points, player=action.player,
                                   round=action.round)
        return plural_sentence("The host wrote %(points)s point for %(player)s in round %(round)s.",
                               "The host wrote %(points)s points for %(player)s in round %(round)s.",
                               count, points=action.points, player=action.player, round=action.round)
    if actor:
        return plural_sentence(
            "%(actor)s changed %(player)s's round %(round)s from %(before)s to %(points)s point.",
            "%(actor)s changed %(player)s's round %(round)s from %(before)s to %(points)s points.",
            count, actor=actor, player=action.player, round=action.round, before=before,
            points=action.points)
    return plural_sentence(
        "The host changed %(player)s's round %(round)s from %(before)s to %(points)s point.",
        "The host changed %(player)s's round %(round)s from %(before)s to %(points)s points.",
        count, player=action.player, round=action.round, before=before, points=action.points)


def finish_game(game, state: dict, action: FinishGame, actor: str | None) -> Sentence:
    state["finished"] = True
    if actor:
        return Sentence("%(actor)s finished the game.", actor=actor)
    return Sentence("The host finished the game.")


def can_finish(game, state: dict) -> Sentence | None:
    if not any(game.totals(state).values()) and not game.played_rounds(state):
        return Sentence("Nobody has scored yet; enter a score before finishing.")
    return None
