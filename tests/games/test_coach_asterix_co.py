"""Asterix & Co. in teaching mode: a whole game walked move by move, and what the coach card
says at every point, in English and in German."""

import pytest

from companion.games.asterix_co import AsterixCo
from tests.games import coaching
from tests.games.coaching import Coached, says
from tests.games.languages import english

GAME = AsterixCo()
COACH = Coached(GAME)


class Table(coaching.Table):
    """A table of this game; ``coach`` checks what every card must keep."""

    coached = COACH

    def play(self, player, album, strength, character_type, colour, name=None):
        return self(type="play_character", player=player, album=album, strength=strength,
                    character_type=character_type, colour=colour, name=name)


def test_a_whole_game_of_two_walked_by_the_coach():
    table = Table(["Matthew", "Laura"])

    # Set-up: the first player lays the first character; nothing has been counted yet.
    card = table.coach()
    assert (card.player, card.control, card.rule, card.hint) == ("Matthew", "play_character",
                                                                 "setup", None)
    says(card.say, ("you start", "du fängst an"), ("5 cards", "5 Karten"))
    says(card.scoring, ("15 sesterces", "15 Sesterzen"), ("Legionary (1)", "Legionär (1)"),
         ("Centurion (3)", "Zenturio (3)"), ("Matthew 1, Laura 1", "Matthew 1, Laura 1"))
    assert card.after is None and card.see is None

    # A character is laid: the turn passes to Laura once its power is entered.
    card = table.play("Matthew", 1, 4, "Diehard", "Gaul", "Dogmatix")
    assert (card.player, card.control, card.rule, card.hint) == ("Laura", "play_character",
                                                                 "powers", None)
    says(card.say, ("Laura: your turn", "Laura: du bist dran"),
         ("Matthew has entered the power of Dogmatix (c1)",
          "Matthew die Fähigkeit von Dogmatix (c1) eingetragen"))

    # Dogmatix's power: a legionary helmet. The standing before the first album changes.
    card = table(type="gain_helmet", player="Matthew", helmet="legionary")
    assert card.player == "Laura" and card.rule == "powers"
    says(card.scoring, ("Matthew 2, Laura 1", "Matthew 2, Laura 1"))

    # Laura reinforces; Matthew's turn names his two albums and the side he plays on each.
    card = table(type="reinforce_hand", player="Laura")
    assert (card.player, card.control, card.rule, card.hint) == ("Matthew", "play_character",
                                                                 "turn", None)
    says(card.say, ("Matthew: your turn", "Matthew: du bist dran"),
         ("Gaul side of album 1", "Gallierseite von Album 1"),
         ("Roman side of album 2", "Römerseite von Album 2"),
         ("use a bonus token", "Bonusplättchen ein"))

    # Album 1 comes within one card of 15: the hint gives both sides' distance.
    card = table.play("Matthew", 1, 6, "Legionary", "Gaul")
    assert card.player == "Laura"
    says(card.hint, ("Album 1: you need 15 more", "Album 1: dir fehlen noch 15"),
         ("Matthew needs 5", "Matthew fehlen 5"))

    # Matthew's Potion on his Legionary would take the album: the hint says so, as figures.
    card = table.play("Laura", 1, 6, "Legionary", "Roman")
    assert (card.player, card.rule) == ("Matthew", "powers")
    says(card.say, ("power of the strength 6 Roman Legionary (c3)",
                    "Fähigkeit von Legionär c3 (Römer, Stärke 6)"))
    says(card.hint, ("A Potion on the strength 6 Gaul Legionary (c2)",
                     "Ein Zaubertrank auf Legionär c2 (Gallier, Stärke 6)"),
         ("would bring album 1 to 16", "brächte Album 1 auf 16"))

    # Laura's Legionary's power K.O.s it: no card of Matthew's reaches 15 now, no hint.
    card = table(type="knock_out", character="c2")
    assert card.player == "Matthew" and card.hint is None

    # Matthew's Boar brings it back; then Laura's turn, with her distances.
    card = table(type="use_boar", player="Matthew", character="c2")
    assert (card.player, card.rule) == ("Laura", "turn")
    says(card.hint, ("you need 9 more", "dir fehlen noch 9"), ("Matthew needs 5", "Matthew fehlen 5"))

    # Laura's Fish, Matthew's Potion, an album's note: the turn goes on around them.
    card = table(type="use_fish", player="Laura", character="c2")
    assert card.player == "Matthew" and card.control == "play_character"
    card = table(type="use_potion", player="Matthew", character="c1")
    assert card.player == "Laura"
    card = table(type="set_album_note", album=2, note="No Fish")
    assert card.player == "Laura"
    says(card.hint, ("Album 1: you need 9 more", "Album 1: dir fehlen noch 9"))  # before the note
    # Laura's Legionary is still the newest character: the card cannot know whether its
    # power was entered two turns ago, so it keeps saying "if it has a target".
    card = table(type="reinforce_hand", player="Laura")
    assert (card.player, card.control, card.rule) == ("Matthew", "play_character", "powers")
    says(card.say, ("if it has a target", "falls sie ein Ziel hat"))
    card = table(type="use_fish", player="Matthew", character="c3")
    card = table(type="reinforce_hand", player="Laura")
    assert card.player == "Matthew"
    says(card.scoring, ("Matthew 2, Laura 1", "Matthew 2, Laura 1"))

    # The first scoring: Matthew's Centurion takes album 1 (Dogmatix 8 with the Potion + 7).
    card = table.play("Matthew", 1, 7, "Centurion", "Gaul")
    assert GAME.phase(table.state) == "consolation"
    assert (card.player, card.control, card.rule, card.scoring, card.see) == (
        "Laura", "take_consolation", "resolution", None, "ac-verdict")
    says(card.say, ("Laura: you lost album 1", "Laura: du hast Album 1 verloren"),
         ("consolation", "Trost"))
    says(card.after, ("Matthew: 15 for album 1 (15 to 0)", "Matthew: 15 für Album 1 (15 zu 0)"),
         ("and 1 centurion helmet", "und 1 Zenturiohelm"), ("now 20", "jetzt 20"),
         ("Laura lost and picks", "Laura hat verloren und sucht sich"))
    says(card.hint, ("Potion 1, Fish 0, Boar 1", "Zaubertrank 1, Fisch 0, Wildschwein 1"),
         ("Allowed now: Potion token, Fish token, Boar token",
          "Möglich jetzt: Zaubertrankplättchen, Fischplättchen, Wildschweinplättchen"))

    card = table(type="take_consolation", bonus="fish")
    assert (card.player, card.control, card.rule, card.see) == (
        "Laura", "orient_album", "album-effects", "ac-verdict")
    says(card.say, ("Laura: turn over the top album", "Laura: deck das oberste Album"),
         ("note", "Notiz"))
    says(card.after, ("Laura lost and took a Fish token", "Fischplättchen genommen"))
    says(card.hint, ("other album, 2, you play the Gaul side",
                     "Nummer 2, spielst du die Gallierseite"))

    # The new album shows Laura its Roman side; the turn is on Matthew's left: Laura's.
    card = table(type="orient_album", faction="roman")
    assert (card.player, card.control, card.rule) == ("Laura", "play_character", "turn")
    assert card.scoring is None and card.after is None and card.see is None
    says(card.say, ("Gaul side of album 2", "Gallierseite von Album 2"),
         ("Roman side of album 3", "Römerseite von Album 3"))
    says(card.hint, ("Album 2 has an effect: No Fish", "Album 2 hat einen Effekt: No Fish"))

    # Powers hand Matthew centurion helmets; his next album ends the game.
    for _ in range(6):
        table(type="gain_helmet", player="Matthew", helmet="centurion")
    table.play("Laura", 3, 2, "Rebel", "Roman")
    table.play("Matthew", 3, 8, "Hero", "Gaul", "Asterix")
    table(type="reinforce_hand", player="Laura")
    card = table.play("Matthew", 3, 8, "Chief", "Gaul")
    assert GAME.is_over(table.state)
    assert (card.player, card.control, card.rule, card.hint, card.scoring, card.see) == (
        None, None, "end-of-game", None, None, "ac-final")
    says(card.say, ("Matthew wins", "Matthew gewinnt"), ("album 3", "Album 3"),
         ("53 sesterces", "53 Sesterzen"))
    says(card.after, ("centurion helmets 3", "Zenturiohelm 3"),
         ("Matthew 2×15 + 7×3 + 2×1 = 53", "Matthew 2×15 + 7×3 + 2×1 = 53"),
         ("Laura 0×15 + 0×3 + 1×1 = 1", "Laura 0×15 + 0×3 + 1×1 = 1"))


