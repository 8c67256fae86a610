"""Mission Zaubertrank!: the cooperative race against the Roman's lap of the village.

The players gather mistletoe, strawberries and fish to complete task cards before the Roman
figure walks once round the ring of six location cards and is back at his camp. The app keeps
the clock (the Roman's timeline), the mishap markers on the locations and in the bag, the task
stack, the general supply, every player's ingredients, helper cards and potion, and the turn's
steps: two actions and up to two moves, then the Roman steps on, then a mishap marker is drawn.

What the cards say exactly (a location's advantage, a helper card's text, a task's reward) is
not known to the app, so the gains they grant are separate free taps (take ingredients, draw
helper cards, remove a mishap marker, refill a potion) that cost no action; the app refuses
only what the components make impossible (an empty supply, an empty draw pile, a fresh potion).

The bag is kept as 16 markers, 4 per symbol, each drawn marker counted by the symbol seen and
returned as the symbol of the space it lay on. The markers are two-sided and only the drawn side
is seen, so that split is bookkeeping, not a fact: a symbol whose count is 0 can still come out.
Such a draw is accepted (never refused, a real table must not be blocked) and counted against
the symbol with most markers left, which keeps the bag's total exact; the page says so.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import (
    BeforeValidator, Field, StringConstraints, create_model, model_validator,
)

from .base import Action, Game, GameError, Options, Whole

Character = Literal["asterix", "obelix", "getafix", "dogmatix"]
Ingredient = Literal["mistletoe", "strawberries", "fish"]
Symbol = Literal["knife", "skull", "lightning", "fist"]
PotionOutcome = Literal[
    "ingredient_or_card", "two_ingredients", "three_ingredients",
    "remove_one_mishap", "remove_two_mishaps",
]

CHARACTERS: tuple[str, ...] = ("asterix", "obelix", "getafix", "dogmatix")
CHARACTER_NAMES = {character: character.capitalize() for character in CHARACTERS}
INGREDIENTS: tuple[str, ...] = ("mistletoe", "strawberries", "fish")
SYMBOLS: tuple[str, ...] = ("knife", "skull", "lightning", "fist")
# Task cards dealt face down for each difficulty, named after the rulebook's challenges. The
# names are the option values themselves, so the generated setup form shows them as they read.
TASK_CARDS = {
    "one Roman": 4, "a small patrol": 5, "a cohort": 6, "Caesar's army": 7, "conquer Rome": 8,
}
DIFFICULTY_NAMES = {name: name for name in TASK_CARDS}
# Also accepted from scripts: short ids and the number of task cards.
DIFFICULTY_ALIASES = {
    "one_roman": "one Roman", "small_patrol": "a small patrol", "cohort": "a cohort",
    "caesars_army": "Caesar's army", "conquer_rome": "conquer Rome",
    **{str(count): name for name, count in TASK_CARDS.items()},
    **{name.lower(): name for name in TASK_CARDS},
}


def _difficulty_alias(value):
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str):
        return DIFFICULTY_ALIASES.get(value.strip().lower(), value.strip())
    return value


Difficulty = Annotated[
    Literal["one Roman", "a small patrol", "a cohort", "Caesar's army", "conquer Rome"],
    BeforeValidator(_difficulty_alias),
]
POTION_OUTCOMES = {
    "ingredient_or_card": "take 1 ingredient or draw 1 helper card",
    "two_ingredients": "take 2 ingredients of any kinds",
    "three_ingredients": "take 3 ingredients of any kinds",
    "remove_one_mishap": "remove 1 mishap marker",
    "remove_two_mishaps": "remove 2 mishap markers",
}

# The colour of each ingredient on the task cards' sub-tasks.
INGREDIENT_COLOURS = {"mistletoe": "green", "strawberries": "red", "fish": "blue"}

# The die's faces as printed, short enough for a button.
POTION_FACES = {
    "ingredient_or_card": "+1 ingredient or card",
    "two_ingredients": "+2 ingredients",
    "three_ingredients": "+3 ingredients",
    "remove_one_mishap": "1 mishap marker off",
    "remove_two_mishaps": "2 mishap markers off",
}

SUPPLY_PER_INGREDIENT = 10
MARKERS_PER_SYMBOL = 4
HELPER_CARDS_PER_CHARACTER = 12
ROAST_BOARS = 3
ACTIONS_PER_TURN = 2
MOVES_PER_TURN = 2
OPENING_MARKERS = 2
PASS_LIMIT = 2
UNPLACEABLE_PENALTY = 2  # extra Roman steps when a drawn marker fits nowhere
SUBTASKS_PER_TASK = 3
LOCATION_COUNT = 6
MAX_QUANTITY = SUPPLY_PER_INGREDIENT

# Defaults for the six location cards (name, timeline spaces, the two mishap symbols). The
# names follow the places GAMES.md lists; the space counts and symbols are not known, so every
# location gets 4 spaces (a 24-space lap) and each symbol sits on exactly three of the twelve
# mishap spaces, every pair of symbols on one card.
DEFAULT_LOCATIONS = (
    ("Forest", 4, "knife", "skull"),
    ("Fishmonger's stall", 4, "lightning", "fist"),
    ("Druid's Cave", 4, "knife", "lightning"),
    ("Mistletoe grove", 4, "skull", "fist"),
    ("Bard's Hut", 4, "knife", "fist"),
    ("Strawberry patch", 4, "skull", "lightning"),
)


LocationName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class _TableBasics(Options):
    """The difficulty of the game; the location fields are added below."""

    difficulty: Difficulty = Field(
        "one Roman",
        title="Difficulty",
        description="Task cards dealt: one Roman 4, a small patrol 5, a cohort 6, Caesar's army 7, "
        "conquer Rome 8.",
    )
    challenge: bool = Field(
        False, title="Challenge: one task card more",
        description="Adds one task card to the difficulty's stack.",
    )

    @model_validator(mode="after")
    def _distinct_location_names(self):
        numbers = range(1, LOCATION_COUNT + 1)
        names = [getattr(self, f"location{n}_name").strip().lower() for n in numbers]
        if len(set(names)) != len(names):
            raise ValueError("Each of the six locations needs its own name")
        return self


def _location_fields() -> dict:
    """Four flat option fields per location card, numbered as the cards are (1 = Forest).

    The setup form is generated from these fields, so the titles read as form labels and only
    card 1's fields carry an explanation (it holds for every card)."""
    fields: dict = {}
    for number, (name, spaces, first, second) in enumerate(DEFAULT_LOCATIONS, start=1):
        first_card = number == 1
        fields[f"location{number}_name"] = (
            LocationName, Field(
                name, title=f"Card {number}: name",
                description="Cards lie clockwise by the number at their bottom right; card 1 "
                "holds the Roman camp." if first_card else None),
        )
        fields[f"location{number}_spaces"] = (
            Whole, Field(
                spaces, ge=1, le=12, title=f"Card {number}: timeline spaces",
                description="Squares of the Roman's track on the card, the camp included. "
                "The default 4 is a guess: count yours." if first_card else None),
        )
        fields[f"location{number}_symbol_1"] = (
            Symbol, Field(
                first, title=f"Card {number}: mishap symbol 1",
                description="The symbols on the card's two hexagonal mishap spaces (lower left)."
                if first_card else None),
        )
        fields[f"location{number}_symbol_2"] = (
            Symbol, Field(second, title=f"Card {number}: mishap symbol 2"),
        )
    return fields


