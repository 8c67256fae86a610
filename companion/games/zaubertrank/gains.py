"""What the turn has just earned and the table has still to take: a location's advantage, the
potion die's result or a finished task's reward.

The card texts are not known to the app, so a gain is entered with the free taps (taps.py).
The turn records it as due (``turn["gain"]``) until a free tap takes it or the turn goes on
without it, so the coach knows whether it was taken instead of guessing."""

from __future__ import annotations

from ..text import Sentence
from .board import loc_name
from .components import LOCATION_GAINS, POTION_OUTCOMES

# The free tap that takes each potion die result, and how many such taps it grants.
POTION_GAINS = {"ingredient_or_card": ("take_ingredients", 1),
                "two_ingredients": ("take_ingredients", 1),
                "three_ingredients": ("take_ingredients", 1),
                "remove_one_mishap": ("remove_mishap", 1),
                "remove_two_mishaps": ("remove_mishap", 2)}


def markers_on_ring(state: dict) -> int:
    return sum(sum(location["covered"]) for location in state["locations"])


def possible(state: dict, control: str | None, ingredient: str | None = None) -> bool:
    """Whether the components allow the free tap ``control`` for anybody now."""
    if control == "take_ingredients":
        return bool(state["supply"][ingredient] if ingredient else any(state["supply"].values()))
    if control == "draw_helpers":
        return any(state["draw_piles"][seat["character"]] for seat in state["seats"].values())
    if control == "remove_mishap":
        return markers_on_ring(state) > 0
    if control == "refill_potion":
        return any(not seat["potion_fresh"] for seat in state["seats"].values()
                   if seat["character"] != "obelix")
    return False


def _most(state: dict, control: str | None, most: int) -> int:
    """How many free taps of ``control`` the components allow, up to ``most``."""
    if control == "remove_mishap":
        return min(most, markers_on_ring(state))
    if control == "refill_potion":
        return min(most, sum(1 for seat in state["seats"].values()
                             if seat["character"] != "obelix" and not seat["potion_fresh"]))
    if control == "draw_helpers":
        return min(most, sum(1 for seat in state["seats"].values()
                             if state["draw_piles"][seat["character"]]))
    return most


def location_gain(state: dict, number: int) -> dict | None:
    """The advantage of location ``number`` as a gain due; None when nothing can be taken
    (its ingredient's supply is empty, no potion is used, no marker lies on the ring)."""
    name = state["locations"][number - 1]["name"]
    control, ingredient, most = LOCATION_GAINS.get(name, (None, None, 1))
    if control is not None:
        if not possible(state, control, ingredient):
            return None
        most = _most(state, control, most)
    return {"from": "location", "location": number, "control": control,
            "ingredient": ingredient, "left": most}


def potion_gain(state: dict, outcome: str) -> dict | None:
    control, taps = POTION_GAINS[outcome]
    if outcome == "ingredient_or_card" and not possible(state, control):
        control = "draw_helpers"  # the supply is empty: the card is what is left
    taps = _most(state, control, taps)
    if not taps or not possible(state, control):
        return None
    return {"from": "potion", "outcome": outcome, "control": control, "left": taps}


def reward_gain(state: dict) -> dict | None:
    """A task's reward: the rulebook's example is one or two players drawing a helper card
    each."""
    control = "draw_helpers" if possible(state, "draw_helpers") else "take_ingredients"
    if not possible(state, control):
        return None
    return {"from": "reward", "control": control, "left": _most(state, control, 2)}


def due(state: dict) -> dict | None:
    """The gain the table has still to take this turn (None: nothing)."""
    turn = state.get("turn")
    return turn.get("gain") if turn else None


def belongs_to_turn(state: dict) -> str | None:
    """The player whose gain it is to enter: a location's or the die's is the turn player's
    own choice (which ingredients, which marker); a reward is decided together."""
    gain = due(state)
    if gain and gain["from"] in ("location", "potion"):
        return state["turn"]["player"]
    return None


def took(state: dict) -> None:
    """A free tap was made: it counts toward the gain due."""
    gain = due(state)
    if gain:
        gain["left"] -= 1
        if gain["left"] <= 0:
            state["turn"]["gain"] = None


def passed(state: dict) -> None:
    """The turn went on (another move or action): what was not taken is left."""
    if state.get("turn"):
        state["turn"]["gain"] = None


def waiting(game, state: dict) -> Sentence | None:
    """"Nothing more" is for a gain still due."""
    if due(state) is None:
        return Sentence("Nothing is waiting to be taken now.")
    return None


def why_waiting(state: dict, seat: str | None) -> Sentence | None:
    """Free taps of other seats wait while the turn player enters their own gain."""
    owner = belongs_to_turn(state)
    if owner is None or seat is None or seat == owner:
        return None
    gain = due(state)
    if gain["from"] == "potion":
        return Sentence("%(player)s is entering what the potion die gave (%(outcome)s); free "
                        "taps wait until then.", player=owner,
                        outcome=POTION_OUTCOMES[gain["outcome"]])
    return Sentence("%(player)s is entering what the %(place)s gave; free taps wait until "
                    "then.", player=owner, place=loc_name(state, gain["location"]))
