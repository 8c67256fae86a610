"""German questions a player asks mid-game in Asterix & Co. and Mission Zaubertrank!

Every row: (what the player types, the game they are playing or None, the game and section
that must be among the first three results). Typed the way people talk at the table:
question words, compound words, umlauts typed or not.
"""

import pytest

from companion.rules import load_library

CO, ZT = "asterix-co", "zaubertrank"

QUESTIONS = [
    # --- Asterix & Co. ---------------------------------------------------------------------
    ("Wildschweinplättchen", None, CO, "boar"),
    ("Was macht das Wildschwein?", CO, CO, "boar"),
    ("Wildschwein Fähigkeit nochmal", CO, CO, "boar"),
    ("Darf ich einen Helden zweimal spielen?", CO, CO, "heroes"),
    ("Wie viel ist ein Zenturiohelm wert?", CO, CO, "helmets"),
    ("Wer gewinnt?", CO, CO, "end-of-game"),
    ("Was passiert wenn ein Album 15 erreicht?", CO, CO, "resolution"),
    ("Wer ist nach der Wertung dran?", CO, CO, "resolution"),
    ("Trostbonus", CO, CO, "resolution"),
    ("Was passiert mit k.o. Karten bei der Wertung", CO, CO, "resolution"),
    ("Verstärkung", CO, CO, "reinforce"),
    ("Karten abwerfen und auf fünf nachziehen", CO, CO, "reinforce"),
    ("Darf ich die lila Karte auf die Roemerseite legen?", CO, CO, "neutral"),
    ("Kann man eine Figur mit Zaubertrank k.o. schlagen?", CO, CO, "ko"),
    ("Zaubertrank verdoppelt Stärke", CO, CO, "potion"),
    ("Nachziehstapel leer", CO, CO, "draw"),
    ("Wie viele Bonusplättchen darf ich haben?", CO, CO, "bonus-tokens"),
    ("herbeirufen", CO, CO, "call-on"),
    ("Fisch verboten auf dem Album", CO, CO, "album-effects"),
    ("Wie viele Sesterzen bringt ein Album?", CO, CO, "albums"),
    ("Startalben bei zwei Spielern", CO, CO, "setup"),
    ("wiederbeleben ohne Fähigkeit", CO, CO, "reinvigorate"),
    ("eliminieren trotz Zaubertrank", CO, CO, "eliminate"),
    ("Legionärshelm", CO, CO, "helmets"),
    ("Welche Figurentypen gibt es?", CO, CO, "character-types"),
    ("Was passiert wenn der Nachziehstapel leer ist?", CO, CO, "draw"),
    ("Was passiert wenn keine Helme mehr da sind?", CO, CO, "helmets"),
    ("Wildschwienplättchen", CO, CO, "boar"),
    ("Zenturiohlem", CO, CO, "helmets"),
    ("Kleopatra", CO, CO, "placement"),
    ("Cäsar Helm zerstören", CO, CO, "placement"),
    ("Idefix Helm", CO, CO, "helmets"),
    ("Darf ich meine Fähigkeit weglassen?", CO, CO, "powers"),
    # --- Mission Zaubertrank! --------------------------------------------------------------
    ("Wer fängt an?", ZT, ZT, "setup"),
    ("Römerlager", ZT, ZT, "roman-timeline"),
    ("Roemer erreicht das Lager", ZT, ZT, "winning-losing"),
    ("Haben wir gewonnen?", ZT, ZT, "winning-losing"),
    ("Unheilmarker passt nirgends", ZT, ZT, "mishaps"),
    ("Missgeschick", None, ZT, "mishaps"),
    ("Darf ich einen Ort mit zwei Unheilmarkern nutzen?", ZT, ZT, "use-location"),
    ("Darf Obelix Zaubertrank trinken?", ZT, ZT, "magic-potion"),
    ("Wildschweinbraten", ZT, ZT, "magic-potion"),
    ("Miraculix würfelt zweimal", ZT, ZT, "magic-potion"),
    ("Wie viele Aufgabenkarten für eine Kohorte?", ZT, ZT, "difficulty"),
    ("Darf ich Zutaten an einen Mitspieler abgeben?", ZT, ZT, "pass-on"),
    ("Wie oft darf ich mich bewegen?", ZT, ZT, "moving"),
    ("Hilfskarten Stapel leer, neu mischen?", ZT, ZT, "helper-cards"),
    ("Erdbeeren alle", ZT, ZT, "ingredients"),
    ("Was bedeutet der Würfel?", ZT, ZT, "potion-die"),
    ("Obelix zwei Teilaufgaben", ZT, ZT, "sub-task"),
    ("Hinkelsteine auf die Aufgabe", ZT, ZT, "sub-task"),
    ("Belohnung für die Aufgabe", ZT, ZT, "tasks"),
    ("Wo gibt es Fisch?", ZT, ZT, "locations"),
    ("Bardenhütte", ZT, ZT, "locations"),
    ("Was kann Idefix?", ZT, ZT, "characters"),
    ("Wie viele Aktionen habe ich?", ZT, ZT, "actions"),
    ("Unheilsmarker", ZT, ZT, "mishaps"),
    ("Hinkelstien", ZT, ZT, "sub-task"),
    ("Was passiert wenn der Römer ins Lager kommt?", ZT, ZT, "winning-losing"),
    ("Darf ich zweimal denselben Ort nutzen?", ZT, ZT, "use-location"),
    ("Zaubertrank nachfüllen", ZT, ZT, "magic-potion"),
    ("Druidenhöhle", ZT, ZT, "locations"),
    ("Wie viele Felder läuft der Römer?", ZT, ZT, "roman-timeline"),
    ("Marker auf den Ort mit dem Römer", ZT, ZT, "mishaps"),
    ("Schwierigkeitsgrad", ZT, ZT, "difficulty"),
    ("Misteln abgeben", ZT, ZT, "sub-task"),
    ("Kosten Bewegungen eine Aktion?", ZT, ZT, "moving"),
]


def test_the_table_is_big_and_spans_both_games():
    assert len(QUESTIONS) >= 20
    assert {answer_game for _, _, answer_game, _ in QUESTIONS} == {CO, ZT}


@pytest.mark.parametrize(
    "question, playing, game, section", QUESTIONS, ids=[row[0] for row in QUESTIONS]
)
def test_german_question_finds_its_section_in_the_top_three(question, playing, game, section):
    library = load_library()
    hits = library.search(question, game=playing, limit=3)
    top_three = [(hit.game, hit.section) for hit in hits]
    assert (game, section) in top_three, f"{question!r} gave {top_three}"
