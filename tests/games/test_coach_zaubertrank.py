"""Mission Zaubertrank! in teaching mode: whole games walked move by move, and what the coach
card says at every point, in English and in German."""

import re

import pytest

from companion.games.base import GameError
from companion.games.zaubertrank import Zaubertrank
from companion.web.messages import coach_sentences
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

    def refused(self, fragment, actor=None, **payload):
        with pytest.raises(GameError) as caught:
            self(actor, **payload)
        assert fragment in english(caught.value.sentence), english(caught.value.sentence)


def set_up(table: Table, characters=("asterix", "obelix"), places=(None, None), **task) -> None:
    """The set-up as the coach leads it, each player on their own phone; by default Ann
    (Asterix) and Bob (Obelix), both at the task stack, Ann with 2 fish."""
    players = table.state["players"]
    card = table.coach()
    assert (card.player, card.control, card.rule, card.hint) == (None, "enter_task", "setup",
                                                                 None)
    says(card.say, ("Everyone: set out the table as \"How the game goes\" says",
                    "Alle: baut auf, wie es unter „So geht das Spiel“ steht"),
         ("enter its three sub-tasks", "tragt ihre drei Teilaufgaben ein"))
    # The layout is in the introduction the card points to (the card stays short).
    says(COACH.game.intro(table.state).need, ("six locations", "sechs Orte"),
         ("4 task cards face down", "4 Aufgabenkarten verdeckt"),
         ("the 3 menhirs", "den 3 Hinkelsteinen"))
    assert card.scoring is None and card.after is None

    card = table.task(**task)
    for name, character in zip(players, characters):
        assert (card.control, card.rule) == ("choose_character", "characters")
        if card.player is None:
            says(card.say, ("each of you chooses a character on your own phone",
                            "jeder von euch wählt auf dem eigenen Handy einen Charakter"))
        else:
            assert card.player == name
            says(card.say, (f"{name}: choose your character on your phone",
                            f"{name}: wähl auf deinem Handy deinen Charakter"))
        card = table(name, type="choose_character", player=name, character=character)
    for name, place in zip(players, places):
        assert (card.control, card.rule) == ("place_figure", "setup")
        if card.player is not None:
            says(card.say, (f"{name}: put your figure on the starting place your character "
                            "card shows", f"{name}: stell deine Figur auf den Startort"))
        card = table(name, type="place_figure", player=name, location=place)
    for name in players:
        assert (card.control, card.rule) == ("take_ingredients", "setup")
        says(card.say, ("12 helper cards", "12 Hilfskarten"),
             ("starting ingredients your character card shows",
              "Startzutaten, die deine Charakterkarte zeigt" if card.player
              else "Startzutaten, die eure Charakterkarten zeigen"))
        card = table(name, type="take_ingredients", player=name, fish=2 if name == "Ann" else 1)
    assert (card.player, card.control, card.rule) == (None, "draw_mishap", "mishaps")
    says(card.say, ("put all 16 mishap markers into the bag",
                    "legt alle 16 Unheilmarker in den Beutel"), ("(1 of 2)", "(1 von 2)"))

    card = table(type="draw_mishap", symbol="lightning")
    assert (card.player, card.control) == (None, "place_mishap")
    says(card.say, ("lightning marker", "Blitz-Marker"), ("not where the Roman stands",
                                                          "nicht dort, wo der Römer steht"))
    table(type="place_mishap", location=2)
    card = table(type="draw_mishap", symbol="knife")
    card = table(type="place_mishap", location=3)
    assert (card.player, card.control, card.rule) == (None, "begin_play", "setup")
    says(card.say, ("decide together who starts", "entscheidet gemeinsam, wer anfängt"),
         ("Can't agree? Ann has the first place at the table",
          "Ihr könnt euch nicht einigen? Ann sitzt auf dem ersten Platz"))
    assert "Zuerst steht" not in german(card.say)


