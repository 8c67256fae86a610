"""The turn: up to two moves and two actions by the player whose turn it is, then the Roman
steps on (the mishap draw that ends the turn is in mishaps.py).

Each rule changes the game's own copy of the state and returns the log sentence; each check
says why the move cannot be made now, or None. The checks hold every condition that needs
nothing but the state, so the page disables a control with the same sentence the rule would
refuse with; what depends on the tap's own fields stays in the rule."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError, Whole, enter_phase
from ..text import Sentence, plural_sentence
from . import gains
from .board import at_place, loc_name, player, who
from .components import (
    ACTIONS_PER_TURN, CHARACTER_NAMES, INGREDIENT_NAMES, LOCATION_COUNT, MOVES_PER_TURN,
    PASS_LIMIT, POTION_OUTCOMES, SUBTASKS_PER_TASK, Character, Ingredient, PotionOutcome,
    amount, joined, subtask_limit,
)
from .scoring import step_roman, task_completed


class MoveFigure(Action):
    """The player whose turn it is moves to a location card or to the task stack."""

    type: Literal["move"] = "move"
    location: Optional[Whole] = Field(
        None, ge=1, le=LOCATION_COUNT,
        description="The location card's number; empty: the task stack.",
    )


class UseLocation(Action):
    """Action: use the advantage of the location the player stands on."""

    type: Literal["use_location"] = "use_location"


class DrinkPotion(Action):
    """Action: drink the magic potion (Obelix gnaws a roast boar) and enter the die's result."""

    type: Literal["drink_potion"] = "drink_potion"
    outcome: PotionOutcome = Field(description="The result used.")
    other_roll: Optional[PotionOutcome] = Field(
        None, description="Getafix only: the second roll he did not pick."
    )


class PassItems(Action):
    """Action: hand up to two ingredients or helper cards to one other player."""

    type: Literal["pass_items"] = "pass_items"
    to_player: str = Field(description="Who receives.")
    ingredient: Optional[Ingredient] = None
    second_ingredient: Optional[Ingredient] = None
    card: Optional[Character] = Field(None, description="A helper card, named by whose it is.")
    second_card: Optional[Character] = Field(None, description="A second helper card.")


class PlayHelpers(Action):
    """Action: play one or two helper cards from the hand onto their owners' discard piles."""

    type: Literal["play_helpers"] = "play_helpers"
    card: Optional[Character] = Field(
        None, description="Whose card is played; empty: the player's own character's."
    )
    second_card: Optional[Character] = Field(
        None, description="Whose card is played second; empty: only one card."
    )


class CompleteSubtask(Action):
    """Action: deliver the next sub-task's ingredients at the task stack."""

    type: Literal["complete_subtask"] = "complete_subtask"


class AdvanceRoman(Action):
    """End the actions: the Roman steps one space along the timeline."""

    type: Literal["advance_roman"] = "advance_roman"


# -- whose turn -------------------------------------------------------------------------------
def new_turn(name: str, bag_from: str | None = None) -> dict:
    """A fresh turn; ``bag_from``: who handed the bag on (None: the first turn, or the host's
    hand-over)."""
    return {"player": name, "actions_used": 0, "moves_used": 0, "used_locations": [],
            "subtasks_done": 0, "potion_outcome": None, "gain": None, "bag_from": bag_from}


def next_turn(state: dict) -> None:
    """Hand the bag on: the next player clockwise (in seating order) begins a turn."""
    players = state["players"]
    handing = state["turn"]["player"]
    following = players[(players.index(handing) + 1) % len(players)]
    enter_phase(state, "actions")
    state["turn"] = new_turn(following, bag_from=handing)


def _on_turn(state: dict) -> tuple[str, dict]:
    """The player whose turn it is and their seat."""
    name = state["turn"]["player"]
    return name, state["seats"][name]


# -- checks: why a move cannot be made now ------------------------------------------------------
def _no_action_left(state: dict) -> str | None:
    turn = state["turn"]
    if turn["actions_used"] >= ACTIONS_PER_TURN:
        return Sentence("%(player)s has used both actions; move the Roman on to end them.",
                        player=turn["player"])
    return None


def can_move(game, state: dict) -> str | None:
    turn = state["turn"]
    if turn["moves_used"] >= MOVES_PER_TURN:
        return Sentence("%(player)s has already moved twice this turn.", player=turn["player"])
    return None


