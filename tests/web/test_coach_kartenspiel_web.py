"""Das Kartenspiel in teaching mode as the family's phones show it: the one line never hides a
rule its reader has not seen, and the pirate of choice is chosen on its owner's phone."""

from __future__ import annotations

import re

from tests.web.test_coach_web import GERMAN, coach_card
from tests.web.test_tables import text


def coach_say(phone, code: str) -> str:
    card = coach_card(text(phone.get(f"/t/{code}", headers=GERMAN)))
    return re.search(r'<p class="coach-say"[^>]*>(.*?)</p>', card, re.S).group(1)


def family(phone, players=("Mama", "Lena")):
    """A coached table whose host's phone has no seat, and one phone per player."""
    host = phone()
    code = host.start(game="kartenspiel", players=players, me="host", coach="1")
    phones = {}
    for number, name in enumerate(players):
        phones[name] = phone(f"10.0.0.{number + 3}")
        phones[name].join(code, name)
    return host, code, phones


def test_a_first_draw_reads_the_pirate_rule_after_many_trick_taps(phone):
    host, code, phones = family(phone)
    lena = phones["Lena"]
    # Lena's phone records the tricks: three Romans for Mama, then Mama is out of cards.
    for value in (3, 4, 5):
        assert lena.act(type="win_roman", player="Mama", value=value).status_code == 200
    assert lena.act(type="player_out", player="Mama").status_code == 200
    assert lena.act(type="last_player", player="Lena", cards_left=2).status_code == 200
    # Her first draw: the card on her phone still says that a pirate drawn now is hers.
    said = coach_say(lena, code)
    assert "Lena:" in said and "musst du" in said and "behalten" in said, said


def test_the_pirate_of_choice_is_chosen_on_its_owners_phone(phone):
    host, code, phones = family(phone, ("Mama", "Papa", "Lena"))
    mama, lena = phones["Mama"], phones["Lena"]
    for name, values in (("Mama", "4"), ("Papa", ""), ("Lena", "10 10 3")):
        assert mama.act(type="enter_romans", player=name, values=values, round=1).status_code == 200
    assert mama.act(type="add_pirate", player="Lena", kind="choice", round=1).status_code == 200

    # Mama's phone: the choice form is greyed with whose choice it is; closing waits for it.
    page = text(mama.get(f"/t/{code}", headers=GERMAN))
    form = re.search(r'<form[^>]*data-action="choose_escape".*?</form>', page, re.S).group(0)
    assert "<fieldset disabled>" in form
    assert "Welcher Römer entkommt, entscheidet Lena" in form
    assert "billigste" not in page
    refused = mama.act(type="choose_escape", player="Lena", value=3)
    assert refused.status_code in (403, 409, 422) and "entscheidet Lena" in text(
        mama.post(f"/t/{code}/act", {"type": "choose_escape", "player": "Lena", "value": "3",
                                     "expected_version": mama.version()}, htmx=True,
                  headers=GERMAN))
    closing = mama.act(type="close_round")
    assert closing.status_code in (409, 422), text(closing)
    assert "Lena hat noch nicht gewählt" in text(
        mama.post(f"/t/{code}/act", {"type": "close_round", "expected_version": mama.version()},
                  htmx=True, headers=GERMAN))

    # Lena's phone: the form is hers, named by the card; her tap counts.
    page = text(lena.get(f"/t/{code}", headers=GERMAN))
    form = re.search(r'<form[^>]*data-action="choose_escape".*?</form>', page, re.S).group(0)
    assert "<fieldset>" in form
    assert "du wählst, welchen" in coach_say(lena, code)
    assert lena.act(type="choose_escape", player="Lena", value=3).status_code == 200
    assert mama.act(type="close_round").status_code == 200
    assert host.snapshot()["scores"] == {"Mama": 4, "Papa": 0, "Lena": 40}


def test_the_host_names_the_escape_for_a_player_without_a_phone(phone):
    # Mama hosts at her own seat; Ben has no phone, Lena has hers.
    host = phone()
    code = host.start(game="kartenspiel", players=("Mama", "Ben", "Lena"), me="0", coach="1")
    lena = phone("10.0.0.5")
    lena.join(code, "Lena")
    for name, values in (("Mama", "4"), ("Ben", "2 9"), ("Lena", "")):
        host.act(type="enter_romans", player=name, values=values, round=1)
    host.act(type="add_pirate", player="Ben", kind="choice", round=1)
    # The card names Ben; the form is open on the host's phone, greyed on Lena's.
    assert "Ben:" in coach_say(host, code)
    mine = text(host.get(f"/t/{code}", headers=GERMAN))
    assert "<fieldset>" in re.search(r'<form[^>]*data-action="choose_escape".*?</form>', mine, re.S).group(0)
    hers = text(lena.get(f"/t/{code}", headers=GERMAN))
    form = re.search(r'<form[^>]*data-action="choose_escape".*?</form>', hers, re.S).group(0)
    assert "<fieldset disabled>" in form and "entscheidet Ben" in form and "oder der Gastgeber" in form
    assert lena.act(type="choose_escape", player="Ben", value=2).status_code == 422
    assert host.act(type="choose_escape", player="Ben", value=9).status_code == 200
    assert host.snapshot()["state"]["piles"]["Ben"]["choice"] == 9


def test_one_typed_pile_is_not_the_end_of_the_tricks(phone):
    host, code, phones = family(phone, ("Mama", "Papa", "Lena"))
    mama = phones["Mama"]
    assert mama.act(type="enter_romans", player="Mama", values="10 7", round=1).status_code == 200
    page = text(mama.get(f"/t/{code}", headers=GERMAN))
    said = coach_say(mama, code)
    assert "Stiche sind vorbei" not in said and "Stiche sind vorbei" not in page
    assert "die Römer von Mama sind eingetragen" in said
    assert "Papa und Lena" in said
    # The typing-in form is open, so the control the card marks can be seen.
    assert re.search(r'<details class="ks-fold" id="direct-entry"[^>]*\bopen\b', page)
