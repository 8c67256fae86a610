"""Asterix: Das Kartenspiel in teaching mode: a whole game walked move by move, and what the
coach card says at every point, in English and in German."""

from companion.games.kartenspiel import Kartenspiel
from tests.games import coaching
from tests.games.coaching import Coached, says
from tests.games.languages import english, german

GAME = Kartenspiel()
COACH = Coached(GAME)


class Table(coaching.Table):
    """A table of this game; ``coach`` checks what every card must keep, and that a card for
    the whole table is said to everyone."""

    coached = COACH

    def coach(self):
        card = super().coach()
        if card.player is None:
            assert english(card.say).startswith(("Everyone", "Round")) or card.control is None
        return card


def test_intro_names_the_first_seat_and_each_players_gaul():
    table = Table(["Ann", "Ben", "Cid"], high_values="11,12,13,15")
    intro = GAME.intro(table.state)
    says(intro.start, ("Ann (first seat)", "Ann (erster Platz am Tisch)"),
         ("Nobody starts", "Einen Startspieler gibt es nicht"))
    says(intro.need, ("Ann as Asterix, Ben as Obelix, Cid as Vitalstatistix",
                      "Ann als Asterix, Ben als Obelix, Cid als Majestix"),
         ("one Dogmatix", "einen Idefix"), ("50 Roman cards", "50 Römerkarten"),
         ("11, 12, 13, 15 (a table setting)", "11, 12, 13, 15 (Tischeinstellung)"))
    says(intro.goal, ("After 4 rounds", "Nach 4 Runden"), ("highest Gaul", "höchste Gallier"))