def test_intro_names_the_goal_the_material_and_who_starts():
    table = Table(["Ann", "Bob"], difficulty="a cohort")
    intro = GAME.intro(table.state)
    says(intro.goal, ("complete 6 task cards", "Erfüllt 6 Aufgabenkarten"),
         ("back to his camp", "zurück in seinem Lager"))
    says(intro.need, ("12 helper cards", "12 Hilfskarten"), ("Obelix: 3 roast boars",
                                                              "Obelix: 3 Wildschweinbraten"))
    says(intro.start, ("decide together who starts", "entscheidet ihr gemeinsam"),
         ("The companion lists Ann first", "Der Tischbegleiter nennt Ann zuerst"))
    table.task(first_quantity=1)
    set_up_rest(table)
    table(type="begin_play", starting_player="Bob")
    says(GAME.intro(table.state).start, ("Bob has the bag", "Bob hat jetzt den Beutel"),
         ("the companion's default is the first place, Ann",
          "der Tischbegleiter schlägt den ersten Platz vor, Ann"))


def set_up_rest(table: Table) -> None:
    """Characters as dealt, both figures at the task stack, two opening markers."""
    for name in table.state["players"]:
        character = table.state["seats"][name]["character"]
        table(name, type="choose_character", player=name, character=character)
        table(name, type="place_figure", player=name)
        table(name, type="take_ingredients", player=name, fish=2)
    for symbol, location in (("lightning", 2), ("knife", 3)):
        table(type="draw_mishap", symbol=symbol)
        table(type="place_mishap", location=location)


# -- the set-up: each player's own choices, and what the state records ------------------------


def test_the_set_up_leads_each_player_through_character_place_and_stock():
    table = Table(["Ann", "Bob"])
    seats = table.state["seats"]
    assert not any(seats[name][flag] for name in seats for flag in ("chosen", "placed",
                                                                    "stocked"))
    set_up(table)
    seats = table.state["seats"]
    assert all(seats[name][flag] for name in seats for flag in ("chosen", "placed", "stocked"))


def test_with_one_player_left_the_card_names_them_and_hints_what_is_free():
    table = Table(["Ann", "Bob", "Cy"])
    table.task()
    card = table.coach()
    says(card.say, ("Ann, Bob and Cy: each of you", "Ann, Bob und Cy: jeder von euch"))
    table("Ann", type="choose_character", player="Ann", character="getafix")
    card = table("Cy", type="choose_character", player="Cy", character="dogmatix")
    assert (card.player, card.control) == ("Bob", "choose_character")
    says(card.hint, ("Still free: Asterix, Obelix", "Noch frei: Asterix, Obelix"))
    card = table("Bob", type="choose_character", player="Bob", character="obelix")
    says(card.say, ("Ann, Bob and Cy: each of you puts your figure",
                    "Ann, Bob und Cy: jeder von euch stellt seine Figur"))
    table("Ann", type="place_figure", player="Ann", location=3)
    card = table("Bob", type="place_figure", player="Bob", location=1)
    # Dogmatix's card is not known: the companion's guess is named as a guess.
    assert (card.player, card.control) == ("Cy", "place_figure")
    says(card.say, ("The companion's guess for Dogmatix: Strawberry patch",
                    "Der Tischbegleiter schätzt für Idefix: Erdbeerfeld"))
    card = table("Cy", type="place_figure", player="Cy", location=6)
    assert card.player is None and card.control == "take_ingredients"
    table("Ann", type="take_ingredients", player="Ann", fish=1)
    card = table("Bob", type="take_ingredients", player="Bob", fish=1)
    assert (card.player, card.control) == ("Cy", "take_ingredients")
    says(card.hint, ("The supply holds 10 mistletoe, 10 strawberries and 8 fish",
                     "Im Vorrat sind 10 Misteln, 10 Erdbeeren und 8 Fische"))


def test_start_places_default_to_each_characters_own_start_not_all_to_one():
    state = Table(["Ann", "Bob", "Cy", "Dee"]).state
    places = [state["seats"][name]["location"] for name in state["players"]]
    assert None not in places and len(set(places)) == 4
    table = Table(["Ann", "Bob"])
    # A figure not yet placed follows its character's card; a placed one stays.
    table.task()
    table("Ann", type="choose_character", player="Ann", character="getafix")
    assert table.state["seats"]["Ann"]["location"] == 3
    table("Bob", type="choose_character", player="Bob", character="obelix")
    table("Bob", type="place_figure", player="Bob", location=5)
    assert table.state["seats"]["Bob"]["location"] == 5


