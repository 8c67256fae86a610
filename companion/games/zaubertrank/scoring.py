"""How the game ends: together on the last task, or lost when the Roman is back at his camp.

Mission Zaubertrank! keeps no points: everybody wins or everybody loses."""

from __future__ import annotations

from ..base import enter_phase
from ..text import Sentence, plural_sentence
from .board import spaces_to_camp


def finish(state: dict, result: str) -> None:
    """End the game: ``result`` is "won" or "lost"."""
    state["result"] = result
    state["finished"] = True
    enter_phase(state, "over")


def step_roman(state: dict, steps: int) -> None:
    """Move the Roman on; back at the camp the village has lost."""
    state["roman_steps"] = min(state["roman_steps"] + steps, state["lap_length"])
    if spaces_to_camp(state) <= 0:
        finish(state, "lost")


def task_completed(state: dict) -> None:
    """Count a finished task card; the last one wins the game."""
    tasks = state["tasks"]
    tasks["completed"] += 1
    if tasks["completed"] >= tasks["total"]:
        finish(state, "won")


def winners(state: dict) -> list[str]:
    """Everybody once the last task is completed; nobody while running or after a loss."""
    return list(state["players"]) if state["result"] == "won" else []


def result_line(state: dict) -> Sentence | None:
    """The status line of a finished game (None while it runs)."""
    if state["result"] == "won":
        return plural_sentence("%(count)s task completed: the village wins!",
                               "All %(count)s tasks completed: the village wins!",
                               state["tasks"]["total"])
    if state["result"] == "lost":
        return Sentence("The Roman is back at his camp: the village has lost.")
    return None
