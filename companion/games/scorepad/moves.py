"""The score pad's moves: what a player may write on the sheet, and what it does."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Action, GameError, Whole, no_such_player
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


class TakeBack(Action):
    """Take back the seat's own last entry, when other entries came after it (an undo would
    take back theirs): the cell reads again what it read before, as a new entry of the log."""

    type: Literal["take_back"] = "take_back"
    player: str = Field(description="The player whose cell the entry wrote.")
    round: Whole = Field(ge=1, le=MAX_ROUNDS, description="The round of that cell.")


class FinishGame(Action):
    """End the game now and show the winner."""

    type: Literal["finish_game"] = "finish_game"


def enter_score(game, state: dict, action: EnterScore, actor: str | None) -> Sentence:
    if action.player not in state["players"]:
        raise no_such_player(action.player)
    planned = state["rounds"]
    if planned is not None and action.round > planned:
        raise GameError(plural_sentence("This game has %(count)s round; there is no round %(round)s.",
                                        "This game has %(count)s rounds; there is no round %(round)s.",
                                        planned, round=action.round))
    cells = state["entries"][action.player]
    before = cells.get(str(action.round))
    count = abs(action.points)  # the plural follows the points' size: "-1 point", "2 points"
    cells[str(action.round)] = action.points
    # Writing what a cell holds changes nothing, so the table service records nothing.
    if actor and before != action.points:  # what this seat may take back later (take_back)
        state.setdefault("last_entries", {})[actor] = {
            "player": action.player, "round": action.round, "points": action.points,
            "before": before}
    if planned is not None and all(str(planned) in state["entries"][n] for n in state["players"]):
        state["finished"] = True
    return _entry_sentence(actor, action.player, action.round, before, action.points, count)


def _entry_sentence(actor: str | None, player: str, round_: int, before: int | None,
                    points: int, count: int) -> Sentence:
    """The log's line for a cell written: by its own player, another seat or the host."""
    fields = {"player": player, "round": round_, "points": points}
    if before is None:
        if actor == player:
            return plural_sentence("%(player)s wrote down %(points)s point in round %(round)s.",
                                   "%(player)s wrote down %(points)s points in round %(round)s.",
                                   count, **fields)
        if actor:
            return plural_sentence("%(actor)s wrote %(points)s point for %(player)s in round %(round)s.",
                                   "%(actor)s wrote %(points)s points for %(player)s in round %(round)s.",
                                   count, actor=actor, **fields)
        return plural_sentence("The host wrote %(points)s point for %(player)s in round %(round)s.",
                               "The host wrote %(points)s points for %(player)s in round %(round)s.",
                               count, **fields)
    if actor == player:
        return plural_sentence(
            "%(player)s changed their round %(round)s from %(before)s to %(points)s point.",
            "%(player)s changed their round %(round)s from %(before)s to %(points)s points.",
            count, before=before, **fields)
    if actor:
        return plural_sentence(
            "%(actor)s changed %(player)s's round %(round)s from %(before)s to %(points)s point.",
            "%(actor)s changed %(player)s's round %(round)s from %(before)s to %(points)s points.",
            count, actor=actor, before=before, **fields)
    return plural_sentence(
        "The host changed %(player)s's round %(round)s from %(before)s to %(points)s point.",
        "The host changed %(player)s's round %(round)s from %(before)s to %(points)s points.",
        count, before=before, **fields)


def has_own_entry(game, state: dict, seat: str | None) -> Sentence | None:
    """A seat takes back only its own last entry, and only while its cell still reads it."""
    if seat not in game.view_own_entries(state):
        return Sentence("You have no entry of your own to take back.")
    return None


def take_back(game, state: dict, action: TakeBack, actor: str | None) -> Sentence:
    own = state.get("last_entries", {}).get(actor) if actor else None
    if own is None or (own["player"], own["round"]) != (action.player, action.round):
        raise GameError(Sentence("There is no entry of yours in %(player)s's round %(round)s "
                                 "to take back.", player=action.player, round=action.round))
    cells = state["entries"][action.player]
    now = cells.get(str(action.round))
    if now != own["points"]:
        raise GameError(Sentence("%(player)s's round %(round)s was changed since your entry: "
                                 "it reads %(now)s now.", player=action.player,
                                 round=action.round, now="–" if now is None else now))
    if own["before"] is None:
        del cells[str(action.round)]
    else:
        cells[str(action.round)] = own["before"]
    del state["last_entries"][actor]
    if state["rounds"] is not None:  # a planned game that ended with this cell goes on
        state["finished"] = all(str(state["rounds"]) in state["entries"][n]
                                for n in state["players"])
    if own["before"] is None:
        return Sentence("%(actor)s took back %(points)s for %(player)s in round %(round)s.",
                        actor=actor, points=own["points"], player=action.player,
                        round=action.round)
    return Sentence("%(actor)s took back %(points)s for %(player)s in round %(round)s: "
                    "%(before)s again.", actor=actor, points=own["points"],
                    player=action.player, round=action.round, before=own["before"])


def finish_game(game, state: dict, action: FinishGame, actor: str | None) -> Sentence:
    state["finished"] = True
    if actor:
        return Sentence("%(actor)s finished the game.", actor=actor)
    return Sentence("The host finished the game.")


def can_finish(game, state: dict) -> Sentence | None:
    if not any(game.totals(state).values()) and not game.played_rounds(state):
        return Sentence("Nobody has scored yet; enter a score before finishing.")
    return None
