"""German questions asked at the table, each with the section that must answer it.

Asterix & Obelix, Das Kartenspiel, the score pad and the companion's own help, asked the
way people talk mid-game: question words, compound words, umlauts typed or spelt out.
Every row: (what the player types, the game they are playing or None, the game and section
that must be among the first three results).
"""

import pytest

from companion.rules import load_library

AO, KK, SP, CP = "asterix-obelix", "kartenspiel", "scorepad", "companion"

QUESTIONS = [
    # Asterix & Obelix
    ("Wer fängt an?", AO, AO, "setup"),
    ("Was passiert bei Gleichstand?", AO, AO, "tie-breaks"),
    ("unentschieden, wer gewinnt?", AO, AO, "tie-breaks"),
    ("Darf ich mir die letzte Karte der Reihe ansehen?", AO, AO, "looking"),
    ("Was passiert, wenn ich keine passende Kampfkarte habe?", AO, AO, "failed-attack"),
    ("Wildschwein als vierte Karte", AO, AO, "wild-boar"),
    ("Wildschweinkarte", None, AO, "wild-boar"),
    ("Wann ist das Spiel vorbei?", AO, AO, "end-of-game"),
    ("Zählt der Zenturio bei der Mehrheit mit?", AO, AO, "scoring"),
    ("Wie schlage ich den Verräter?", AO, AO, "traitor"),
    ("Wer bekommt das Piratenplättchen?", AO, AO, "pirates"),
    ("Welche Farbe brauche ich für einen Roemer?", AO, AO, "soldiers"),
    ("Schildkröte gesprengt, krieg ich noch einen Angriff?", AO, AO, "formation-broken"),
    ("Darf ich die Richtung wechseln?", AO, AO, "attack"),
    ("Reihe für den Gegner sperren", AO, AO, "blocking"),
    ("Formation nach dem Angriff auffüllen", AO, AO, "end-of-attack"),
    ("Wie viele Dorffeste sind noch übrig?", AO, AO, "card-counting"),
    ("Siegpunktplaettchen", AO, AO, "scoring"),
    ("Moralelastix", None, AO, "traitor"),
    ("Kampfkarten leer", AO, AO, "fight-cards-run-out"),
    ("Mein Nachziehstapel ist leer, was jetzt?", AO, AO, "fight-cards-run-out"),
    # Asterix: Das Kartenspiel
    ("Darf ich Idefix als letzte Karte spielen?", KK, KK, "idefix"),
    ("Was passiert, wenn zwei gleich hohe Karten liegen?", KK, KK, "ties-flasks"),
    ("Zaubertrankflaschen", None, KK, "ties-flasks"),
    ("Wer gewinnt das Spiel?", KK, KK, "winning"),
    ("Was macht der Pirat?", KK, KK, "pirates"),
    ("Ranghöchster Römer entkommt", KK, KK, "pirates"),
    ("Wie viel Bonus gibt ein Drilling?", KK, KK, "sets"),
    ("Was ist der Zenturio wert?", KK, KK, "values"),
    ("Nur noch einer hat Karten, was jetzt?", KK, KK, "end-of-round"),
    ("Wer bekommt den Roemer im Stich?", KK, KK, "trick"),
    ("Wie heißt Getafix auf Deutsch?", KK, KK, "names"),
    # The score pad
    ("Wie trage ich Minuspunkte ein?", SP, SP, "entering-scores"),
    ("Punkte falsch eingetragen", SP, SP, "editing"),
    ("Niedrigste Punktzahl gewinnt", SP, SP, "winning"),
    ("Wie viele Runden spielen wir?", SP, SP, "rounds"),
    # The companion itself
    ("Wie trete ich einem Tisch bei?", None, CP, "joining"),
    ("QR-Code scannen", None, CP, "joining"),
    ("Zug rückgängig machen", None, CP, "undo"),
    ("WLAN weg", SP, CP, "offline"),
    ("Nur zuschauen", None, CP, "seats"),
    ("Zwei Handys gleichzeitig getippt", None, CP, "conflicts"),
    ("Tisch sperren", None, CP, "host"),
    ("Muss ich die Seite neu laden?", None, CP, "live"),
]


def test_the_table_spans_these_games():
    assert len(QUESTIONS) >= 20
    assert {answer_game for _, _, answer_game, _ in QUESTIONS} == {AO, KK, SP, CP}


@pytest.mark.parametrize(
    "query, playing, game, section", QUESTIONS, ids=[row[0] for row in QUESTIONS]
)
def test_german_question_finds_its_section_in_the_top_three(query, playing, game, section):
    hits = load_library().search(query, game=playing, limit=3)
    top_three = [(hit.game, hit.section) for hit in hits]
    assert (game, section) in top_three, f"{query!r} gave {top_three}"


# Asked while playing Das Kartenspiel, in German and English: the section must come first,
# since the dialog's first answer is the one read (issue 29: "Idefix" answered the first row).
FIRST_ON_A_KARTENSPIEL_TABLE = [
    ("Darf ich zwei Karten spielen?", "trick"),
    ("Einen Stich spielen", "trick"),
    ("Wie spiele ich eine Karte aus?", "trick"),
    ("Wer spielt zuerst aus?", "trick"),
    ("Wie viele Karten darf ich legen?", "trick"),
    ("Wer gewinnt den Stich?", "trick"),
    ("Karte verdeckt legen", "trick"),
    ("Darf ich Idefix spielen?", "idefix"),
    ("Was passiert bei Gleichstand?", "ties-flasks"),
    ("Was macht der Pirat?", "pirates"),
    ("Can I play two cards?", "trick"),
    ("Who leads the first trick?", "trick"),
    ("How many cards do I play?", "trick"),
    ("Who wins the trick?", "trick"),
    ("What does the pirate do?", "pirates"),
    ("Can I play Dogmatix as my last card?", "idefix"),
]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("query, section", FIRST_ON_A_KARTENSPIEL_TABLE,
                         ids=[row[0] for row in FIRST_ON_A_KARTENSPIEL_TABLE])
def test_a_question_about_playing_cards_is_answered_first(query, section, lang):
    hits = load_library().search(query, game=KK, limit=3, lang=lang)
    assert hits and hits[0].section == section, f"{query!r} gave {[hit.section for hit in hits]}"
