"""Mission Zaubertrank! in teaching mode: the set-up and the introduction (coach.py has the
turn). Each player's character, start place and starting stock are their own, chosen on their
own phone; the seats' flags say who has done which step, so the card names who still has to.
"""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import Sentence
from .board import loc_name
from .components import (
    CHARACTER_NAMES, CHARACTER_STARTS, MARKERS_PER_SYMBOL, OPENING_MARKERS, SYMBOL_NAMES, SYMBOLS,
    amount,
)
from .setup_moves import OWN_STEPS, waiting_for


# -- the set-up ----------------------------------------------------------------------------


def setup(state: dict) -> Coach:
    if state["drawn"] is not None:
        return Coach(
            say=Sentence("Everyone: put the %(symbol)s marker together on a free %(symbol)s "
                         "space of a location, not where the Roman stands.",
                         symbol=SYMBOL_NAMES[state["drawn"]]),
            control="place_mishap", rule="mishaps",
            short=Sentence("Everyone: place the opening marker."))
    if state["tasks"]["current"] is None:
        return Coach(
            # The layout is the introduction's (under "How the game goes"): the card stays small.
            say=Sentence("Everyone: set out the table as \"How the game goes\" says, turn up "
                         "the top task card and enter its three sub-tasks."),
            control="enter_task", rule="setup",
            short=Sentence("Everyone: enter the face-up task card."))
    steps = {"characters": _characters, "places": _start_places, "stock": _starting_stock}
    for step, flag in OWN_STEPS:
        waiting = waiting_for(state, flag)
        if waiting:
            return steps[step](state, waiting)
    if state["opening_placed"] < OPENING_MARKERS:
        return _opening_draw(state)
    return Coach(
        say=Sentence("Everyone: decide together who starts, hand that player the bag and tap "
                     "their “… starts” button. Can't agree? %(first)s has the first place at "
                     "the table.", first=state["players"][0]),
        control="begin_play", rule="setup",
        short=Sentence("Everyone: choose the start player and begin."))


def _characters(state: dict, waiting: list[str]) -> Coach:
    """Each player picks a character on their own phone (the rulebook: each chooses one)."""
    if len(waiting) > 1:
        return Coach(
            say=Sentence("%(players)s: each of you chooses a character on your own phone and "
                         "takes its card.", players=names(waiting)),
            control="choose_character", rule="characters")
    name = waiting[0]
    taken = {seat["character"] for other, seat in state["seats"].items()
             if other != name and seat.get("chosen")}
    free = [CHARACTER_NAMES[c] for c in CHARACTER_NAMES if c not in taken]
    return Coach(
        say=Sentence("%(player)s: choose your character on your phone and take its card.",
                     player=name),
        player=name, control="choose_character", rule="characters",
        short=Sentence("%(player)s: choose your character.", player=name),
        hint=Sentence("Still free: %(characters)s.", characters=free))


def _start_places(state: dict, waiting: list[str]) -> Coach:
    """Each figure goes where its character card says; the companion only guesses it."""
    if len(waiting) > 1:
        return Coach(
            say=Sentence("%(players)s: each of you puts your figure on the starting place "
                         "your character card shows and sets it on your own phone.",
                         players=names(waiting)),
            control="place_figure", rule="setup")
    name = waiting[0]
    seat = state["seats"][name]
    guess = loc_name(state, CHARACTER_STARTS[seat["character"]])
    return Coach(
        say=Sentence("%(player)s: put your figure on the starting place your character card "
                     "shows and set it on your phone. The companion's guess for "
                     "%(character)s: %(place)s.", player=name,
                     character=CHARACTER_NAMES[seat["character"]], place=guess),
        player=name, control="place_figure", rule="setup",
        short=Sentence("%(player)s: set your figure's starting place.", player=name))


def _starting_stock(state: dict, waiting: list[str]) -> Coach:
    """Helper cards, the potion and the starting ingredients of each character card."""
    if len(waiting) > 1:
        return Coach(
            say=Sentence("%(players)s: each of you shuffles your 12 helper cards into a draw "
                         "pile and takes a magic potion (%(obelix)s: 3 roast boars). Then take "
                         "the starting ingredients your character card shows and enter them on "
                         "your own phone.", players=names(waiting),
                         obelix=CHARACTER_NAMES["obelix"]),
            control="take_ingredients", rule="setup")
    name = waiting[0]
    return Coach(
        say=Sentence("%(player)s: shuffle your 12 helper cards into a draw pile and take a "
                     "magic potion (%(obelix)s: 3 roast boars). Then take the starting "
                     "ingredients your character card shows and enter them on your phone.",
                     player=name, obelix=CHARACTER_NAMES["obelix"]),
        player=name, control="take_ingredients", rule="setup",
        short=Sentence("%(player)s: enter your starting ingredients.", player=name),
        hint=supply_hint(state))


def _opening_draw(state: dict) -> Coach:
    number = state["opening_placed"] + 1
    if number == 1:
        say = Sentence("Everyone: put all %(markers)s mishap markers into the bag. One of you "
                       "draws one (1 of %(total)s) without looking at its back and taps the "
                       "symbol it shows.", markers=MARKERS_PER_SYMBOL * len(SYMBOLS),
                       total=OPENING_MARKERS)
    else:
        say = Sentence("Everyone: one of you draws a mishap marker from the bag (%(number)s "
                       "of %(total)s) and taps the symbol it shows.", number=number,
                       total=OPENING_MARKERS)
    return Coach(say=say, control="draw_mishap", rule="mishaps",
                 short=Sentence("Everyone: draw an opening mishap marker."))


def names(names: list[str]) -> Sentence:
    """"Ann and Bob", "Ann, Bob and Cy"."""
    return Sentence("%(first)s and %(second)s", first=", ".join(names[:-1]), second=names[-1])


def supply_hint(state: dict) -> Sentence:
    supply = state["supply"]
    return Sentence("The supply holds %(mistletoe)s, %(strawberries)s and %(fish)s.",
                    mistletoe=amount("mistletoe", supply["mistletoe"]),
                    strawberries=amount("strawberries", supply["strawberries"]),
                    fish=amount("fish", supply["fish"]))


# -- the introduction ------------------------------------------------------------------------


def intro(state: dict) -> Intro:
    tasks = state["tasks"]
    if state["turn"] is None:
        start = Sentence("The rules let you decide together who starts. The companion lists "
                         "%(player)s first (first place at the table); pick anyone.",
                         player=state["players"][0])
    else:
        start = Sentence("%(player)s has the bag now. The rules let you decide together who "
                         "starts; the companion's default is the first place, %(first)s.",
                         player=state["turn"]["player"], first=state["players"][0])
    return Intro(
        goal=Sentence("You all play together against the Roman: complete %(total)s task cards "
                      "by delivering mistletoe, strawberries and fish. If he walks once round "
                      "the six locations back to his camp first, you all lose.",
                      total=tasks["total"]),
        need=Sentence("Each of you: a character card with its figure, its 12 helper cards as a "
                      "draw pile, a magic potion (%(obelix)s: 3 roast boars) and the starting "
                      "ingredients it shows. In the middle: the six locations clockwise in a "
                      "ring by their numbers, the Roman on the camp of card 1, and %(count)s "
                      "task cards face down as a stack with the 3 menhirs beside it.",
                      obelix=CHARACTER_NAMES["obelix"], count=tasks["total"]),
        start=start)
