"""The score pad: a paper score sheet for any game and any house rule."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Game, Move, Options
from .moves import MAX_ROUNDS, EnterScore, FinishGame, can_finish, enter_score, finish_game



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


class ScorePad(Game):
    id = "scorepad"
    name = "Score pad"
    summary = "A shared score sheet for any game: rounds, totals, highest or lowest wins."
    min_players = 1
    max_players = 12
    options_model = ScorePadOptions
    moves = (
        Move(EnterScore, enter_score),
        Move(FinishGame, finish_game, check=can_finish),
    )
    regions = ("scoresheet",)

    def initial_state(self, players: list[str], options: ScorePadOptions) -> dict:
        return {
            "players": list(players),
            "winning": options.winning,
            "rounds": options.rounds,
            "entries": {name: {} for name in players},
            "finished": False,
        }

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
