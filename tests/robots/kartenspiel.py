"""Das Kartenspiel's newcomer robot: a family plays four rounds with a real deck beside the phones.

The physical game, as the rulebook has it: the 44 Romans (1 to 10 four times, 11 to 14 once)
and 6 pirates shuffled by a seeded ``random.Random``; each player holds ten Gauls (1 to 10, with
1 to 4 flasks each) and a Dogmatix. A trick: the top card is turned up, everyone lays a card face
down and all reveal; the highest Gaul (more flasks on equal values; equal flasks: the earlier
seat, as the family agreed when the coach told them to) wins the Roman and is discarded, the
others go back into their hands; a pirate the other way round. Dogmatix looks at the next card
and keeps it or gives it away. The last player holding cards draws one card per card held.

The family knows only what the coach's cards have said: they play Dogmatix once a card has told
them how, resolve a tie of flasks once told how, and the robot fails where the table would need
a rule no card has said yet (how a trick works before the first, what a pirate does, that a
pirate drawn at the end is kept, that Dogmatix may not be the last card). A choice belongs to
one player: the robot fails when another seat's phone may make it. Some seeds play one round
without the phones and type its piles in afterwards, as the family in issue 39 did; the card
must then ask for every pile before closing the round. At the end the companion's totals must
equal the family's own count, done apart from the companion with the same escape order."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tests.robots.harness import Card, Form, Lost, Physical, Tap, Turn

PIRATES = ("highest", "lowest", "choice", "dekurio", "zenturio", "general")
ESCAPE_ORDER = ("dekurio", "zenturio", "general", "highest", "lowest", "choice")
RANKS = {"dekurio": None, "zenturio": 10, "general": None}  # the table's default settings
BONUS = {2: 20, 3: 50, 4: 100}
HIGH = (11, 12, 13, 14)  # the default single high Romans
GAULS = ("asterix", "obelix", "majestix", "miraculix", "troubadix")

# What a card must have said before the family can do a step at the table: German words, any
# one group of them. A step of the table checks the facts it needs against what was read.
FACTS = {
    "trick": [("verdeckt", "abgeworfen", "Hand")],  # lay face down; the winner's Gaul goes
    "pirate": [("Pirat", "umgekehrt"), ("Pirat", "zurück auf die Hand"),
               ("Pirat", "behält seinen Gallier")],  # a pirate won: the other way round
    "pirate tap": [("☠",)],  # where a pirate is tapped
    "dogmatix": [("oberste Karte", "Behältst du sie")],  # look, keep or give
    "flasks": [("Flaschen",)],
    "flask tie": [("Einigt euch",)],
}


def flasks(gaul: str, value: int) -> int:
    """The flasks printed on a Gaul card (1 to 4): equal values of two characters often differ."""
    return 1 + (value * 3 + GAULS.index(gaul) * 2) % 4


@dataclass
class Hand:
    gauls: list[int]
    dog: bool = True

    def cards(self) -> int:
        return len(self.gauls) + (1 if self.dog else 0)


@dataclass
class Pile:
    romans: list[int] = field(default_factory=list)
    pirates: list[str] = field(default_factory=list)
    choice: int | None = None  # the Roman the owner lets escape for the pirate of choice


def left_after(romans: list[int], pirates: list[str], upto: str) -> list[int]:
    """The Romans a pile keeps after its pirates up to (not including) ``upto`` escaped."""
    left = list(romans)
    for kind in ESCAPE_ORDER:
        if kind == upto:
            break
        if kind in pirates:
            target = _target(left, kind)
            if target is not None:
                left.remove(target)
    return left


def _target(left: list[int], kind: str) -> int | None:
    if kind in RANKS:
        return RANKS[kind] if RANKS[kind] in left else None
    if not left:
        return None
    return max(left) if kind == "highest" else min(left)


def score(pile: Pile) -> int:
    """The family's own count of a pile: escapes in the order the companion documents, then
    the values and the set bonuses."""
    left = left_after(pile.romans, pile.pirates, "choice")
    if "choice" in pile.pirates and left:
        chosen = pile.choice if len(set(left)) >= 2 else left[0]
        left.remove(chosen)
    return sum(left) + sum(BONUS.get(left.count(value), 0) for value in set(left))


class CardNight(Physical):
    """One family's evening of Das Kartenspiel; ``typed_round``: the round played without the
    phones and typed in at its end (0: none)."""

    game = "kartenspiel"

    def __init__(self, seed: int, players: tuple[str, ...], phones: tuple[str, ...],
                 typed_round: int = 0, rounds: int = 4):
        self.random = random.Random(seed)
        self.players, self.phones = players, phones
        self.options = {"rounds": str(rounds)} if rounds != 4 else {}
        self.rounds, self.typed_round = rounds, typed_round
        self.gaul = dict(zip(players, GAULS))
        self.round = 0
        self.totals = {name: 0 for name in players}
        self.learned: set[str] = set()
        self.queue: list[tuple] = []  # the taps the table owes the phones, in order
        self.robot_phones: dict = {}  # seat → phone, to look at the other phones
        self.finished = False
        self.untapped = False  # a round played from what the family knows, without phones
        self.alone: list[str] = []  # players whose trick now may leave Dogmatix alone
        self._new_round()

    # -- the physical table -----------------------------------------------------------------
    def _new_round(self) -> None:
        self.round += 1
        self.deck = [value for value in range(1, 11) for _ in range(4)] + list(HIGH) + list(PIRATES)
        self.random.shuffle(self.deck)
        self.hands = {name: Hand(list(range(1, 11))) for name in self.players}
        self.piles = {name: Pile() for name in self.players}
        self.face_up = None
        self.stage = "tricks"
        if self.round == self.typed_round:
            self._play_untapped()

    def holding(self) -> list[str]:
        return [name for name in self.players if self.hands[name].cards()]

    def _trick(self) -> None:
        """One trick at the table, queueing its taps (what the phones must be told)."""
        if self.face_up is None:
            self.face_up = self.deck.pop(0)
        card = self.face_up
        holding = self.holding()
        self.alone = [name for name in holding
                      if self.hands[name].dog and len(self.hands[name].gauls) == 1]
        played = {name: self._choose(name, card, holding) for name in holding}
        dogs = [name for name, gaul in played.items() if gaul is None]
        gauls = {name: gaul for name, gaul in played.items() if gaul is not None}
        if not gauls:  # everyone played Dogmatix: the Roman stays face up (the companion's ruling)
            return
        winner = self._winner(gauls)
        self.face_up = None
        if len(dogs) == 1 and self.deck:
            self._look(dogs[0])  # tapped first: the trick may leave only one player in
        if isinstance(card, str):
            self.need("pirate")
            self.piles[winner].pirates.append(card)
            for name in gauls:
                if name != winner:
                    self._spend(name, gauls[name])
            self.queue.append(("trick pirate", winner, card))
        else:
            self.piles[winner].romans.append(card)
            self._spend(winner, gauls[winner])
            self.queue.append(("trick", winner, card))
        self._after_trick()

    def _choose(self, name: str, card, holding: list[str]) -> int | None:
        """A simple player: Dogmatix now and then once the coach has explained it (never on a
        pirate, never as the last card), else a high Gaul for a high Roman, a low one else."""
        hand = self.hands[name]
        if (hand.dog and hand.gauls and not isinstance(card, str) and len(self.deck) >= 1
                and "dogmatix" in self.learned and self.random.random() < 0.12):
            return None
        if isinstance(card, str) or card <= 4:
            return min(hand.gauls)
        if card >= 9:
            return max(hand.gauls)
        return self.random.choice(hand.gauls)

    def _winner(self, gauls: dict[str, int]) -> str:
        best = max(gauls.values())
        tied = [name for name in self.players if gauls.get(name) == best]
        if len(tied) > 1:
            self.need("flasks")
            most = max(flasks(self.gaul[name], best) for name in tied)
            tied = [name for name in tied if flasks(self.gaul[name], best) == most]
            if len(tied) > 1:
                self.need("flask tie")  # the earlier seat takes it, as the family agreed
        return tied[0]

    def _spend(self, name: str, gaul: int) -> None:
        hand = self.hands[name]
        hand.gauls.remove(gaul)
        if not hand.gauls:
            hand.dog = False  # Dogmatix may never be the last card: it is discarded

    def _look(self, name: str) -> None:
        top = self.deck.pop(0)
        others = [other for other in self.players if other != name]
        keep = (isinstance(top, int) and top >= 6) or (isinstance(top, str) and self.random.random() < 0.5)
        receiver = name if keep else self.random.choice(others)
        if isinstance(top, str):
            self.piles[receiver].pirates.append(top)
            self.hands[name].dog = keep  # keeping a pirate keeps Dogmatix
        else:
            self.piles[receiver].romans.append(top)
            self.hands[name].dog = not keep
        if self.hands[name].dog and not self.hands[name].gauls:
            self.hands[name].dog = False
        self.queue.append(("look", name, top, receiver))

    def _after_trick(self) -> None:
        holding = self.holding()
        if not self.deck and self.face_up is None:
            self.stage = "scoring"
        elif len(holding) == 1:
            self.stage = "last"
            self.last = holding[0]
            self.queue.append(("last", holding[0], self.hands[holding[0]].cards(),
                               self.hands[holding[0]].dog))
        elif not holding:
            self.stage = "scoring"

    def _draws(self) -> None:
        hand = self.hands[self.last]
        for _ in range(min(hand.cards(), len(self.deck))):
            card = self.deck.pop(0)
            if isinstance(card, str):
                self.piles[self.last].pirates.append(card)
            else:
                self.piles[self.last].romans.append(card)
            self.queue.append(("draw", self.last, card))
        self.hands[self.last] = Hand([], False)
        self.stage = "scoring"

    def _play_untapped(self) -> None:
        """The whole round at the table, then every pile typed in: pirates, then Romans."""
        self.untapped = True
        while self.stage == "tricks":
            self._trick()
            self.queue = []
        if self.stage == "last":
            self._draws()
            self.queue = []
        self.untapped = False
        for name in self.players:
            for kind in self.piles[name].pirates:
                self.queue.append(("type pirate", name, kind))
            typed = " ".join(map(str, self.piles[name].romans)) or "0"  # 0: no Romans
            self.queue.append(("type romans", name, typed))

    def need(self, fact: str) -> None:
        if fact not in self.learned and not self.untapped:
            raise Lost(f"round {self.round}: the table needs to know this now, and no card said it: "
                       f"{fact} ({' or '.join(' + '.join(words) for words in FACTS[fact])})")

    # -- the harness's questions ----------------------------------------------------------------
    def actor(self, card: Card) -> str | None:
        """The phone of whoever the next tap concerns (a trick's winner taps it), else the host's."""
        self._learn(card)  # the whole table reads the card before it plays
        self._next()
        step = self.queue[0] if self.queue else None
        if step and step[0] in ("trick", "trick pirate", "look", "type pirate", "type romans"):
            return step[1]
        return None

    def _next(self) -> None:
        """Play the table on until it owes the phones a tap (or only the scoring is left)."""
        while not self.queue and self.stage in ("tricks", "last") and not self.finished:
            if self.stage == "tricks":
                self._trick()
            else:
                self._draws()

    def over(self) -> bool:
        return self.finished

    def tap(self, turn: Turn) -> Tap:
        self._learn(turn.card)
        self._next()
        if not self.queue:
            return self._scoring(turn)
        step = self.queue[0]
        kind = step[0]
        if turn.card.control == "close_round":
            raise Lost(f"round {self.round}: the card says to close the round while the table "
                       f"still owes the phones {kind} {step[1:]}: {turn.card.say!r}")
        if kind in ("type pirate", "type romans"):
            return self._typing(turn, step)
        self.queue.pop(0)
        if self.alone and kind in ("trick", "trick pirate", "look"):
            self._warned(turn)
        if kind == "trick":
            self.need("trick")
            return self._win(turn, step[1], step[2])
        if kind == "trick pirate":
            self.need("trick")
            self.need("pirate tap")
            return self._pirate(turn, step[1], step[2], "#ks-pirate-menu > summary")
        if kind == "look":
            return self._look_tap(turn, step)
        if kind == "last":
            return self._last(turn, step)
        if kind == "draw":
            return self._draw(turn, step)
        raise Lost(f"the table cannot tell the phones about {kind}")

    def _learn(self, card: Card) -> None:
        text = card.text.casefold()
        for fact, groups in FACTS.items():
            if any(all(word.casefold() in text for word in words) for words in groups):
                self.learned.add(fact)

    def _warned(self, turn: Turn) -> None:
        """A player left with one Gaul and Dogmatix must be told, before the trick, that
        Dogmatix may not be the last card (so it is lost with that Gaul)."""
        alone, self.alone = self.alone, []
        if "letzte Karte" not in turn.card.text:
            raise Lost(f"round {self.round}: {alone[0]} holds one Gaul and Dogmatix, and the card "
                       f"does not say that Dogmatix may not be the last card: {turn.card.say!r}")

    # -- taps ------------------------------------------------------------------------------------
    def _marked(self, turn: Turn, action: str) -> Form:
        form = next((form for form in turn.marked if form.action == action), None)
        if form is None:
            raise Lost(f"the card marks {turn.card.control}, the table needs {action}: {turn.card.say!r}")
        return form

    def _named(self, turn: Turn, action: str, words: str, fields: dict | None = None) -> Form:
        """A form the card names in words rather than marks (a menu by its title)."""
        if words.casefold() not in turn.card.text.casefold():
            raise Lost(f"the card does not say where to tap {action} ({words!r}): {turn.card.say!r}")
        for form in turn.forms:
            if form.action == action and all(form.fields.get(k) == v for k, v in (fields or {}).items()):
                return form
        raise Lost(f"{turn.seat}'s phone offers no {action} form {fields or ''}")

    def _button(self, form: Form, name: str, value: str):
        button = next((b for b in form.buttons if b.name == name and b.value == value), None)
        if button is None:
            raise Lost(f"the {form.action} form has no button {name}={value}: {form.text[:120]!r}")
        return button

    def _win(self, turn: Turn, winner: str, value: int) -> Tap:
        form = self._marked(turn, "win_roman")
        if "value" in form.offered and str(value) not in form.offered["value"]:
            raise Lost(f"the trick's form offers no Roman worth {value}")
        if "value" in form.offered:  # a trick: the value chosen, the winner's button
            return Tap(form, {"value": str(value)}, self._button(form, "player", winner))
        return Tap(form, {}, self._button(form, "value", str(value)))  # a draw

    def _pirate(self, turn: Turn, winner: str, kind: str, opener: str) -> Tap:
        form = self._named(turn, "win_pirate", "☠", {"kind": kind})
        return Tap(form, {}, self._button(form, "player", winner), opener=opener)

    def _look_tap(self, turn: Turn, step: tuple) -> Tap:
        _, name, top, receiver = step
        self.need("dogmatix")
        form = self._named(turn, "idefix_look", "Idefix schaut nach")
        values = {"player": name, **({"pirate": top} if isinstance(top, str) else {"roman": str(top)})}
        button = self._button(form, "given_to", "" if receiver == name else receiver)
        return Tap(form, values, button, opener="#ks-idefix-menu > summary")

    def _last(self, turn: Turn, step: tuple) -> Tap:
        _, name, cards, dog = step
        form = self._marked(turn, "last_player")
        if ("idefix_among" in form.fields) != dog:
            raise Lost(f"the companion's taps and the table disagree about {name}'s Dogmatix")
        return Tap(form, {}, self._button(form, "cards_left", str(cards)))

    def _draw(self, turn: Turn, step: tuple) -> Tap:
        _, name, card = step
        if "Pirat" not in turn.card.say:
            raise Lost(f"{name} draws the last cards, and the card on that phone does not say what "
                       f"a pirate drawn now means: {turn.card.say!r}")
        if isinstance(card, str):
            form = self._named(turn, "win_pirate", "☠", {"player": name})
            return Tap(form, {}, self._button(form, "kind", card))
        return self._win(turn, name, card)

    def _typing(self, turn: Turn, step: tuple) -> Tap:
        """A round played without the phones: the host starts typing it in on their own; after
        that, every step must be what the card asks for."""
        started = turn.card.control == "enter_romans"
        self.queue.pop(0)
        if step[0] == "type pirate":
            _, name, kind = step
            if started and "Pirat" not in turn.card.text:
                raise Lost(f"the card does not say to add the pirates: {turn.card.say!r}")
            form = next(form for form in turn.forms if form.action == "add_pirate" and "ks-entry" in form.classes)
            return Tap(form, {"player": name}, self._button(form, "kind", kind),
                       opener="#direct-entry > summary")
        _, name, values = step
        form = next((form for form in turn.forms if form.action == "enter_romans"
                     and form.fields.get("player") == name), None)
        if form is None:
            raise Lost(f"{turn.seat}'s phone offers no form to type in {name}'s Romans")
        if started and form not in turn.marked:
            raise Lost(f"the card does not mark {name}'s Romans: {turn.card.say!r}")
        return Tap(form, {"values": values}, opener="#direct-entry > summary")

    def _scoring(self, turn: Turn) -> Tap:
        control = turn.card.control
        if control == "choose_escape":
            return self._choice(turn)
        if control != "close_round":
            raise Lost(f"round {self.round} is over at the table, and the card marks {control}: "
                       f"{turn.card.say!r}")
        for name in self.players:
            pile = self.piles[name]
            left = left_after(pile.romans, pile.pirates, "choice")
            if "choice" in pile.pirates and len(set(left)) >= 2 and pile.choice is None:
                raise Lost(f"the card closes round {self.round} before {name} chose the Roman "
                           f"that escapes: {turn.card.say!r}")
        form = self._marked(turn, "close_round")
        for name in self.players:
            self.totals[name] += score(self.piles[name])
        if self.round >= self.rounds:
            self.finished = True
        else:
            self._new_round()
        return Tap(form)

    def _choice(self, turn: Turn) -> Tap:
        """The owner lets the lowest Roman go (a family's choice, not always the cheapest); no
        other player's phone may make it."""
        owner = next(name for name in self.players if "choice" in self.piles[name].pirates)
        if turn.card.player != owner:
            raise Lost(f"the card gives {owner}'s choice to {turn.card.player}: {turn.card.say!r}")
        for seat, phone in self.robot_phones.items():
            if seat in (owner, self.phones[0]):
                continue
            if any(form.action == "choose_escape" and form.enabled for form in phone.read().forms):
                raise Lost(f"{owner}'s choice of the escaping Roman is open on {seat}'s phone too")
        pile = self.piles[owner]
        pile.choice = min(left_after(pile.romans, pile.pirates, "choice"))
        form = next((form for form in turn.marked if form.fields.get("player") == owner), None)
        if form is None:
            raise Lost(f"the card marks no choice form for {owner} on {turn.seat}'s phone")
        return Tap(form, {}, self._button(form, "value", str(pile.choice)))

    def check_end(self, snapshot: dict) -> None:
        assert snapshot["finished"], snapshot["status"]
        assert snapshot["scores"] == self.totals, (snapshot["scores"], self.totals)
