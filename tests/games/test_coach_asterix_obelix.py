"""Asterix & Obelix in teaching mode: a whole game walked move by move, and what the coach
card says at every point, in English and in German."""

from companion.games.asterix_obelix import AsterixObelix
from companion.games.asterix_obelix.formation import face_down_in, unseen
from tests.games import coaching
from tests.games.coaching import Coached, says
from tests.games.languages import english, german

GAME = AsterixObelix()
# The arrows around the tortoise are action_form(offer.action): a first or a further attack.
COACH = Coached(GAME, dynamic=("choose_line", "further_attack"))
SOLDIERS = [f"{kind}:{colour}" for colour in ("red", "blue", "yellow", "green", "purple")
            for kind in ("legionary", "centurion")]


class Table(coaching.Table):
    """A table of this game; ``coach`` checks what every card must keep."""

    coached = COACH

    def turn(self, kind, colour=None):
        return self(self.state["attacker"], type="reveal_card", kind=kind, colour=colour)

    def soldier(self):
        """Turn over a soldier of a kind still unseen."""
        hidden = unseen(self.state)
        kind, colour = next(key for key in SOLDIERS if hidden[key]).split(":")
        return self.turn(kind, colour)

    def attack(self, line, number, start=None):
        return self(self.state["attacker"], type="choose_line", line=line, number=number,
                    start=start)

    def full_line(self):
        """A line with four face-down cards the attacker may choose."""
        blocked = self.state["blocked"] or {}
        return next((line, number) for line in ("row", "column") for number in range(1, 5)
                    if face_down_in(self.state, line, number) == 4
                    and (blocked.get("line"), blocked.get("number")) != (line, number))