ZaubertrankOptions = create_model(
    "ZaubertrankOptions",
    __base__=_TableBasics,
    __doc__="Table settings: the difficulty and the six location cards (defaults editable, "
    "since the printed space counts and symbols are not known for certain).",
    **_location_fields(),
)


# -- setup actions ----------------------------------------------------------------------------
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


class DrawMishap(Action):
    """Say which symbol the marker just drawn from the bag shows."""

    type: Literal["draw_mishap"] = "draw_mishap"
    symbol: Symbol


class PlaceMishap(Action):
    """Put the drawn mishap marker on a free space with its symbol."""

    type: Literal["place_mishap"] = "place_mishap"
    location: Whole = Field(ge=1, le=LOCATION_COUNT, description="The location card's number.")
    slot: Optional[Whole] = Field(
        None, ge=1, le=2, description="Which of its two spaces; empty: the one that fits."
    )


class BeginPlay(Action):
    """End the setup and hand the bag to the starting player."""

    type: Literal["begin_play"] = "begin_play"
    starting_player: Optional[str] = Field(None, description="Empty: the first seated player.")


# -- the turn ---------------------------------------------------------------------------------
class Move(Action):
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


# -- free taps: what a location, card, die or reward grants ------------------------------------
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


FREE_TAPS = (TakeIngredients, DrawHelpers, RemoveMishap, RefillPotion)


