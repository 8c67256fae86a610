"""Free taps: what a location, a helper card, the potion die or a task's reward grants, and
the face-up task card copied in.

What the cards say exactly is not known to the app, so each gain is its own tap that costs no
action, made for whichever player it concerns (a reward may go to someone whose turn it is
not); the app refuses only what the components make impossible (an empty supply, an empty
draw pile, a fresh potion)."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError, Whole
from ..text import Sentence, plural_sentence
from . import gains
from .board import loc_name, player, who
from .components import (
    HELPER_CARDS_PER_CHARACTER, INGREDIENT_NAMES, INGREDIENTS, LOCATION_COUNT, MAX_QUANTITY,
    SUPPLY_PER_INGREDIENT, Ingredient, amount, extra_draws, joined,
)


class TakeIngredients(Action):
    """Take ingredients from the general supply (no action of its own)."""

    type: Literal["take_ingredients"] = "take_ingredients"
    player: Optional[str] = Field(None, description="Empty: the player whose turn it is.")
    mistletoe: Whole = Field(0, ge=0, le=SUPPLY_PER_INGREDIENT)
    strawberries: Whole = Field(0, ge=0, le=SUPPLY_PER_INGREDIENT)
    fish: Whole = Field(0, ge=0, le=SUPPLY_PER_INGREDIENT)


class DrawHelpers(Action):
    """Draw helper cards from the player's own draw pile (Asterix draws one more)."""

    type: Literal["draw_helpers"] = "draw_helpers"
    player: Optional[str] = Field(None, description="Empty: the player whose turn it is.")
    count: Whole = Field(1, ge=1, le=HELPER_CARDS_PER_CHARACTER)


class RemoveMishap(Action):
    """Take a mishap marker off a location and put it back into the bag."""

    type: Literal["remove_mishap"] = "remove_mishap"
    location: Whole = Field(ge=1, le=LOCATION_COUNT, description="The location card's number.")
    slot: Optional[Whole] = Field(None, ge=1, le=2, description="Empty: either covered space.")


class RefillPotion(Action):
    """Turn a player's used magic potion back to its fresh side."""

    type: Literal["refill_potion"] = "refill_potion"
    player: Optional[str] = Field(None, description="Empty: the player whose turn it is.")


class EndGain(Action):
    """Nothing more is taken of what a location, the die or a reward gave (one may always
    take less than a card offers)."""

    type: Literal["end_gain"] = "end_gain"


class EnterTask(Action):
    """Copy the face-up task card: its three sub-tasks in order and its reward."""

    type: Literal["enter_task"] = "enter_task"
    first_ingredient: Ingredient
    first_quantity: Whole = Field(ge=1, le=MAX_QUANTITY)
    second_ingredient: Ingredient
    second_quantity: Whole = Field(ge=1, le=MAX_QUANTITY)
    third_ingredient: Ingredient
    third_quantity: Whole = Field(ge=1, le=MAX_QUANTITY)
    title: Optional[str] = Field(None, max_length=60, description="The card's title.")
    reward: Optional[str] = Field(None, max_length=120, description="The reward, as a note.")


# -- checks: a gain is offered only while the components allow one for somebody ----------------
def supply_left(game, state: dict) -> str | None:
    if not any(state["supply"].values()):
        return Sentence("The supply is empty until a sub-task brings ingredients back.")
    return None


def draw_pile_left(game, state: dict) -> str | None:
    if not any(state["draw_piles"][seat["character"]] for seat in state["seats"].values()):
        return Sentence("Every draw pile is empty; played helper cards are not shuffled back.")
    return None


def marker_on_ring(game, state: dict) -> str | None:
    if not any(any(location["covered"]) for location in state["locations"]):
        return Sentence("No mishap marker lies on a location.")
    return None


def potion_used(game, state: dict) -> str | None:
    if all(seat["potion_fresh"] for seat in state["seats"].values()
           if seat["character"] != "obelix"):
        return Sentence("Every magic potion is still fresh; there is nothing to refill.")
    return None


# -- seats: a free tap waits while the turn player enters their own gain -------------------------
def take_seat(game, state: dict, seat: str | None) -> str | None:
    """At the set-up each seat takes its own starting ingredients, once; in a turn, as any
    free tap."""
    if state["phase"] == "setup":
        mine = state["seats"].get(seat) if seat else None
        if mine and mine.get("stocked"):
            return Sentence("You have taken your starting ingredients; undo to change them.")
        return None
    return gains.why_waiting(state, seat)


def tap_seat(game, state: dict, seat: str | None) -> str | None:
    return gains.why_waiting(state, seat)


# -- rules --------------------------------------------------------------------------------------
def _tap_player(state: dict, named: str | None, actor: str | None) -> str:
    """The player a free tap concerns: the one named, else the player whose turn it is, else
    (at the set-up) the seat making it."""
    if named:
        return player(state, named)
    if state["turn"] is not None:
        return state["turn"]["player"]
    if actor is not None:
        return actor
    raise GameError(Sentence("Name the player this concerns."))


