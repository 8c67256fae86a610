"""Real questions a player types at the table, each with the section that must answer it.

Every row: (what the player types, the game they are playing or None, the game and section
that must be among the first three results).
"""

import pytest

from companion.rules import load_library

AO, KK, CO = "asterix-obelix", "kartenspiel", "asterix-co"
ZT, SP, CP = "zaubertrank", "scorepad", "companion"

QUESTIONS = [
    ("does the centurion count for the majority?", AO, AO, "scoring"),
    ("what does the boar do on the fourth card?", AO, AO, "wild-boar"),
    ("Wildschwein", None, AO, "wild-boar"),
    ("Dorffest", None, AO, "village-feast"),
    ("fifth feast game over", AO, AO, "end-of-game"),
    ("Moralelastix", None, AO, "traitor"),
    ("moraalelastix two cards same colour", AO, AO, "traitor"),
    ("tortoise broken extra attack", AO, AO, "formation-broken"),
    ("phalanx", AO, AO, "formation-broken"),
    ("tortise", None, AO, "formation-broken"),
    ("wildschwien", AO, AO, "wild-boar"),
    ("zenturios", AO, AO, "soldiers"),
    ("pirate tie nobody gets the token", AO, AO, "pirates"),
    ("who wins if the points are tied", AO, AO, "tie-breaks"),
    ("look at the last card of the row", AO, AO, "looking"),
    ("no matching fight card", AO, AO, "failed-attack"),
    ("block a row for the opponent", AO, AO, "blocking"),
    ("refill formation from supply", AO, AO, "end-of-attack"),
    ("chance next card is a feast", AO, AO, "card-counting"),
    ("centuriom tie", AO, AO, "tie-breaks"),
    ("how many legionaries per colour", AO, AO, "soldiers"),
    ("Legionär Farbe", AO, AO, "soldiers"),
    ("setup feast piles", AO, AO, "setup"),
    ("fight cards run out", AO, AO, "fight-cards-run-out"),
    ("my draw pile is empty, what now?", AO, AO, "fight-cards-run-out"),
    ("Idefix last card", KK, KK, "idefix"),
    ("dogmatix look at top card", KK, KK, "idefix"),
    ("two idefix played at the same time", KK, KK, "idefix"),
    ("pirate highest roman escapes", KK, KK, "pirates"),
    ("Rangniedrigste", None, KK, "pirates"),
    ("Zenturio value", KK, KK, "values"),
    ("bonus for three of a kind", KK, KK, "sets"),
    ("pair bonus", KK, KK, "sets"),
    ("tie same value flasks", KK, KK, "ties-flasks"),
    ("last player still has cards", KK, KK, "end-of-round"),
    ("how many rounds", KK, KK, "winning"),
    ("Miraculix", KK, KK, "names"),
    ("Vitalstatistix", KK, KK, "names"),
    ("Troubadix", KK, KK, "names"),
    ("Majestix", None, KK, "setup"),
    ("dogmatx gives the card away", KK, KK, "idefix"),
    ("who wins the pirate gaul back to hand", KK, KK, "pirates"),
    ("potion doubles strength", CO, CO, "potion"),
    ("can a character with a potion be knocked out", CO, CO, "ko"),
    ("K.O.", CO, CO, "ko"),
    ("reinvigorate hero", CO, CO, "heroes"),
    ("what happens when an album reaches 15", CO, CO, "resolution"),
    ("centurion helmet worth", CO, CO, "helmets"),
    ("50 sesterces", CO, CO, "end-of-game"),
    ("sesterzen für helme", CO, CO, "helmets"),
    ("draw pile empty", CO, CO, "draw"),
    ("eliminiate potion", CO, CO, "eliminate"),
    ("neutral character side", CO, CO, "neutral"),
    ("call on", CO, CO, "call-on"),
    ("consolation bonus token", CO, CO, "resolution"),
    ("max two bonus tokens of the same kind", CO, CO, "bonus-tokens"),
    ("discard and draw up to five", CO, CO, "reinforce"),
    ("Hinkelstein", None, ZT, "sub-task"),
    ("Zaubertrank trinken", ZT, ZT, "magic-potion"),
    ("Obelix roast boar", ZT, ZT, "magic-potion"),
    ("mishap cannot be placed", ZT, ZT, "mishaps"),
    ("location with two mishaps", ZT, ZT, "use-location"),
    ("Roman reaches the camp", ZT, ZT, "winning-losing"),
    ("how many task cards for a cohort", ZT, ZT, "difficulty"),
    ("pass ingredients to another player", ZT, ZT, "pass-on"),
    ("getafix rolls the die twice", ZT, ZT, "magic-potion"),
    ("bards hut", ZT, ZT, "locations"),
    ("helper cards run out", ZT, ZT, "helper-cards"),
    ("ingredient supply empty", ZT, ZT, "ingredients"),
    ("obelix sub-task twice per turn", ZT, ZT, "sub-task"),
    ("change a score", SP, SP, "editing"),
    ("negative points", SP, SP, "entering-scores"),
    ("lowest score wins", SP, SP, "winning"),
    ("join with the code", None, CP, "joining"),
    ("scan qr", None, CP, "joining"),
    ("wifi lost", SP, CP, "offline"),
    ("laptop restarted", None, CP, "offline"),
    ("two phones tapped at the same time", None, CP, "conflicts"),
    ("undo a mistake", SP, CP, "undo"),
    ("lock the table", None, CP, "host"),
    ("watch only", None, CP, "seats"),
    ("zuschauer", None, CP, "seats"),
]


def test_the_table_is_big_and_spans_every_game():
    assert len(QUESTIONS) >= 40
    assert {answer_game for _, _, answer_game, _ in QUESTIONS} == {AO, KK, CO, ZT, SP, CP}


@pytest.mark.parametrize(
    "query, playing, game, section", QUESTIONS, ids=[row[0] for row in QUESTIONS]
)
def test_question_finds_its_section_in_the_top_three(query, playing, game, section):
    hits = load_library().search(query, game=playing)
    top_three = [(hit.game, hit.section) for hit in hits[:3]]
    assert (game, section) in top_three, f"{query!r} gave {top_three}"
