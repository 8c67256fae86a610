"""Mission Zaubertrank! in teaching mode: whole games walked move by move, and what the coach
card says at every point, in English and in German."""

from companion.games.zaubertrank import Zaubertrank
from tests.games import coaching
from tests.games.coaching import Coached, says
from tests.games.languages import english, german

GAME = Zaubertrank()
COACH = Coached(GAME)
ONE_FISH = dict(first_ingredient="fish", first_quantity=1, second_ingredient="fish",
                second_quantity=1, third_ingredient="fish", third_quantity=1)


class Table(coaching.Table):
    """A table of this game; ``coach`` checks what every card must keep."""

    coached = COACH

    def task(self, **fields):
        return self(type="enter_task", **{**ONE_FISH, **fields})

    def end_turn(self, symbol, location):
        """Roman on, a marker drawn and placed; answers the card of the next turn."""
        self(type="advance_roman")
        self(type="draw_mishap", symbol=symbol)
        return self(type="place_mishap", location=location)


def set_up(table: Table) -> None:
    """The set-up as the coach leads it; Ann (Asterix) and Bob (Obelix) at the task stack."""
    card = table.coach()
    assert (card.player, card.control, card.rule, card.hint) == (None, "enter_task", "setup",
                                                                 None)
    says(card.say, ("Everyone", "Alle"), ("six locations", "sechs Orte"),
         ("task card", "Aufgabenkarte"))
    assert card.scoring is None and card.after is None

    card = table.task()
    assert (card.player, card.control, card.rule) == (None, "take_ingredients", "setup")
    says(card.say, ("character card", "Charakterkarte"))

    card = table(type="take_ingredients", player="Ann", fish=2)
    assert (card.player, card.control, card.rule) == (None, "draw_mishap", "mishaps")
    says(card.say, ("(1 of 2)", "(1 von 2)"))

    card = table(type="draw_mishap", symbol="lightning")
    assert (card.player, card.control) == (None, "place_mishap")
    says(card.say, ("lightning marker", "Blitz-Marker"), ("not where the Roman stands",
                                                          "nicht dort, wo der Römer steht"))
    table(type="place_mishap", location=2)
    card = table(type="draw_mishap", symbol="knife")
    card = table(type="place_mishap", location=3)
    assert (card.player, card.control, card.rule) == (None, "begin_play", "setup")
    says(card.say, ("decide together who starts", "entscheidet gemeinsam, wer anfängt"),
         ("First on the list: Ann", "Zuerst steht Ann da"))


def test_intro_names_the_goal_the_material_and_who_starts():
    table = Table(["Ann", "Bob"], difficulty="a cohort")
    intro = GAME.intro(table.state)
    says(intro.goal, ("complete 6 task cards", "Erfüllt 6 Aufgabenkarten"),
         ("back to his camp", "zurück in seinem Lager"))
    says(intro.need, ("12 helper cards", "12 Hilfskarten"), ("Obelix: 3 roast boars",
                                                              "Obelix: 3 Wildschweinbraten"))
    says(intro.start, ("decide together who starts", "entscheidet ihr gemeinsam"),
         ("lists Ann first", "nennt Ann zuerst"))
    set_up(table)
    table(type="begin_play", starting_player="Bob")
    says(GAME.intro(table.state).start, ("Bob has the bag", "Bob hat jetzt den Beutel"),
         ("first place, Ann", "ersten Platz vor, Ann"))