def test_an_attack_card_by_card_and_how_attacks_end():
    table = Table(["Lena", "Ben"])

    # Set-up: the whole table lays out the tortoise, then names who attacks first.
    card = table.coach()
    assert (card.player, card.control, card.rule, card.scoring) == (None, "start_game", "setup",
                                                                   None)
    says(card.say, ("tap who attacks first", "wer zuerst angreift"))

    card = table(type="start_game", starter="Lena")
    assert (card.player, card.control, card.rule, card.hint) == ("Lena", "choose_line", "attack",
                                                                 None)
    says(card.say, ("Lena: you attack first", "Lena: du greifst zuerst an"))
    assert card.scoring is None  # nothing secured yet

    # The first card: the peek is offered; the hint counts the hand and the unseen cards.
    card = table.attack("row", 1)
    assert (card.player, card.control, card.rule) == ("Lena", "reveal_card", "attack")
    says(card.say, ("first card of row 1", "erste Karte von Zeile 1"),
         ("peek at the last one", "letzte Karte ansehen"))
    says(card.hint, ("Hand: 5 of 5", "Hand: 5 von 5"),
         ("Village feast 5, Red 6", "Dorffest 5, Rot 6"), ("(of 40)", "(von 40)"))
    assert "Lost if" not in english(card.hint)

    card = table("Lena", type="look_at_last_card")
    says(card.say, ("Lena: you peeked", "Lena: du hast die letzte Karte angeschaut"))
    says(card.hint, ("4 of 5", "4 von 5"))

    # Each kind of card turned over has its own sentence and rule.
    card = table.turn("legionary", "red")
    assert (card.control, card.rule) == ("reveal_card", "soldiers")
    says(card.say, ("Lena: red legionary! Beat it with a red fight card",
                    "Lena: roter Legionär! Schlag ihn mit einer roten Kampfkarte"),
         ('tap "the attack fails"', "tipp „Angriff scheitert“"))
    says(card.short, ("Lena: red legionary, with a red fight card",
                      "Lena: roter Legionär, mit einer roten Kampfkarte"))
    says(card.hint, ("3 of 5 fight cards. Lost if the attack fails: 1 beaten card",
                     "3 von 5 Kampfkarten. Weg, wenn der Angriff scheitert: 1 geschlagene Karte"),
         ("Red 5", "Rot 5"), ("(of 39)", "(von 39)"))

    card = table.turn("pirate")
    assert card.rule == "pirates"
    says(card.say, ("Lena: a pirate! Discard any fight card", "Lena: ein Pirat! Wirf eine beliebige"))

    card = table.turn("traitor")
    assert card.rule == "traitor"
    # The one line for a player who has turned cards before still names the card's rule.
    says(card.short, ("Lena: traitor, two of one colour", "Lena: Verräter, zwei einer Farbe"))
    says(card.say, ("the traitor! Discard two fight cards of one colour",
                    "der Verräter! Wirf zwei Kampfkarten einer Farbe"))
    says(card.hint, ("0 of 5 fight cards. Lost if the attack fails: 3 beaten cards",
                     "0 von 5 Kampfkarten. Weg, wenn der Angriff scheitert: 3 geschlagene"))

    # Stopping secures the catch: the block comes next.
    card = table("Lena", type="end_attack")
    assert (card.player, card.control, card.rule, card.hint) == ("Lena", "block_line", "blocking",
                                                                 None)
    says(card.say, ("refill your hand to 5", "füll deine Hand auf 5 auf"),
         ("Ben's next attack", "nächsten Angriff von Ben"))

    # The second attack: what the fifth feast will count, in tokens as the piles stand.
    card = table("Lena", type="block_line", line="row", number=2)
    assert (card.player, card.control) == ("Ben", "choose_line")
    says(card.say, ("not row 2, it is blocked", "nicht Zeile 2, die ist gesperrt"))
    says(card.scoring, ("seven tokens", "sieben Plättchen"),
         ("a tie goes to its centurion", "der ihren Zenturio hat"),
         ("Lena 3 tokens, Ben 0 tokens", "Lena 3 Plättchen, Ben 0 Plättchen"))

    # A feast costs nothing; a card Ben cannot beat fails the attack.
    table.attack("column", 1)
    card = table.turn("feast")
    assert (card.player, card.rule) == ("Ben", "village-feast")
    says(card.say, ("a village feast (1 of 5)", "ein Dorffest (1 von 5)"))
    table.turn("legionary", "blue")
    card = table("Ben", type="no_matching_card")
    assert (card.player, card.control) == ("Ben", "block_line")
    says(card.say, ("Ben's attack failed", "Der Angriff von Ben ist gescheitert"))

    # The card turned back is known to both: Lena's hint names it, then the next card.
    card = table("Ben", type="block_line", line="column", number=4)
    assert card.player == "Lena"
    says(card.hint, ("so known: blue legionary (row 2, column 1)",
                     "also bekannt: blauer Legionär (Zeile 2, Spalte 1)"))
    card = table.attack("row", 2)
    says(card.hint, ("The next card is known: blue legionary",
                     "Die nächste Karte ist bekannt: blauer Legionär"))

    # The wild boar ends the attack and keeps the catch.
    table.turn(None)
    card = table.turn("boar")
    assert (card.player, card.control, card.rule) == ("Lena", "block_line", "blocking")
    says(card.say, ("The wild boar ended Lena's attack", "Das Wildschwein hat den Angriff von "
                                                         "Lena beendet"))
    assert card.scoring is None  # the third attack, no feast set aside yet


