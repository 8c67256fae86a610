"""The score pad in teaching mode: what the coach card says as a family fills the sheet, in
English and in German: every round still lacking points, the next round of an open sheet
with the way to finish in words, and the winner in a sentence with a verb."""

from companion.games.scorepad import ScorePad
from tests.games import coaching
from tests.games.coaching import Coached, says

COACH = Coached(ScorePad())
FAMILY = ["Mama", "Papa", "Lena", "Jonas"]


class Table(coaching.Table):
    coached = COACH

    def score(self, player, round_, points, actor=None):
        return self(actor, type="enter_score", player=player, round=round_, points=points)


def test_every_round_still_lacking_points_is_named_earliest_first():
    table = Table(FAMILY)
    for name in FAMILY:
        table.score(name, 1, 10)
    table.score("Lena", 2, 4)
    table.score("Jonas", 2, 6)
    card = table.score("Papa", 3, 8)
    assert card.control == "enter_score"
    says(card.say, ("Points still missing: round 2 from Mama and Papa, round 3 from Mama, Lena and Jonas.",
                    "Es fehlen noch Punkte: Runde 2 von Mama und Papa, Runde 3 von Mama, Lena und Jonas."))
    says(card.short, ("Round 2: points missing.", "Runde 2: Punkte fehlen noch."))


def test_an_open_sheet_marks_the_next_round_and_says_how_to_finish():
    table = Table(FAMILY)
    for name in FAMILY:
        card = table.score(name, 1, 10)
    # Never the finish itself: a family that taps what is marked plays on.
    assert (card.control, card.rule) == ("enter_score", "rounds")
    says(card.say, ("Round 1 is complete. Play round 2 and enter its points.",
                    "Runde 1 ist vollständig. Spielt Runde 2 und tragt ihre Punkte ein."),
         ('tap "Finish the game"', "auf „Partie beenden“"))


def test_a_planned_sheet_says_which_round_of_how_many_comes_next():
    table = Table(["Ann", "Ben"], rounds=3)
    table.score("Ann", 1, 3)
    card = table.score("Ben", 1, 5)
    assert card.control == "enter_score"
    says(card.say, ("Play round 2 of 3", "Spielt Runde 2 von 3"))


def test_the_end_names_the_winner_with_a_verb_and_a_shared_win_too():
    table = Table(["Mama", "Jonas"])
    table.score("Mama", 1, 20)
    table.score("Jonas", 1, 33)
    card = table(type="finish_game")
    assert card.control is None and card.see == "scoresheet"
    says(card.say, ("Jonas wins with 33 points!", "Jonas gewinnt mit 33 Punkten!"))

    table = Table(["Mama", "Jonas", "Lena"], winning="lowest")
    for name in ("Mama", "Jonas"):
        table.score(name, 1, 7)
    table.score("Lena", 1, 9)
    card = table(type="finish_game")
    says(card.say, ("Mama and Jonas share the win with 7 points each.",
                    "Mama und Jonas teilen sich den Sieg mit je 7 Punkten."))
