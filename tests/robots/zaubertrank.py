"""Mission Zaubertrank!'s newcomer robot: a family plays the cooperative game on the table and
does only what the coach says on their phones.

The simulated table (``PotionNight``) holds its own pieces and plays by the rulebook: the task
deck, the sixteen two-sided mishap markers drawn from the bag with one side seen, the potion
die, the figures, the Roman on his timeline, every player's ingredients, cards and potion. What
the sources leave unknown comes from the game's own defaults (the six location cards, each
character's usual start, see companion/games/zaubertrank/components.py) or is printed here on
the simulated cards: each character's starting ingredients, what each location gives, the
die's repeated face, the tasks and their reward (one player draws a helper card).

Every player has a phone: a turn is played on the phone of the player whose turn it is. The
family's strategy is simple and cooperative: gather what the next sub-task needs, deliver it
at the task stack, keep markers off a location that would shut. When a location, the die or a
reward gives something, the family takes it and enters it where the card marks; when the card
moves on while the table still has something to enter, the robot says so: a family following
the card would have lost track of it."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.zaubertrank.components import (
    CHARACTERS, DEFAULT_LOCATIONS, INGREDIENTS, SUPPLY_PER_INGREDIENT, SYMBOLS, TASK_CARDS,
)
from tests.robots.harness import Button, Card, Form, Lost, Physical, Tap, Turn

# The simulated character cards: where each figure starts (the game's own guess, which the
# sources leave unknown) and the starting ingredients (printed here).
STARTS = {"asterix": 2, "obelix": 1, "getafix": 3, "dogmatix": 6}
STARTING = {"asterix": {"fish": 1, "mistletoe": 1}, "obelix": {"strawberries": 2},
            "getafix": {"mistletoe": 2}, "dogmatix": {"fish": 1, "strawberries": 1}}
# What the simulated location cards give: the ingredient places 2 of theirs, the Forest 2
# helper cards; the Druid's Cave refills up to 2 potions and the Bard's Hut draws 2 markers
# and takes matching ones off, as the rulebook says.
PLACE_INGREDIENT = {"Fishmonger's stall": "fish", "Mistletoe grove": "mistletoe",
                    "Strawberry patch": "strawberries"}
# The potion die's six faces: five results, one of them twice (the sources do not say which).
DIE = ("ingredient_or_card", "two_ingredients", "three_ingredients", "remove_one_mishap",
       "remove_two_mishaps", "two_ingredients")
FREE_TAPS = ("take_ingredients", "draw_helpers", "remove_mishap", "refill_potion")


@dataclass
class Seat:
    character: str
    location: int | None
    ingredients: dict = field(default_factory=lambda: {i: 0 for i in INGREDIENTS})
    hand: dict = field(default_factory=dict)  # helper cards by whose they are
    potion: bool = True
    boars: int = 3
    chosen: bool = False
    placed: bool = False
    stocked: bool = False


class PotionNight(Physical):
    game = "zaubertrank"

    def __init__(self, seed: int, players=("Mama", "Jonas"), spaces: int = 4,
                 difficulty: str = "one Roman"):
        self.random = random.Random(seed)
        self.players = tuple(players)
        self.phones = self.players  # every player has a phone: a turn is played on its own
        self.options = {"difficulty": difficulty,
                        **{f"location{n}_spaces": str(spaces) for n in range(1, 7)}}
        self.cards = [{"name": name, "symbols": [first, second], "spaces": spaces}
                      for name, _spaces, first, second in DEFAULT_LOCATIONS]
        self.slots: dict[tuple[int, int], tuple[str, str]] = {}  # (card, slot) → its marker
        self.lap = spaces * len(self.cards)
        self.roman = 0
        markers = [symbol for symbol in SYMBOLS for _ in range(4)]
        backs = markers[:]
        self.random.shuffle(backs)
        self.bag = list(zip(markers, backs))  # two-sided: one side is seen when drawn
        self.deck = [self._task_card() for _ in range(TASK_CARDS[difficulty])]
        self.task: dict | None = None
        self.tasks_done = 0
        self.covered = 0
        characters = self.random.sample(CHARACTERS, len(self.players))
        self.seats = {name: Seat(c, STARTS[c]) for name, c in zip(self.players, characters)}
        self.piles = {c: 12 for c in CHARACTERS}
        self.supply = {i: SUPPLY_PER_INGREDIENT for i in INGREDIENTS}
        self.turn: dict | None = None
        self.drawn: tuple[str, str] | None = None  # the marker in the hand, and the side seen
        self.opening = 0
        self.due: list[tuple] = []  # what the table has taken and still has to enter
        self.result: str | None = None

    def _task_card(self) -> dict:
        subtasks = [(self.random.choice(INGREDIENTS), self.random.choice((1, 1, 2))) for _ in range(3)]
        return {"subtasks": subtasks, "reward": "Ein Spieler zieht eine Hilfskarte"}

    # -- the harness's questions ------------------------------------------------------------
    def actor(self, card: Card) -> str | None:
        """At the set-up the card speaks to everyone: the first player still to do the step
        does it on their phone; the rest is done on the host's."""
        flag = {"choose_character": "chosen", "place_figure": "placed",
                "take_ingredients": "stocked"}.get(card.control or "")
        if flag and self.turn is None:
            return next((name for name in self.players if not getattr(self.seats[name], flag)), None)
        return None

    def over(self) -> bool:
        return self.result is not None

    def check_end(self, snapshot: dict) -> None:
        state = snapshot["state"]
        table = {"result": self.result, "tasks done": self.tasks_done, "Roman": self.roman,
                 "markers on the ring": sorted(self.slots), "supply": self.supply}
        app = {"result": state["result"], "tasks done": state["tasks"]["completed"],
               "Roman": state["roman_steps"],
               "markers on the ring": sorted((loc["number"], slot + 1) for loc in state["locations"]
                                             for slot in (0, 1) if loc["covered"][slot]),
               "supply": state["supply"]}
        assert app == table, (app, table)

    # -- one tap ----------------------------------------------------------------------------
    def tap(self, turn: Turn) -> Tap:
        control = turn.card.control
        if self.due and control not in FREE_TAPS:
            raise Lost(f"the table still has {self.due[0]} to enter, and the card moved on to "
                       f"{control}: {turn.card.say!r}")
        if control in FREE_TAPS:
            return self._enter_gain(turn, control)
        handler = getattr(self, f"_{control}", None)
        if handler is None:
            raise Lost(f"the robot's family does not know what to do with {control}: {turn.card.say!r}")
        return handler(turn)

    # -- the set-up ---------------------------------------------------------------------------
    def _enter_task(self, turn: Turn) -> Tap:
        if self.task is not None:
            raise Lost(f"the card asks for a task card while one is face up: {turn.card.say!r}")
        self.task, self.covered = self.deck.pop(0), 0
        values = {"reward": self.task["reward"]}
        for key, (ingredient, quantity) in zip(("first", "second", "third"), self.task["subtasks"]):
            values[f"{key}_ingredient"], values[f"{key}_quantity"] = ingredient, str(quantity)
        return Tap(_one(turn.marked, "the task card's form"), values)

    def _choose_character(self, turn: Turn) -> Tap:
        seat = self.seats[turn.seat]
        form = _one([f for f in turn.marked if f.fields.get("player") == turn.seat],
                    f"{turn.seat}'s character form")
        seat.chosen = True
        return Tap(form, button=_button(form, seat.character))

    def _place_figure(self, turn: Turn) -> Tap:
        seat = self.seats[turn.seat]
        if not seat.chosen:
            raise Lost(f"{turn.seat} is asked for a start place before a character")
        form = _one([f for f in turn.marked if f.fields.get("player") == turn.seat],
                    f"{turn.seat}'s start place form")
        seat.location, seat.placed = STARTS[seat.character], True
        return Tap(form, button=_button(form, str(seat.location)))

    def _take_start(self, turn: Turn) -> Tap:
        seat = self.seats[turn.seat]
        form = _one(turn.marked, "the starting ingredients' form")
        if form.fields.get("player", turn.seat) != turn.seat:
            raise Lost(f"{turn.seat}'s phone offers someone else's starting ingredients")
        seat.stocked = True
        for ingredient, count in STARTING[seat.character].items():
            self.supply[ingredient] -= count
            seat.ingredients[ingredient] += count
        return Tap(form, {i: str(n) for i, n in STARTING[seat.character].items()})

    def _begin_play(self, turn: Turn) -> Tap:
        if not all(s.chosen and s.placed and s.stocked for s in self.seats.values()) or self.opening < 2:
            raise Lost(f"the card begins play before the set-up is done: {turn.card.say!r}")
        starter = self.random.choice(self.players)
        self.turn = self._new_turn(starter)
        form = _one(turn.marked, "the start player's form")
        return Tap(form, button=_button(form, starter))

    # -- the mishap markers ---------------------------------------------------------------------
    def _roman_card(self) -> int:
        return (self.roman % self.lap) // self.cards[0]["spaces"] + 1

    def _free(self, symbol: str) -> list[tuple[int, int]]:
        return [(number, slot) for number, card in enumerate(self.cards, start=1)
                for slot, printed in enumerate(card["symbols"], start=1)
                if printed == symbol and (number, slot) not in self.slots
                and number != self._roman_card()]

    def _shuts(self, space: tuple[int, int]) -> bool:
        return (space[0], 3 - space[1]) in self.slots

    def _draw_mishap(self, turn: Turn) -> Tap:
        marker = self.bag.pop(self.random.randrange(len(self.bag)))
        seen = marker[self.random.randrange(2)]
        form = _one(turn.marked, "the mishap draw")
        if self._free(seen):
            self.drawn = (marker, seen)
        else:  # it fits nowhere: back into the bag; in a turn the Roman marches 2 more
            self.bag.append(marker)
            if self.turn is not None:
                self._roman_steps(2)
                if self.result is None:
                    self._next_turn()
        return Tap(form, button=_button(form, seen))

    def _place_mishap(self, turn: Turn) -> Tap:
        if self.drawn is None:
            raise Lost(f"the card places a marker the table has not drawn: {turn.card.say!r}")
        marker, seen = self.drawn
        spaces = sorted(self._free(seen), key=self._shuts)  # rather not shut a location
        space = spaces[0]
        form = _one([f for f in turn.marked if (f.fields.get("location"), f.fields.get("slot"))
                     == (str(space[0]), str(space[1]))], f"the place form for card {space}")
        self.slots[space], self.drawn = marker, None
        if self.turn is None:
            self.opening += 1
        else:
            self._next_turn()
        return Tap(form)

    # -- the turn -------------------------------------------------------------------------------
    def _new_turn(self, name: str) -> dict:
        return {"player": name, "actions": 0, "moves": 0, "used": set(), "subtasks": 0}

    def _next_turn(self) -> None:
        players = self.players
        self.turn = self._new_turn(players[(players.index(self.turn["player"]) + 1) % len(players)])

    def _on_turn(self, turn: Turn) -> tuple[str, Seat]:
        name = self.turn["player"]
        if turn.seat != name:
            raise Lost(f"{turn.seat}'s phone acts in {name}'s turn: {turn.card.say!r}")
        return name, self.seats[name]

    def _need(self) -> tuple[str, int] | None:
        return self.task["subtasks"][self.covered] if self.task else None

    def _roman_steps(self, steps: int) -> None:
        self.roman = min(self.roman + steps, self.lap)
        if self.roman >= self.lap:
            self.result = "lost"

    def _advance_roman(self, turn: Turn) -> Tap:
        self._on_turn(turn)
        self._roman_steps(1)
        return Tap(_one(turn.marked, "the Roman's step"))

    def _usable(self, number: int) -> bool:
        return not ((number, 1) in self.slots and (number, 2) in self.slots) \
            and number not in self.turn["used"]

    def _move(self, turn: Turn) -> Tap:
        name, seat = self._on_turn(turn)
        need = self._need()
        limit = 2 if seat.character == "obelix" else 1
        if need and seat.ingredients[need[0]] >= need[1] and self.turn["subtasks"] < limit \
                and seat.location is not None:
            goal = None
        else:
            wanted = need[0] if need else self.random.choice(INGREDIENTS)
            places = [n for n, card in enumerate(self.cards, start=1)
                      if n != seat.location and self._usable(n)]
            ranked = sorted(places, key=lambda n: (PLACE_INGREDIENT.get(self.cards[n - 1]["name"]) != wanted,
                                                   self.random.random()))
            goal = ranked[0] if ranked else (None if seat.location is not None else 1)
        seat.location = goal
        self.turn["moves"] += 1
        form = _one(turn.marked, "the move form")
        return Tap(form, button=_button(form, "" if goal is None else str(goal)))

    def _use_location(self, turn: Turn) -> Tap:
        name, seat = self._on_turn(turn)
        number = seat.location
        if number is None or not self._usable(number):
            raise Lost(f"the card has {name} use a location the table cannot: {turn.card.say!r}")
        self.turn["actions"] += 1
        self.turn["used"].add(number)
        place = self.cards[number - 1]["name"]
        if place in PLACE_INGREDIENT:
            ingredient = PLACE_INGREDIENT[place]
            self._take(name, {ingredient: 2})
        elif place == "Forest":
            self._draw(name, 2)
        elif place == "Druid's Cave":
            for other in self.players:
                if len(self.due) < 2 and not self.seats[other].potion and self.seats[other].character != "obelix":
                    self.seats[other].potion = True
                    self.due.append(("refill_potion", other))
        elif place == "Bard's Hut":
            drawn = [self.bag.pop(self.random.randrange(len(self.bag))) for _ in range(2)]
            for marker in drawn:
                seen = marker[self.random.randrange(2)]
                lying = [space for space in sorted(self.slots, key=lambda s: not self._shuts(s))
                         if self.cards[space[0] - 1]["symbols"][space[1] - 1] == seen]
                if lying:
                    self._remove(lying[0])
            self.bag.extend(drawn)
        return Tap(_one(turn.marked, "the location's form"))

    def _complete_subtask(self, turn: Turn) -> Tap:
        name, seat = self._on_turn(turn)
        ingredient, quantity = self._need()
        if seat.location is not None or seat.ingredients[ingredient] < quantity:
            raise Lost(f"the card has {name} deliver what the table cannot: {turn.card.say!r}")
        seat.ingredients[ingredient] -= quantity
        self.supply[ingredient] += quantity
        self.turn["actions"] += 1
        self.turn["subtasks"] += 1
        self.covered += 1
        if self.covered == 3:
            self.tasks_done += 1
            self.task = None
            if not self.deck:
                self.result = "won"
            else:  # the reward: the player with the fewest cards draws one
                drawer = min((p for p in self.players if self.piles[self.seats[p].character]),
                             key=lambda p: sum(self.seats[p].hand.values()), default=None)
                if drawer:
                    self._draw(drawer, 1)
        return Tap(_one(turn.marked, "the sub-task's form"))

    def _drink_potion(self, turn: Turn) -> Tap:
        name, seat = self._on_turn(turn)
        rolls = [self.random.choice(DIE) for _ in range(2 if seat.character == "getafix" else 1)]
        outcome = max(rolls, key=lambda face: DIE.index(face) if face != "ingredient_or_card" else -1)
        self.turn["actions"] += 1
        if seat.character == "obelix":
            seat.boars -= 1
        else:
            seat.potion = False
        need = self._need()
        wanted = need[0] if need else INGREDIENTS[0]
        if outcome == "ingredient_or_card":
            if any(self.supply.values()):
                self._take(name, {wanted: 1})
            else:
                self._draw(name, 1)
        elif outcome in ("two_ingredients", "three_ingredients"):
            self._take(name, {wanted: 2 if outcome == "two_ingredients" else 3})
        else:
            for space in sorted(self.slots, key=lambda s: not self._shuts(s))[:1 if outcome == "remove_one_mishap" else 2]:
                self._remove(space)
        form = _one(turn.marked, "the potion's form")
        values = {}
        if len(rolls) == 2:
            other = rolls[1] if rolls[0] == outcome else rolls[0]
            values["other_roll"] = other
        return Tap(form, values, _button(form, outcome))

    def _pass_items(self, turn: Turn) -> Tap:
        name, seat = self._on_turn(turn)
        form = _one(turn.marked, "the pass form")
        partner = form.fields["to_player"]
        held = next((i for i in INGREDIENTS if seat.ingredients[i]), None)
        self.turn["actions"] += 1
        if held:
            seat.ingredients[held] -= 1
            self.seats[partner].ingredients[held] += 1
            return Tap(form, {"ingredient": held})
        card = next(c for c, n in seat.hand.items() if n)
        seat.hand[card] -= 1
        self.seats[partner].hand[card] = self.seats[partner].hand.get(card, 0) + 1
        return Tap(form, {"card": card})

    def _play_helpers(self, turn: Turn) -> Tap:
        name, seat = self._on_turn(turn)
        card = next(c for c, n in seat.hand.items() if n)
        seat.hand[card] -= 1  # what its text does is not known: the family plays it for nothing
        self.turn["actions"] += 1
        return Tap(_one(turn.marked, "the helper cards' form"), {"card": card})

    # -- what a location, the die or a reward gave, as the table takes it -----------------------
    def _take(self, name: str, wanted: dict) -> None:
        taken = {}
        for ingredient, count in wanted.items():
            count = min(count, self.supply[ingredient])
            if count:
                self.supply[ingredient] -= count
                self.seats[name].ingredients[ingredient] += count
                taken[ingredient] = count
        if taken:
            self.due.append(("take_ingredients", name, taken))

    def _draw(self, name: str, count: int) -> None:
        character = self.seats[name].character
        drawn = min(self.piles[character], count + (1 if character == "asterix" else 0))
        if drawn:
            self.piles[character] -= drawn
            self.seats[name].hand[character] = self.seats[name].hand.get(character, 0) + drawn
            self.due.append(("draw_helpers", name, count))

    def _remove(self, space: tuple[int, int]) -> None:
        self.bag.append(self.slots.pop(space))
        self.due.append(("remove_mishap", space))

    def _enter_gain(self, turn: Turn, control: str) -> Tap:
        """The next thing the table took, entered on the marked form; "Nothing more" (which the
        card names) once the table has entered all it took."""
        if self.turn is None:
            return self._take_start(turn)
        if not self.due:
            return Tap(turn.named("end_gain"))
        kind, *what = self.due[0]
        if kind != control:
            raise Lost(f"the table took {self.due[0]} and the card marks {control}: {turn.card.say!r}")
        self.due.pop(0)
        if kind == "take_ingredients":
            name, taken = what
            form = _one([f for f in turn.marked if not f.folded] or turn.marked, "a take form")
            return Tap(form, {"player": name, **{i: str(n) for i, n in taken.items()}})
        if kind == "draw_helpers":
            name, count = what
            form = _one([f for f in turn.marked if f.fields.get("player") == name and not f.folded]
                        or [f for f in turn.marked if f.fields.get("player") == name],
                        f"{name}'s draw form")
            return Tap(form, button=_button(form, str(count)))
        if kind == "refill_potion":
            (name,) = what
            form = _one([f for f in turn.marked if f.fields.get("player") == name and not f.folded]
                        or [f for f in turn.marked if f.fields.get("player") == name],
                        f"{name}'s refill form")
            return Tap(form)
        (space,) = what
        forms = [f for f in turn.marked if (f.fields.get("location"), f.fields.get("slot"))
                 == (str(space[0]), str(space[1]))]
        return Tap(_one([f for f in forms if not f.folded] or forms, f"the form taking {space} off"))


def _one(forms: list[Form], what: str) -> Form:
    if not forms:
        raise Lost(f"the card marks no {what}")
    return forms[0]


def _button(form: Form, value: str) -> Button:
    found = next((b for b in form.buttons if (b.value or "") == value), None)
    if found is None:
        raise Lost(f"the marked {form.action} form has no button for {value!r}: "
                   f"{[b.value for b in form.buttons]}")
    return found
