"""The setup, before anybody has the turn: characters, starting places, the start player.

(The two opening mishap markers are drawn and placed with the moves of mishaps.py, the starting
ingredients taken and the first task entered with the free taps of taps.py.)"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError, Whole, enter_phase
from ..text import Sentence
from .board import at_place, loc_name, player, who
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


def own_choice(state: dict, name: str, actor: str | None) -> None:
    """A player's character and start place are theirs: chosen on their own phone (or by the
    host's phone without a seat, or a script)."""
    if actor is not None and actor != name:
        raise GameError(Sentence("%(player)s chooses that on their own phone.", player=name))


def character_open(game, state: dict, seat: str | None) -> str | None:
    """A seat's character is chosen once; undoing the choice opens it again."""
    mine = state["seats"].get(seat) if seat else None
    if mine and mine.get("chosen"):
        return Sentence("You play %(character)s; undo your choice to change it.",
                        character=CHARACTER_NAMES[mine["character"]])
    return None


def place_open(game, state: dict, seat: str | None) -> str | None:
    """A seat sets its start place once, after its character (whose card shows the place)."""
    mine = state["seats"].get(seat) if seat else None
    if mine and not mine.get("chosen", True):
        return Sentence("Choose your character first: its card shows where your figure starts.")
    if mine and mine.get("placed"):
        return Sentence("Your figure starts %(place)s; undo to change it.",
                        place=at_place(state, mine["location"]))
    return None


def _moved_with(seat: dict, character: str) -> dict:
    """A seat given ``character``: its cards and potion come fresh with it; what it holds and
    what it chose stay, and an unplaced figure goes to the new character's usual start."""
    fresh = {**fresh_seat(character), "ingredients": seat["ingredients"],
             "chosen": seat.get("chosen", False), "placed": seat.get("placed", False),
             "stocked": seat.get("stocked", False)}
    if fresh["placed"]:
        fresh["location"] = seat["location"]
    return fresh


def choose_character(game, state: dict, action: ChooseCharacter, actor: str | None) -> str:
    name = player(state, action.player)
    own_choice(state, name, actor)
    old = state["seats"][name]["character"]
    for other, seat in state["seats"].items():
        if seat["character"] == action.character and other != name:
            if seat.get("chosen"):
                raise GameError(Sentence("%(player)s plays %(character)s already.",
                                         player=other,
                                         character=CHARACTER_NAMES[action.character]))
            # Not chosen yet: the other seat takes this player's old character.
            state["seats"][other] = _moved_with(seat, old)
    state["seats"][name] = {**_moved_with(state["seats"][name], action.character),
                            "chosen": True}
    return Sentence("%(player)s plays %(character)s.", player=name,
                    character=CHARACTER_NAMES[action.character])


def place_figure(game, state: dict, action: PlaceFigure, actor: str | None) -> str:
    name = player(state, action.player)
    own_choice(state, name, actor)
    seat = state["seats"][name]
    seat["location"] = action.location
    seat["placed"] = True
    if action.location is None:
        return Sentence("%(player)s starts at the task stack.", player=who(state, name))
    return Sentence("%(player)s starts at the %(place)s.", player=who(state, name),
                    place=loc_name(state, action.location))


# The set-up steps each player does on their own phone, in the rulebook's order, and the seat
# flag that says a player has done it.
OWN_STEPS = (("characters", "chosen"), ("places", "placed"), ("stock", "stocked"))


def waiting_for(state: dict, flag: str) -> list[str]:
    """The players who have not yet done the set-up step of ``flag``."""
    return [name for name in state["players"] if not state["seats"][name].get(flag, True)]


def setup_step(state: dict) -> str:
    """Where the set-up stands: the first task card, each player's own steps, the two
    opening markers, then the start player."""
    if state["drawn"] is None and state["tasks"]["current"] is None:
        return "task"
    for step, flag in OWN_STEPS:
        if waiting_for(state, flag):
            return step
    return "markers" if state["opening_placed"] < OPENING_MARKERS else "begin"


def openings_placed(game, state: dict) -> str | None:
    if state["drawn"] is not None or state["opening_placed"] < OPENING_MARKERS:
        return Sentence("Place the two opening mishap markers before play begins.")
    return None


def begin_play(game, state: dict, action: BeginPlay, actor: str | None) -> str:
    starter = state["players"][0]
    if action.starting_player:
        starter = player(state, action.starting_player)
    enter_phase(state, "actions")
    state["turn"] = new_turn(starter)
    return Sentence("Play began with %(player)s.", player=starter)
