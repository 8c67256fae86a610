"""Asterix & Co.'s newcomer robot: a family plays album battles with only the coach to guide it.

The physical game: a seeded deck of 60 characters (GAMES.md leaves the real list unknown: here
strengths 5-8, the seven printed types (Centurions and Legionaries twice as often), Gauls, Romans and Neutrals, a third of them named, each
with one of three simple powers or none) and the album pile, shuffled; five cards in each hand,
one legionary helmet and one token of each kind; stockpiles unlimited (the game's default).
Papa (the host) and Lena have phones, Mama has none: her moves are entered on Papa's phone.

The simple strategy: play the strongest card that fits a side facing you (the one that takes an
album first), else discard the hand and draw five (the turn card names "Reinforce"); a power is
used when it has a target (K.O. the strongest visible character of the other side on its album,
a legionary helmet, a bonus token of the kind held least), then "Power done"; the loser takes
the token they hold least of and turns the new album so that they keep a side of each colour.
Tokens are never spent. The table counts its own sesterces; the companion's must agree."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from tests.robots.harness import Button, Card, Form, Lost, Physical, Tap, Turn

TYPES = ("Centurion", "Chief", "Swindler", "Hero", "Diehard", "Legionary", "Rebel")
HELMETED = ("Centurion", "Legionary")  # twice as common: a game of about 30 cards
NAMES = ("Asterix", "Obelix", "Getafix", "Cacofonix", "Vitalstatistix", "Fulliautomatix",
         "Unhygienix", "Geriatrix", "Impedimenta", "Dogmatix", "Crismus Bonus", "Caius Bonus",
         "Edifis", "Valueaddedtax", "Redbeard", "Tullius Octopus", "Panacea", "Bacteria",
         "Gracchus", "Fortis")
TOKENS = ("potion", "fish", "boar")
ALBUMS = 26  # GAMES.md: 26 albums
ID = re.compile(r"\bc\d+\b")  # the page's own id of a character: never said to a player


@dataclass
class Character:
    """A card as it lies on the table: what the family enters, and the power printed on it."""

    strength: int
    kind: str
    colour: str
    name: str | None
    power: str | None  # "ko", "helmet", "bonus" or None
    id: str = ""  # the companion's id, known to the table only by the order of play
    owner: str = ""
    faction: str = ""
    knocked_out: bool = False


@dataclass
class Album:
    pair: tuple[str, str]
    gaul: str
    roman: str
    number: int | None
    characters: list[Character] = field(default_factory=list)

    def side_of(self, player: str) -> str:
        return "gaul" if self.gaul == player else "roman"

    def total(self, faction: str) -> int:
        return sum(c.strength for c in self.characters if c.faction == faction and not c.knocked_out)


class AlbumNight(Physical):
    game = "asterix-co"
    players = ("Papa", "Mama", "Lena")
    phones = ("Papa", "Lena")

    def __init__(self, seed: int):
        self.random = random.Random(seed)
        self.deck = [self.character(number) for number in range(60)]
        self.random.shuffle(self.deck)
        self.discard: list[Character] = []
        self.hands = {name: [self.deck.pop() for _ in range(5)] for name in self.players}
        count = len(self.players)
        # One album between each player and their left neighbour, as the page shows.
        self.albums = [Album((self.players[i], self.players[(i + 1) % count]),
                             self.players[i], self.players[(i + 1) % count], i + 1)
                       for i in range(count)]
        self.album_pile = ALBUMS - count
        self.next_album = count + 1
        self.next_id = 1
        self.ledger = {name: {"albums": 0, "centurion": 0, "legionary": 1,
                              "tokens": dict.fromkeys(TOKENS, 1)} for name in self.players}
        self.turn = 0
        self.power: dict | None = None  # {"player", "character", "used"}
        self.pending: dict | None = None  # {"step", "player", "album"}
        self.winner: str | None = None

    def character(self, number: int) -> Character:
        pick = self.random
        named = pick.random() < 0.35
        return Character(strength=pick.randint(5, 8), kind=pick.choice(TYPES + HELMETED),
                         colour=pick.choice(("Gaul", "Gaul", "Roman", "Roman", "Neutral")),
                         name=f"{NAMES[number % len(NAMES)]} {number}" if named else None,
                         power=pick.choice((None, None, None, "ko", "helmet", "bonus")))

    # -- what the card asks, and what the table does -------------------------------------------

    def actor(self, card: Card) -> str | None:
        return self.expected()

    def expected(self) -> str | None:
        """Who acts now at the real table."""
        if self.winner:
            return None
        if self.pending:
            return self.pending["player"]
        if self.power:
            return self.power["player"]
        return self.players[self.turn]

    def choice_of(self, card: Card) -> str | None:
        if card.control in ("take_consolation", "orient_album"):
            return self.pending["player"] if self.pending else None
        if card.control == "end_power" and self.power:
            return self.power["player"]
        return None

    def over(self) -> bool:
        return self.winner is not None

    def tap(self, turn: Turn) -> Tap:
        card = turn.card
        if ID.search(card.text):
            raise Lost(f"the card names a character by the page's id: {card.text!r}")
        who = self.expected()
        # While a power waits, its player may still enter it, or the next player play.
        allowed = {who, self.players[self.turn]} if self.power else {who}
        if card.player is not None and card.player not in allowed:
            raise Lost(f"the card speaks to {card.player}, but at the table {who} acts: {card.say!r}")
        if self.power and card.control != "end_power":
            owner, played = self.power["player"], self.power["character"]
            if played.power and not self.power["used"]:
                raise Lost(f"the card does not tell {owner} where to enter the power of "
                           f"{played.name or played.kind}: {card.say!r}")
            self.power = None  # nothing of it is left to enter: the next player plays
        if card.control == "play_character":
            return self.play_turn(turn, self.players[self.turn])
        if card.control == "end_power":
            return self.use_power(turn, who)
        if card.control == "take_consolation":
            return self.console(turn, who)
        if card.control == "orient_album":
            return self.orient(turn, who)
        raise Lost(f"the card marks {card.control}, which this table has no use for: {card.say!r}")

    # -- a turn: play the best card, or reinforce --------------------------------------------

    def play_turn(self, turn: Turn, player: str) -> Tap:
        choices = [(character, album) for character in self.hands[player] for album in self.albums
                   if album.number and player in album.pair
                   and character.colour.lower() in ("neutral", album.side_of(player))]
        if not choices:
            return self.reinforce(turn, player)
        character, album = max(choices, key=lambda choice: (
            choice[1].total(choice[1].side_of(player)) + choice[0].strength >= 15,
            choice[0].strength, choice[1].total(choice[1].side_of(player))))
        faction = album.side_of(player)
        form = turn.marked[0]
        kind = next((b for b in form.buttons if b.name == "character_type" and b.value == character.kind), None)
        if kind is None:
            raise Lost(f"the marked form offers no type {character.kind}: {form.text[:120]!r}")
        values = {"album": str(album.number), "player": player, "strength": str(character.strength),
                  "colour": character.colour, "name": character.name or ""}
        opener = f"#album-{album.number} .ac-side-{faction} .ac-add"  # before the album may fall
        self.lay(character, album, player, faction)
        return Tap(form, values, kind, opener=opener)

    def lay(self, character: Character, album: Album, player: str, faction: str) -> None:
        self.hands[player].remove(character)
        character.id, character.owner, character.faction = f"c{self.next_id}", player, faction
        self.next_id += 1
        album.characters.append(character)
        self.turn = (self.turn + 1) % len(self.players)
        self.power = None
        if album.total(faction) >= 15:
            self.fall(album, faction)
        else:
            self.power = {"player": player, "character": character, "used": False}

    def reinforce(self, turn: Turn, player: str) -> Tap:
        form = turn.named("reinforce_hand")
        self.discard += self.hands[player]
        self.hands[player] = [self.draw() for _ in range(5)]
        self.turn = (self.turn + 1) % len(self.players)
        self.power = None
        return Tap(form, {"player": player}, opener=f'a[data-ac-powers="{player}"]')

    def draw(self) -> Character:
        if not self.deck:  # the FAQ: the discards, shuffled, are the new draw pile
            self.deck, self.discard = self.discard, []
            self.random.shuffle(self.deck)
        return self.deck.pop()

    # -- the power of the character just played ------------------------------------------------

    def use_power(self, turn: Turn, player: str) -> Tap:
        played, power = self.power["character"], self.power
        if not power["used"]:
            power["used"] = True
            tap = self.power_tap(turn, player, played)
            if tap is not None:
                return tap
        self.power = None
        return Tap(turn.marked[0])

    def power_tap(self, turn: Turn, player: str, played: Character) -> Tap | None:
        """What the printed power does on the table, entered where the card says (None: it
        has no target)."""
        if played.power == "ko":
            album = next(a for a in self.albums if played in a.characters)
            targets = [c for c in album.characters if c.faction != played.faction and not c.knocked_out]
            if not targets:
                return None
            target = max(targets, key=lambda c: c.strength)
            target.knocked_out = True
            return Tap(self.form(turn, "knock_out"), {"character": target.id},
                       opener=f"#char-{target.id} .ac-char-line")
        if played.power == "helmet":
            self.ledger[player]["legionary"] += 1
            form = self.form(turn, "gain_helmet")
            return Tap(form, {"player": player}, self.button(form, "helmet", "legionary"),
                       opener=f'a[data-ac-powers="{player}"]')
        if played.power == "bonus":
            kind = self.least_held(player)
            if kind is None:
                return None
            self.ledger[player]["tokens"][kind] += 1
            form = self.form(turn, "gain_bonus")
            return Tap(form, {"player": player}, self.button(form, "bonus", kind),
                       opener=f'a[data-ac-powers="{player}"]')
        return None

    # -- an album falls ------------------------------------------------------------------------

    def fall(self, album: Album, faction: str) -> None:
        winner = album.gaul if faction == "gaul" else album.roman
        loser = album.roman if faction == "gaul" else album.gaul
        held = self.ledger[winner]
        held["albums"] += 1
        visible = [c for c in album.characters if not c.knocked_out]
        held["legionary"] += sum(c.kind == "Legionary" for c in visible)
        held["centurion"] += sum(c.kind == "Centurion" for c in visible)
        for character in album.characters:  # K.O.'d back to their owners' hands, the rest discarded
            if character.knocked_out:
                character.knocked_out = False
                self.hands[character.owner].append(character)
            else:
                self.discard.append(character)
        album.characters, album.number = [], None
        if self.sesterces(winner) >= 50:
            self.winner = winner
            return
        self.turn = (self.players.index(winner) + 1) % len(self.players)
        step = "consolation" if self.least_held(loser) else "orientation"
        self.pending = {"step": step, "player": loser, "album": album}

    def console(self, turn: Turn, player: str) -> Tap:
        if not self.pending or self.pending["step"] != "consolation":
            raise Lost(f"the card asks {player} for a consolation token nobody owes: {turn.card.say!r}")
        kind = self.least_held(player)
        self.ledger[player]["tokens"][kind] += 1
        self.pending["step"] = "orientation"
        form = turn.marked[0]
        return Tap(form, {}, self.button(form, "bonus", kind))

    def orient(self, turn: Turn, player: str) -> Tap:
        if not self.pending:
            raise Lost(f"the card asks {player} to turn a new album, and none fell: {turn.card.say!r}")
        album = self.pending["album"]
        other = next(a for a in self.albums if a is not album and player in a.pair and a.number)
        side = "roman" if other.side_of(player) == "gaul" else "gaul"  # a side of each colour
        neighbour = next(name for name in album.pair if name != player)
        album.gaul, album.roman = (player, neighbour) if side == "gaul" else (neighbour, player)
        album.number, self.next_album, self.album_pile = self.next_album, self.next_album + 1, self.album_pile - 1
        self.pending = None
        form = turn.marked[0]
        return Tap(form, {}, self.button(form, "faction", side))

    # -- counting ------------------------------------------------------------------------------

    def least_held(self, player: str) -> str | None:
        tokens = self.ledger[player]["tokens"]
        allowed = [kind for kind in TOKENS if tokens[kind] < 2]
        return min(allowed, key=lambda kind: tokens[kind]) if allowed else None

    def sesterces(self, player: str) -> int:
        held = self.ledger[player]
        return 15 * held["albums"] + 3 * held["centurion"] + held["legionary"]

    def check_end(self, snapshot: dict) -> None:
        table = {name: self.sesterces(name) for name in self.players}
        assert snapshot["finished"], snapshot["state"]
        assert snapshot["scores"] == table, (snapshot["scores"], table)
        assert snapshot["state"]["winner"] == self.winner, (snapshot["state"]["winner"], self.winner)

    # -- the phone's forms ---------------------------------------------------------------------

    @staticmethod
    def form(turn: Turn, action: str) -> Form:
        found = next((form for form in turn.forms if form.action == action), None)
        if found is None:
            raise Lost(f"{turn.seat}'s phone offers no {action} for the power the card asks for: "
                       f"{turn.card.say!r}")
        return found

    @staticmethod
    def button(form: Form, name: str, value: str) -> Button:
        found = next((b for b in form.buttons if b.name == name and b.value == value), None)
        if found is None:
            raise Lost(f"the {form.action} form has no {name}={value}: {form.text[:120]!r}")
        return found