def test_a_whole_game_of_three_walked_by_the_coach():
    table = Table(["Ann", "Ben", "Cid"], rounds=2)

    # Set-up: the whole table lays the game out, and learns how a trick works before the first.
    card = table.coach()
    assert (card.player, card.control, card.rule, card.after) == (None, "win_roman", "setup", None)
    # The card stays short; how a trick goes is in the introduction it points to.
    says(card.say, ("Everyone: shuffle the 50 Roman cards, turn up the top one and play the trick "
                    "as in \"How the game goes\"", "Alle: mischt die 50 Römerkarten, deckt die "
                    "oberste auf und spielt den Stich wie bei „So geht das Spiel“"))
    intro = COACH.game.intro(table.state)
    says(intro.need, ("the ten cards of your Gaul", "die zehn Karten seines Galliers"))
    says(intro.start,
         ("all lay one Gaul face down and reveal together",
          "legt jeder einen Gallier verdeckt hin, dann deckt ihr gleichzeitig auf"),
         ("the highest Gaul wins the Roman and is discarded",
          "Der höchste Gallier gewinnt den Römer und wird abgeworfen"),
         ("the other Gauls go back into their owners' hands (for a pirate it is the other way "
          "round)", "die anderen Gallier nehmt ihr wieder auf die Hand (bei einem Piraten ist es "
          "umgekehrt)"), ("a pirate under ☠", "einen Piraten unter ☠"),
         ("Equal Gauls: the one with more magic-potion flasks wins; equal flasks too: agree "
          "between you who gets it", "Bei gleich hohen Galliern gewinnt der mit mehr "
          "Zaubertrankflaschen; sind auch die Flaschen gleich, einigt euch, wer den Römer bekommt"))
    says(card.scoring, ("pirates first let Romans escape", "zuerst die Piraten Römer entkommen"),
         ("plus 20, 50 or 100", "dazu 20, 50 oder 100"),
         ("Ann 0 points, Ben 0 points, Cid 0 points", "Ann 0 Punkte, Ben 0 Punkte, Cid 0 Punkte"))

    # Tricks: the whole table plays; the second sentence names a special card in turn.
    card = table(type="win_roman", player="Ann", value=10)
    assert (card.player, card.control, card.rule) == (None, "win_roman", "pirates")
    says(card.say, ("Everyone: turn up the next card", "Alle: nächste Karte aufdecken"),
         ("the winning Gaul is discarded, the others go back into your hands",
          "Der siegreiche Gallier wird abgeworfen, die anderen nehmt ihr zurück auf die Hand"),
         ("Nobody may play Dogmatix on it", "Auf ihn darf niemand Idefix spielen"),
         ("Its winner takes the Gaul back into hand and every other Gaul played is discarded",
          "Wer ihn gewinnt, nimmt seinen Gallier zurück auf die Hand, alle anderen gespielten "
          "Gallier werden abgeworfen"))
    says(card.scoring, ("Ann 10 points, Ben 0 points", "Ann 10 Punkte, Ben 0 Punkte"))
    card = table(type="win_roman", player="Ann", value=10)
    assert card.rule == "idefix"
    says(card.say, ("you look at the top card of the deck", "siehst dir aber die oberste Karte des Stapels an"),
         ("keep it and Dogmatix is discarded, give it to another player and Dogmatix comes back",
          "Behältst du sie, wird Idefix abgeworfen; gibst du sie einem anderen, bekommst du Idefix zurück"),
         ("a Dogmatix played under “Dogmatix looked at the top card”",
          "einen gespielten Idefix unter „Idefix schaut nach“"))
    says(card.scoring, ("Ann 40 points", "Ann 40 Punkte"))  # a pair of 10s: 20 + 20
    card = table(type="win_roman", player="Ann", value=9)
    assert card.rule == "idefix"
    says(card.say, ("Two or more Dogmatix cards in one trick: nobody looks",
                    "Zwei oder mehr Idefix-Karten im selben Stich: Niemand schaut"))

    # A pirate won by Ben: the next note is the flasks, in words a family understands.
    card = table(type="win_pirate", player="Ben", kind="highest")
    assert (card.control, card.rule) == ("win_roman", "ties-flasks")
    says(card.say, ("the one showing more magic-potion flasks wins",
                    "Es gewinnt der mit mehr Zaubertrankflaschen"),
         ("If the flasks are equal too, the rulebook says nothing: agree between you who gets "
          "the Roman", "Sind auch die Flaschen gleich, sagt das Regelheft nichts: Einigt euch, "
          "wer den Römer bekommt"))
    assert "as you agreed" not in english(card.say) and "wie abgesprochen" not in german(card.say)

    # Cid's Dogmatix gives a 7 to Ben; then two Dogmatix cards clash.
    card = table(type="idefix_look", player="Cid", roman=7, given_to="Ben")
    says(card.scoring, ("Ben 0 points", "Ben 0 Punkte"))  # his pirate lets the 7 escape
    card = table(type="idefix_clash")
    assert card.player is None

    # Cid wins eight low Romans: one Gaul and Dogmatix left, and the card warns the table.
    for value in (1, 1, 1, 1, 2, 2, 2, 2):
        card = table(type="win_roman", player="Cid", value=value)
    assert (card.player, card.rule) == (None, "idefix")
    says(card.say, ("Cid has one Gaul and Dogmatix left. Dogmatix may never be the last card "
                    "played: once that Gaul is gone, Cid discards Dogmatix and sits out the rest "
                    "of the round",
                    "Cid hat nur noch einen Gallier und Idefix. Idefix darf nie als letzte Karte "
                    "gespielt werden: Ist der Gallier weg, legt Cid Idefix ab und setzt den Rest "
                    "der Runde aus"))
    assert "allein wird" not in german(card.say)
    says(card.short, ("Dogmatix may never be your last card", "Idefix darf nie deine letzte Karte sein"))
    says(card.scoring, ("Cid 212 points", "Cid 212 Punkte"))  # 4 + 8 + 100 + 100

    # Cid's last Gaul wins a 3 (Cid is out); Ben runs out: only Ann still holds cards.
    table(type="win_roman", player="Cid", value=3)
    card = table(type="player_out", player="Ben")
    assert (card.player, card.control, card.rule) == ("Ann", "last_player", "end-of-round")
    says(card.say, ("Ann: only you still hold cards", "Ann: nur du hast noch Karten"),
         ("Dogmatix counts unless it is alone", "Idefix zählt mit, außer er ist allein"))
    says(card.short, ("Ann: count your cards", "Ann: zähl deine Karten"))
    # Ann: ten Gauls less three won Romans and Ben's pirate, plus Dogmatix: 7; deck: 50 - 14.
    says(card.hint, ("By the taps you hold 7 cards, Dogmatix among them: 7 to take, 36 in the "
                     "deck", "Nach den Eingaben hast du 7 Karten, Idefix dabei: 7 zu ziehen, 36 im "
                     "Stapel"))

    # Ann says two cards are left: she draws them from the deck.
    card = table(type="last_player", player="Ann", cards_left=2)
    assert (card.player, card.control, card.rule, card.hint) == ("Ann", "win_roman",
                                                                 "end-of-round", None)
    says(card.say, ("Ann: take the top card of the deck", "Ann: nimm die oberste Karte"),
         ("2 cards still to take, this one included", "noch 2 Karten, diese mitgezählt"),
         ("A pirate drawn now stays in your pile and counts as one of your cards",
          "Einen Piraten, den du jetzt ziehst, musst du behalten; er zählt als eine deiner Karten"))
    # The one line a player who tapped tricks before reads keeps the pirate's rule.
    says(card.short, ("Ann: draw and tap; a pirate (☠) drawn now is yours to keep",
                      "Ann: zieh und tipp an; einen Piraten (☠) musst du jetzt behalten"))
    card = table(type="win_roman", player="Ann", value=14)
    says(card.say, ("1 card still to take, this one included", "noch 1 Karte, diese mitgezählt"))

    # Her last draw is the pirate of choice: the round is over, and the choice is hers.
    card = table(type="win_pirate", player="Ann", kind="choice")
    assert (card.player, card.control, card.rule) == ("Ann", "choose_escape", "pirates")
    says(card.say, ("Ann: your pirate of choice lets one Roman of your pile escape, and you "
                    "choose which", "Ann: dein Pirat „Beliebiger“ lässt einen Römer aus deinem "
                    "Stapel entkommen, und du wählst, welchen"))
    assert "cheapest" not in english(card.say) and "billigsten" not in german(card.say)
    says(card.hint, ("the 9 costs 9 (round: 54), the 10 costs 30 (round: 33), the 14 costs 14 "
                     "(round: 49)", "die 9 kostet 9 (Runde: 54), die 10 kostet 30 (Runde: 33), die "
                     "14 kostet 14 (Runde: 49)"))
    # Nothing escapes until Ann has chosen: no silent cheapest Roman in the standing.
    says(card.scoring, ("Ann 63 points, Ben 0 points, Cid 215 points",
                        "Ann 63 Punkte, Ben 0 Punkte, Cid 215 Punkte"))
    assert GAME.legal_actions(table.state, "Ben")["choose_escape"] is not None
    assert GAME.legal_actions(table.state, None)["close_round"] is not None

    # Ann names a 10: now anyone closes the round; a General pirate without a value says so.
    card = table(actor="Ann", type="choose_escape", player="Ann", value=10)
    assert (card.player, card.control, card.rule, card.hint) == (None, "close_round", "scoring",
                                                                 None)
    says(card.say, ("the tricks are over and every pile is in",
                    "die Stiche sind vorbei, alle Stapel sind eingetragen"),
         ("Check each pile against the cards on the table",
          "Vergleicht jeden Stapel mit den Karten auf dem Tisch"),
         ("then close round 1", "schließt dann Runde 1 ab"))
    says(card.scoring, ("Ann 33 points", "Ann 33 Punkte"))
    card = table(type="add_pirate", player="Cid", kind="general")
    assert (card.control, card.rule) == ("close_round", "pirates")
    says(card.say, ("No value is set for the General: its pirate lets nothing escape",
                    "Für den General ist kein Wert eingestellt"))

    # Round 1 is closed: why each scored what they did, and round 2 starts.
    card = table(type="close_round")
    assert (card.player, card.control, card.rule, card.see, card.scoring) == (
        None, "win_roman", "turn", "ks-sheet", None)
    says(card.say, ("Round 2: everyone takes all ten Gauls and Dogmatix back",
                    "Runde 2: alle nehmen ihre zehn Gallier und Idefix wieder"),
         ("Shuffle all 50 Roman cards again", "Mischt alle 50 Römerkarten neu"))
    says(card.after, ("Round 1, Romans kept + set bonus", "Runde 1, behaltene Römer + Setbonus"),
         ("Ann 33 + 0 = 33 (10 escaped)", "Ann 33 + 0 = 33 (10 entkommen)"),
         ("Ben 0 + 0 = 0 (7 escaped)", "Ben 0 + 0 = 0 (7 entkommen)"),
         ("Cid 15 + 200 = 215", "Cid 15 + 200 = 215"))

    # One trick later the explanation of round 1 is gone, and nothing is counted yet.
    card = table(type="win_roman", player="Ben", value=9)
    assert card.after is None and card.scoring is None and card.see is None

    # Round 2's piles typed in: Ben's alone is not "the tricks are over".
    card = table(type="enter_romans", player="Ben", values="5 5", round=2)
    assert (card.player, card.control, card.rule) == (None, "enter_romans", "scoring")
    says(card.say, ("the Romans of Ben are in", "die Römer von Ben sind eingetragen"),
         ("Type in those of Ann and Cid too (no Romans: type 0)",
          "Tragt auch die von Ann und Cid ein (keine Römer: 0 eintragen)"))
    assert "tricks are over" not in english(card.say) and "Stiche sind vorbei" not in german(card.say)
    says(card.scoring, ("Ann 0 points, Ben 30 points, Cid 0 points",
                        "Ann 0 Punkte, Ben 30 Punkte, Cid 0 Punkte"))
    table(type="enter_romans", player="Ann", values="0", round=2)
    card = table(type="enter_romans", player="Cid", values="", round=2)
    assert card.control == "close_round"
    says(card.say, ("then close the last round", "schließt dann die letzte Runde ab"))

    # The end: who won and why, pointing to the points-per-round table.
    card = table(type="close_round")
    assert GAME.is_over(table.state)
    assert (card.player, card.control, card.rule, card.see, card.hint, card.scoring) == (
        None, None, "winning", "ks-sheet", None, None)
    says(card.say, ("Cid wins with 215 points", "Cid gewinnt mit 215 Punkten"),
         ("after 2 rounds", "nach 2 Runden"))
    says(card.after, ("Ann 33 + 0 = 33", "Ann 33 + 0 = 33"), ("Ben 0 + 30 = 30", "Ben 0 + 30 = 30"),
         ("Cid 215 + 0 = 215", "Cid 215 + 0 = 215"))