def take_ingredients(game, state: dict, action: TakeIngredients, actor: str | None) -> str:
    name = _tap_player(state, action.player, actor)
    wanted = {i: getattr(action, i) for i in INGREDIENTS}
    if not any(wanted.values()):
        raise GameError(Sentence("Choose at least one ingredient to take."))
    for ingredient, count in wanted.items():
        left = state["supply"][ingredient]
        if count and left == 0:
            raise GameError(Sentence(
                "The supply has no %(ingredient)s left until a sub-task brings some back.",
                ingredient=INGREDIENT_NAMES[ingredient]))
        if count > left:
            raise GameError(Sentence("The supply has only %(amount)s left.",
                                     amount=amount(ingredient, left)))
    if state["phase"] == "setup":
        own_starting_stock(state, name, actor)
    for ingredient, count in wanted.items():
        state["supply"][ingredient] -= count
        state["seats"][name]["ingredients"][ingredient] += count
    gains.took(state)
    taken = [amount(ingredient, count) for ingredient, count in wanted.items() if count]
    return Sentence("%(player)s took %(items)s from the supply.", player=who(state, name),
                    items=joined(taken))


def own_starting_stock(state: dict, name: str, actor: str | None) -> None:
    """The starting ingredients are each player's own, taken on their own phone."""
    if actor is not None and actor != name:
        raise GameError(Sentence("%(player)s takes the starting ingredients on their own "
                                 "phone.", player=name))
    state["seats"][name]["stocked"] = True


def draw_helpers(game, state: dict, action: DrawHelpers, actor: str | None) -> str:
    name = _tap_player(state, action.player, actor)
    seat = state["seats"][name]
    character = seat["character"]
    pile = state["draw_piles"][character]
    if pile == 0:
        raise GameError(Sentence("%(player)s's draw pile is empty; played helper cards are not "
                                 "shuffled back.", player=name))
    drawn = min(pile, action.count + extra_draws(character))
    state["draw_piles"][character] -= drawn
    seat["hand"][character] += drawn
    gains.took(state)
    return plural_sentence("%(player)s drew %(count)s helper card.",
                           "%(player)s drew %(count)s helper cards.", drawn,
                           player=who(state, name))


def remove_mishap(game, state: dict, action: RemoveMishap, actor: str | None) -> str:
    location = state["locations"][action.location - 1]
    slots = [action.slot - 1] if action.slot else [0, 1]
    covered = [i for i in slots if location["covered"][i]]
    place = loc_name(state, action.location)
    if not covered:
        if action.slot:
            raise GameError(Sentence("There is no mishap marker on space %(slot)s of the "
                                     "%(place)s.", slot=action.slot, place=place))
        raise GameError(Sentence("There is no mishap marker on the %(place)s.", place=place))
    location["covered"][covered[0]] = False
    state["bag"][location["symbols"][covered[0]]] += 1
    gains.took(state)
    return Sentence("A mishap marker was taken off the %(place)s and put back into the bag.",
                    place=place)


def refill_potion(game, state: dict, action: RefillPotion, actor: str | None) -> str:
    name = _tap_player(state, action.player, actor)
    seat = state["seats"][name]
    if seat["character"] == "obelix":
        raise GameError(Sentence("Obelix has roast boars, and a gnawed bone cannot be "
                                 "refilled."))
    if seat["potion_fresh"]:
        raise GameError(Sentence("%(player)s's magic potion is still fresh.", player=name))
    seat["potion_fresh"] = True
    gains.took(state)
    return Sentence("%(player)s refilled the magic potion.", player=who(state, name))


def end_gain(game, state: dict, action: EndGain, actor: str | None) -> str:
    gain = gains.due(state)
    gains.passed(state)
    if gain["from"] == "location":
        return Sentence("%(player)s took nothing more from the %(place)s.",
                        player=who(state, None), place=loc_name(state, gain["location"]))
    if gain["from"] == "potion":
        return Sentence("%(player)s took nothing more from the potion die.",
                        player=who(state, None))
    return Sentence("Nothing more was taken of the task's reward.")


def no_task_face_up(game, state: dict) -> str | None:
    if state["tasks"]["current"] is not None:
        return Sentence("The face-up task is already entered; undo its entry to correct it.")
    return None


def enter_task(game, state: dict, action: EnterTask, actor: str | None) -> str:
    subtasks = [
        {"ingredient": action.first_ingredient, "quantity": action.first_quantity},
        {"ingredient": action.second_ingredient, "quantity": action.second_quantity},
        {"ingredient": action.third_ingredient, "quantity": action.third_quantity},
    ]
    title = (action.title or "").strip()
    state["tasks"]["current"] = {"title": title, "reward": (action.reward or "").strip(),
                                 "subtasks": subtasks}
    state["tasks"]["covered"] = 0
    if (gains.due(state) or {}).get("from") == "reward":
        gains.passed(state)  # the next card is up: the reward's moment is over
    first, second, third = (amount(sub["ingredient"], sub["quantity"]) for sub in subtasks)
    if title:
        return Sentence("The task '%(title)s' was turned up: %(first)s, then %(second)s, then "
                        "%(third)s.", title=title, first=first, second=second, third=third)
    return Sentence("The task was turned up: %(first)s, then %(second)s, then %(third)s.",
                    first=first, second=second, third=third)
