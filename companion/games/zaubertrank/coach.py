"""Mission Zaubertrank! in teaching mode ("Our first game"): what the table does now, one
function per moment of the game.

- ``setup`` (coach_setup.py, with the introduction): the marker drawn at the set-up, the
  first task card, then each player's own character, start place and starting stock (on
  their own phones), the two opening mishap markers, the start player.
- ``_actions``: the turn player's two actions and two moves; within it ``_gain`` (a location,
  the potion die or a finished task gave something: take it and enter it), ``_task_card``
  (the next card is turned up) and ``_roman`` (both actions used: the Roman steps on). The
  first card of a turn says who handed the bag on.
- ``_draw`` and ``_place``: the mishap marker that ends the turn and sends the bag on.
- ``_over``: all tasks done, or the Roman back at his camp.

What was chosen, placed, taken or is still due is read from the state (the seats' set-up
flags, ``turn["gain"]``), never guessed. The game keeps no points: the "scoring" is the count
of tasks done against the Roman's lap. ``_standing`` says it before the first task is
completed, ``_after_task`` after each one.
"""

from __future__ import annotations

from dataclasses import replace

from ..coach import Coach
from ..text import Sentence, plural_sentence
from . import gains, turn
from .coach_setup import setup, supply_hint
from .board import legal_spaces, loc_name, spaces_to_camp
from .components import (
    ACTIONS_PER_TURN, CHARACTER_NAMES, INGREDIENT_NAMES, MOVES_PER_TURN, POTION_OUTCOMES,
    SYMBOL_NAMES, SYMBOLS, UNPLACEABLE_PENALTY, amount, extra_draws, subtask_limit,
)

# Where the page already shows the count of tasks done, and the Roman's clock.
TASK_COUNT_ID = "zt-task-count"
CLOCK_ID = "zt-clock"


def coach(state: dict) -> Coach:
    phase = state["phase"]
    if state["finished"]:
        return _over(state)
    if phase == "setup":
        return setup(state)
    if phase == "draw":
        return _draw(state)
    if phase == "place":
        return _place(state)
    return _with_bag(state, _actions(state))


# -- the turn ------------------------------------------------------------------------------


def _actions(state: dict) -> Coach:
    player = state["turn"]["player"]
    gain = gains.due(state)
    if gain is not None:
        return _gain(state, player, gain)
    if state["tasks"]["current"] is None:
        return _task_card(state, player)
    left = ACTIONS_PER_TURN - state["turn"]["actions_used"]
    if not left:
        return _roman(state, player)
    seat = state["seats"][player]
    if seat["location"] is None and turn.can_complete(None, state) is None:
        subtask = _next_subtask(state)
        return Coach(
            say=Sentence("%(player)s: you stand at the task stack with what the next sub-task "
                         "needs. Hand %(amount)s back to the supply and cover the sub-task with "
                         "a menhir.", player=player,
                         amount=amount(subtask["ingredient"], subtask["quantity"])),
            player=player, control="complete_subtask", rule="sub-task",
            short=Sentence("%(player)s: deliver the sub-task.", player=player),
            scoring=_standing(state), hint=_turn_hint(state, player))
    if _ready_to_deliver(state, player):
        return Coach(
            say=Sentence("%(player)s: you hold what the next sub-task needs. Move to the task "
                         "stack and deliver it there (moves left: %(moves)s). Actions left: "
                         "%(actions)s.", player=player,
                         moves=MOVES_PER_TURN - state["turn"]["moves_used"], actions=left),
            player=player, control="move", rule="sub-task",
            short=Sentence("%(player)s: go to the task stack and deliver.", player=player),
            scoring=_standing(state), hint=_turn_hint(state, player))
    return _choose(state, player, left)