def test_a_whole_won_game_walked_by_the_coach():
    table = Table(["Ann", "Bob"])
    table(type="choose_character", player="Bob", character="obelix")
    set_up(table)

    # Ann's turn: she stands at the task stack holding the fish the first sub-task needs.
    card = table(type="begin_play")
    assert (card.player, card.control, card.rule) == ("Ann", "complete_subtask", "sub-task")
    says(card.say, ("Ann: you stand at the task stack", "Ann: du stehst am Aufgabenstapel"),
         ("Deliver 1 fish", "Gib 1 Fisch ab"))
    says(card.scoring, ("every task done before the Roman is back",
                        "jede Aufgabe erfüllt, bevor der Römer zurück ist"),
         ("0 of 4 tasks, 0 of 3 menhirs", "0 von 4 Aufgaben, 0 von 3 Hinkelsteinen"),
         ("Roman: 24 spaces to the camp", "Römer: noch 24 Felder bis zum Lager"))
    says(card.hint, ("needs 1 fish; you hold 2 fish", "braucht 1 Fisch; du hast 2 Fische"))
    assert card.after is None and card.see is None

    # One sub-task a turn for Ann: now she moves to a location and uses it.
    card = table(type="complete_subtask")
    assert (card.player, card.control, card.rule) == ("Ann", "move", "actions")
    says(card.say, ("Ann: move your figure", "Ann: zieh deine Figur"),
         ("moves left: 2", "Bewegungen übrig: 2"), ("Actions left: 1", "Aktionen übrig: 1"))
    says(card.scoring, ("1 of 3 menhirs", "1 von 3 Hinkelsteinen"))
    card = table(type="move", location=1)
    assert (card.player, card.control) == ("Ann", "use_location")
    says(card.say, ("use the Forest", "nutz den Ort Wald"), ("moves left: 1",
                                                             "Bewegungen übrig: 1"))

    # Both actions used: the Roman steps, the marker is drawn and placed together.
    card = table(type="use_location")
    assert (card.player, card.control, card.rule, card.hint) == ("Ann", "advance_roman",
                                                                 "roman-timeline", None)
    says(card.say, ("Ann: both actions are used", "Ann: beide Aktionen sind gemacht"))
    card = table(type="advance_roman")
    assert (card.player, card.control, card.rule, card.hint) == ("Ann", "draw_mishap",
                                                                 "mishaps", None)
    says(card.say, ("Ann: draw a mishap marker", "Ann: zieh einen Unheilmarker"),
         ("marches 2 spaces more", "marschiert der Römer 2 Felder weiter"))
    says(card.scoring, ("Roman: 23 spaces to the camp", "Römer: noch 23 Felder bis zum Lager"))
    card = table(type="draw_mishap", symbol="fist")
    assert (card.player, card.control, card.rule) == ("Ann", "place_mishap", "mishaps")
    says(card.say, ("Ann: place the fist marker", "Ann: leg den Faust-Marker"))
    # Free fist spaces on cards 2, 4 and 5; card 2 has a lightning already, so it would shut.
    says(card.hint, ("Free spaces: Fishmonger's stall, Mistletoe grove, Bard's Hut",
                     "Freie Felder: Fischhändler, Mistelhain, Troubadix' Hütte"),
         ("A marker on Fishmonger's stall would shut",
          "Ein Marker auf Fischhändler würde diesen Ort sperren"))

    # Bob's turn (Obelix): he gnaws a roast boar; the die's result is a free tap.
    card = table(type="place_mishap", location=4)
    assert (card.player, card.control) == ("Bob", "move")
    says(card.hint, ("needs 1 fish; you hold 0 fish", "braucht 1 Fisch; du hast 0 Fische"),
         ("Roman: 23 spaces to the camp", "Römer: noch 23 Felder bis zum Lager"))
    card = table("Bob", type="drink_potion", outcome="two_ingredients")
    assert (card.player, card.control, card.rule) == ("Bob", "take_ingredients", "potion-die")
    says(card.say, ("Bob: the potion die says: take 2 ingredients",
                    "Bob: der Zaubertrank-Würfel sagt: 2 beliebige Zutaten nehmen"),
         ("Actions left: 1", "Aktionen übrig: 1"))
    table(type="take_ingredients", player="Bob", fish=2)
    # The potion took one action, the sub-task the other.
    card = table("Bob", type="complete_subtask")
    assert (card.player, card.control) == ("Bob", "advance_roman")
    assert card.after is None
    table.end_turn("skull", 6)
    card = table("Ann", type="move")
    assert card.control == "complete_subtask"
    card = table("Ann", type="complete_subtask")
    assert (card.player, card.control, card.rule) == ("Ann", "enter_task", "tasks")
    says(card.say, ("Ann: turn up the next task card", "Ann: deck die nächste Aufgabenkarte"))
    # The first task counted: no standing any more, the reason instead, and where it shows.
    assert card.scoring is None and card.see == "zt-task-count"
    says(card.after, ("Task 1 of 4 is done for everyone", "Aufgabe 1 von 4 ist für alle erfüllt"),
         ("Roman: 22 spaces to the camp", "Römer: noch 22 Felder bis zum Lager"))

    # The next card is entered (its reward shows once it is done): the turn goes on.
    card = table.task(title="Honey", reward="draw 2 helper cards")
    assert (card.player, card.control) == ("Ann", "move")
    assert card.after is None and card.see is None and card.scoring is None
    # Ann has used her one sub-task of the turn: the card sends her on to a location.
    card = table(type="take_ingredients", fish=1)
    assert (card.player, card.control) == ("Ann", "move")
    says(card.hint, ("needs 1 fish; you hold 1 fish", "braucht 1 Fisch; du hast 1 Fisch"))


