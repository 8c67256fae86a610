"""Mission Zaubertrank! in teaching mode ("Our first game"): what the table does now, one
function per moment of the game.

- ``_setup``: the marker drawn at the set-up, the first task card, the starting ingredients,
  the two opening mishap markers, then the start player.
- ``_actions``: the turn player's two actions and two moves; within it ``_task_card`` (a task
  was just completed: the next card is entered), ``_potion`` (the die was rolled: take what it
  gave) and ``_roman`` (both actions used: the Roman steps on).
- ``_draw`` and ``_place``: the mishap marker that ends the turn.
- ``_over``: all tasks done, or the Roman back at his camp.

The game keeps no points: the "scoring" is the count of tasks done against the Roman's lap.
``_standing`` says it before the first task is completed, ``_after_task`` after each one.
"""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import Sentence, plural_sentence
from . import taps, turn
from .board import legal_spaces, loc_name, spaces_to_camp
from .components import (
    ACTIONS_PER_TURN, CHARACTER_NAMES, MOVES_PER_TURN, OPENING_MARKERS, POTION_OUTCOMES,
    SYMBOL_NAMES, UNPLACEABLE_PENALTY, amount,
)

# Where the page already shows the count of tasks done, and the Roman's clock.
TASK_COUNT_ID = "zt-task-count"
CLOCK_ID = "zt-clock"
# Potion die results that are taken with a free tap, and which tap.
_POTION_TAPS = {"ingredient_or_card": "take_ingredients", "two_ingredients": "take_ingredients",
                "three_ingredients": "take_ingredients", "remove_one_mishap": "remove_mishap",
                "remove_two_mishaps": "remove_mishap"}
_FREE_TAP_CHECKS = {"take_ingredients": taps.supply_left, "remove_mishap": taps.marker_on_ring}


def coach(state: dict) -> Coach:
    phase = state["phase"]
    if state["finished"]:
        return _over(state)
    if phase == "setup":
        return _setup(state)
    if phase == "draw":
        return _draw(state)
    if phase == "place":
        return _place(state)
    return _actions(state)


# -- the set-up ----------------------------------------------------------------------------


def _setup(state: dict) -> Coach:
    if state["drawn"] is not None:
        return Coach(
            say=Sentence("Everyone: put the %(symbol)s marker together on a free %(symbol)s "
                         "space of a location, not where the Roman stands.",
                         symbol=SYMBOL_NAMES[state["drawn"]]),
            control="place_mishap", rule="mishaps",
            short=Sentence("Everyone: place the opening marker."))
    if state["tasks"]["current"] is None:
        return Coach(
            say=Sentence("Everyone: lay the six locations in a ring, the Roman on the camp of "
                         "card 1. Turn up the top task card and enter its three sub-tasks."),
            control="enter_task", rule="setup",
            short=Sentence("Everyone: enter the face-up task card."))
    if not any(any(seat["ingredients"].values()) for seat in state["seats"].values()):
        return Coach(
            say=Sentence("Everyone: pick your character and put its figure on its starting "
                         "place. Take the ingredients shown on your character card."),
            control="take_ingredients", rule="setup",
            short=Sentence("Everyone: characters, places, starting ingredients."))
    if state["opening_placed"] < OPENING_MARKERS:
        return Coach(
            say=Sentence("Everyone: one of you draws a mishap marker from the bag (%(number)s "
                         "of %(total)s) and taps the symbol it shows.",
                         number=state["opening_placed"] + 1, total=OPENING_MARKERS),
            control="draw_mishap", rule="mishaps",
            short=Sentence("Everyone: draw an opening mishap marker."))
    return Coach(
        say=Sentence("Everyone: decide together who starts, give that player the bag and tap "
                     "their button. First on the list: %(first)s (first place at the table).",
                     first=state["players"][0]),
        control="begin_play", rule="setup",
        short=Sentence("Everyone: choose the start player and begin."))


# -- the turn ------------------------------------------------------------------------------


def _actions(state: dict) -> Coach:
    player = state["turn"]["player"]
    if state["tasks"]["current"] is None:
        return _task_card(state, player)
    left = ACTIONS_PER_TURN - state["turn"]["actions_used"]
    if not left:
        return _roman(state, player)
    if state["turn"]["potion_outcome"] is not None:
        return _potion(state, player, left)
    seat = state["seats"][player]
    if seat["location"] is None and turn.can_complete(None, state) is None:
        subtask = _next_subtask(state)
        return Coach(
            say=Sentence("%(player)s: you stand at the task stack with what the next sub-task "
                         "needs. Deliver %(amount)s and place a menhir on it.", player=player,
                         amount=amount(subtask["ingredient"], subtask["quantity"])),
            player=player, control="complete_subtask", rule="sub-task",
            short=Sentence("%(player)s: deliver the sub-task.", player=player),
            scoring=_standing(state), hint=_turn_hint(state, player))
    return _choose(state, player, left)