def _ready_to_deliver(state: dict, player: str) -> bool:
    """Away from the task stack with what the next sub-task needs, a move and one of this
    turn's sub-tasks left."""
    current = state["turn"]
    subtask = _next_subtask(state)
    seat = state["seats"][player]
    return (seat["location"] is not None and subtask is not None
            and current["moves_used"] < MOVES_PER_TURN
            and current["subtasks_done"] < subtask_limit(seat["character"])
            and seat["ingredients"][subtask["ingredient"]] >= subtask["quantity"])


def _choose(state: dict, player: str, left: int) -> Coach:
    """The ordinary moment of a turn: actions left, and maybe moves."""
    moves = MOVES_PER_TURN - state["turn"]["moves_used"]
    where = state["seats"][player]["location"]
    usable = turn.can_use_location(None, state) is None
    if usable and moves:
        say = Sentence("%(player)s: use the %(place)s you stand on, or move first (moves "
                       "left: %(moves)s). Actions left: %(actions)s.", player=player,
                       place=loc_name(state, where), moves=moves, actions=left)
        short = Sentence("%(player)s: use the %(place)s or move on.", player=player,
                         place=loc_name(state, where))
        control = "use_location"
    elif usable:
        say = Sentence("%(player)s: use the %(place)s you stand on (no move left). Actions "
                       "left: %(actions)s.", player=player, place=loc_name(state, where),
                       actions=left)
        short = Sentence("%(player)s: use the %(place)s.", player=player,
                         place=loc_name(state, where))
        control = "use_location"
    elif moves:
        say = Sentence("%(player)s: move your figure to a location you can use, or to the task "
                       "stack (moves left: %(moves)s). Actions left: %(actions)s.",
                       player=player, moves=moves, actions=left)
        short = Sentence("%(player)s: move to a location or the task stack.", player=player)
        control = "move"
    else:
        say = Sentence("%(player)s: no move left here. Drink the potion, pass items, play "
                       "helper cards, or move the Roman on to end your actions.", player=player)
        short = Sentence("%(player)s: another action, or move the Roman on.", player=player)
        control = _first_legal(state, ("drink_potion", "pass_items", "play_helpers"),
                               "advance_roman")
    return Coach(say=say, player=player, control=control, rule="actions", short=short,
                 scoring=_standing(state), hint=_turn_hint(state, player))


def _with_bag(state: dict, card: Coach) -> Coach:
    """The first card of a turn says who handed the bag on (the rulebook's end of a turn)."""
    current = state["turn"]
    giver = current.get("bag_from")
    if not giver or current["actions_used"] or current["moves_used"] or card.player is None:
        return card
    return replace(card, say=Sentence("%(giver)s hands the bag to %(player)s. %(then)s",
                                      giver=giver, player=current["player"], then=card.say))


def _gain(state: dict, player: str, gain: dict) -> Coach:
    """A location, the potion die or a finished task gave something: take it now and enter
    it with a free tap (no action); the turn records it as due until then."""
    left = ACTIONS_PER_TURN - state["turn"]["actions_used"]
    if gain["from"] == "reward":
        say, rule = _reward_words(state, player), "tasks"
        short = Sentence("%(player)s: take the task's reward, or tap “Nothing more”.",
                         player=player)
    elif gain["from"] == "potion":
        say, rule = _potion_words(state, player, gain, left), "potion-die"
        short = Sentence("%(player)s: enter what the die gave, or tap “Nothing more”.",
                         player=player)
    else:
        say, rule = _location_words(state, player, gain, left), "locations"
        short = Sentence("%(player)s: enter what the %(place)s gave, or tap “Nothing more”.",
                         player=player, place=loc_name(state, gain["location"]))
    control = gain.get("control") or "take_ingredients"
    # One may always take less than a card offers: the box's "Nothing more" ends it.
    say = Sentence("%(step)s Nothing more to take? Tap “Nothing more”.", step=say)
    return Coach(say=say, player=player, control=control, rule=rule, short=short,
                 scoring=_standing(state), after=_after_task(state), see=_see_task(state),
                 hint=_gain_hint(state, player, control))


