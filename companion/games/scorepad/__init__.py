"""The score pad: a paper score sheet for any game and any house rule."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Game, Move, Options, Whole
from ..text import N_, Sentence
from .coach import coach, intro
from .moves import (MAX_ROUNDS, EnterScore, FinishGame, TakeBack, can_finish, enter_score,
                    finish_game, has_own_entry, take_back)


class ScorePadOptions(Options):
    winning: Literal["highest", "lowest"] = Field(
        "highest", title=N_("Who wins"),
        json_schema_extra={"choice_labels": {"highest": N_("The highest total wins"),
                                             "lowest": N_("The lowest total wins (golf, Hearts…)")}},
    )
    rounds: Whole | None = Field(
        None,
        ge=1,
        le=MAX_ROUNDS,
        title=N_("Number of rounds (optional)"),
        description=N_("The game ends when every player has a score for the last round. "
                       "Leave empty to play until someone taps 'Finish the game'."),
    )


class ScorePad(Game):
    id = "scorepad"
    name = N_("Score pad")
    summary = N_("A shared score sheet for any game: rounds, totals, highest or lowest wins.")
    min_players = 1
    max_players = 12
    options_model = ScorePadOptions
    moves = (
        # One cell of the sheet: players entering their own scores at once do not collide.
        Move(EnterScore, enter_score, scope=lambda action: frozenset({(action.player, action.round)})),
        Move(FinishGame, finish_game, check=can_finish),
        Move(TakeBack, take_back, seat_check=has_own_entry,
             scope=lambda action: frozenset({(action.player, action.round)})),
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

    @staticmethod
    def view_own_entries(state: dict) -> dict[str, dict]:
        """Each seat's own last entry that its cell still reads: the seat may take it back."""
        return {seat: entry for seat, entry in state.get("last_entries", {}).items()
                if state["entries"][entry["player"]].get(str(entry["round"])) == entry["points"]}

    def scores(self, state: dict) -> dict[str, int]:
        return self.totals(state)

    def winners(self, state: dict) -> list[str]:
        if not state["finished"]:
            return []
        return self.best(self.totals(state), highest=state["winning"] == "highest")

    def coach(self, state: dict):
        return coach(state)

    def intro(self, state: dict):
        return intro(state)

    def status(self, state: dict) -> Sentence:
        winners = self.winners(state)
        if winners:
            if len(winners) == 1:
                return Sentence("%(player)s wins!", player=winners[0])
            return Sentence("A tie: %(players)s share the win.", players=", ".join(winners))
        rounds = max(self.played_rounds(state), 1)
        if state["winning"] == "highest":
            if state["rounds"]:
                return Sentence("Round %(round)d of %(rounds)d · highest total wins",
                                round=rounds, rounds=state["rounds"])
            return Sentence("Round %(round)d · highest total wins", round=rounds)
        if state["rounds"]:
            return Sentence("Round %(round)d of %(rounds)d · lowest total wins",
                            round=rounds, rounds=state["rounds"])
        return Sentence("Round %(round)d · lowest total wins", round=rounds)

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
            "last_entries": self.view_own_entries(state),
        }