def test_a_loser_who_can_take_no_token_goes_straight_to_the_new_album():
    table = Table(["Ann", "Bob", "Cid"])
    for bonus in ("potion", "fish", "boar"):
        table(type="gain_bonus", player="Bob", bonus=bonus)
    table.play("Ann", 1, 8, "Rebel", "Gaul")
    table(type="reinforce_hand", player="Bob")
    card = table(type="reinforce_hand", player="Cid")
    assert (card.player, card.rule) == ("Ann", "turn")
    says(card.say, ("Gaul side of album 1", "Gallierseite von Album 1"),
         ("Roman side of album 3", "Römerseite von Album 3"))
    says(card.hint, ("A Potion on the strength 8 Gaul Rebel (c1) doubles it to 16",
                     "Ein Zaubertrank auf Rebell c1 (Gallier, Stärke 8) verdoppelt die Stärke auf 16"),
         ("would bring album 1 to 16", "brächte Album 1 auf 16"))

    card = table.play("Ann", 1, 8, "Diehard", "Gaul")
    assert GAME.phase(table.state) == "orientation"
    assert (card.player, card.control) == ("Bob", "orient_album")
    says(card.say, ("Bob: no consolation token is left", "Bob: für dich gibt es kein Trost"))
    says(card.after, ("15 for album 1 (16 to 0), no helmet", "15 für Album 1 (16 zu 0), kein Helm"),
         ("Bob lost and could take no token", "Bob hat verloren und konnte kein Plättchen"))
    says(card.hint, ("other album, 2, you play the Gaul side",
                     "Nummer 2, spielst du die Gallierseite"))
    # The next turn waits on the winner's left, where it already is: Bob's, after his choice.
    card = table(type="orient_album", faction="gaul")
    assert (card.player, card.rule) == ("Bob", "turn")


