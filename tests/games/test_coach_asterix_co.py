"""Asterix & Co. in teaching mode: a whole game walked move by move, and what the coach card
says at every point, in English and in German."""

import re

import pytest

from companion.games.asterix_co import AsterixCo
from companion.games.base import GameError
from tests.games import coaching
from tests.games.coaching import Coached, says
from tests.games.languages import english, german

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

    # A character is laid: Matthew enters its power, then the turn is Laura's.
    card = table.play("Matthew", 1, 4, "Diehard", "Gaul", "Dogmatix")
    assert (card.player, card.control, card.rule) == ("Matthew", "end_power", "powers")
    says(card.say, ("Matthew: enter the power of Dogmatix now",
                    "Matthew: trag jetzt die Fähigkeit von Dogmatix ein"),
         ("Laura plays next", "danach ist Laura dran"))

    # Dogmatix's power: a legionary helmet. The standing before the first album changes.
    card = table(type="gain_helmet", player="Matthew", helmet="legionary")
    assert card.player == "Matthew" and card.rule == "powers"
    says(card.scoring, ("Matthew 2, Laura 1", "Matthew 2, Laura 1"))
    card = table(type="end_power")
    assert (card.player, card.control, card.rule) == ("Laura", "play_character", "turn")

    # Laura reinforces; Matthew's turn names his two albums and the side he plays on each.
    card = table(type="reinforce_hand", player="Laura")
    assert (card.player, card.control, card.rule, card.hint) == ("Matthew", "play_character",
                                                                 "turn", None)
    says(card.say, ("Matthew: your turn", "Matthew: du bist dran"),
         ("Gaul side of album 1", "Gallierseite von Album 1"),
         ("Roman side of album 2", "Römerseite von Album 2"),
         ("use a bonus token", "Bonusplättchen ein"))

    # Album 1 comes within one card of 15: Laura's hint gives Matthew's distance.
    table.play("Matthew", 1, 6, "Legionary", "Gaul")
    card = table(type="end_power")
    assert card.player == "Laura"
    says(card.hint, ("Album 1: Matthew needs only 5 more", "Album 1: Matthew braucht nur noch 5"))

    # Laura's Legionary: she enters its power, which K.O.s Matthew's Legionary.
    card = table.play("Laura", 1, 6, "Legionary", "Roman")
    assert (card.player, card.rule) == ("Laura", "powers")
    says(card.say, ("power of the strength 6 Roman Legionary",
                    "Fähigkeit von Legionär (Römer, Stärke 6)"))
    says(card.hint, ("Album 1 stands at 6 for you and 10 for Matthew",
                     "Album 1 steht bei 6 für dich und 10 für Matthew"))

    # Laura's Legionary's power K.O.s it; then Matthew's Potion would not decide the album.
    card = table(type="knock_out", character="c2")
    card = table(type="end_power")
    assert card.player == "Matthew" and card.hint is None

    # Matthew's Boar brings it back; then Laura's turn, with her distances.
    card = table(type="use_boar", player="Matthew", character="c2")
    assert (card.player, card.rule) == ("Laura", "turn")
    says(card.hint, ("Matthew needs only 5 more", "Matthew braucht nur noch 5"))

    # Laura's Fish, Matthew's Potion, an album's note: the turn goes on around them.
    card = table(type="use_fish", player="Laura", character="c2")
    assert card.player == "Matthew" and card.control == "play_character"
    card = table(type="use_potion", player="Matthew", character="c1")
    assert card.player == "Laura"
    card = table(type="set_album_note", album=2, note="No Fish")
    assert card.player == "Laura"
    says(card.hint, ("Album 1: Matthew needs only 7 more", "Album 1: Matthew braucht nur noch 7"))
    card = table(type="reinforce_hand", player="Laura")
    assert (card.player, card.control, card.rule) == ("Matthew", "play_character", "turn")
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
    card = table.play("Ann", 1, 8, "Rebel", "Gaul")
    assert (card.player, card.control) == ("Ann", "end_power")
    table(type="reinforce_hand", player="Bob")  # Bob's turn closes Ann's power
    card = table(type="reinforce_hand", player="Cid")
    assert (card.player, card.rule) == ("Ann", "turn")
    says(card.say, ("Gaul side of album 1", "Gallierseite von Album 1"),
         ("Roman side of album 3", "Römerseite von Album 3"))
    says(card.hint, ("A Potion on the strength 8 Gaul Rebel doubles it to 16",
                     "Ein Zaubertrank auf Rebell (Gallier, Stärke 8) verdoppelt die Stärke auf 16"),
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
    assert (card.player, card.rule) == ("Cid", "powers")
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
         ("or discard as many cards as you like, draw back up to 5 and tap “Reinforce” under ⋯ "
          "beside your name. You have no bonus token left",
          "oder wirf beliebig viele Karten ab, zieh wieder auf 5 nach und tipp unter ⋯ neben "
          "deinem Namen auf „Verstärken“. Du hast kein Bonusplättchen mehr"))
    assert "use a bonus token" not in english(card.say)
    # The one line keeps the warning: Bob has not been told before that his tokens are gone.
    says(card.short, ("you have no bonus token", "du hast kein Bonusplättchen"))


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