def test_a_players_own_choices_are_refused_from_another_seat():
    table = Table(["Ann", "Bob"])
    table.task()
    table.refused("Bob chooses that on their own phone.", "Ann", type="choose_character",
                  player="Bob", character="getafix")
    table.refused("Choose your character first", "Ann", type="place_figure", player="Ann")
    table("Ann", type="choose_character", player="Ann", character="getafix")
    # Ann's choice is made: her phone's form is closed, with the reason.
    assert english(GAME.legal_actions(table.state, "Ann")["choose_character"]) == (
        "You play Getafix; undo your choice to change it.")
    assert GAME.legal_actions(table.state, "Bob")["choose_character"] is None
    table.refused("Ann plays Getafix already.", "Bob", type="choose_character", player="Bob",
                  character="getafix")
    table.refused("Bob chooses that on their own phone.", "Ann", type="place_figure",
                  player="Bob", location=2)
    table.refused("Bob takes the starting ingredients on their own phone.", "Ann",
                  type="take_ingredients", player="Bob", fish=1)
    table("Ann", type="take_ingredients", fish=1)  # her own, without naming her
    assert table.state["seats"]["Ann"]["ingredients"]["fish"] == 1
    assert english(GAME.legal_actions(table.state, "Ann")["take_ingredients"]).startswith(
        "You have taken your starting ingredients")
    # The host's phone without a seat (or a script) sets up for anyone.
    table(type="choose_character", player="Bob", character="dogmatix")
    assert table.state["seats"]["Bob"]["character"] == "dogmatix"


# -- the turn: what a location, the die and a task give, and the bag --------------------------


def started(characters=("asterix", "obelix"), places=(None, None), **task) -> Table:
    table = Table(["Ann", "Bob"])
    set_up(table, characters, places, **task)
    table(type="begin_play")
    return table


def test_after_using_a_location_the_card_says_to_take_what_it_gives():
    table = started(places=(6, None), first_ingredient="mistletoe")
    card = table.coach()
    assert (card.player, card.control) == ("Ann", "use_location")
    card = table("Ann", type="use_location")
    assert (card.player, card.control, card.rule) == ("Ann", "take_ingredients", "locations")
    says(card.say, ("Ann: the Strawberry patch gives strawberries",
                    "Ann: der Ort Erdbeerfeld gibt Erdbeeren"),
         ("Take as many as its card says and enter them here (no action)",
          "Nimm so viele, wie seine Karte sagt, und trag sie hier ein (keine Aktion)"),
         ("Actions left: 1", "Aktionen übrig: 1"),
         ("Nothing more to take? Tap “Nothing more”.",
          "Nichts mehr zu nehmen? Dann tipp auf „Nichts mehr“."))
    says(card.short, ("Ann: enter what the Strawberry patch gave, or tap “Nothing more”.",
                      "Ann: trag ein, was der Ort Erdbeerfeld gibt, oder tipp auf „Nichts mehr“."))
    says(card.hint, ("The supply holds 10 mistletoe, 10 strawberries and 7 fish",
                     "Im Vorrat sind 10 Misteln, 10 Erdbeeren und 7 Fische"),
         ("The next sub-task needs 1 mistletoe; you hold 0 mistletoe",
          "Die nächste Teilaufgabe braucht 1 Mistel; du hast 0 Misteln"))
    assert table.state["turn"]["gain"] == {"from": "location", "location": 6,
                                           "control": "take_ingredients",
                                           "ingredient": "strawberries", "left": 1}
    # Bob's phone waits while Ann enters her own gain.
    assert "Ann is entering what the Strawberry patch gave" in english(
        GAME.legal_actions(table.state, "Bob")["take_ingredients"])
    card = table("Ann", type="take_ingredients", strawberries=2)
    assert table.state["turn"]["gain"] is None
    assert (card.player, card.control) == ("Ann", "move")
    assert GAME.legal_actions(table.state, "Bob")["take_ingredients"] is None
    # The second action at another location: its gain comes before the Roman's step.
    table("Ann", type="move", location=4)
    card = table("Ann", type="use_location")
    assert (card.control, card.rule) == ("take_ingredients", "locations")
    says(card.say, ("the Mistletoe grove gives mistletoe", "der Ort Mistelhain gibt Misteln"),
         ("Actions left: 0", "Aktionen übrig: 0"))
    card = table("Ann", type="take_ingredients", mistletoe=1)
    assert card.control == "advance_roman"