def test_a_broken_formation_a_short_line_the_last_supply_cards_and_the_fifth_feast():
    table = Table(["Lena", "Ben"], blocking=False)
    table(type="start_game", starter="Ben")
    table.attack("row", 3)
    for _ in range(4):
        card = table.soldier()
    assert (card.player, card.control, card.rule, card.hint) == ("Ben", "further_attack",
                                                                 "formation-broken", None)
    says(card.say, ("formation is broken", "Formation ist gesprengt"),
         ("Draw back to 5", "Zieh wieder auf 5"))

    # The further attack starts with a full hand; column 1 has only three face-down cards.
    card = table("Ben", type="further_attack", line="column", number=1)
    says(card.say, ("further attack on column 1 with a full hand",
                    "weiterer Angriff auf Spalte 1 mit voller Hand"))
    says(card.hint, ("5 of 5", "5 von 5"))
    for _ in range(3):
        card = table.soldier()
    assert (card.control, card.rule, card.hint) == ("end_attack", "end-of-attack", None)
    says(card.say, ("every card of column 1 is turned", "alle Karten von Spalte 1 sind aufgedeckt"))

    # Without blocking the turn passes at once. Single-card attacks run the supply down.
    card = table("Ben", type="end_attack")
    assert (card.player, card.control) == ("Lena", "choose_line")
    while table.state["supply"] > 2:
        table.attack(*table.full_line())
        table.soldier()
        table(table.state["attacker"], type="end_attack")
    card = table.coach()
    says(card.hint, ("The supply (2) can no longer refill a broken line",
                     "Der Vorrat (2) kann eine gesprengte Reihe nicht mehr auffüllen"))

    # Four cards beaten with two left in the supply: the attacker places them.
    player = table.state["attacker"]
    table.attack(*table.full_line())
    for _ in range(4):
        table.soldier()
    card = table(player, type="end_attack")
    assert (card.player, card.control, card.rule) == (player, "fill_hole", "end-of-attack")
    says(card.say, ("only 2 cards for 4 holes", "nur noch 2 Karten für 4 Lücken"))

    # The fifth feast ends the game; the card says who won and why, and points to the tokens.
    for row, column in [(r + 1, c + 1) for r, cells in enumerate(table.state["grid"])
                        for c, place in enumerate(cells) if place["state"] == "empty"][:2]:
        table(player, type="fill_hole", row=row, column=column)
    warned = False
    while not table.state["finished"]:
        table.attack(*next((line, number) for line in ("row", "column") for number in range(1, 5)
                           if face_down_in(table.state, line, number)))
        card = table.turn("feast")
        if table.state["finished"]:
            break
        if table.state["feasts_set_aside"] + 1 >= 3:  # the end draws near: the standing again
            says(card.scoring, ("As things stand: Lena ", "Stand jetzt: Lena "))
        else:
            assert card.scoring is None
        if table.state["feasts_set_aside"] + 1 == 4:
            says(card.say, ("the fifth ends the game at once", "das fünfte beendet das Spiel sofort"))
            warned = True
        table(table.state["attacker"], type="end_attack")
    assert warned
    card = table.coach()
    assert (card.player, card.control, card.rule, card.see, card.hint) == (
        None, None, "scoring", "ao-tokens", None)
    verdict = GAME.view(table.state)["scoring"]["verdict"]
    assert english(verdict) in english(card.say) and german(verdict) in german(card.say)
    says(card.say, ("The fifth village feast ended the game", "Das fünfte Dorffest hat das Spiel"))
    words = {"traitor": "Traitor", "pirates": "Pirates", "red": "Red", "blue": "Blue",
             "yellow": "Yellow", "green": "Green", "purple": "Purple"}
    tokens = GAME.view(table.state)["scoring"]["tokens"]
    for name in ("Lena", "Ben", None):
        taken = ", ".join(words[token] for token, holder in tokens.items() if holder == name)
        assert f"{name or 'nobody'}: {taken or 'no token'}" in english(card.after)
    says(card.after, ("Tokens taken: Lena: ", "Plättchen: Lena: "),
         ("final scoring says why", "Schlusswertung sagt, warum"))

def test_the_introduction_names_who_starts_and_what_lies_in_front_of_everyone():
    table = Table(["Lena", "Ben"])
    opening = GAME.intro(table.state)
    says(opening.start, ("stronger player", "stärkere Spieler"))
    says(opening.need, ("15 fight cards", "15 Kampfkarten"), ("4 × 4 tortoise", "4 × 4-Schildkröte"))
    says(opening.goal, ("fifth village feast", "fünfte Dorffest"))
    table(type="start_game", starter="Ben")
    says(GAME.intro(table.state).start, ("Ben attacked first", "Ben hat zuerst angegriffen"))