# -- issue 39: a coach a family can follow to the end -------------------------------------------

ID = re.compile(r"\bc\d+\b")


class Plain(Table):
    """A table whose every card is also checked for the page's internal ids ("c7")."""

    def coach(self):
        card = super().coach()
        for sentence in (card.say, card.short, card.scoring, card.after, card.hint):
            if sentence is not None:
                for words in (english(sentence), german(sentence)):
                    assert not ID.search(words), words
        return card


def fallen(players=("Matthew", "Laura")):
    """Matthew takes album 1 from Laura at once: two strength-8 Gauls."""
    table = Plain(list(players))
    table.play(players[0], 1, 8, "Rebel", "Gaul")
    table(type="end_power")
    for other in players[1:]:
        table(type="reinforce_hand", player=other)
    table.play(players[0], 1, 8, "Diehard", "Gaul")
    return table


def test_the_losers_two_choices_are_made_on_the_losers_phone_or_the_hosts():
    table = fallen()
    state = table.state
    assert GAME.legal_actions(state, "Laura")["take_consolation"] is None
    assert GAME.legal_actions(state, "Matthew", host=True)["take_consolation"] is None
    assert GAME.legal_actions(state, None)["take_consolation"] is None  # the host without a seat
    why = GAME.legal_actions(state, "Matthew")["take_consolation"]
    says(why, ("consolation token is Laura's choice", "Das Trostplättchen wählt Laura selbst"))
    with pytest.raises(GameError) as refused:
        GAME.play(state, GAME.parse_action({"type": "take_consolation", "bonus": "fish"}), "Matthew")
    says(refused.value.sentence, ("Laura's choice", "wählt Laura selbst"))
    state, _ = GAME.play(state, GAME.parse_action({"type": "take_consolation", "bonus": "fish"}),
                         "Matthew", host=True)
    says(GAME.legal_actions(state, "Matthew")["orient_album"],
         ("side of the new album is Laura's choice", "Die Seite des neuen Albums wählt Laura"))
    assert GAME.legal_actions(state, "Laura")["orient_album"] is None
    with pytest.raises(GameError):
        GAME.play(state, GAME.parse_action({"type": "orient_album", "faction": "gaul"}), "Matthew")
    # A move read back from the log was accepted once: a seat is not asked again.
    GAME.play(state, GAME.parse_action({"type": "orient_album", "faction": "gaul"}), "Matthew",
              replaying=True)