def test_the_forest_marks_the_helper_cards_it_gives():
    table = started(places=(1, None))
    card = table("Ann", type="use_location")
    assert (card.player, card.control) == ("Ann", "draw_helpers")
    says(card.say, ("take what the Forest gives, as its card says",
                    "nimm, was der Ort Wald gibt, wie seine Karte sagt"))
    says(card.hint, ("Your draw pile holds 12 helper cards; Asterix draws one extra",
                     "Dein Nachziehstapel hat 12 Hilfskarten; Asterix zieht eine extra"))
    table("Ann", type="draw_helpers")
    assert table.state["turn"]["gain"] is None


def test_the_bards_hut_takes_up_to_two_markers_off_or_nothing_more():
    table = started(places=(5, None))
    card = table("Ann", type="use_location")
    assert (card.player, card.control) == ("Ann", "remove_mishap")
    says(card.say, ("take markers with the same symbols off the locations (2 more at most)",
                    "nimm Marker mit denselben Symbolen von den Orten (höchstens noch 2)"))
    card = table("Ann", type="remove_mishap", location=2)
    assert card.control == "remove_mishap"
    says(card.say, ("(1 more at most)", "(höchstens noch 1)"))
    # The table drew no second match: "Nothing more" ends it, and only then.
    assert "Ann is entering what the Bard's Hut gave" in english(
        GAME.legal_actions(table.state, "Bob")["end_gain"])
    card = table("Ann", type="end_gain")
    assert table.state["turn"]["gain"] is None and card.control == "move"
    table.refused("Nothing is waiting to be taken now.", "Ann", type="end_gain")


def test_a_location_with_nothing_to_take_lets_the_turn_go_on():
    # Every potion is fresh: the Druid's Cave has nothing to refill.
    table = started(places=(3, None))
    card = table("Ann", type="use_location")
    assert table.state["turn"]["gain"] is None
    assert card.control == "move"


def test_holding_what_the_sub_task_needs_the_card_sends_you_to_the_task_stack():
    table = started(places=(None, None))
    table("Ann", type="complete_subtask")
    table.end_turn("fist", 4)
    table("Bob", type="move", location=2)
    card = table("Bob", type="take_ingredients", fish=1)
    assert (card.player, card.control, card.rule) == ("Bob", "move", "sub-task")
    says(card.say, ("Bob: you hold what the next sub-task needs. Move to the task stack",
                    "Bob: du hast, was die nächste Teilaufgabe braucht. Zieh zum Aufgabenstapel"))
    says(card.hint, ("needs 1 fish; you hold 2 fish", "braucht 1 Fisch; du hast 2 Fische"))
    card = table("Bob", type="move")
    assert card.control == "complete_subtask"


def test_the_potion_card_knows_whether_the_die_was_taken():
    table = started(characters=("getafix", "obelix"))
    card = table("Ann", type="drink_potion", outcome="remove_two_mishaps")
    assert (card.player, card.control, card.rule) == ("Ann", "remove_mishap", "potion-die")
    says(card.say, ("Ann: the potion die says: remove 2 mishap markers",
                    "Ann: der Zaubertrank-Würfel sagt: 2 Unheilmarker entfernen"),
         ("Take 2 markers off the locations", "Nimm 2 Marker von den Orten"))
    says(card.hint, ("lightning on the Fishmonger's stall, knife on the Druid's Cave",
                     "Blitz auf Fischhändler, Messer auf Höhle des Druiden"))
    assert "If not done yet" not in english(card.say)
    card = table("Ann", type="remove_mishap", location=2)
    says(card.say, ("Take 1 marker off a location", "Nimm 1 Marker von einem Ort"))
    card = table("Ann", type="remove_mishap", location=3)
    assert table.state["turn"]["gain"] is None
    assert (card.control, card.rule) == ("complete_subtask", "sub-task")
    says(card.say, ("Hand 1 fish back to the supply and cover the sub-task with a menhir",
                    "Leg 1 Fisch zurück in den Vorrat und deck die Teilaufgabe mit einem "
                    "Hinkelstein ab"))