class Zaubertrank(Game):
    id = "zaubertrank"
    name = "Mission Zaubertrank!"
    summary = (
        "Cooperative: gather mistletoe, strawberries and fish for the task cards before the "
        "Roman completes his lap and reaches his camp."
    )
    min_players = 2
    max_players = 4
    cooperative = True
    options_model = ZaubertrankOptions
    actions = (
        ChooseCharacter, PlaceFigure, EnterTask, DrawMishap, PlaceMishap, BeginPlay,
        Move, UseLocation, DrinkPotion, PassItems, PlayHelpers, CompleteSubtask, AdvanceRoman,
        TakeIngredients, DrawHelpers, RemoveMishap, RefillPotion,
    )
    regions = ("timeline", "tasks", "village", "turn")

    # -- setup ------------------------------------------------------------------------------
    def initial_state(self, players: list[str], options: Options) -> dict:
        if not self.min_players <= len(players) <= self.max_players:
            raise GameError("Mission Zaubertrank! is played by 2 to 4 players.")
        locations = []
        for number in range(1, LOCATION_COUNT + 1):
            locations.append({
                "number": number,
                "name": getattr(options, f"location{number}_name").strip(),
                "spaces": getattr(options, f"location{number}_spaces"),
                "symbols": [getattr(options, f"location{number}_symbol_1"),
                            getattr(options, f"location{number}_symbol_2")],
                "covered": [False, False],
            })
        task_total = TASK_CARDS[options.difficulty] + (1 if options.challenge else 0)
        seats = {}
        # Seated players get the characters in box order; setup may swap them.
        for name, character in zip(players, CHARACTERS):
            seats[name] = self._fresh_seat(character)
        return {
            "players": list(players),
            "phase": "setup",
            "difficulty": options.difficulty,
            "challenge": options.challenge,
            "seats": seats,
            "locations": locations,
            "lap_length": sum(location["spaces"] for location in locations),
            "roman_steps": 0,
            "bag": {symbol: MARKERS_PER_SYMBOL for symbol in SYMBOLS},
            "drawn": None,
            "opening_placed": 0,
            "supply": {ingredient: SUPPLY_PER_INGREDIENT for ingredient in INGREDIENTS},
            "draw_piles": {character: HELPER_CARDS_PER_CHARACTER for character in CHARACTERS},
            "discards": {character: 0 for character in CHARACTERS},
            "tasks": {"total": task_total, "completed": 0, "current": None, "covered": 0,
                      "last_reward": None},
            "turn": None,
            "result": None,
            "finished": False,
        }

    @staticmethod
    def _fresh_seat(character: str) -> dict:
        """A player's place at the table before the game: no ingredients, no cards."""
        return {
            "character": character,
            "location": None,  # None: standing at the task stack
            "ingredients": {ingredient: 0 for ingredient in INGREDIENTS},
            "hand": {other: 0 for other in CHARACTERS},
            "potion_fresh": character != "obelix",
            "roast_boars": ROAST_BOARS if character == "obelix" else 0,
        }

    # -- rules ------------------------------------------------------------------------------
    def apply(self, state: dict, action: Action, actor: str | None) -> dict:
        if state["finished"]:
            raise GameError("The game is over; undo the last step to play on.")
        new = self.copy(state)
        handler = getattr(self, f"_apply_{action.type}")
        handler(new, action)
        return new

    # setup ---------------------------------------------------------------------------------
    def _require_setup(self, state: dict, what: str) -> None:
        if state["phase"] != "setup":
            raise GameError(f"{what} only during setup, before play begins.")

    def _apply_choose_character(self, state: dict, action: ChooseCharacter) -> None:
        self._require_setup(state, "Characters are chosen")
        player = self._player(state, action.player)
        old = state["seats"][player]["character"]
        for name, seat in state["seats"].items():
            if seat["character"] == action.character and name != player:
                state["seats"][name] = {**self._fresh_seat(old), "location": seat["location"],
                                        "ingredients": seat["ingredients"]}
        seat = state["seats"][player]
        state["seats"][player] = {**self._fresh_seat(action.character),
                                  "location": seat["location"], "ingredients": seat["ingredients"]}

    def _apply_place_figure(self, state: dict, action: PlaceFigure) -> None:
        self._require_setup(state, "Figures are placed freely")
        player = self._player(state, action.player)
        state["seats"][player]["location"] = action.location

    def _apply_enter_task(self, state: dict, action: EnterTask) -> None:
        tasks = state["tasks"]
        if tasks["current"] is not None:
            raise GameError("The face-up task is already entered; undo its entry to correct it.")
        tasks["current"] = {
            "title": (action.title or "").strip(),
            "reward": (action.reward or "").strip(),
            "subtasks": [
                {"ingredient": action.first_ingredient, "quantity": action.first_quantity},
                {"ingredient": action.second_ingredient, "quantity": action.second_quantity},
                {"ingredient": action.third_ingredient, "quantity": action.third_quantity},
            ],
        }
        tasks["covered"] = 0

    def _apply_draw_mishap(self, state: dict, action: DrawMishap) -> None:
        if state["drawn"] is not None:
            raise GameError(f"The {state['drawn']} marker drawn before must be placed first.")
        if state["phase"] == "setup":
            if state["opening_placed"] >= OPENING_MARKERS:
                raise GameError("Both opening mishap markers are placed; begin play now.")
        elif state["phase"] != "draw":
            raise GameError(
                "A mishap marker is drawn at the end of the turn, after the Roman steps."
            )
        if sum(state["bag"].values()) == 0:
            raise GameError("The bag is empty: every mishap marker lies on a location.")
        if self.legal_spaces(state, action.symbol):
            state["bag"][self.bag_symbol_taken(state, action.symbol)] -= 1
            state["drawn"] = action.symbol
            if state["phase"] == "draw":
                state["phase"] = "place"
            return
        # Nowhere to put it: the marker goes straight back into the bag.
        if state["phase"] == "draw":
            self._step_roman(state, UNPLACEABLE_PENALTY)
            if not state["finished"]:
                self._next_turn(state)

    def _apply_place_mishap(self, state: dict, action: PlaceMishap) -> None:
        symbol = state["drawn"]
        if symbol is None:
            raise GameError("No mishap marker is waiting; draw one from the bag first.")
        location = state["locations"][action.location - 1]
        if action.location == self.roman_location(state):
            raise GameError(
                f"The Roman stands on the {location['name']}; no mishap marker may go there."
            )
        slots = [action.slot - 1] if action.slot else [0, 1]
        if action.slot:
            shown = location["symbols"][action.slot - 1]
            if shown != symbol:
                raise GameError(
                    f"Space {action.slot} of the {location['name']} shows a {shown}, "
                    f"not a {symbol}."
                )
            if location["covered"][action.slot - 1]:
                raise GameError(
                    f"Space {action.slot} of the {location['name']} is already covered."
                )
        free = [i for i in slots if location["symbols"][i] == symbol and not location["covered"][i]]
        if not free:
            raise GameError(f"The {location['name']} has no free space with the {symbol} symbol.")
        location["covered"][free[0]] = True
        state["drawn"] = None
        if state["phase"] == "setup":
            state["opening_placed"] += 1
        else:
            self._next_turn(state)

    def _apply_begin_play(self, state: dict, action: BeginPlay) -> None:
        self._require_setup(state, "Play begins")
        if state["drawn"] is not None or state["opening_placed"] < OPENING_MARKERS:
            raise GameError("Place the two opening mishap markers before play begins.")
        starter = state["players"][0]
        if action.starting_player:
            starter = self._player(state, action.starting_player)
        state["phase"] = "actions"
        state["turn"] = self._new_turn(starter)

    # the turn ------------------------------------------------------------------------------
    @staticmethod
    def _new_turn(player: str) -> dict:
        return {"player": player, "actions_used": 0, "moves_used": 0, "used_locations": [],
                "subtasks_done": 0, "potion_outcome": None}

    def _next_turn(self, state: dict) -> None:
        players = state["players"]
        following = players[(players.index(state["turn"]["player"]) + 1) % len(players)]
        state["phase"] = "actions"
        state["turn"] = self._new_turn(following)

    def _require_actions_phase(self, state: dict) -> None:
        if state["phase"] == "setup":
            raise GameError("Play has not begun; finish the setup and tap begin.")
        if state["phase"] == "draw":
            raise GameError("The Roman has stepped; draw the mishap marker to end the turn.")
        if state["phase"] == "place":
            raise GameError(f"Place the drawn {state['drawn']} marker to end the turn.")

    def _require_action_left(self, state: dict) -> None:
        self._require_actions_phase(state)
        turn = state["turn"]
        if turn["actions_used"] >= ACTIONS_PER_TURN:
            raise GameError(
                f"{turn['player']} has used both actions; move the Roman on to end them."
            )

    def _spend_action(self, state: dict) -> None:
        """Use one of the turn's two actions (after every check has passed)."""
        self._require_action_left(state)
        state["turn"]["actions_used"] += 1

    def _apply_move(self, state: dict, action: Move) -> None:
        self._require_actions_phase(state)
        turn = state["turn"]
        seat = state["seats"][turn["player"]]
        if turn["moves_used"] >= MOVES_PER_TURN:
            raise GameError(f"{turn['player']} has already moved twice this turn.")
        if seat["location"] == action.location:
            where = self._place_name(state, action.location)
            raise GameError(f"{turn['player']} is already at {where}.")
        seat["location"] = action.location
        turn["moves_used"] += 1

    def _apply_use_location(self, state: dict, action: UseLocation) -> None:
        self._require_action_left(state)
        turn = state["turn"]
        where = state["seats"][turn["player"]]["location"]
        if where is None:
            raise GameError(f"{turn['player']} stands at the task stack, not on a location.")
        location = state["locations"][where - 1]
        if all(location["covered"]):
            raise GameError(
                f"The {location['name']} is shut: both of its mishap spaces are covered."
            )
        if where in turn["used_locations"]:
            raise GameError(f"The {location['name']} was already used this turn.")
        self._spend_action(state)
        turn["used_locations"].append(where)

    def _apply_drink_potion(self, state: dict, action: DrinkPotion) -> None:
        self._require_action_left(state)
        player = state["turn"]["player"]
        seat = state["seats"][player]
        if seat["character"] == "obelix":
            if seat["roast_boars"] == 0:
                raise GameError("Obelix has gnawed all three roast boars already.")
        elif not seat["potion_fresh"]:
            raise GameError(f"{player}'s magic potion is used; it must be refilled first.")
        if action.other_roll is not None and seat["character"] != "getafix":
            raise GameError("Only Getafix rolls the potion die twice.")
        self._spend_action(state)
        if seat["character"] == "obelix":
            seat["roast_boars"] -= 1
        else:
            seat["potion_fresh"] = False
        state["turn"]["potion_outcome"] = action.outcome

    def _apply_pass_items(self, state: dict, action: PassItems) -> None:
        self._require_action_left(state)
        giver = state["turn"]["player"]
        receiver = self._player(state, action.to_player)
        if receiver == giver:
            raise GameError("Items are passed to another player, not to oneself.")
        ingredients = [i for i in (action.ingredient, action.second_ingredient) if i]
        cards = [c for c in (action.card, action.second_card) if c]
        if not ingredients and not cards:
            raise GameError("Choose at least one ingredient or helper card to pass.")
        if len(ingredients) + len(cards) > PASS_LIMIT:
            raise GameError("At most two items in total may be passed in one action.")
        giving, getting = state["seats"][giver], state["seats"][receiver]
        if giving["location"] != getting["location"]:
            raise GameError(
                f"{giver} and {receiver} must stand on the same location, or both at the task "
                "stack, to pass items."
            )
        for ingredient in ingredients:
            if giving["ingredients"][ingredient] < ingredients.count(ingredient):
                raise GameError(f"{giver} has not enough {ingredient} to pass.")
        for card in cards:
            if giving["hand"][card] < cards.count(card):
                raise GameError(
                    f"{giver} holds not enough {CHARACTER_NAMES[card]} helper cards to pass."
                )
        self._spend_action(state)
        for ingredient in ingredients:
            giving["ingredients"][ingredient] -= 1
            getting["ingredients"][ingredient] += 1
        for card in cards:
            giving["hand"][card] -= 1
            getting["hand"][card] += 1

    def _apply_play_helpers(self, state: dict, action: PlayHelpers) -> None:
        self._require_action_left(state)
        player = state["turn"]["player"]
        seat = state["seats"][player]
        cards = [action.card or seat["character"]]
        if action.second_card:
            cards.append(action.second_card)
        for card in cards:
            if seat["hand"][card] < cards.count(card):
                raise GameError(f"{player} holds not enough {CHARACTER_NAMES[card]} helper cards.")
        self._spend_action(state)
        for card in cards:
            seat["hand"][card] -= 1
            state["discards"][card] += 1

    def _apply_complete_subtask(self, state: dict, action: CompleteSubtask) -> None:
        self._require_actions_phase(state)
        turn = state["turn"]
        player = turn["player"]
        seat = state["seats"][player]
        tasks = state["tasks"]
        if seat["location"] is not None:
            raise GameError(f"{player} must stand at the task stack to complete a sub-task.")
        if tasks["current"] is None:
            raise GameError("Enter the face-up task card's sub-tasks first.")
        if turn["subtasks_done"] >= self.subtask_limit(seat["character"]):
            if seat["character"] == "obelix":
                raise GameError("Obelix may complete at most two sub-tasks per turn.")
            raise GameError("Only one sub-task may be completed per turn (Obelix may do two).")
        subtask = tasks["current"]["subtasks"][tasks["covered"]]
        need, held = subtask["quantity"], seat["ingredients"][subtask["ingredient"]]
        if held < need:
            raise GameError(
                f"This sub-task needs {need} {subtask['ingredient']}; {player} has {held}."
            )
        self._spend_action(state)
        turn["subtasks_done"] += 1
        seat["ingredients"][subtask["ingredient"]] -= need
        state["supply"][subtask["ingredient"]] += need
        tasks["covered"] += 1
        if tasks["covered"] < SUBTASKS_PER_TASK:
            return
        # Third menhir placed: the reward is granted and the next card turned up.
        tasks["completed"] += 1
        tasks["last_reward"] = tasks["current"]["reward"] or None
        tasks["current"] = None
        tasks["covered"] = 0
        if tasks["completed"] >= tasks["total"]:
            self._finish(state, "won")

    def _apply_advance_roman(self, state: dict, action: AdvanceRoman) -> None:
        self._require_actions_phase(state)
        self._step_roman(state, 1)
        if not state["finished"]:
            state["phase"] = "draw"

    # free taps -----------------------------------------------------------------------------
    def _tap_player(self, state: dict, named: str | None) -> str:
        """The player a free tap concerns: the one named, or the player whose turn it is."""
        if named:
            return self._player(state, named)
        if state["turn"] is None:
            raise GameError("Name the player this concerns.")
        return state["turn"]["player"]

    def _apply_take_ingredients(self, state: dict, action: TakeIngredients) -> None:
        if state["phase"] != "setup":
            self._require_actions_phase(state)
        player = self._tap_player(state, action.player)
        wanted = {i: getattr(action, i) for i in INGREDIENTS}
        if not any(wanted.values()):
            raise GameError("Choose at least one ingredient to take.")
        for ingredient, count in wanted.items():
            left = state["supply"][ingredient]
            if count and left == 0:
                raise GameError(
                    f"The supply has no {ingredient} left until a sub-task brings some back."
                )
            if count > left:
                raise GameError(f"The supply has only {left} {ingredient} left.")
        for ingredient, count in wanted.items():
            state["supply"][ingredient] -= count
            state["seats"][player]["ingredients"][ingredient] += count

    def _apply_draw_helpers(self, state: dict, action: DrawHelpers) -> None:
        self._require_actions_phase(state)
        player = self._tap_player(state, action.player)
        seat = state["seats"][player]
        character = seat["character"]
        pile = state["draw_piles"][character]
        if pile == 0:
            raise GameError(
                f"{player}'s draw pile is empty; played helper cards are not shuffled back."
            )
        drawn = min(pile, action.count + self.extra_draws(character))
        state["draw_piles"][character] -= drawn
        seat["hand"][character] += drawn

    def _apply_remove_mishap(self, state: dict, action: RemoveMishap) -> None:
        self._require_actions_phase(state)
        location = state["locations"][action.location - 1]
        slots = [action.slot - 1] if action.slot else [0, 1]
        covered = [i for i in slots if location["covered"][i]]
        if not covered:
            where = f"space {action.slot} of the" if action.slot else "the"
            raise GameError(f"There is no mishap marker on {where} {location['name']}.")
        location["covered"][covered[0]] = False
        state["bag"][location["symbols"][covered[0]]] += 1

    def _apply_refill_potion(self, state: dict, action: RefillPotion) -> None:
        self._require_actions_phase(state)
        player = self._tap_player(state, action.player)
        seat = state["seats"][player]
        if seat["character"] == "obelix":
            raise GameError("Obelix has roast boars, and a gnawed bone cannot be refilled.")
        if seat["potion_fresh"]:
            raise GameError(f"{player}'s magic potion is still fresh.")
        seat["potion_fresh"] = True

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _player(state: dict, name: str) -> str:
        if name not in state["seats"]:
            raise GameError(f"There is no player called '{name}' at this table.")
        return name

    @staticmethod
    def _place_name(state: dict, location: int | None) -> str:
        if location is None:
            return "the task stack"
        return "the " + state["locations"][location - 1]["name"]

    def _step_roman(self, state: dict, steps: int) -> None:
        """Move the Roman on; back at the camp the village has lost."""
        state["roman_steps"] = min(state["roman_steps"] + steps, state["lap_length"])
        if state["roman_steps"] >= state["lap_length"]:
            self._finish(state, "lost")

    @staticmethod
    def _finish(state: dict, result: str) -> None:
        state["result"] = result
        state["finished"] = True
        state["phase"] = "over"

    @staticmethod
    def subtask_limit(character: str) -> int:
        """Sub-tasks a character may complete in one turn."""
        return 2 if character == "obelix" else 1

    @staticmethod
    def extra_draws(character: str) -> int:
        """Helper cards drawn on top of the number asked for (Asterix's ability)."""
        return 1 if character == "asterix" else 0

    @staticmethod
    def roman_position(state: dict) -> tuple[int, int]:
        """The Roman's location number and space on it (both from 1)."""
        steps = state["roman_steps"] % state["lap_length"]
        for location in state["locations"]:
            if steps < location["spaces"]:
                return location["number"], steps + 1
            steps -= location["spaces"]
        raise AssertionError("the lap length is the sum of the spaces")

    @staticmethod
    def bag_symbol_taken(state: dict, symbol: str) -> str:
        """The bag count a drawn ``symbol`` is taken from.

        Markers show a symbol on each side and the player sees only the side drawn, so the
        bag's "4 of each symbol" is the app's bookkeeping, not a fact: a fifth knife can come
        out. Rather than refuse what lies on the table, such a draw is counted against the
        symbol with the most markers left, which keeps the bag's total exact."""
        if state["bag"][symbol] > 0:
            return symbol
        return max(SYMBOLS, key=lambda other: state["bag"][other])

    def roman_location(self, state: dict) -> int:
        """The number of the location card the Roman stands on."""
        return self.roman_position(state)[0]

    def legal_spaces(self, state: dict, symbol: str) -> list[dict]:
        """Free spaces showing ``symbol``, away from the Roman's location."""
        roman = self.roman_location(state)
        spaces = []
        for location in state["locations"]:
            if location["number"] == roman:
                continue
            for slot in (0, 1):
                if location["symbols"][slot] == symbol and not location["covered"][slot]:
                    spaces.append({"location": location["number"], "slot": slot + 1,
                                   "name": location["name"]})
        return spaces

    # -- the log ----------------------------------------------------------------------------
    def _who(self, state: dict, name: str | None) -> str:
        if name is None:
            name = state["turn"]["player"] if state["turn"] else "Someone"
        seat = state["seats"].get(name)
        return f"{name} ({CHARACTER_NAMES[seat['character']]})" if seat else name

    def describe(self, state: dict, action: Action, actor: str | None) -> str:
        turn_player = self._who(state, None)
        if isinstance(action, ChooseCharacter):
            return f"{action.player} plays {CHARACTER_NAMES[action.character]}."
        if isinstance(action, PlaceFigure):
            where = self._place_name(state, action.location)
            return f"{self._who(state, action.player)} starts at {where}."
        if isinstance(action, EnterTask):
            parts = ", then ".join(
                f"{q} {i}" for i, q in (
                    (action.first_ingredient, action.first_quantity),
                    (action.second_ingredient, action.second_quantity),
                    (action.third_ingredient, action.third_quantity),
                )
            )
            title = f" '{action.title.strip()}'" if action.title and action.title.strip() else ""
            return f"The task{title} was turned up: {parts}."
        if isinstance(action, DrawMishap):
            if not self.legal_spaces(state, action.symbol):
                if state["phase"] == "setup":
                    return (f"A {action.symbol} marker was drawn, fitted nowhere and went "
                            "back into the bag.")
                return (f"A {action.symbol} marker was drawn and fitted nowhere: back into "
                        f"the bag, and the Roman marched {UNPLACEABLE_PENALTY} spaces on.")
            counted = self.bag_symbol_taken(state, action.symbol)
            if counted != action.symbol:
                return (f"A {action.symbol} marker was drawn from the bag (the other side of "
                        f"a marker counted as {counted}).")
            return f"A {action.symbol} marker was drawn from the bag."
        if isinstance(action, PlaceMishap):
            name = state["locations"][action.location - 1]["name"]
            return f"The {state['drawn']} marker was placed on the {name}."
        if isinstance(action, BeginPlay):
            return f"Play began with {action.starting_player or state['players'][0]}."
        if isinstance(action, Move):
            return f"{turn_player} moved to {self._place_name(state, action.location)}."
        if isinstance(action, UseLocation):
            where = state["seats"][state["turn"]["player"]]["location"]
            return f"{turn_player} used {self._place_name(state, where)}."
        if isinstance(action, DrinkPotion):
            seat = state["seats"][state["turn"]["player"]]
            obelix = seat["character"] == "obelix"
            drink = "gnawed a roast boar" if obelix else "drank the magic potion"
            extra = (f" (the other roll: {POTION_OUTCOMES[action.other_roll]})"
                     if action.other_roll else "")
            return f"{turn_player} {drink}: {POTION_OUTCOMES[action.outcome]}{extra}."
        if isinstance(action, PassItems):
            items = [i for i in (action.ingredient, action.second_ingredient) if i]
            cards = [c for c in (action.card, action.second_card) if c]
            items += [f"a {CHARACTER_NAMES[c]} card" for c in cards]
            return f"{turn_player} passed {' and '.join(items)} to {action.to_player}."
        if isinstance(action, PlayHelpers):
            count = 2 if action.second_card else 1
            return f"{turn_player} played {count} helper card{'s' if count == 2 else ''}."
        if isinstance(action, CompleteSubtask):
            tasks = state["tasks"]
            if tasks["current"] is None:
                return f"{turn_player} completed a sub-task."
            subtask = tasks["current"]["subtasks"][tasks["covered"]]
            done = f"{turn_player} delivered {subtask['quantity']} {subtask['ingredient']}"
            if tasks["covered"] + 1 == SUBTASKS_PER_TASK:
                return f"{done} and completed the task."
            return f"{done} and placed a menhir."
        if isinstance(action, AdvanceRoman):
            return "The Roman marched one space on."
        if isinstance(action, TakeIngredients):
            taken = [f"{getattr(action, i)} {i}" for i in INGREDIENTS if getattr(action, i)]
            return f"{self._who(state, action.player)} took {' and '.join(taken)} from the supply."
        if isinstance(action, DrawHelpers):
            who = action.player or (state["turn"] or {}).get("player")
            character = state["seats"][who]["character"] if who in state["seats"] else ""
            drawn = min(action.count + self.extra_draws(character),
                        state["draw_piles"].get(character, 0))
            plural = "s" if drawn != 1 else ""
            return f"{self._who(state, action.player)} drew {drawn} helper card{plural}."
        if isinstance(action, RemoveMishap):
            name = state["locations"][action.location - 1]["name"]
            return f"A mishap marker was taken off the {name} and put back into the bag."
        if isinstance(action, RefillPotion):
            return f"{self._who(state, action.player)} refilled the magic potion."
        return super().describe(state, action, actor)

    # -- derived ----------------------------------------------------------------------------
    def winners(self, state: dict) -> list[str]:
        """Everybody once the last task is completed; nobody while running or after a loss."""
        return list(state["players"]) if state["result"] == "won" else []

    def spaces_to_camp(self, state: dict) -> int:
        """Roman steps left before he is back at his camp and the village loses."""
        return state["lap_length"] - state["roman_steps"]

    def status(self, state: dict) -> str:
        """Whose turn and the clock, the setup step, or the result."""
        phase = state["phase"]
        if state["result"] == "won":
            return f"All {state['tasks']['total']} tasks completed: the village wins!"
        if state["result"] == "lost":
            return "The Roman is back at his camp: the village has lost."
        if phase == "setup":
            if state["drawn"]:
                return f"Setup: place the {state['drawn']} marker."
            if state["opening_placed"] < OPENING_MARKERS:
                number = state["opening_placed"] + 1
                return f"Setup: draw opening mishap marker {number} of {OPENING_MARKERS}."
            return "Setup done: choose the starting player and begin."
        turn = state["turn"]
        who = self._who(state, turn["player"])
        clock = f"{self.spaces_to_camp(state)} spaces to the camp"
        if phase == "draw":
            return f"{who}: draw a mishap marker · {clock}"
        if phase == "place":
            return f"{who}: place the {state['drawn']} marker · {clock}"
        actions_left = ACTIONS_PER_TURN - turn["actions_used"]
        return (f"{who}'s turn: {actions_left} action{'s' if actions_left != 1 else ''} left · "
                f"{clock}")

    def view(self, state: dict) -> dict:
        """The ring, the bag, the tasks, the players and the turn, ready for the templates."""
        roman_location, roman_space = self.roman_position(state)
        drawn = state["drawn"]
        legal = self.legal_spaces(state, drawn) if drawn else []
        legal_keys = {(space["location"], space["slot"]) for space in legal}
        figures = {None: []}
        for name in state["players"]:
            seat = state["seats"][name]
            figures.setdefault(seat["location"], []).append({
                "name": name, "character": seat["character"],
                "character_name": CHARACTER_NAMES[seat["character"]],
            })
        ring = []
        step = 0
        here = state["roman_steps"] % state["lap_length"]
        for location in state["locations"]:
            spaces = []
            for space in range(1, location["spaces"] + 1):
                spaces.append({
                    "space": space,
                    "camp": step == 0,
                    "roman": step == here,
                    "passed": step < state["roman_steps"] and step != here,
                    "to_camp": state["lap_length"] - step,
                })
                step += 1
            number = location["number"]
            ring.append({
                **location,
                "shut": all(location["covered"]),
                "markers": sum(location["covered"]),
                "roman_here": number == roman_location,
                "roman_space": roman_space if number == roman_location else None,
                "figures": figures.get(number, []),
                "slots": [{"slot": slot + 1, "symbol": location["symbols"][slot],
                           "covered": location["covered"][slot],
                           "legal": (number, slot + 1) in legal_keys} for slot in (0, 1)],
                "timeline": spaces,
            })
        draw_choices = []
        for symbol in SYMBOLS:
            fits = self.legal_spaces(state, symbol)
            draw_choices.append({"symbol": symbol, "in_bag": state["bag"][symbol],
                                 "spaces": len(fits),
                                 "places": [space["name"] for space in fits],
                                 "counted_as": self.bag_symbol_taken(state, symbol)})
        covered_spaces = [
            {"location": loc["number"], "slot": slot + 1, "symbol": loc["symbols"][slot],
             "name": loc["name"]}
            for loc in state["locations"] for slot in (0, 1) if loc["covered"][slot]
        ]
        tasks = state["tasks"]
        current = tasks["current"]
        subtasks = []
        if current:
            subtasks = [
                {**sub, "number": index + 1, "covered": index < tasks["covered"],
                 "next": index == tasks["covered"]}
                for index, sub in enumerate(current["subtasks"])
            ]
        face_down = max(tasks["total"] - tasks["completed"] - 1, 0)
        turn = state["turn"]
        players = []
        for name in state["players"]:
            seat = state["seats"][name]
            character = seat["character"]
            pile = state["draw_piles"][character]
            players.append({
                "name": name,
                "character": character,
                "character_name": CHARACTER_NAMES[character],
                "place": self._place_name(state, seat["location"]),
                "location": seat["location"],
                "ingredients": dict(seat["ingredients"]),
                "hand": {c: n for c, n in seat["hand"].items() if n},
                "hand_cards": [{"character": c, "name": CHARACTER_NAMES[c], "count": n}
                               for c, n in seat["hand"].items() if n],
                "hand_size": sum(seat["hand"].values()),
                "draw_pile": pile,
                "draw_extra": self.extra_draws(character),
                "draw_sizes": [n for n in (1, 2, 3) if n <= pile],
                "discards": state["discards"][character],
                "potion_fresh": seat["potion_fresh"] if character != "obelix" else None,
                "roast_boars": seat["roast_boars"] if character == "obelix" else None,
                "can_refill": character != "obelix" and not seat["potion_fresh"],
                "on_turn": bool(turn) and turn["player"] == name,
            })
        return {
            "phase": state["phase"],
            "playing": state["phase"] in ("actions", "draw", "place"),
            "result": state["result"],
            "ring": ring,
            "stack_figures": figures[None],
            "roman": {"location": roman_location, "space": roman_space,
                      "name": state["locations"][roman_location - 1]["name"],
                      "steps": state["roman_steps"], "lap_length": state["lap_length"],
                      "spaces_to_camp": self.spaces_to_camp(state),
                      "at_camp": state["roman_steps"] >= state["lap_length"]},
            "bag": dict(state["bag"]),
            "bag_size": sum(state["bag"].values()),
            "bag_out": [symbol for symbol in SYMBOLS if state["bag"][symbol] == 0],
            "drawn": drawn,
            "legal_spaces": legal,
            "drawable_symbols": [s for s in SYMBOLS if state["bag"][s]],
            "draw_choices": draw_choices,
            "covered_spaces": covered_spaces,
            "shut_locations": [loc["number"] for loc in state["locations"] if all(loc["covered"])],
            "opening_placed": state["opening_placed"],
            "opening_total": OPENING_MARKERS,
            "can_begin": state["phase"] == "setup" and drawn is None
            and state["opening_placed"] >= OPENING_MARKERS,
            "supply": dict(state["supply"]),
            "supply_max": SUPPLY_PER_INGREDIENT,
            "ingredient_colours": dict(INGREDIENT_COLOURS),
            "tasks": {"total": tasks["total"], "completed": tasks["completed"],
                      "left": tasks["total"] - tasks["completed"],
                      "face_down": face_down, "current": current, "subtasks": subtasks,
                      "next_subtask": subtasks[tasks["covered"]] if current else None,
                      "menhirs_placed": tasks["covered"], "awaiting_entry": current is None
                      and tasks["completed"] < tasks["total"], "last_reward": tasks["last_reward"]},
            "players": players,
            "characters": [{"id": c, "name": CHARACTER_NAMES[c]} for c in CHARACTERS],
            "places": [{"location": None, "name": "the task stack"}] + [
                {"location": loc["number"], "name": loc["name"]} for loc in state["locations"]
            ],
            "turn": self._turn_view(state) if turn else None,
            "difficulty": DIFFICULTY_NAMES[state["difficulty"]],
            "challenge": state["challenge"],
            "potion_outcomes": dict(POTION_OUTCOMES),
            "potion_faces": dict(POTION_FACES),
        }

    def _turn_view(self, state: dict) -> dict:
        """Whose turn, what is left of it, and whether each action is open (with why not)."""
        turn = state["turn"]
        player = turn["player"]
        seat = state["seats"][player]
        character = seat["character"]
        where = seat["location"]
        actions_left = ACTIONS_PER_TURN - turn["actions_used"]
        acting = state["phase"] == "actions"
        no_action = f"{player} has used both actions." if not actions_left else ""

        use_why = no_action
        if where is None:
            use_why = use_why or f"{player} stands at the task stack."
        else:
            location = state["locations"][where - 1]
            if all(location["covered"]):
                use_why = use_why or f"The {location['name']} is shut by two mishap markers."
            elif where in turn["used_locations"]:
                use_why = use_why or f"The {location['name']} was already used this turn."

        if character == "obelix":
            drink_why = no_action or ("" if seat["roast_boars"] else "All three roast boars "
                                      "are gnawed.")
        else:
            drink_why = no_action or ("" if seat["potion_fresh"] else f"{player}'s potion is "
                                      "used; refill it at the Druid's Cave or by a card.")

        subtasks_left = self.subtask_limit(character) - turn["subtasks_done"]
        tasks = state["tasks"]
        complete_why = no_action
        if not complete_why and where is not None:
            complete_why = f"{player} must stand at the task stack."
        if not complete_why and tasks["current"] is None:
            complete_why = "Enter the face-up task card first."
        if not complete_why and subtasks_left <= 0:
            complete_why = ("Obelix has completed two sub-tasks this turn." if character ==
                            "obelix" else "One sub-task per turn is done.")
        if not complete_why:
            subtask = tasks["current"]["subtasks"][tasks["covered"]]
            held = seat["ingredients"][subtask["ingredient"]]
            if held < subtask["quantity"]:
                complete_why = (f"It needs {subtask['quantity']} {subtask['ingredient']}; "
                                f"{player} has {held}.")

        partners = [name for name in state["players"] if name != player
                    and state["seats"][name]["location"] == where]
        return {
            "player": player,
            "character": character,
            "character_name": CHARACTER_NAMES[character],
            "actions_left": actions_left,
            "actions_used": turn["actions_used"],
            "moves_left": MOVES_PER_TURN - turn["moves_used"],
            "moves_used": turn["moves_used"],
            "used_locations": list(turn["used_locations"]),
            "used_names": [state["locations"][n - 1]["name"] for n in turn["used_locations"]],
            "here": where,
            "here_name": self._place_name(state, where),
            "at_stack": where is None,
            "subtasks_left": subtasks_left,
            "use_why": "" if acting and not use_why else use_why,
            "can_use": acting and not use_why,
            "drink": "gnaw a roast boar" if character == "obelix" else "drink the magic potion",
            "can_drink": acting and not drink_why,
            "drink_why": drink_why,
            "double_roll": character == "getafix",
            "can_complete": acting and not complete_why,
            "complete_why": complete_why,
            "can_play": acting and bool(actions_left) and any(seat["hand"].values()),
            "can_pass": acting and bool(actions_left) and bool(partners),
            "can_move": acting and turn["moves_used"] < MOVES_PER_TURN,
            "hand_cards": [{"character": c, "name": CHARACTER_NAMES[c], "count": n}
                           for c, n in seat["hand"].items() if n],
            "ingredients_held": [i for i in INGREDIENTS if seat["ingredients"][i]],
            "potion_outcome": turn["potion_outcome"],
            "potion_hint": POTION_OUTCOMES.get(turn["potion_outcome"] or ""),
            "partners": partners,
        }