def test_the_player_who_played_a_character_is_told_where_to_enter_its_power():
    table = Plain(["Mama", "Papa", "Lena"])
    card = table.play("Mama", 1, 6, "Hero", "Gaul", "Asterix")
    assert table.state["power"]["player"] == "Mama" and table.state["turn"] == "Papa"
    assert (card.player, card.control, card.rule) == ("Mama", "end_power", "powers")
    says(card.say, ("Mama: enter the power of Asterix now", "Mama: trag jetzt die Fähigkeit von Asterix ein"),
         ("tap the character it hits", "Tipp die Figur an, die sie trifft"),
         ("⋯ beside a player", "⋯ neben einem Spieler"), ("“Power done”", "„Fähigkeit erledigt“"),
         ("or you pass on it", "oder du sie nicht nutzt"),
         ("Papa plays next", "danach ist Papa dran"))
    says(card.hint, ("Album 1 stands at 6 for you and 0 for Papa", "Album 1 steht bei 6 für dich und 0 für Papa"))
    # Papa's phone may play his turn, but Mama's power is hers to enter.
    assert GAME.legal_actions(table.state, "Papa")["play_character"] is None
    for kind in ("knock_out", "gain_helmet", "gain_bonus", "call_on", "end_power"):
        says(GAME.legal_actions(table.state, "Papa")[kind],
             ("Mama enters the power of Asterix on their own phone or the host's",
              "Mama trägt die Fähigkeit von Asterix auf dem eigenen Handy ein oder auf dem des Gastgebers"))
        assert GAME.legal_actions(table.state, "Mama")[kind] is None, kind
    card = table("Mama", type="gain_bonus", player="Mama", bonus="potion")
    assert (card.player, card.control) == ("Mama", "end_power")  # done only when she says so
    card = table("Mama", type="end_power")
    assert table.state["power"] is None
    assert (card.player, card.control, card.rule) == ("Papa", "play_character", "turn")
    # No power waits now: nothing to say it is done with.
    says(GAME.legal_actions(table.state, "Papa")["end_power"],
         ("No character's power is waiting", "Keine Fähigkeit wartet"))

    # An unnamed character is its type and strength; the next turn's move closes the power.
    card = table.play("Papa", 2, 4, "Legionary", "Gaul")
    says(card.say, ("the power of the strength 4 Gaul Legionary", "Fähigkeit von Legionär (Gallier, Stärke 4)"))
    card = table(type="reinforce_hand", player="Lena")
    assert table.state["power"] is None and card.player == "Mama" and card.rule == "turn"

    # A Boar on the last visible character uses its power again: its user enters it.
    card = table(type="use_boar", player="Mama", character="c1")
    assert (card.player, card.control) == ("Mama", "end_power")
    says(card.say, ("your Boar uses the power of Asterix again", "dein Wildschwein nutzt die Fähigkeit von Asterix"))


def test_a_hint_counts_only_the_sides_that_are_close_to_15():
    table = Plain(["Matthew", "Laura"])
    table.play("Matthew", 1, 7, "Legionary", "Gaul")
    table(type="end_power")
    card = table(type="reinforce_hand", player="Laura")
    card = table(type="reinforce_hand", player="Matthew")
    assert card.player == "Laura"
    says(card.hint, ("Album 1: Matthew needs only 8 more to take it", "Album 1: Matthew braucht nur noch 8, um es zu nehmen"))
    assert "15 more" not in english(card.hint) and "bis 15" not in german(card.hint)
    card = table.play("Laura", 1, 8, "Legionary", "Roman")
    card = table(type="end_power")
    says(card.hint, ("Album 1: you need 8 more to take it, Laura needs 7",
                     "Album 1: du brauchst noch 8, um es zu nehmen, Laura noch 7"))


def test_a_turn_says_what_each_kind_of_turn_draws():
    table = Plain(["Ann", "Bob", "Cid"])
    card = table(type="hand_turn", player="Bob")
    says(card.say, ("use a bonus token (tap the character it goes on) and draw a card",
                    "setz ein Bonusplättchen ein (tipp die Figur an, auf die es kommt) und zieh eine Karte"),
         ("draw back up to 5", "zieh wieder auf 5 nach"),
         ("tap “Reinforce” under ⋯ beside your name", "tipp unter ⋯ neben deinem Namen auf „Verstärken“"))


def test_the_fall_of_an_album_says_what_happens_to_its_cards():
    table = fallen(("Ann", "Bob", "Cid"))
    card = table.coach()
    says(card.after, ("Ann takes the album card and the helmets", "Ann nimmt die Albumkarte und die Helme"),
         ("K.O.'d characters go back to their owners' hands", "k.o. geschlagenen Figuren gehen zurück auf die Hand"),
         ("discard pile", "Ablagestapel"),
         ("their Potions back to the stockpile", "ihre Zaubertränke zurück in den Vorrat"))
    card = table(type="take_consolation", bonus="potion")
    assert "discard pile" not in english(card.after)  # said once, when it is done


def test_a_loser_without_a_token_to_take_keeps_that_in_the_short_line():
    table = Plain(["Ann", "Bob", "Cid"])
    for bonus in ("potion", "fish", "boar"):
        table(type="gain_bonus", player="Bob", bonus=bonus)
    table.play("Ann", 1, 8, "Rebel", "Gaul")
    table(type="end_power")
    table(type="reinforce_hand", player="Bob")
    table(type="reinforce_hand", player="Cid")
    card = table.play("Ann", 1, 8, "Diehard", "Gaul")
    assert card.control == "orient_album"
    says(card.short, ("no token for you", "kein Plättchen für dich"))
    says(card.after, ("discard pile", "Ablagestapel"))
