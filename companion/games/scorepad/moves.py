"""The score pad's moves: what a player may write on the sheet, and what it does."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Action, GameError, Whole

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


def enter_score(game, state: dict, action: EnterScore, actor: str | None) -> str:
    if action.player not in state["players"]:
        raise GameError(f"There is no player called '{action.player}' at this table.")
    planned = state["rounds"]
    if planned is not None and action.round > planned:
        raise GameError(f"This game has {planned} rounds; there is no round {action.round}.")
    cells = state["entries"][action.player]
    before = cells.get(str(action.round))
    cells[str(action.round)] = action.points
    if planned is not None and all(str(planned) in state["entries"][n] for n in state["players"]):
        state["finished"] = True
    who = actor or "The host"
    points = f"{action.points} point{'s' if abs(action.points) != 1 else ''}"
    if before is None:
        return f"{who} wrote {points} for {action.player} in round {action.round}."
    return f"{who} changed {action.player}'s round {action.round} from {before} to {points}."


def finish_game(game, state: dict, action: FinishGame, actor: str | None) -> str:
    state["finished"] = True
    return f"{actor or 'The host'} finished the game."


def can_finish(game, state: dict) -> str | None:
    if not any(game.totals(state).values()) and not game.played_rounds(state):
        return "Nobody has scored yet; enter a score before finishing."
    return None
