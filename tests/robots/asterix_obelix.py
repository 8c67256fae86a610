"""Asterix & Obelix's newcomer robot: Lena and Ben play the card game on the table, each with
a phone, doing only what the coach card says.

The physical game follows the rulebook (sources/asterix-obelix-rulebook.txt): the 40 Roman
cards set up with the 2-feast pile on top of the 3-feast pile, 16 dealt face down as the
tortoise, the rest as the supply; each player's 15 fight cards shuffled, 5 in hand. An attack
turns the cards of one line in order; a soldier takes a fight card of its colour, a pirate any
one, the traitor two of one colour; a feast costs nothing, the fifth ends the game; the boar
ends the attack with the catch kept; a card the hand cannot beat fails the attack. A player's
choices (who starts, which line, when to stop, a further attack, a peek, the block) come from a
simple strategy and the seeded random numbers, and only among what the card marks or names by
its button's words. The tidying up after an attack (the hand drawn back to 5, the holes filled
from the supply, the discards shuffled when a draw pile runs out) happens at the table only
when the card says so: a card that leaves a step out loses the family."""

from __future__ import annotations

import random
import re

from tests.robots.harness import GERMAN, Card, Form, HttpPhone, Lost, Page, Physical, Tap, Turn, parse_page

COLOURS = ("red", "blue", "yellow", "green", "purple")
COST = {"legionary": 1, "centurion": 1, "pirate": 1, "traitor": 2}
# How the German card says each step of the tidying up (full sentence or one line).
SAYS_DRAW = re.compile(r"kampfkarte|auffüll|auf 5 auf", re.I)
SAYS_HOLES = re.compile(r"lücke|vorrat", re.I)
SAYS_SHUFFLE = re.compile(r"misch", re.I)
# A player is Lena or Ben: the German card names them, never "sein …" (Lena is not a he).
PRONOUN = re.compile(r"\bsein(e|en|em|er|es)?\b", re.I)


# Parts of the table page this robot never reads (no form, no card): left out of the parsing,
# which is most of each step's time.
UNREAD = re.compile(r'<head>.*?</head>|<section id="(history|odds|piles|seats|scoring|host)".*?</section>', re.S)


class LightPhone(HttpPhone):
    """A phone over HTTP that parses only the parts of the page that hold the card and forms."""

    def read(self) -> Page:
        response = self.phone.get(f"/t/{self.phone.code}", headers=GERMAN)
        assert response.status_code == 200, response.status_code
        return parse_page(UNREAD.sub("", response.get_data(as_text=True)))


def card_of(kind: str, colour: str | None = None) -> dict:
    return {"kind": kind, "colour": colour}


