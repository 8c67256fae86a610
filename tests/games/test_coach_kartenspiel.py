"""Asterix: Das Kartenspiel in teaching mode: a whole game walked move by move, and what the
coach card says at every point, in English and in German."""

from companion.games.kartenspiel import Kartenspiel
from tests.games import coaching
from tests.games.coaching import Coached, says
from tests.games.languages import english

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

    # Set-up: the whole table lays the game out; what will count is explained from the start.
    card = table.coach()
    assert (card.player, card.control, card.rule, card.after) == (None, "win_roman", "setup", None)
    says(card.say, ("Everyone: take your Gaul's ten cards and your Dogmatix",
                    "Alle: nehmt die zehn Karten eures Galliers und euren Idefix"),
         ("50 Roman cards", "50 Römerkarten"))
    says(card.scoring, ("pirates first let Romans escape", "zuerst die Piraten Römer entkommen"),
         ("plus 20, 50 or 100", "dazu 20, 50 oder 100"),
         ("Ann 0 points, Ben 0 points, Cid 0 points", "Ann 0 Punkte, Ben 0 Punkte, Cid 0 Punkte"))

    # Tricks: the whole table plays; the second sentence names a special card in turn.
    card = table(type="win_roman", player="Ann", value=10)
    assert (card.player, card.control, card.rule) == (None, "win_roman", "pirates")
    says(card.say, ("Everyone: turn up the next card", "Alle: nächste Karte umdrehen"),
         ("A pirate? Tap ☠", "Ein Pirat? Tippt ☠"))
    says(card.scoring, ("Ann 10 points, Ben 0 points", "Ann 10 Punkte, Ben 0 Punkte"))
    card = table(type="win_roman", player="Ann", value=10)
    assert card.rule == "idefix"
    says(card.say, ("Played Dogmatix? Open its menu", "Idefix gespielt? Öffnet sein Menü"))
    says(card.scoring, ("Ann 40 points", "Ann 40 Punkte"))  # a pair of 10s: 20 + 20

    # A pirate won by Ben: the next note is the flasks.
    card = table(type="win_pirate", player="Ben", kind="highest")
    assert (card.control, card.rule) == ("win_roman", "ties-flasks")
    says(card.say, ("more flasks win", "mehr Flaschen gewinnen"),
         ("as you agreed", "wie abgesprochen"))

    # Cid's Dogmatix gives a 7 to Ben; then two Dogmatix cards clash.
    card = table(type="idefix_look", player="Cid", roman=7, given_to="Ben")
    assert card.rule == "pirates"
    says(card.scoring, ("Ben 0 points", "Ben 0 Punkte"))  # his pirate lets the 7 escape
    card = table(type="idefix_clash")
    assert card.rule == "idefix" and card.player is None

    # Cid wins eight low Romans: one Gaul and Dogmatix left, and the card warns the table.
    for value in (1, 1, 1, 1, 2, 2, 2, 2):
        card = table(type="win_roman", player="Cid", value=value)
    assert (card.player, card.rule) == (None, "idefix")
    says(card.say, ("Cid holds one Gaul and Dogmatix: Dogmatix alone is discarded",
                    "Cid hat noch einen Gallier und Idefix: allein wird Idefix abgeworfen"))
    assert card.short == card.say.args["note"]  # the one line keeps the warning
    says(card.scoring, ("Cid 212 points", "Cid 212 Punkte"))  # 4 + 8 + 100 + 100

    # Cid's last Gaul wins a 3 (Cid is out); Ben runs out: only Ann still holds cards.
    table(type="win_roman", player="Cid", value=3)
    card = table(type="player_out", player="Ben")
    assert (card.player, card.control, card.rule) == ("Ann", "last_player", "end-of-round")
    says(card.say, ("Ann: only you still hold cards", "Ann: nur du hast noch Karten"),
         ("Dogmatix counts unless it is alone", "Idefix zählt mit, außer er ist allein"))
    says(card.short, ("Ann: count your cards", "Ann: zähl deine Karten"))
    # Ann: ten Gauls less two won Romans and Ben's pirate, plus Dogmatix: 8; deck: 50 - 13.
    says(card.hint, ("By the taps you hold 8 cards, Dogmatix among them: 8 to take, 37 in the "
                     "deck", "Nach den Eingaben hast du 8 Karten, Idefix dabei: 8 zu ziehen, 37 im "
                     "Stapel"))

    # Ann says two cards are left: she draws them from the deck.
    card = table(type="last_player", player="Ann", cards_left=2)
    assert (card.player, card.control, card.rule, card.hint) == ("Ann", "win_roman",
                                                                 "end-of-round", None)
    says(card.say, ("Ann: take the top card of the deck", "Ann: nimm die oberste Karte"),
         ("2 more cards to take", "noch 2 Karten"), ("yours to keep", "musst du behalten"))
    card = table(type="win_roman", player="Ann", value=14)
    says(card.say, ("1 more card to take", "noch 1 Karte)"))

    # Her last draw is the pirate of choice: the round is over, and her choice matters.
    card = table(type="win_pirate", player="Ann", kind="choice")
    assert (card.player, card.control, card.rule) == ("Ann", "choose_escape", "pirates")
    says(card.say, ("Ann: your pirate of choice lets one Roman escape",
                    "Ann: dein Pirat „Beliebiger“ lässt einen Römer entkommen"),
         ("takes the cheapest", "nimmt den billigsten"))
    says(card.hint, ("the 10 costs 30, the 14 costs 14", "die 10 kostet 30, die 14 kostet 14"))
    says(card.scoring, ("Ann 40 points, Ben 0 points, Cid 215 points",
                        "Ann 40 Punkte, Ben 0 Punkte, Cid 215 Punkte"))

    # Ann names a 10: now anyone closes the round; a General pirate without a value says so.
    card = table(type="choose_escape", player="Ann", value=10)
    assert (card.player, card.control, card.rule, card.hint) == (None, "close_round", "scoring",
                                                                 None)
    says(card.say, ("Check the piles against the table", "Vergleicht die Stapel mit dem Tisch"),
         ("then close round 1", "schließt dann Runde 1 ab"))
    says(card.scoring, ("Ann 24 points", "Ann 24 Punkte"))
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
         ("Ann 24 + 0 = 24 (10 escaped)", "Ann 24 + 0 = 24 (10 entkommen)"),
         ("Ben 0 + 0 = 0 (7 escaped)", "Ben 0 + 0 = 0 (7 entkommen)"),
         ("Cid 15 + 200 = 215", "Cid 15 + 200 = 215"))

    # One trick later the explanation of round 1 is gone, and nothing is counted yet.
    card = table(type="win_roman", player="Ben", value=9)
    assert card.after is None and card.scoring is None and card.see is None

    # Round 2's piles typed in: the last round is scored, with what counts shown again.
    card = table(type="enter_romans", player="Ben", values="5 5", round=2)
    assert (card.player, card.control, card.rule) == (None, "close_round", "scoring")
    says(card.say, ("then close the last round", "schließt dann die letzte Runde ab"))
    says(card.scoring, ("Ann 0 points, Ben 30 points, Cid 0 points",
                        "Ann 0 Punkte, Ben 30 Punkte, Cid 0 Punkte"))

    # The end: who won and why, pointing to the points-per-round table.
    card = table(type="close_round")
    assert GAME.is_over(table.state)
    assert (card.player, card.control, card.rule, card.see, card.hint, card.scoring) == (
        None, None, "winning", "ks-sheet", None, None)
    says(card.say, ("Cid wins with 215 points", "Cid gewinnt mit 215 Punkten"),
         ("after 2 rounds", "nach 2 Runden"))
    says(card.after, ("Ann 24 + 0 = 24", "Ann 24 + 0 = 24"), ("Ben 0 + 30 = 30", "Ben 0 + 30 = 30"),
         ("Cid 215 + 0 = 215", "Cid 215 + 0 = 215"))


def test_a_shared_win_and_a_pirate_of_choice_with_one_value_left():
    table = Table(["Ann", "Ben"], rounds=1)
    card = table(type="enter_romans", player="Ann", values="4 4", round=1)
    card = table(type="add_pirate", player="Ann", kind="choice")
    # Only 4s in the pile: any escape is the same, so no choice to make and no hint.
    assert (card.player, card.control, card.hint) == (None, "close_round", None)
    card = table(type="remove_roman", player="Ann", value=4)
    card = table(type="close_round")
    says(card.say, ("Ann, Ben share the win with 0 points each",
                    "Ann, Ben gewinnen gemeinsam mit je 0 Punkten"))


def test_the_last_player_counts_dogmatix_among_the_cards():
    table = Table(["Ann", "Ben"])
    for _ in range(10):
        table(type="win_roman", player="Ben", value=5 + _ // 4)
    # Ben is out after ten Romans; Ann alone holds ten Gauls and Dogmatix.
    card = table.coach()
    assert (card.player, card.control) == ("Ann", "last_player")
    says(card.hint, ("11 cards, Dogmatix among them: 11 to take", "11 Karten, Idefix dabei: 11"))