def _location_words(state: dict, player: str, gain: dict, left: int) -> Sentence:
    place = loc_name(state, gain["location"])
    control = gain.get("control")
    if control == "take_ingredients" and gain.get("ingredient"):
        return Sentence("%(player)s: the %(place)s gives %(ingredient)s. Take as many as its "
                        "card says and enter them here (no action). Actions left: %(actions)s.",
                        player=player, place=place,
                        ingredient=INGREDIENT_NAMES[gain["ingredient"]], actions=left)
    if control == "refill_potion":
        return Sentence("%(player)s: the %(place)s refills used magic potions (%(count)s more "
                        "now). Turn each over and tap it here (no action). Actions left: "
                        "%(actions)s.", player=player, place=place, count=gain["left"],
                        actions=left)
    if control == "remove_mishap":
        return Sentence("%(player)s: at the %(place)s draw mishap markers as its card says and "
                        "take markers with the same symbols off the locations (%(count)s more "
                        "at most); tap each one here (no action). Then all of them go back into "
                        "the bag.", player=player, place=place, count=gain["left"])
    return Sentence("%(player)s: take what the %(place)s gives, as its card says, and enter "
                    "it here (no action). Actions left: %(actions)s.",
                    player=player, place=place, actions=left)


def _potion_words(state: dict, player: str, gain: dict, left: int) -> Sentence:
    outcome = POTION_OUTCOMES[gain["outcome"]]
    if gain["control"] == "remove_mishap":
        return plural_sentence(
            "%(player)s: the potion die says: %(outcome)s. Take %(count)s marker off a "
            "location and tap it here (no action); it goes back into the bag.",
            "%(player)s: the potion die says: %(outcome)s. Take %(count)s markers off the "
            "locations and tap each one here (no action); they go back into the bag.",
            gain["left"], player=player, outcome=outcome)
    if gain["outcome"] == "ingredient_or_card":
        return Sentence("%(player)s: the potion die says: %(outcome)s. Enter the ingredient "
                        "or the helper card here (no action). Actions left: %(actions)s.",
                        player=player, outcome=outcome, actions=left)
    return Sentence("%(player)s: the potion die says: %(outcome)s. Take them from the supply "
                    "and enter them here (no action). Actions left: %(actions)s.",
                    player=player, outcome=outcome, actions=left)


def _reward_words(state: dict, player: str) -> Sentence:
    reward = state["tasks"]["last_reward"]
    if reward:
        return Sentence("%(player)s: the task is done! First take its reward: %(reward)s. "
                        "Enter what you take here (no action); then comes the next task card.",
                        player=player, reward=reward)
    return Sentence("%(player)s: the task is done! First take the reward printed on it (in "
                    "the rulebook's example you decide together who draws a helper card) and "
                    "enter it here (no action); then comes the next task card.",
                    player=player)


def _task_card(state: dict, player: str) -> Coach:
    """A task was completed and its reward taken: the next card is turned up."""
    return Coach(
        say=Sentence("%(player)s: stand the 3 menhirs beside the stack again and put the "
                     "finished card in the box. Turn up the next task card and enter its "
                     "three sub-tasks; then go on with your turn.", player=player),
        player=player, control="enter_task", rule="tasks",
        short=Sentence("%(player)s: enter the next task card.", player=player),
        scoring=_standing(state), after=_after_task(state),
        see=TASK_COUNT_ID if state["tasks"]["completed"] else None)


def _roman(state: dict, player: str) -> Coach:
    if spaces_to_camp(state) == 1:
        return Coach(
            say=Sentence("%(player)s: both actions are used. Move the Roman one space on: "
                         "that takes him back to his camp, and the game is lost.",
                         player=player),
            player=player, control="advance_roman", rule="roman-timeline",
            short=Sentence("%(player)s: the Roman's last step: the game is lost.",
                           player=player),
            scoring=_standing(state), after=_after_task(state), see=_see_task(state))
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
        scoring=_standing(state), after=_after_task(state), see=_see_task(state),
        hint=_draw_hint(state))