def can_use_location(game, state: dict) -> str | None:
    if reason := _no_action_left(state):
        return reason
    name, seat = _on_turn(state)
    where = seat["location"]
    if where is None:
        return Sentence("%(player)s stands at the task stack, not on a location.", player=name)
    location = state["locations"][where - 1]
    if all(location["covered"]):
        return Sentence("The %(place)s is shut: both of its mishap spaces are covered.",
                        place=loc_name(state, where))
    if where in state["turn"]["used_locations"]:
        return Sentence("The %(place)s was already used this turn.",
                        place=loc_name(state, where))
    return None


def can_drink(game, state: dict) -> str | None:
    if reason := _no_action_left(state):
        return reason
    name, seat = _on_turn(state)
    if seat["character"] == "obelix":
        if seat["roast_boars"] == 0:
            return Sentence("Obelix has gnawed all three roast boars already.")
    elif not seat["potion_fresh"]:
        return Sentence("%(player)s's magic potion is used; it must be refilled first.",
                        player=name)
    return None


def can_pass(game, state: dict) -> str | None:
    if reason := _no_action_left(state):
        return reason
    name, seat = _on_turn(state)
    if not any(other != name and state["seats"][other]["location"] == seat["location"]
               for other in state["players"]):
        return Sentence("Nobody else stands %(place)s: items are passed on the same location, "
                        "or both at the task stack.", place=at_place(state, seat["location"]))
    if not any(seat["ingredients"].values()) and not any(seat["hand"].values()):
        return Sentence("%(player)s holds nothing to pass: no ingredients, no helper cards.",
                        player=name)
    return None


def can_play(game, state: dict) -> str | None:
    if reason := _no_action_left(state):
        return reason
    name, seat = _on_turn(state)
    if not any(seat["hand"].values()):
        return Sentence("%(player)s holds no helper cards.", player=name)
    return None


def can_complete(game, state: dict) -> str | None:
    name, seat = _on_turn(state)
    tasks = state["tasks"]
    if seat["location"] is not None:
        return Sentence("%(player)s must stand at the task stack to complete a sub-task.",
                        player=name)
    if tasks["current"] is None:
        return Sentence("Enter the face-up task card's sub-tasks first.")
    if state["turn"]["subtasks_done"] >= subtask_limit(seat["character"]):
        if seat["character"] == "obelix":
            return Sentence("Obelix may complete at most two sub-tasks per turn.")
        return Sentence("Only one sub-task may be completed per turn (Obelix may do two).")
    subtask = tasks["current"]["subtasks"][tasks["covered"]]
    need, held = subtask["quantity"], seat["ingredients"][subtask["ingredient"]]
    if held < need:
        return Sentence("This sub-task needs %(need)s; %(player)s has %(held)s.",
                        need=amount(subtask["ingredient"], need), player=name, held=held)
    return _no_action_left(state)


# -- rules --------------------------------------------------------------------------------------
def move(game, state: dict, action: MoveFigure, actor: str | None) -> str:
    name, seat = _on_turn(state)
    if seat["location"] == action.location:
        raise GameError(Sentence("%(player)s is already %(place)s.", player=name,
                                 place=at_place(state, action.location)))
    seat["location"] = action.location
    state["turn"]["moves_used"] += 1
    gains.passed(state)
    if action.location is None:
        return Sentence("%(player)s moved to the task stack.", player=who(state, name))
    return Sentence("%(player)s moved to the %(place)s.", player=who(state, name),
                    place=loc_name(state, action.location))


def use_location(game, state: dict, action: UseLocation, actor: str | None) -> str:
    name, seat = _on_turn(state)
    state["turn"]["actions_used"] += 1
    state["turn"]["used_locations"].append(seat["location"])
    state["turn"]["gain"] = gains.location_gain(state, seat["location"])
    return Sentence("%(player)s used the %(place)s.", player=who(state, name),
                    place=loc_name(state, seat["location"]))


def drink_potion(game, state: dict, action: DrinkPotion, actor: str | None) -> str:
    name, seat = _on_turn(state)
    obelix = seat["character"] == "obelix"
    if action.other_roll is not None and seat["character"] != "getafix":
        raise GameError(Sentence("Only %(getafix)s rolls the potion die twice.",
                                 getafix=CHARACTER_NAMES["getafix"]))
    state["turn"]["actions_used"] += 1
    if obelix:
        seat["roast_boars"] -= 1
    else:
        seat["potion_fresh"] = False
    state["turn"]["potion_outcome"] = action.outcome
    state["turn"]["gain"] = gains.potion_gain(state, action.outcome)
    outcome = POTION_OUTCOMES[action.outcome]
    if obelix:
        return Sentence("%(player)s gnawed a roast boar: %(outcome)s.", player=who(state, name),
                        outcome=outcome)
    if action.other_roll:
        return Sentence("%(player)s drank the magic potion: %(outcome)s (the other roll: "
                        "%(other)s).", player=who(state, name), outcome=outcome,
                        other=POTION_OUTCOMES[action.other_roll])
    return Sentence("%(player)s drank the magic potion: %(outcome)s.", player=who(state, name),
                    outcome=outcome)