def test_a_player_without_tokens_is_offered_the_two_other_kinds_of_turn():
    table = Table(["Ann", "Bob", "Cid"])
    table.play("Ann", 1, 2, "Rebel", "Gaul")
    table(type="use_fish", player="Bob", character="c1")
    card = table.play("Cid", 2, 2, "Rebel", "Roman")
    assert (card.player, card.rule) == ("Ann", "powers")
    card = table(type="reinforce_hand", player="Ann")
    assert (card.player, card.rule) == ("Bob", "turn")
    says(card.say, ("use a bonus token", "Bonusplättchen ein"))
    table(type="use_boar", player="Bob", character="c1")
    table(type="reinforce_hand", player="Cid")
    table(type="reinforce_hand", player="Ann")
    table(type="use_potion", player="Bob", character="c2")
    table(type="reinforce_hand", player="Cid")
    card = table(type="reinforce_hand", player="Ann")
    assert (card.player, card.control, card.rule) == ("Bob", "play_character", "turn")
    says(card.say, ("Bob: your turn", "Bob: du bist dran"),
         ("or reinforce your hand (you have no bonus token left)",
          "oder verstärke deine Hand (du hast kein Bonusplättchen mehr)"))
    assert "use a bonus token" not in english(card.say)


def test_a_turn_handed_on_at_the_start_is_an_ordinary_turn():
    table = Table(["Ann", "Bob", "Cid"])
    card = table(type="hand_turn", player="Cid")
    assert (card.player, card.control, card.rule) == ("Cid", "play_character", "turn")
    says(card.say, ("Cid: your turn", "Cid: du bist dran"))
    says(card.scoring, ("Ann 1, Bob 1, Cid 1", "Ann 1, Bob 1, Cid 1"))


@pytest.mark.parametrize("players, options, words", [
    (["Matthew", "Laura"], {},
     [("Matthew starts", "Matthew beginnt"), ("two starting albums", "zwei Startalben"),
      ("unlimited", "unbegrenzt")]),
    (["Ann", "Bob", "Cid", "Dee"], {"potion_tokens": 4},
     [("Ann starts", "Ann beginnt"), ("each pair of neighbours", "zwischen je zwei Nachbarn"),
      ("as this table set it", "wie ihn dieser Tisch eingestellt hat")]),
])
def test_the_introduction_names_the_start_player_and_what_lies_in_front_of_everyone(
        players, options, words):
    table = Table(players, **options)
    opening = GAME.intro(table.state)
    says(opening.goal, ("15 strength", "15 Stärke"), ("first to 50 wins", "zuerst 50"))
    says(opening.start, words[0], ("leaves the start player open", "legt nicht fest"))
    says(opening.need, ("5 character cards", "5 Figurenkarten"), *words[1:])
    assert "Sentence(" not in english(opening.need)
