"""Asterix & Obelix in teaching mode: a whole game walked move by move, and what the coach
card says at every point, in English and in German."""

import re

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
        """Turn over a soldier of a kind still unseen, and beat it."""
        hidden = unseen(self.state)
        kind, colour = next(key for key in SOLDIERS if hidden[key]).split(":")
        self.turn(kind, colour)
        return self.beat()

    def beat(self):
        return self(self.state["attacker"], type="beat_card", beaten=True)

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
         ('look at the last card in secret and tap "I looked at the last card (1 fight card discarded)"',
          "dir heimlich die letzte Karte ansehen und „Letzte Karte angesehen (1 Kampfkarte abgeworfen)“ tippen"))
    says(card.hint, ("Hand: 5 of 5", "Hand: 5 von 5"), ("8 of 40 (20%)", "8 von 40 (20 %)"))
    assert "Lost if" not in english(card.hint)

    card = table("Lena", type="look_at_last_card")
    says(card.say, ("Lena: you peeked", "Lena: du hast die letzte Karte angeschaut"))
    says(card.hint, ("4 of 5", "4 von 5"))

    # Each kind of card turned over has its own sentence and rule; it waits to be beaten (its
    # fight card discarded) or to fail the attack, both in the one control the card marks.
    card = table.turn("legionary", "red")
    assert (card.control, card.rule) == ("beat_card", "soldiers")
    says(card.say, ("Lena: red legionary! Discard a red fight card and tap \"Beaten\"",
                    "Lena: roter Legionär! Wirf eine rote Kampfkarte ab und tipp „Geschlagen“"),
         ('tap "The attack fails"', "tipp „Angriff scheitert“"))
    says(card.short, ("Lena: red legionary: a red fight card, or the attack fails",
                      "Lena: roter Legionär: eine rote Kampfkarte, sonst scheitert der Angriff"))
    says(card.hint, ("Hand: 4 of 5 fight cards.", "Hand: 4 von 5 Kampfkarten."))
    card = table.beat()
    assert (card.control, card.rule) == ("reveal_card", "soldiers")
    says(card.say, ("Lena: red legionary beaten. Turn the next card", "Lena: roter Legionär geschlagen. Deck die nächste"))
    says(card.hint, ("3 of 5 fight cards. Lost if the attack fails: 1 beaten card",
                     "3 von 5 Kampfkarten. Weg, wenn der Angriff scheitert: 1 geschlagene Karte"),
         ("Red 13%", "Rot 13 %"), ("of 39", "von 39"))

    card = table.turn("pirate")
    assert (card.control, card.rule) == ("beat_card", "pirates")
    says(card.say, ("Lena: a pirate! Discard any fight card", "Lena: ein Pirat! Wirf eine beliebige"))
    table.beat()

    card = table.turn("traitor")
    assert (card.control, card.rule) == ("beat_card", "traitor")
    # The one line for a player who has turned cards before still names the card's rule.
    says(card.short, ("Lena: traitor: two of one colour, or the attack fails",
                      "Lena: Verräter: zwei einer Farbe, sonst scheitert der Angriff"))
    says(card.say, ("the traitor! Discard two fight cards of one colour",
                    "der Verräter! Wirf zwei Kampfkarten einer Farbe"))
    says(card.hint, ("2 of 5 fight cards. Lost if the attack fails: 2 beaten cards",
                     "2 von 5 Kampfkarten. Weg, wenn der Angriff scheitert: 2 geschlagene"))
    table.beat()

    # Stopping secures the catch: the block comes next.
    card = table("Lena", type="end_attack")
    assert (card.player, card.control, card.rule, card.hint) == ("Lena", "block_line", "blocking",
                                                                 None)
    says(card.say, ("Lena ended the attack: 3 beaten cards go onto Lena's secured pile",
                    "Lena hat den Angriff beendet: 3 geschlagene Karten kommen auf den gesicherten Stapel von Lena"),
         ("draw 5 fight cards to have 5 again", "zieh 5 Kampfkarten, bis du wieder 5 hast"),
         ("put 3 supply cards into the holes", "leg 3 Karten aus dem Vorrat in die Lücken"),
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
    assert (card.player, card.control, card.rule) == ("Ben", "further_attack", "formation-broken")
    says(card.say, ("formation is broken", "Formation ist gesprengt"),
         ("draw 4 fight cards to have 5 again", "zieh 4 Kampfkarten, bis du wieder 5 hast"))
    says(card.hint, ("Lost if the attack fails: 4 beaten cards", "Weg, wenn der Angriff scheitert: 4 geschlagene Karten"))

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


# -- issue 39: what a family following only the coach met ------------------------------------


def _row_of_soldiers(table):
    """Lena attacks row 3 and beats three soldiers; the fourth is turned, not yet beaten."""
    table(type="start_game", starter="Lena")
    table.attack("row", 3)
    for _ in range(3):
        table.soldier()
    return table.turn("legionary", "yellow")


def test_a_fourth_card_just_turned_breaks_nothing_until_it_is_beaten():
    table = Table(["Lena", "Ben"])
    card = _row_of_soldiers(table)
    # Lena has no yellow: the card must not call the formation broken, and "the attack fails"
    # is in the control it marks.
    assert (card.player, card.control, card.rule) == ("Lena", "beat_card", "soldiers")
    assert "is broken" not in english(card.say) and "ist gesprengt" not in german(card.say)
    says(card.say, ("Lena: yellow legionary!", "Lena: gelber Legionär!"),
         ("Discard a yellow fight card", "Wirf eine gelbe Kampfkarte ab"),
         ('"The attack fails"', "„Angriff scheitert“"),
         ("would break the formation", "wäre die Formation gesprengt"))
    says(card.short, ("yellow fight card, or the attack fails", "gelbe Kampfkarte, sonst scheitert"))
    card = table("Lena", type="beat_card", beaten=False)
    assert (card.player, card.control) == ("Lena", "block_line")
    says(card.say, ("Lena's attack failed", "Der Angriff von Lena ist gescheitert"))


def test_a_fourth_card_beaten_breaks_the_formation_and_names_the_draw():
    table = Table(["Lena", "Ben"])
    _row_of_soldiers(table)
    card = table("Lena", type="beat_card", beaten=True)
    assert (card.control, card.rule) == ("further_attack", "formation-broken")
    says(card.say, ("all four cards of row 3 are beaten, the formation is broken",
                    "alle vier Karten von Zeile 3 sind geschlagen, die Formation ist gesprengt"),
         ("draw 4 fight cards to have 5 again", "zieh 4 Kampfkarten, bis du wieder 5 hast"))


def test_a_card_the_empty_hand_cannot_beat_fails_the_attack():
    table = Table(["Lena", "Ben"])
    table(type="start_game", starter="Lena")
    table.attack("row", 1)
    table("Lena", type="look_at_last_card")  # 4 fight cards in hand
    table.soldier()
    table.soldier()
    table.turn("traitor")
    card = table.beat()  # two of one colour: the hand is empty
    # Nothing left to pay with: only a feast or the boar would not fail the attack, so the
    # card marks ending it.
    assert (card.control, card.rule) == ("end_attack", "end-of-attack")
    says(card.say, ("no fight card left", "keine Kampfkarte mehr"),
         ("only a village feast or the wild boar", "nur ein Dorffest oder das Wildschwein"))
    says(card.short, ("no fight card left", "keine Kampfkarte mehr"))
    card = table.turn("legionary", "green")
    assert card.control == "beat_card"
    says(card.say, ("no fight card left", "keine Kampfkarte mehr"),
         ('"The attack fails"', "„Angriff scheitert“"))
    assert "Discard" not in english(card.say)
    # Nothing to pay with: ending the attack (which would count the card as beaten) is refused.
    refused = GAME.legal_actions(table.state, "Lena")["end_attack"]
    assert english(refused) == "Lena has no fight card left for a green legionary: the attack fails."


def test_the_fourth_feast_warning_stays_in_the_one_line_card():
    table = Table(["Lena", "Ben"], blocking=False)
    table(type="start_game", starter="Lena")
    table("Lena", type="correct_feasts", count=3, reason="three feasts lay there already")
    table.attack("row", 1)
    card = table.turn("feast")
    says(card.say, ("the fifth ends the game at once", "das fünfte beendet das Spiel sofort"))
    says(card.short, ("the fifth ends the game", "das fünfte beendet das Spiel"))


def test_the_hint_gives_the_chance_to_beat_the_next_card_from_the_odds_table():
    table = Table(["Lena", "Ben"])
    table(type="start_game", starter="Lena")
    card = table.attack("row", 1)
    # 40 unseen: 5 feasts and 3 pirates are beaten with any hand (8 of 40, 20%); each colour
    # held adds its 6 soldiers (15%); a pair adds the traitor (3%).
    says(card.hint, ("Hand: 5 of 5 fight cards", "Hand: 5 von 5 Kampfkarten"),
         ("beaten whatever you hold: 8 of 40 (20%)", "egal, was du hältst: 8 von 40 (20 %)"),
         ("Each colour in your hand adds: Red 15%, Blue 15%", "Jede Farbe auf deiner Hand kommt dazu: Rot 15 %, Blau 15 %"),
         ("a pair adds the traitor (3%)", "Paar kommt noch der Verräter dazu (3 %)"))
    odds = GAME.view(table.state)["odds"]
    assert [row["percent"] for row in odds if row["key"] == "red"] == [15.0]
    table.soldier()
    card = table.coach()
    says(card.hint, ("4 of 5", "4 von 5"), ("8 of 39 (21%)", "8 von 39 (21 %)"), ("Red 13%", "Rot 13 %"),
         ("Lost if the attack fails: 1 beaten card", "Weg, wenn der Angriff scheitert: 1 geschlagene Karte"))


def test_no_sentence_names_an_internal_id():
    table = Table(["Lena", "Ben"])
    cards = [table.coach(), table(type="start_game", starter="Lena"), table.attack("row", 3)]
    for _ in range(3):
        cards += [table.turn(*next(key for key in SOLDIERS if unseen(table.state)[key]).split(":")), table.beat()]
    cards += [table.turn("legionary", "yellow"), table("Lena", type="beat_card", beaten=False),
              table("Lena", type="block_line", line="row", number=1)]
    for card in cards:
        for sentence in (card.say, card.short, card.hint, card.scoring):
            if sentence is not None:
                for words in (english(sentence), german(sentence)):
                    assert not re.search(r"\b[a-z]+_[a-z_]+\b", words), words


def test_every_ending_says_refill_the_hand_and_fill_the_holes_from_the_supply():
    table = Table(["Lena", "Ben"])
    table(type="start_game", starter="Lena")
    table.attack("row", 1)
    table.soldier()
    table.soldier()
    card = table("Lena", type="end_attack")
    says(card.say, ("draw 2 fight cards to have 5 again", "zieh 2 Kampfkarten, bis du wieder 5 hast"),
         ("put 2 supply cards into the holes", "leg 2 Karten aus dem Vorrat in die Lücken"),
         ("block a row or column for Ben's next attack", "sperr eine Zeile oder Spalte für den nächsten Angriff von Ben"))

    # A failed attack: the beaten cards leave the game; the hand is refilled, the holes filled.
    table("Lena", type="block_line", line="row", number=2)
    table.attack("row", 1)
    table.soldier()
    table.turn("legionary", "red")
    card = table("Ben", type="beat_card", beaten=False)
    says(card.say, ("Ben's attack failed", "Der Angriff von Ben ist gescheitert"),
         ("1 beaten card leaves the game", "1 geschlagene Karte kommt aus dem Spiel"),
         ("draw 1 fight card to have 5 again", "zieh 1 Kampfkarte, bis du wieder 5 hast"),
         ("put 1 supply card into the holes", "leg 1 Karte aus dem Vorrat in die Lücken"))
    for word in ("seine", "ihre", "sein ", "ihr "):  # a player of unknown gender: no pronoun
        assert word not in german(card.say), german(card.say)

    # The boar ends the attack: the catch is kept, and the same tidying up follows.
    table("Ben", type="skip_block")
    table.attack("column", 3)
    table.soldier()
    card = table.turn("boar")
    says(card.say, ("The wild boar ended Lena's attack", "Das Wildschwein hat den Angriff von Lena beendet"),
         ("draw 1 fight card to have 5 again", "zieh 1 Kampfkarte, bis du wieder 5 hast"),
         ("put 2 supply cards into the holes", "leg 2 Karten aus dem Vorrat in die Lücken"))
    assert "breaks the formation" not in english(card.say)  # the second card of the line


def test_without_blocking_the_next_card_first_says_what_the_last_attacker_tidies_up():
    table = Table(["Lena", "Ben"], blocking=False)
    table(type="start_game", starter="Lena")
    table.attack("row", 1)
    table.soldier()
    card = table("Lena", type="end_attack")
    assert (card.player, card.control) == ("Ben", "choose_line")
    says(card.say, ("Lena: draw 1 fight card to have 5 again, put 1 supply card into the holes",
                    "Lena: zieh 1 Kampfkarte, bis du wieder 5 hast, leg 1 Karte aus dem Vorrat in die Lücken"),
         ("Ben: your attack", "Ben: dein Angriff"))
    table.attack("row", 2)
    assert "Lena" not in english(table.coach().say)  # said once, at the moment it is done


def _spend(table, attacks):
    """Lena and Ben take turns: Lena beats two soldiers each time, Ben one."""
    for _ in range(attacks):
        for player, cards in (("Lena", 2), ("Ben", 1)):
            table.attack(*table.full_line())
            for _ in range(cards):
                table.soldier()
            table(player, type="end_attack")


def test_an_empty_fight_card_pile_is_said_when_it_happens_as_the_table_set_it():
    table = Table(["Lena", "Ben"], blocking=False)
    table(type="start_game", starter="Lena")
    _spend(table, 4)  # Lena drew 8 of the 10 cards of her draw pile
    table.attack(*table.full_line())
    for _ in range(3):
        table.soldier()
    card = table("Lena", type="end_attack")
    says(card.say, ("Lena: draw the 2 cards left in your draw pile, shuffle your discarded fight cards "
                    "into a new draw pile and draw 1 more",
                    "Lena: zieh die 2 Karten, die noch im Nachziehstapel liegen, misch deine abgeworfenen "
                    "Kampfkarten zu einem neuen Nachziehstapel und zieh noch 1"))
    # 2 drawn from the old pile; the 11 discarded became the new pile, 1 drawn from it.
    assert table.state["fight_cards"]["Lena"] == {"pile": 10, "discard": 0}


def test_the_table_may_end_the_game_when_a_fight_card_pile_runs_out():
    table = Table(["Lena", "Ben"], blocking=False, fight_cards_out="end")
    table(type="start_game", starter="Lena")
    _spend(table, 4)
    table.attack(*table.full_line())
    for _ in range(3):
        table.soldier()
    card = table("Lena", type="end_attack")
    assert table.state["finished"] and card.control is None
    says(card.say, ("Lena's draw pile cannot refill the hand to 5", "Der Nachziehstapel von Lena reicht nicht"),
         ("as this table set", "wie an diesem Tisch eingestellt"))


def test_the_boar_as_the_fourth_card_breaks_the_formation_without_a_further_attack():
    table = Table(["Lena", "Ben"])
    table(type="start_game", starter="Lena")
    table.attack("row", 2)
    for _ in range(3):
        table.soldier()
    card = table.turn("boar")
    assert (card.control, card.rule) == ("block_line", "blocking")
    says(card.say, ("the fourth card of the line, breaks the formation but ends Lena's attack: no further attack",
                    "als vierte Karte der Reihe sprengt die Formation, beendet aber den Angriff von Lena"),
         ("3 beaten cards go onto Lena's secured pile", "3 geschlagene Karten kommen auf den gesicherten Stapel von Lena"))


def test_the_last_supply_cards_are_placed_one_by_one_and_the_hand_is_refilled_once():
    table = Table(["Lena", "Ben"], blocking=False)
    table(type="start_game", starter="Ben")
    while table.state["supply"] > 2:
        table.attack(*table.full_line())
        table.soldier()
        table(table.state["attacker"], type="end_attack")
    player = table.state["attacker"]
    table.attack(*table.full_line())
    for _ in range(3):
        table.soldier()
    card = table(player, type="end_attack")
    assert card.control == "fill_hole"
    says(card.say, ("draw 3 fight cards to have 5 again", "zieh 3 Kampfkarten, bis du wieder 5 hast"),
         ("only 2 cards for 3 holes", "nur noch 2 Karten für 3 Lücken"))
    row, column = next((r + 1, c + 1) for r, cells in enumerate(table.state["grid"])
                       for c, place in enumerate(cells) if place["state"] == "empty")
    card = table(player, type="fill_hole", row=row, column=column)
    # Said once: the second hole's card does not send the player to draw again.
    assert "draw" not in english(card.say) and "zieh" not in german(card.say)
    says(card.say, ("only 1 card for 2 holes", "nur noch 1 Karte für 2 Lücken"))