def pass_items(game, state: dict, action: PassItems, actor: str | None) -> str:
    giver, giving = _on_turn(state)
    receiver = player(state, action.to_player)
    if receiver == giver:
        raise GameError(Sentence("Items are passed to another player, not to oneself."))
    ingredients = [i for i in (action.ingredient, action.second_ingredient) if i]
    cards = [c for c in (action.card, action.second_card) if c]
    if not ingredients and not cards:
        raise GameError(Sentence("Choose at least one ingredient or helper card to pass."))
    if len(ingredients) + len(cards) > PASS_LIMIT:
        raise GameError(Sentence("At most two items in total may be passed in one action."))
    getting = state["seats"][receiver]
    if giving["location"] != getting["location"]:
        raise GameError(Sentence(
            "%(giver)s and %(receiver)s must stand on the same location, or both at the task "
            "stack, to pass items.", giver=giver, receiver=receiver))
    for ingredient in ingredients:
        if giving["ingredients"][ingredient] < ingredients.count(ingredient):
            raise GameError(Sentence("%(player)s has not enough %(ingredient)s to pass.",
                                     player=giver, ingredient=INGREDIENT_NAMES[ingredient]))
    for card in cards:
        if giving["hand"][card] < cards.count(card):
            raise GameError(Sentence(
                "%(player)s holds not enough %(character)s helper cards to pass.",
                player=giver, character=CHARACTER_NAMES[card]))
    state["turn"]["actions_used"] += 1
    gains.passed(state)
    for ingredient in ingredients:
        giving["ingredients"][ingredient] -= 1
        getting["ingredients"][ingredient] += 1
    for card in cards:
        giving["hand"][card] -= 1
        getting["hand"][card] += 1
    items = ([amount(i, 1) for i in ingredients]
             + [Sentence("a %(character)s card", character=CHARACTER_NAMES[c]) for c in cards])
    return Sentence("%(player)s passed %(items)s to %(receiver)s.", player=who(state, giver),
                    items=joined(items), receiver=receiver)


def play_helpers(game, state: dict, action: PlayHelpers, actor: str | None) -> str:
    name, seat = _on_turn(state)
    cards = [action.card or seat["character"]]
    if action.second_card:
        cards.append(action.second_card)
    for card in cards:
        if seat["hand"][card] < cards.count(card):
            raise GameError(Sentence("%(player)s holds not enough %(character)s helper cards.",
                                     player=name, character=CHARACTER_NAMES[card]))
    state["turn"]["actions_used"] += 1
    gains.passed(state)
    for card in cards:
        seat["hand"][card] -= 1
        state["discards"][card] += 1
    return plural_sentence("%(player)s played %(count)s helper card.",
                           "%(player)s played %(count)s helper cards.", len(cards),
                           player=who(state, name))


def complete_subtask(game, state: dict, action: CompleteSubtask, actor: str | None) -> str:
    name, seat = _on_turn(state)
    tasks = state["tasks"]
    subtask = tasks["current"]["subtasks"][tasks["covered"]]
    state["turn"]["actions_used"] += 1
    state["turn"]["subtasks_done"] += 1
    gains.passed(state)
    seat["ingredients"][subtask["ingredient"]] -= subtask["quantity"]
    state["supply"][subtask["ingredient"]] += subtask["quantity"]
    tasks["covered"] += 1
    delivered = amount(subtask["ingredient"], subtask["quantity"])
    if tasks["covered"] < SUBTASKS_PER_TASK:
        return Sentence("%(player)s delivered %(amount)s and placed a menhir.",
                        player=who(state, name), amount=delivered)
    # Third menhir placed: the reward is granted and the next card turned up.
    tasks["last_reward"] = tasks["current"]["reward"] or None
    tasks["current"] = None
    tasks["covered"] = 0
    task_completed(state)
    if not state["finished"]:
        state["turn"]["gain"] = gains.reward_gain(state)
    return Sentence("%(player)s delivered %(amount)s and completed the task.",
                    player=who(state, name), amount=delivered)


def advance_roman(game, state: dict, action: AdvanceRoman, actor: str | None) -> str:
    gains.passed(state)
    step_roman(state, 1)
    if not state["finished"]:
        enter_phase(state, "draw")
    return Sentence("The Roman marched one space on.")