class Tortoise(Physical):
    game = "asterix-obelix"
    players = ("Lena", "Ben")
    phones = ("Lena", "Ben")

    def __init__(self, seed: int, options: dict[str, str] | None = None):
        self.random = random.Random(seed)
        self.options = options or {}
        self.blocking = "blocking__present" not in self.options
        self.reshuffle = self.options.get("fight_cards_out", "reshuffle") == "reshuffle"
        self.grid, self.supply = self.deal()
        self.hand, self.pile, self.discard = {}, {}, {}
        for name in self.players:
            fight = [colour for colour in COLOURS for _ in range(3)]
            self.random.shuffle(fight)
            self.hand[name], self.pile[name], self.discard[name] = fight[:5], fight[5:], []
        self.secured: dict[str, list[dict]] = {name: [] for name in self.players}
        self.out: list[dict] = []
        self.feasts = 0  # beside the formation
        self.attacker: str | None = None  # whose attack it is, or was last
        self.turn_passed = False  # the next line is chosen by the other player
        self.attack: dict | None = None
        self.due: dict | None = None  # the tidying up the next card must say
        self.ended = False
        self.seen: list[str] = []  # every card's words, for the report

    # -- the set-up, as the rulebook says ---------------------------------------------------
    def deal(self) -> tuple[list[list[dict]], list[dict]]:
        others = [card_of(kind, colour) for colour in COLOURS
                  for kind in ["legionary"] * 5 + ["centurion"]]
        others += [card_of("pirate")] * 3 + [card_of("traitor"), card_of("boar")]
        self.random.shuffle(others)
        upper, lower = others[:len(others) // 2] + [card_of("feast")] * 2, others[len(others) // 2:] + [card_of("feast")] * 3
        self.random.shuffle(upper)
        self.random.shuffle(lower)
        deck = upper + lower  # the pile with two feasts on top
        grid = [[{"card": deck[r * 4 + c], "state": "down", "known": False} for c in range(4)] for r in range(4)]
        return grid, deck[16:]

    # -- what the harness asks ---------------------------------------------------------------
    def over(self) -> bool:
        return self.ended

    def tap(self, turn: Turn) -> Tap:
        try:
            tap = self.play(turn)
        except Lost as lost:  # with the cards that came before, as the harness's own refusals
            raise Lost(f"{lost}\n  the cards before:\n  " + "\n  ".join(self.seen[-6:])) from None
        self.seen.append(f"{turn.seat}: {turn.card.say} → {tap.form.action} "
                         f"{tap.button.value if tap.button else ''}")
        return tap

    def play(self, turn: Turn) -> Tap:
        card = turn.card
        if PRONOUN.search(card.say):
            raise Lost(f"the card calls a player 'sein': {card.say!r}")
        if self.due is not None:
            self.tidy_up(card)
        action = card.control
        expected = self.other() if self.turn_passed else self.attacker
        if expected is not None and card.player != expected:
            raise Lost(f"the card names {card.player}, but it is {expected}'s turn at the table: {card.say!r}")
        if action == "start_game":
            return self.start(turn)
        if action == "choose_line":
            return self.choose(turn, turn.marked)
        if action == "beat_card":
            return self.answer(turn)
        if action == "fill_hole":
            return self.fill(turn)
        if action == "block_line":
            return self.block(turn)
        if action in ("reveal_card", "further_attack", "end_attack"):
            return self.attack_on(turn)
        raise Lost(f"the robot does not know the control {action!r}: {card.say!r}")

    # -- the moves -------------------------------------------------------------------------
    def start(self, turn: Turn) -> Tap:
        self.attacker = self.random.choice(self.players)  # "the strongest player starts"
        form = turn.marked[0]
        return Tap(form, button=next(b for b in form.buttons if b.value == self.attacker))

    def other(self) -> str:
        return self.players[1] if self.attacker == self.players[0] else self.players[0]

    def choose(self, turn: Turn, arrows: list[Form]) -> Tap:
        """A line among the arrows offered: a full one if there is, not one whose first card is
        known and cannot be beaten; from a side chosen at random."""
        choices = [(form, button) for form in arrows for button in form.buttons if button.name == "start"]
        if not choices:
            raise Lost("the card marks arrows, but none says where the figure stands")

        def worth(choice):
            form, button = choice
            cells = self.line(form.fields["line"], int(form.fields["number"]), button.value)
            down = [cell for cell in cells if self.at(cell)["state"] == "down"]
            first = self.at(down[0]) if down else None
            known_bad = first is not None and first["known"] and not self.can_pay(first["card"], self.hand[turn.seat])
            return (len(down) == 4) * 2 - known_bad * 3 + self.random.random()

        form, button = max(choices, key=worth)
        if self.turn_passed:
            self.attacker, self.turn_passed = self.other(), False
        line, number = form.fields["line"], int(form.fields["number"])
        cells = self.line(line, number, button.value)
        self.attack = {"cells": cells, "at": -1, "full": all(self.at(c)["state"] == "down" for c in cells),
                       "pending": None, "spent": 0, "peeked": False}
        return Tap(form, button=button)

    def attack_on(self, turn: Turn) -> Tap:
        """The card marks the next card, a further attack or the end: the card just turned is
        paid first (or the attack fails, if the card lets the family say so)."""
        failing = self.settle(turn)
        if failing is not None:
            return failing
        control = turn.card.control
        if control == "further_attack":
            return self.further(turn)
        if control == "end_attack":
            return self.stop(turn.marked[0])
        # Stop here, if the card names the button that does it, and the strategy says so.
        if self.attack["at"] >= 0 and self.wants_to_stop():
            end = self.named(turn, "end_attack")
            if end is not None:
                return self.stop(end)
        if self.attack["at"] < 0 and self.attack["full"] and not self.attack["peeked"] and self.random.random() < 0.2:
            peek = self.named(turn, "look_at_last_card")
            if peek is not None:
                self.attack["peeked"] = True
                self.pay_any(1)
                return Tap(peek)
        return self.turn_next(turn)

    def turn_next(self, turn: Turn) -> Tap:
        """Turn the next face-down card of the line and tap what it is."""
        cell = self.next_cell()
        if cell is None:
            raise Lost(f"the card says to turn a card, but the line has none left: {turn.card.say!r}")
        place = self.at(cell)
        shown, known = place["card"], place["known"]
        self.attack["at"] = self.attack["cells"].index(cell)
        tap = self.reveal_tap(turn, shown, known)
        kind = shown["kind"]
        if kind == "boar":
            place.update(card=None, state="hole", known=False)
            self.out.append(shown)
            self.end_attack(secure=True, how="boar")
        elif kind == "feast":
            place.update(state="feast", known=False)
            if self.feasts + self.feasts_now() == 5:
                self.end_game()
        else:
            place.update(state="up", known=False)
            self.attack["pending"] = cell
        return tap

    def reveal_tap(self, turn: Turn, shown: dict, known: bool) -> Tap:
        """The button of the card turned: the one for a card known to both, else by its kind
        (a colour's form for a soldier, the specials' form for the others)."""
        if known:
            for form in turn.marked:
                if any(button.name is None for button in form.buttons):
                    return Tap(form)  # "It is the known card: …"
        for form in turn.marked:
            for button in form.buttons:
                if (button.name, button.value) == ("kind", shown["kind"]) and \
                        form.fields.get("colour") == shown["colour"]:
                    return Tap(form, button=button)
        raise Lost(f"no button marked for the card turned ({shown}): {turn.card.say!r}")

    def answer(self, turn: Turn) -> Tap:
        """Beaten (the fight cards discarded) or the attack fails: the hand decides."""
        form = turn.marked[0]
        cell = self.attack["pending"]
        if cell is None:
            raise Lost(f"the card asks whether a card is beaten, but none waits: {turn.card.say!r}")
        beaten = self.can_pay(self.at(cell)["card"], self.hand[self.attacker])
        button = next((b for b in form.buttons if b.value == ("true" if beaten else "false")), None)
        if button is None:
            raise Lost(f"the marked form has no button for beaten={beaten}: {form.text!r}")
        if beaten:
            self.pay(self.at(cell)["card"])
            self.attack["pending"] = None
        else:
            self.fail()
        return Tap(form, button=button)

    def further(self, turn: Turn) -> Tap:
        if not self.broken():
            raise Lost(f"the card offers a further attack, but the formation is not broken: {turn.card.say!r}")
        end = self.named(turn, "end_attack")
        if end is not None and self.random.random() < 0.3:
            return self.stop(end)
        self.draw_back(turn.card)
        return self.choose(turn, turn.marked)

    def stop(self, form: Form) -> Tap:
        if self.attack["pending"] is not None:
            raise Lost("the card ends the attack while the card just turned is neither beaten nor failed")
        self.end_attack(secure=True, how="stopped")
        return Tap(form)

    def fill(self, turn: Turn) -> Tap:
        """The last supply cards into holes of the player's choice."""
        form = self.random.choice(turn.marked)
        cell = (int(form.fields["row"]) - 1, int(form.fields["column"]) - 1)
        if self.at(cell)["state"] != "hole" or not self.supply:
            raise Lost(f"the card marks a hole the table does not have: {cell}")
        self.at(cell).update(card=self.supply.pop(0), state="down", known=False)
        if not self.supply and not self.blocking:
            self.turn_passed = True  # the last supply card placed: the other player's attack
        return Tap(form)

    def block(self, turn: Turn) -> Tap:
        skip = self.named(turn, "skip_block")
        if skip is not None and self.random.random() < 0.2:
            form, button = skip, None
        else:
            form = self.random.choice(turn.marked)
            button = self.random.choice([b for b in form.buttons if b.name == "number"])
        self.turn_passed = True
        return Tap(form, button=button)

    # -- the card just turned --------------------------------------------------------------
    def settle(self, turn: Turn) -> Tap | None:
        """Pay the card just turned before the next step; if the hand cannot, the attack fails,
        through a control the card marks or names, or the family is lost."""
        cell = self.attack["pending"] if self.attack else None
        if cell is None:
            return None
        shown = self.at(cell)["card"]
        if self.can_pay(shown, self.hand[self.attacker]):
            self.pay(shown)
            self.attack["pending"] = None
            return None
        for action in ("beat_card", "no_matching_card"):
            form = self.named(turn, action)
            if form is not None:
                self.fail()
                button = next((b for b in form.buttons if b.value == "false"), None)
                return Tap(form, button=button)
        raise Lost(f"{self.attacker} cannot beat the {shown['colour'] or ''} {shown['kind']} just turned, "
                   f"and the card marks {turn.card.control} without a way to say the attack fails: "
                   f"{turn.card.say!r}")

    def can_pay(self, shown: dict, hand: list[str]) -> bool:
        kind = shown["kind"]
        if kind in ("legionary", "centurion"):
            return shown["colour"] in hand
        if kind == "pirate":
            return bool(hand)
        if kind == "traitor":
            return any(hand.count(colour) >= 2 for colour in COLOURS)
        return True

    def pay(self, shown: dict) -> None:
        hand, kind = self.hand[self.attacker], shown["kind"]
        if kind in ("legionary", "centurion"):
            paid = [shown["colour"]]
        elif kind == "pirate":
            paid = [max(COLOURS, key=hand.count)]  # the colour held most often
        else:
            pair = max(COLOURS, key=hand.count)
            paid = [pair, pair]
        for colour in paid:
            hand.remove(colour)
            self.discard[self.attacker].append(colour)
        self.attack["spent"] += len(paid)

    def pay_any(self, count: int) -> None:
        hand = self.hand[self.attacker]
        for _ in range(count):
            colour = max(COLOURS, key=hand.count)
            hand.remove(colour)
            self.discard[self.attacker].append(colour)
        self.attack["spent"] += count

    def wants_to_stop(self) -> bool:
        catch = sum(1 for cell in self.attack["cells"] if self.at(cell)["state"] == "up")
        if not self.hand[self.attacker]:
            return True
        chance = 0.12 * catch + 0.1 * (5 - len(self.hand[self.attacker]))
        return self.random.random() < chance

    # -- how an attack ends ------------------------------------------------------------------
    def fail(self) -> None:
        cell = self.attack["pending"]
        self.at(cell).update(state="down", known=True)  # turned face down again where it lay
        self.attack["pending"] = None
        self.end_attack(secure=False, how="failed")

    def end_attack(self, secure: bool, how: str) -> None:
        for row in self.grid:
            for place in row:
                if place["state"] == "up":
                    (self.secured[self.attacker] if secure else self.out).append(place["card"])
                    place.update(card=None, state="hole")
                elif place["state"] == "feast":
                    self.feasts += 1
                    place.update(card=None, state="hole")
        spent = self.attack["spent"]
        self.attack = None
        if not self.reshuffle and len(self.pile[self.attacker]) < spent:
            self.ended = True  # the table's setting: an empty draw pile ends the game
            return
        holes = sum(place["state"] == "hole" for row in self.grid for place in row)
        self.due = {"draw": spent, "shuffle": len(self.pile[self.attacker]) < spent, "holes": holes, "how": how}
        # Without blocking the turn passes once the holes are filled (by hand while the supply
        # has fewer cards than holes; an empty supply leaves them open).
        self.turn_passed = not self.blocking and (holes <= len(self.supply) or not self.supply)

    def tidy_up(self, card: Card) -> None:
        """The first card after an attack must say every step the table does now; the table
        does what it says."""
        due, said = self.due, card.say
        missing = []
        if due["draw"] and not SAYS_DRAW.search(said):
            missing.append(f"drawing {due['draw']} fight cards back to 5")
        if due["shuffle"] and not SAYS_SHUFFLE.search(said):
            missing.append("shuffling the discards into a new draw pile (the draw pile is empty)")
        if due["holes"] and self.supply and not SAYS_HOLES.search(said):
            missing.append(f"filling the {due['holes']} holes of the formation from the supply")
        if missing:
            raise Lost(f"after the attack ({due['how']}) the card does not say: {'; '.join(missing)}: {said!r}")
        self.draw(self.attacker, due["draw"])
        holes = [(r, c) for r in range(4) for c in range(4) if self.grid[r][c]["state"] == "hole"]
        if len(holes) <= len(self.supply):
            for cell in holes:
                self.at(cell).update(card=self.supply.pop(0), state="down", known=False)
        self.due = None

    def draw_back(self, card: Card) -> None:
        """A further attack: the hand drawn back to 5 first, as the card says."""
        need = 5 - len(self.hand[self.attacker])
        if need and not SAYS_DRAW.search(card.say):
            raise Lost(f"a further attack, and the card does not say to draw back to 5: {card.say!r}")
        if need > len(self.pile[self.attacker]) and not SAYS_SHUFFLE.search(card.say):
            raise Lost(f"the draw pile cannot refill the hand, and the card does not say what to do: {card.say!r}")
        self.draw(self.attacker, need)

    def draw(self, player: str, count: int) -> None:
        for _ in range(count):
            if not self.pile[player]:
                self.pile[player], self.discard[player] = self.discard[player], []
                self.random.shuffle(self.pile[player])
            self.hand[player].append(self.pile[player].pop(0))

    def end_game(self) -> None:
        """The fifth feast: the catch of this attack is kept."""
        for row in self.grid:
            for place in row:
                if place["state"] == "up":
                    self.secured[self.attacker].append(place["card"])
                    place.update(card=None, state="hole")
        self.attack = None
        self.ended = True

    # -- the tortoise ----------------------------------------------------------------------
    def at(self, cell: tuple[int, int]) -> dict:
        return self.grid[cell[0]][cell[1]]

    @staticmethod
    def line(line: str, number: int, start: str) -> list[tuple[int, int]]:
        if line == "row":
            cells = [(number - 1, c) for c in range(4)]
            return cells[::-1] if start == "right" else cells
        cells = [(r, number - 1) for r in range(4)]
        return cells[::-1] if start == "bottom" else cells

    def next_cell(self) -> tuple[int, int] | None:
        for cell in self.attack["cells"][self.attack["at"] + 1:]:
            if self.at(cell)["state"] == "down":
                return cell
        return None

    def feasts_now(self) -> int:
        return sum(place["state"] == "feast" for row in self.grid for place in row)

    def broken(self) -> bool:
        """All four cards of a full line beaten (or feasts), and the supply can still fill the
        formation: the rulebook's further attack."""
        attack = self.attack
        if not attack["full"] or attack["pending"] is not None:
            return False
        if any(self.at(cell)["state"] not in ("up", "feast") for cell in attack["cells"]):
            return False
        open_places = sum(place["state"] != "down" for row in self.grid for place in row)
        return open_places <= len(self.supply) and any(place["state"] == "down" for row in self.grid for place in row)

    def named(self, turn: Turn, action: str) -> Form | None:
        try:
            return turn.named(action)
        except Lost:
            return None

    # -- the end -----------------------------------------------------------------------------
    def tokens(self) -> dict[str, int]:
        """The seven tokens counted from the secured piles, as the rulebook gives them out."""
        points = {name: 0 for name in self.players}
        first, second = self.players
        piles = self.secured
        for name in self.players:
            if any(card["kind"] == "traitor" for card in piles[name]):
                points[name] += 1
        pirates = {name: sum(card["kind"] == "pirate" for card in piles[name]) for name in self.players}
        if pirates[first] != pirates[second]:
            points[max(self.players, key=pirates.get)] += 1
        for colour in COLOURS:
            count = {name: sum(card["colour"] == colour for card in piles[name]) for name in self.players}
            if count[first] != count[second]:
                points[max(self.players, key=count.get)] += 1
            else:
                holder = [name for name in self.players
                          if card_of("centurion", colour) in piles[name]]
                if count[first] and holder:
                    points[holder[0]] += 1
        return points

    def check_end(self, snapshot: dict) -> None:
        if not self.ended:
            raise Lost(f"the companion ended the game, the table did not: {snapshot['status']}")
        assert snapshot["finished"], snapshot["status"]
        secured = snapshot["state"]["secured"]
        for name in self.players:
            pile = self.secured[name]
            counted = {"legionaries": {c: sum(x == card_of("legionary", c) for x in pile) for c in COLOURS},
                       "centurions": {c: sum(x == card_of("centurion", c) for x in pile) for c in COLOURS},
                       "pirates": sum(x["kind"] == "pirate" for x in pile),
                       "traitor": sum(x["kind"] == "traitor" for x in pile)}
            assert secured[name] == counted, (name, secured[name], counted)
        assert snapshot["scores"] == self.tokens(), (snapshot["scores"], self.tokens())