def _place(state: dict) -> Coach:
    player, symbol = state["turn"]["player"], state["drawn"]
    following = _next_player(state)
    return Coach(
        say=Sentence("%(player)s: place the %(symbol)s marker on a free %(symbol)s space, "
                     "decided together; not where the Roman stands. Then hand the bag to "
                     "%(next)s.", player=player, symbol=SYMBOL_NAMES[symbol], next=following),
        player=player, control="place_mishap", rule="mishaps",
        short=Sentence("%(player)s: place the marker; then the bag goes to %(next)s.",
                       player=player, next=following),
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


# -- hints for the acting player's own phone: figures from the table, never an order ----------


def _turn_hint(state: dict, player: str) -> Sentence | None:
    """What the next sub-task needs against what the player holds, and the clock."""
    subtask = _next_subtask(state)
    if subtask is None:
        return None
    held = state["seats"][player]["ingredients"][subtask["ingredient"]]
    return Sentence("The next sub-task needs %(need)s; you hold %(held)s. Roman: %(clock)s.",
                    need=amount(subtask["ingredient"], subtask["quantity"]),
                    held=amount(subtask["ingredient"], held), clock=_clock(state))


def _gain_hint(state: dict, player: str, control: str) -> Sentence | None:
    """The figures the free tap at hand works with."""
    if control == "take_ingredients":
        need = _turn_hint(state, player)
        if need is None:
            return supply_hint(state)
        return Sentence("%(supply)s %(need)s", supply=supply_hint(state), need=need)
    if control == "draw_helpers":
        seat = state["seats"][player]
        pile = state["draw_piles"][seat["character"]]
        if extra_draws(seat["character"]):
            return plural_sentence(
                "Your draw pile holds %(count)s helper card; %(asterix)s draws one extra.",
                "Your draw pile holds %(count)s helper cards; %(asterix)s draws one extra.",
                pile, asterix=CHARACTER_NAMES["asterix"])
        return plural_sentence("Your draw pile holds %(count)s helper card.",
                               "Your draw pile holds %(count)s helper cards.", pile)
    if control == "remove_mishap":
        places = [Sentence("%(symbol)s on the %(place)s", symbol=SYMBOL_NAMES[symbol],
                           place=loc_name(state, location["number"]))
                  for location in state["locations"]
                  for symbol, covered in zip(location["symbols"], location["covered"]) if covered]
        return Sentence("Markers lying now: %(places)s.", places=places)
    used = [name for name in state["players"] if not state["seats"][name]["potion_fresh"]
            and state["seats"][name]["character"] != "obelix"]
    return Sentence("Used potions: %(players)s.", players=used)


def _draw_hint(state: dict) -> Sentence:
    """How many free spaces each symbol would find."""
    counts = [Sentence("%(symbol)s %(count)s", symbol=SYMBOL_NAMES[symbol],
                       count=len(legal_spaces(state, symbol))) for symbol in SYMBOLS]
    return Sentence("Free spaces for each symbol: %(counts)s. A symbol with 0 fits nowhere.",
                    counts=counts)


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


def _next_player(state: dict) -> str:
    players = state["players"]
    return players[(players.index(state["turn"]["player"]) + 1) % len(players)]


def _next_subtask(state: dict) -> dict | None:
    tasks = state["tasks"]
    if tasks["current"] is None:
        return None
    return tasks["current"]["subtasks"][tasks["covered"]]


def _first_legal(state: dict, kinds: tuple[str, ...], fallback: str) -> str:
    checks = {"drink_potion": turn.can_drink, "pass_items": turn.can_pass,
              "play_helpers": turn.can_play}
    return next((kind for kind in kinds if checks[kind](None, state) is None), fallback)