def test_the_reward_is_said_when_the_task_is_done_then_the_next_card():
    table = started(characters=("obelix", "asterix"))
    table("Ann", type="complete_subtask")
    card = table("Ann", type="complete_subtask")
    table.end_turn("skull", 6)
    card = table("Bob", type="take_ingredients", fish=1)
    card = table("Bob", type="complete_subtask")
    # No reward was written on the card: the coach still says that one comes first.
    assert (card.player, card.control, card.rule) == ("Bob", "draw_helpers", "tasks")
    says(card.say, ("Bob: the task is done! First take the reward printed on it",
                    "Bob: die Aufgabe ist erfüllt! Nimm zuerst die Belohnung, die darauf steht"),
         ("you decide together who draws a helper card",
          "entscheidet ihr gemeinsam, wer eine Hilfskarte zieht"))
    says(card.after, ("Task 1 of 4 is done for everyone", "Aufgabe 1 von 4 ist für alle erfüllt"))
    assert card.see == "zt-task-count"
    # A reward is decided together: Ann's phone may enter it.
    assert GAME.legal_actions(table.state, "Ann")["draw_helpers"] is None
    card = table("Ann", type="draw_helpers", player="Ann")
    # One or two players draw: after one, the card offers the second or "Nothing more".
    assert (card.player, card.control, card.rule) == ("Bob", "draw_helpers", "tasks")
    card = table("Bob", type="end_gain")
    assert (card.player, card.control, card.rule) == ("Bob", "enter_task", "tasks")
    says(card.say, ("stand the 3 menhirs beside the stack again",
                    "stell die 3 Hinkelsteine wieder neben den Stapel"),
         ("Turn up the next task card", "Deck die nächste Aufgabenkarte auf"))
    card = table.task(reward="two players draw a card")
    assert card.control == "move"
    table.end_turn("skull", 4)
    table("Ann", type="take_ingredients", fish=2)
    table("Ann", type="complete_subtask")
    table("Ann", type="complete_subtask")
    table.end_turn("fist", 5)
    table("Bob", type="take_ingredients", fish=1)
    card = table("Bob", type="complete_subtask")
    says(card.say, ("First take its reward: two players draw a card",
                    "Nimm zuerst ihre Belohnung: two players draw a card"))


def test_the_bag_is_handed_on_when_the_turn_ends():
    table = started()
    table("Ann", type="complete_subtask")
    table("Ann", type="advance_roman")
    card = table("Ann", type="draw_mishap", symbol="fist")
    says(card.say, ("Then hand the bag to Bob.", "Dann gib den Beutel an Bob weiter."))
    says(card.short, ("then the bag goes to Bob", "dann geht der Beutel an Bob"))
    card = table(type="place_mishap", location=4)
    assert card.player == "Bob"
    says(card.say, ("Ann hands the bag to Bob. Bob: you stand at the task stack",
                    "Ann gibt den Beutel an Bob weiter. Bob: du stehst am Aufgabenstapel"))
    card = table("Bob", type="move", location=2)
    assert "hands the bag" not in english(card.say)


def test_the_romans_last_step_is_said_in_the_short_line_too():
    short = {f"location{n}_spaces": 1 for n in range(1, 7)}
    table = Table(["Ann", "Bob"], **short)
    set_up(table)
    table(type="begin_play")
    for symbol, location in (("skull", 6), ("fist", 5), ("skull", 1), ("lightning", 6),
                             ("knife", 1)):
        table(table.state["turn"]["player"], type="advance_roman")
        table(type="draw_mishap", symbol=symbol)
        table(type="place_mishap", location=location)
    assert table.state["roman_steps"] == 5 and table.state["turn"]["player"] == "Bob"
    table("Bob", type="complete_subtask")
    table("Bob", type="drink_potion", outcome="three_ingredients")
    card = table("Bob", type="take_ingredients", fish=1)
    assert card.control == "advance_roman"
    says(card.say, ("that takes him back to his camp, and the game is lost",
                    "damit ist er zurück in seinem Lager, und das Spiel ist verloren"))
    says(card.short, ("the game is lost", "das Spiel ist verloren"))


def test_the_draw_card_hints_the_free_spaces_of_every_symbol():
    table = started()
    table("Ann", type="advance_roman")
    card = table.coach()
    says(card.hint, ("Free spaces for each symbol: knife 1, skull 2, lightning 2, fist 3",
                     "Freie Felder je Symbol: Messer 1, Totenkopf 2, Blitz 2, Faust 3"))


def test_no_sentence_names_an_internal_id_or_the_companion_in_german(tmp_path):
    coach_sentences(tmp_path)
    for language in ("en", "de"):
        text = (tmp_path / f"coach-sentences.{language}.md").read_text(encoding="utf-8")
        section = text[text.index("## zaubertrank"):]
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", section), re.findall(r"\b[a-z]+_[a-z_]+\b",
                                                                          section)
        if language == "de":
            for word in ("Companion", "Begleiter ", "App ", "App,"):
                assert word not in section, word