def test_the_reward_and_the_won_game():
    table = Table(["Ann", "Bob"])
    table(type="choose_character", player="Ann", character="obelix")
    set_up(table)
    table(type="begin_play")
    for number in range(4):
        # Ann (Obelix) delivers two sub-tasks a turn, Bob (Asterix) the third.
        table(type="take_ingredients", fish=2)
        table(type="complete_subtask")
        table(type="complete_subtask")
        table.end_turn("skull", 6)
        table(type="remove_mishap", location=6)
        table(type="take_ingredients", fish=1)
        card = table(type="complete_subtask")
        if number == 3:
            break
        assert (card.player, card.control, card.see, card.hint) == ("Bob", "enter_task",
                                                                "zt-task-count", None)
        if number:
            says(card.say, ("Bob: take the reward (a helmet)", "Bob: nimm die Belohnung (a helmet)"))
        says(card.after, (f"Task {number + 1} of 4 is done", f"Aufgabe {number + 1} von 4"))
        table.task(reward="a helmet")
        table.end_turn("skull", 6)
        table(type="remove_mishap", location=6)
    assert table.state["result"] == "won"
    assert (card.player, card.control, card.rule, card.hint) == (None, None, "winning-losing",
                                                                 None)
    says(card.say, ("You won together: all 4 tasks are done",
                    "Ihr habt gemeinsam gewonnen: Alle 4 Aufgaben"),
         ("with the Roman 17 spaces to the camp", "der Römer hatte noch 17 Felder bis zum Lager"))
    says(card.after, ("Everyone wins", "Alle gewinnen"))
    assert card.see == "zt-task-count"


def test_a_marker_that_fits_nowhere_and_the_lost_game():
    short = {f"location{n}_spaces": 1 for n in range(1, 7)}
    table = Table(["Ann", "Bob", "Cy"], **short)
    set_up(table)
    card = table(type="begin_play", starting_player="Cy")
    assert card.player == "Cy"
    says(card.scoring, ("Roman: 6 spaces to the camp", "Römer: noch 6 Felder bis zum Lager"))
    # Cy holds no helper card and stands alone: only moves, the potion, or ending his actions.
    table(type="move", location=5)
    card = table(type="move", location=6)
    assert card.control == "use_location"
    says(card.say, ("(no move left)", "(keine Bewegung mehr übrig)"))
    # Getafix rolls the die twice and keeps one: taking a marker off is a free tap.
    card = table(type="drink_potion", outcome="remove_one_mishap", other_roll="two_ingredients")
    assert (card.player, card.control, card.rule) == ("Cy", "remove_mishap", "potion-die")
    says(card.say, ("Cy: the potion die says: remove 1 mishap marker",
                    "Cy: der Zaubertrank-Würfel sagt: 1 Unheilmarker entfernen"))
    table(type="use_location")
    table(type="advance_roman")
    table(type="draw_mishap", symbol="knife")
    card = table(type="place_mishap", location=1)
    assert card.player == "Ann"
    card = table.end_turn("knife", 5)
    # Every knife space is covered now: the next knife fits nowhere, the Roman marches 2 more.
    assert card.player == "Bob"
    table(type="advance_roman")
    card = table(type="draw_mishap", symbol="knife")
    assert (card.player, card.control) == ("Cy", "use_location")
    says(card.scoring, ("Roman: 1 space to the camp", "Römer: noch 1 Feld bis zum Lager"))
    card = table(type="advance_roman")
    assert table.state["result"] == "lost"
    assert (card.player, card.control, card.rule) == (None, None, "winning-losing")
    says(card.say, ("The Roman is back at his camp", "Der Römer ist zurück in seinem Lager"),
         ("0 of 4 tasks done", "0 von 4 erfüllten Aufgaben"))
    says(card.after, ("4 task cards were still open", "4 Aufgabenkarten waren noch offen"))
    assert card.see == "zt-clock"
    assert english(card.say) != german(card.say)
