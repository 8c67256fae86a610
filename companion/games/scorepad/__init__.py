"""The score pad: a paper score sheet for any game and any house rule."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Action, Game, GameError, Options, Whole

MAX_ROUNDS = 200
MAX_POINTS = 1_000_000


class ScorePadOptions(Options):
    winning: Literal["highest", "lowest"] = Field(
        "highest", title="Who wins",
        json_schema_extra={"choice_labels": {"highest": "The highest total wins",
                                             "lowest": "The lowest total wins (golf, Hearts…)"}},
    )
    rounds: int | None = Field(
        None,
        ge=1,
        le=MAX_ROUNDS,
        title="Number of rounds (optional)",
        description="The game ends when every player has a score for the last round. "
        "Leave empty to play until someone taps 'Finish the game'.",
    )


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


class ScorePad(Game):
    id = "scorepad"
    name = "Score pad"
    summary = "A shared score sheet for any game: rounds, totals, highest or lowest wins."
    min_players = 1
    max_players = 12
    options_model = ScorePadOptions
    actions = (EnterScore, FinishGame)
    regions = ("scoresheet",)

    def initial_state(self, players: list[str], options: ScorePadOptions) -> dict:
        return {
            "players": list(players),
            "winning": options.winning,
            "rounds": options.rounds,
            "entries": {name: {} for name in players},
            "finished": False,
        }

    def apply(self, state: dict, action: Action, actor: str | None) -> dict:
        if state["finished"]:
            raise GameError("The game is over; undo the finish to change scores.")
        new = self.copy(state)
        if isinstance(action, EnterScore):
            if action.player not in state["players"]:
                raise GameError(f"There is no player called '{action.player}' at this table.")
            planned = state["rounds"]
            if planned is not None and action.round > planned:
                raise GameError(f"This game has {planned} rounds; there is no round {action.round}.")
            new["entries"][action.player][str(action.round)] = action.points
            if planned is not None and all(
                str(planned) in new["entries"][name] for name in new["players"]
            ):
                new["finished"] = True
        elif isinstance(action, FinishGame):
            if not any(self.totals(state).values()) and not self.played_rounds(state):
                raise GameError("Nobody has scored yet; enter a score before finishing.")
            new["finished"] = True
        return new

    def describe(self, state: dict, action: Action, actor: str | None) -> str:
        who = actor or "The host"
        if isinstance(action, EnterScore):
            before = state["entries"].get(action.player, {}).get(str(action.round))
            points = f"{action.points} point{'s' if abs(action.points) != 1 else ''}"
            if before is None:
                return f"{who} wrote {points} for {action.player} in round {action.round}."
            return (
                f"{who} changed {action.player}'s round {action.round} "
                f"from {before} to {points}."
            )
        return f"{who} finished the game."

    # -- derived ---------------------------------------------------------------
    @staticmethod
    def played_rounds(state: dict) -> int:
        rounds = [int(r) for cells in state["entries"].values() for r in cells]
        return max(rounds, default=0)

    @staticmethod
    def totals(state: dict) -> dict[str, int]:
        return {name: sum(state["entries"][name].values()) for name in state["players"]}

    def scores(self, state: dict) -> dict[str, int]:
        return self.totals(state)

    def winners(self, state: dict) -> list[str]:
        if not state["finished"]:
            return []
        return self.best(self.totals(state), highest=state["winning"] == "highest")

    def status(self, state: dict) -> str:
        winners = self.winners(state)
        if winners:
            if len(winners) == 1:
                return f"{winners[0]} wins!"
            return "A tie: " + " and ".join(winners) + " share the win."
        rounds = self.played_rounds(state)
        goal = "highest" if state["winning"] == "highest" else "lowest"
        planned = f" of {state['rounds']}" if state["rounds"] else ""
        return f"Round {max(rounds, 1)}{planned} · {goal} total wins"

    def view(self, state: dict) -> dict:
        players = state["players"]
        shown = max(self.played_rounds(state), 1)
        if state["rounds"]:
            shown = state["rounds"]
        running = {name: 0 for name in players}
        rows = []
        for number in range(1, shown + 1):
            cells = []
            for name in players:
                points = state["entries"][name].get(str(number))
                running[name] += points or 0
                cells.append({"player": name, "points": points, "running": running[name]})
            rows.append({"round": number, "cells": cells})
        next_round = self.played_rounds(state) + 1
        if state["rounds"]:
            next_round = min(next_round, state["rounds"])
        # The next round to fill for each player: the first round they have no score for.
        next_for = {}
        for name in players:
            taken = state["entries"][name]
            number = 1
            while str(number) in taken:
                number += 1
            next_for[name] = min(number, state["rounds"] or MAX_ROUNDS)
        return {
            "rows": rows,
            "totals": self.totals(state),
            "next_round": next_round,
            "next_round_for": next_for,
            "max_round": state["rounds"] or MAX_ROUNDS,
        }