# -- whole games ---------------------------------------------------------------------------


def test_a_whole_won_game_walked_by_the_coach():
    table = Table(["Ann", "Bob"])
    set_up(table)

    # Ann's turn: she stands at the task stack holding the fish the first sub-task needs.
    card = table(type="begin_play")
    assert (card.player, card.control, card.rule) == ("Ann", "complete_subtask", "sub-task")
    says(card.say, ("Ann: you stand at the task stack", "Ann: du stehst am Aufgabenstapel"))
    says(card.scoring, ("every task done before the Roman is back",
                        "jede Aufgabe erfüllt, bevor der Römer zurück ist"),
         ("0 of 4 tasks, 0 of 3 menhirs", "0 von 4 Aufgaben, 0 von 3 Hinkelsteinen"),
         ("Roman: 24 spaces to the camp", "Römer: noch 24 Felder bis zum Lager"))
    says(card.hint, ("needs 1 fish; you hold 2 fish", "braucht 1 Fisch; du hast 2 Fische"))
    assert card.after is None and card.see is None

    # One sub-task a turn for Ann: now she moves to a location and uses it.
    card = table("Ann", type="complete_subtask")
    assert (card.player, card.control, card.rule) == ("Ann", "move", "actions")
    says(card.say, ("Ann: move your figure", "Ann: zieh deine Figur"),
         ("moves left: 2", "Bewegungen übrig: 2"), ("Actions left: 1", "Aktionen übrig: 1"))
    says(card.short, ("Ann: move to a location or the task stack",
                      "Ann: zieh zu einem Ort oder zum Aufgabenstapel"))
    says(card.scoring, ("1 of 3 menhirs", "1 von 3 Hinkelsteinen"))
    card = table("Ann", type="move", location=2)
    assert (card.player, card.control) == ("Ann", "use_location")
    says(card.say, ("use the Fishmonger's stall", "nutz den Ort Fischhändler"),
         ("moves left: 1", "Bewegungen übrig: 1"))

    card = table("Ann", type="use_location")
    assert (card.player, card.control) == ("Ann", "take_ingredients")
    card = table("Ann", type="take_ingredients", fish=1)
    assert (card.player, card.control, card.rule, card.hint) == ("Ann", "advance_roman",
                                                                 "roman-timeline", None)
    says(card.say, ("Ann: both actions are used", "Ann: beide Aktionen sind gemacht"))
    card = table("Ann", type="advance_roman")
    assert (card.player, card.control, card.rule) == ("Ann", "draw_mishap", "mishaps")
    says(card.say, ("Ann: draw a mishap marker", "Ann: zieh einen Unheilmarker"),
         ("marches 2 spaces more", "marschiert der Römer 2 Felder weiter"))
    says(card.scoring, ("Roman: 23 spaces to the camp", "Römer: noch 23 Felder bis zum Lager"))
    card = table("Ann", type="draw_mishap", symbol="fist")
    assert (card.player, card.control, card.rule) == ("Ann", "place_mishap", "mishaps")
    says(card.say, ("Ann: place the fist marker", "Ann: leg den Faust-Marker"))
    # Free fist spaces on cards 2, 4 and 5; card 2 has a lightning already, so it would shut.
    says(card.hint, ("Free spaces: Fishmonger's stall, Mistletoe grove, Bard's Hut",
                     "Freie Felder: Fischhändler, Mistelhain, Troubadix' Hütte"),
         ("A marker on Fishmonger's stall would shut",
          "Ein Marker auf Fischhändler würde diesen Ort sperren"))

    # Bob's turn (Obelix): he gnaws a roast boar; the die's result is a free tap.
    card = table(type="place_mishap", location=4)
    assert (card.player, card.control) == ("Bob", "complete_subtask")
    card = table("Bob", type="drink_potion", outcome="two_ingredients")
    assert (card.player, card.control, card.rule) == ("Bob", "take_ingredients", "potion-die")
    says(card.say, ("Bob: the potion die says: take 2 ingredients",
                    "Bob: der Zaubertrank-Würfel sagt: 2 beliebige Zutaten nehmen"),
         ("Actions left: 1", "Aktionen übrig: 1"))
    card = table("Bob", type="take_ingredients", fish=2)
    assert (card.player, card.control) == ("Bob", "complete_subtask")
    card = table("Bob", type="complete_subtask")
    assert (card.player, card.control) == ("Bob", "advance_roman")
    table.end_turn("skull", 6)
    card = table("Ann", type="move")
    assert card.control == "complete_subtask"
    card = table("Ann", type="complete_subtask")
    assert (card.player, card.control, card.rule) == ("Ann", "draw_helpers", "tasks")
    table("Ann", type="draw_helpers", player="Bob")
    card = table("Bob", type="draw_helpers", player="Ann")
    assert (card.player, card.control, card.rule) == ("Ann", "enter_task", "tasks")
    # The first task counted: no standing any more, the reason instead, and where it shows.
    assert card.scoring is None and card.see == "zt-task-count"
    says(card.after, ("Task 1 of 4 is done for everyone", "Aufgabe 1 von 4 ist für alle erfüllt"),
         ("Roman: 22 spaces to the camp", "Römer: noch 22 Felder bis zum Lager"))

    # The next card is entered: the turn goes on.
    card = table.task(title="Honey", reward="draw 2 helper cards")
    assert (card.player, card.control) == ("Ann", "move")
    assert card.after is None and card.see is None and card.scoring is None