def _choose(state: dict, player: str, left: int) -> Coach:
    """The ordinary moment of a turn: actions left, and maybe moves."""
    moves = MOVES_PER_TURN - state["turn"]["moves_used"]
    where = state["seats"][player]["location"]
    if turn.can_use_location(None, state) is None and moves:
        say = Sentence("%(player)s: use the %(place)s you stand on, or move first (moves "
                       "left: %(moves)s). Actions left: %(actions)s.", player=player,
                       place=loc_name(state, where), moves=moves, actions=left)
        control = "use_location"
    elif turn.can_use_location(None, state) is None:
        say = Sentence("%(player)s: use the %(place)s you stand on (no move left). Actions "
                       "left: %(actions)s.", player=player, place=loc_name(state, where),
                       actions=left)
        control = "use_location"
    elif moves:
        say = Sentence("%(player)s: move your figure to a location you can use, or to the task "
                       "stack (moves left: %(moves)s). Actions left: %(actions)s.",
                       player=player, moves=moves, actions=left)
        control = "move"
    else:
        say = Sentence("%(player)s: no move left here. Drink the potion, pass items, play "
                       "helper cards, or end your actions.", player=player)
        control = _first_legal(state, ("drink_potion", "pass_items", "play_helpers"),
                               "advance_roman")
    return Coach(
        say=say, player=player, control=control, rule="actions",
        short=Sentence("%(player)s: two actions, up to two moves.", player=player),
        scoring=_standing(state), hint=_turn_hint(state, player))


def _potion(state: dict, player: str, left: int) -> Coach:
    """The die was rolled this turn: its result is a free tap, then the turn goes on."""
    outcome = state["turn"]["potion_outcome"]
    tap = _POTION_TAPS[outcome]
    if _FREE_TAP_CHECKS[tap](None, state) is not None:
        tap = None
    return Coach(
        say=Sentence("%(player)s: the potion die says: %(outcome)s. If not done yet, do it with "
                     "the free taps (no action). Actions left: %(actions)s.",
                     player=player, outcome=POTION_OUTCOMES[outcome], actions=left),
        player=player, control=tap, rule="potion-die",
        short=Sentence("%(player)s: take what the die gave you.", player=player),
        scoring=_standing(state), hint=_turn_hint(state, player))


def _task_card(state: dict, player: str) -> Coach:
    """A task was just completed (or none is entered): the next card is turned up."""
    reward = state["tasks"]["last_reward"]
    if reward:
        say = Sentence("%(player)s: take the reward (%(reward)s) with the free taps, then turn "
                       "up the next task card and enter it.", player=player, reward=reward)
    else:
        say = Sentence("%(player)s: turn up the next task card and enter its three sub-tasks; "
                       "then go on with your turn.", player=player)
    return Coach(
        say=say, player=player, control="enter_task", rule="tasks",
        short=Sentence("%(player)s: enter the next task card.", player=player),
        scoring=_standing(state), after=_after_task(state),
        see=TASK_COUNT_ID if state["tasks"]["completed"] else None)


def _roman(state: dict, player: str) -> Coach:
    return Coach(
        say=Sentence("%(player)s: both actions are used. Move the Roman one space on along his "
                     "track.", player=player),
        player=player, control="advance_roman", rule="roman-timeline",
        short=Sentence("%(player)s: move the Roman one space.", player=player),
        scoring=_standing(state), after=_after_task(state), see=_see_task(state))


def _draw(state: dict) -> Coach:
    player = state["turn"]["player"]
    control = "draw_mishap" if sum(state["bag"].values()) else None
    return Coach(
        say=Sentence("%(player)s: draw a mishap marker from the bag and tap its symbol. If it "
                     "fits nowhere, the Roman marches %(steps)s spaces more.", player=player,
                     steps=UNPLACEABLE_PENALTY),
        player=player, control=control, rule="mishaps",
        short=Sentence("%(player)s: draw a mishap marker.", player=player),
        scoring=_standing(state), after=_after_task(state), see=_see_task(state))


