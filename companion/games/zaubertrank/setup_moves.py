"""The setup, before anybody has the turn: characters, starting places, the start player.

(The two opening mishap markers are drawn and placed with the moves of mishaps.py, the starting
ingredients taken and the first task entered with the free taps of taps.py.)"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, Whole
from ..text import Sentence
from .board import loc_name, player, who
from .components import CHARACTER_NAMES, LOCATION_COUNT, OPENING_MARKERS, Character, fresh_seat
from .turn import new_turn


class ChooseCharacter(Action):
    """Give a player a character during setup; whoever had it takes the player's old one."""

    type: Literal["choose_character"] = "choose_character"
    player: str = Field(description="The player's name, as seated.")
    character: Character = Field(description="Asterix, Obelix, Getafix or Dogmatix.")


class PlaceFigure(Action):
    """Put a player's figure on its starting place during setup."""

    type: Literal["place_figure"] = "place_figure"
    player: str = Field(description="The player's name, as seated.")
    location: Optional[Whole] = Field(
        None, ge=1, le=LOCATION_COUNT,
        description="The location card's number; empty: the task stack.",
    )


class BeginPlay(Action):
    """End the setup and hand the bag to the starting player."""

    type: Literal["begin_play"] = "begin_play"
    starting_player: Optional[str] = Field(None, description="Empty: the first seated player.")


def choose_character(game, state: dict, action: ChooseCharacter, actor: str | None) -> str:
    name = player(state, action.player)
    old = state["seats"][name]["character"]
    # A swap keeps where each figure stands and what it holds; cards and potions are the
    # character's own, so they come fresh with it.
    for other, seat in state["seats"].items():
        if seat["character"] == action.character and other != name:
            state["seats"][other] = {**fresh_seat(old), "location": seat["location"],
                                     "ingredients": seat["ingredients"]}
    seat = state["seats"][name]
    state["seats"][name] = {**fresh_seat(action.character), "location": seat["location"],
                            "ingredients": seat["ingredients"]}
    return Sentence("%(player)s plays %(character)s.", player=name,
                    character=CHARACTER_NAMES[action.character])


def place_figure(game, state: dict, action: PlaceFigure, actor: str | None) -> str:
    name = player(state, action.player)
    state["seats"][name]["location"] = action.location
    if action.location is None:
        return Sentence("%(player)s starts at the task stack.", player=who(state, name))
    return Sentence("%(player)s starts at the %(place)s.", player=who(state, name),
                    place=loc_name(state, action.location))


def openings_placed(game, state: dict) -> str | None:
    if state["drawn"] is not None or state["opening_placed"] < OPENING_MARKERS:
        return Sentence("Place the two opening mishap markers before play begins.")
    return None


def begin_play(game, state: dict, action: BeginPlay, actor: str | None) -> str:
    starter = state["players"][0]
    if action.starting_player:
        starter = player(state, action.starting_player)
    state["phase"] = "actions"
    state["turn"] = new_turn(starter)
    return Sentence("Play began with %(player)s.", player=starter)