def test_a_correction_mid_round_asks_for_every_pile_not_the_close():
    table = Table(["Mama", "Papa", "Lena"])
    table(type="win_roman", player="Mama", value=4)
    card = table(type="add_pirate", player="Papa", kind="lowest", round=1)
    assert (card.control, card.rule) == ("enter_romans", "scoring")
    says(card.say, ("the tricks are not tapped any more this round",
                    "in dieser Runde werden die Stiche nicht mehr angetippt"),
         ("type in the Romans of Mama, Papa and Lena", "tragt die Römer von Mama, Papa und Lena ein"))


def test_the_pirate_of_choice_is_its_owners_choice_on_the_owners_phone():
    table = Table(["Ann", "Ben"], rounds=1)
    table(type="enter_romans", player="Ann", values="2 2 3", round=1)
    table(type="enter_romans", player="Ben", values="5", round=1)
    card = table(type="add_pirate", player="Ann", kind="choice", round=1)
    assert (card.player, card.control) == ("Ann", "choose_escape")
    legal = GAME.legal_actions(table.state, "Ben")
    says(legal["choose_escape"], ("It is Ann's choice which Roman escapes",
                                  "Welcher Römer entkommt, entscheidet Ann"))
    says(legal["close_round"], ("Ann has not yet chosen which Roman the pirate of choice lets escape",
                                "Ann hat noch nicht gewählt, welchen Römer der Pirat „Beliebiger“ "
                                "entkommen lässt"))
    assert GAME.legal_actions(table.state, "Ann")["choose_escape"] is None
    assert GAME.legal_actions(table.state, None)["choose_escape"] is None  # the host's phone
    # The sheet lets nothing escape yet: the standing is the pile's full worth.
    assert GAME.view(table.state)["working"]["Ann"]["total"] == 27
    assert GAME.view(table.state)["choice_options"] == {"Ann": [2, 3]}
    card = table(actor="Ann", type="choose_escape", player="Ann", value=2)
    assert card.control == "close_round"
    assert GAME.view(table.state)["working"]["Ann"]["total"] == 5


def test_a_shared_win_and_a_pirate_of_choice_with_one_value_left():
    table = Table(["Ann", "Ben"], rounds=1)
    card = table(type="enter_romans", player="Ann", values="4 4", round=1)
    card = table(type="enter_romans", player="Ben", values="", round=1)
    card = table(type="add_pirate", player="Ann", kind="choice")
    # Only 4s in the pile: any escape is the same, so no choice to make and no hint.
    assert (card.player, card.control, card.hint) == (None, "close_round", None)
    card = table(type="remove_roman", player="Ann", value=4)
    card = table(type="close_round")
    says(card.say, ("Ann and Ben share the win with 0 points each",
                    "Ann und Ben gewinnen gemeinsam mit je 0 Punkten"))


def test_the_last_player_counts_dogmatix_among_the_cards():
    table = Table(["Ann", "Ben"])
    for _ in range(10):
        table(type="win_roman", player="Ben", value=5 + _ // 4)
    # Ben is out after ten Romans; Ann alone holds ten Gauls and Dogmatix.
    card = table.coach()
    assert (card.player, card.control) == ("Ann", "last_player")
    says(card.hint, ("11 cards, Dogmatix among them: 11 to take", "11 Karten, Idefix dabei: 11"))