def _place(state: dict) -> Coach:
    player, symbol = state["turn"]["player"], state["drawn"]
    return Coach(
        say=Sentence("%(player)s: place the %(symbol)s marker on a free %(symbol)s space, "
                     "decided together; not where the Roman stands.", player=player,
                     symbol=SYMBOL_NAMES[symbol]),
        player=player, control="place_mishap", rule="mishaps",
        short=Sentence("%(player)s: place the marker together.", player=player),
        scoring=_standing(state), after=_after_task(state), see=_see_task(state),
        hint=_place_hint(state, symbol))


def _over(state: dict) -> Coach:
    tasks = state["tasks"]
    if state["result"] == "won":
        return Coach(
            say=Sentence("You won together: all %(total)s tasks are done, with the Roman "
                         "%(clock)s.", total=tasks["total"], clock=_clock(state)),
            rule="winning-losing",
            after=Sentence("Everyone wins: the last sub-task completed the last task card "
                           "before the Roman's lap ended."), see=TASK_COUNT_ID)
    return Coach(
        say=Sentence("The Roman is back at his camp: you lost together, with %(done)s of "
                     "%(total)s tasks done.", done=tasks["completed"], total=tasks["total"]),
        rule="winning-losing",
        after=plural_sentence("Everyone loses: %(count)s task card was still open when the "
                              "Roman finished his lap.",
                              "Everyone loses: %(count)s task cards were still open when the "
                              "Roman finished his lap.", tasks["total"] - tasks["completed"]),
        see=CLOCK_ID)


# -- the count: before the first task is done, and after each one ----------------------------


def _standing(state: dict) -> Sentence | None:
    tasks = state["tasks"]
    if tasks["completed"]:
        return None
    return Sentence("At the end only this counts: every task done before the Roman is back. "
                    "Now: %(done)s of %(total)s tasks, %(menhirs)s of 3 menhirs on this one, "
                    "Roman: %(clock)s.", done=tasks["completed"], total=tasks["total"],
                    menhirs=tasks["covered"], clock=_clock(state))


def _after_task(state: dict) -> Sentence | None:
    tasks = state["tasks"]
    if not tasks["completed"] or tasks["current"] is not None:
        return None
    return Sentence("Task %(done)s of %(total)s is done for everyone: its third sub-task was "
                    "delivered. Roman: %(clock)s.",
                    done=tasks["completed"], total=tasks["total"], clock=_clock(state))


def _see_task(state: dict) -> str | None:
    return TASK_COUNT_ID if _after_task(state) else None


# -- hints for the turn player's own phone: figures from the table, never an order ------------


def _turn_hint(state: dict, player: str) -> Sentence | None:
    """What the next sub-task needs against what the player holds, and the clock."""
    subtask = _next_subtask(state)
    if subtask is None:
        return None
    held = state["seats"][player]["ingredients"][subtask["ingredient"]]
    return Sentence("The next sub-task needs %(need)s; you hold %(held)s. Roman: %(clock)s.",
                    need=amount(subtask["ingredient"], subtask["quantity"]),
                    held=amount(subtask["ingredient"], held), clock=_clock(state))


def _place_hint(state: dict, symbol: str) -> Sentence | None:
    """The free spaces for the drawn marker; one that would shut a location is named."""
    spaces = legal_spaces(state, symbol)
    if not spaces:
        return None
    places = [space["name"] for space in spaces]
    shutting = [space["name"] for space in spaces if space["shuts"]]
    if shutting:
        return Sentence("Free spaces: %(places)s. A marker on %(shutting)s would shut that "
                        "location.", places=places, shutting=shutting)
    return Sentence("Free spaces: %(places)s. None of them would shut a location.",
                    places=places)


# -- reading the table -----------------------------------------------------------------------


def _clock(state: dict) -> Sentence:
    """The Roman's distance to his camp, as the status line says it."""
    return plural_sentence("%(count)s space to the camp", "%(count)s spaces to the camp",
                           spaces_to_camp(state))


def _next_subtask(state: dict) -> dict | None:
    tasks = state["tasks"]
    if tasks["current"] is None:
        return None
    return tasks["current"]["subtasks"][tasks["covered"]]


def _first_legal(state: dict, kinds: tuple[str, ...], fallback: str) -> str:
    checks = {"drink_potion": turn.can_drink, "pass_items": turn.can_pass,
              "play_helpers": turn.can_play}
    return next((kind for kind in kinds if checks[kind](None, state) is None), fallback)


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
                      "ingredients it shows.", obelix=CHARACTER_NAMES["obelix"]),
        start=start)