def test_a_won_game():
    table = Table(["Ann", "Bob"])
    set_up(table, characters=("obelix", "asterix"))
    table(type="begin_play")
    for number in range(4):
        # Ann (Obelix) delivers two sub-tasks a turn, Bob (Asterix) the third.
        table("Ann", type="take_ingredients", fish=2)
        table("Ann", type="complete_subtask")
        table("Ann", type="complete_subtask")
        table.end_turn("skull", 6)
        table("Bob", type="remove_mishap", location=6)
        table("Bob", type="take_ingredients", fish=1)
        card = table("Bob", type="complete_subtask")
        if number == 3:
            break
        table("Bob", type="draw_helpers")
        table.task(reward="a helmet")
        table.end_turn("skull", 6)
        table("Ann", type="remove_mishap", location=6)
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
    table.task()
    set_up_rest(table)
    card = table(type="begin_play", starting_player="Cy")
    assert card.player == "Cy"
    says(card.scoring, ("Roman: 6 spaces to the camp", "Römer: noch 6 Felder bis zum Lager"))
    table("Cy", type="move", location=5)
    card = table("Cy", type="move", location=6)
    assert card.control == "use_location"
    says(card.say, ("(no move left)", "(keine Bewegung mehr übrig)"))
    # Getafix rolls the die twice and keeps one: taking a marker off is a free tap.
    card = table("Cy", type="drink_potion", outcome="remove_one_mishap",
                 other_roll="two_ingredients")
    assert (card.player, card.control, card.rule) == ("Cy", "remove_mishap", "potion-die")
    says(card.say, ("Cy: the potion die says: remove 1 mishap marker",
                    "Cy: der Zaubertrank-Würfel sagt: 1 Unheilmarker entfernen"))
    table("Cy", type="remove_mishap", location=2)
    table("Cy", type="use_location")
    table("Cy", type="take_ingredients", strawberries=1)
    table("Cy", type="advance_roman")
    table("Cy", type="draw_mishap", symbol="knife")
    card = table(type="place_mishap", location=1)
    assert card.player == "Ann"
    says(card.say, ("Cy hands the bag to Ann", "Cy gibt den Beutel an Ann weiter"))
    card = table.end_turn("knife", 5)
    # Every knife space is covered now: the next knife fits nowhere, the Roman marches 2 more.
    assert card.player == "Bob"
    table("Bob", type="advance_roman")
    card = table("Bob", type="draw_mishap", symbol="knife")
    # Cy holds the fish the next sub-task needs: the card sends him to the task stack.
    assert (card.player, card.control) == ("Cy", "move")
    says(card.say, ("Bob hands the bag to Cy", "Bob gibt den Beutel an Cy weiter"))
    says(card.scoring, ("Roman: 1 space to the camp", "Römer: noch 1 Feld bis zum Lager"))
    card = table("Cy", type="advance_roman")
    assert table.state["result"] == "lost"
    assert (card.player, card.control, card.rule) == (None, None, "winning-losing")
    says(card.say, ("The Roman is back at his camp", "Der Römer ist zurück in seinem Lager"),
         ("0 of 4 tasks done", "0 von 4 erfüllten Aufgaben"))
    says(card.after, ("4 task cards were still open", "4 Aufgabenkarten waren noch offen"))
    assert card.see == "zt-clock"
    assert english(card.say) != german(card.say)
