"""Teaching mode, "Our first game": chosen at set-up, switched by the host mid-game, shown on
every phone as the coach card; the group remembers who is new to a game."""

from __future__ import annotations

import json
import re
from html import unescape

from companion.games import GAMES
from companion.web.messages import coach_sentences
from tests.conftest import api_table, bearer
from tests.web.test_groups_web import Night
from tests.web.test_tables import text

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def coach_card(html: str) -> str:
    """The coach region's HTML ('' when the card is hidden)."""
    found = re.search(r'<section id="coach"[^>]*>(.*?)</section>', html, re.S)
    assert found, "every table page has the coach region"
    return "" if " hidden " in found.group(0).split(">", 1)[0] + " " else found.group(1)


def test_the_set_up_form_offers_our_first_game_off_by_default(phone):
    page = text(phone().get("/new/asterix-co", headers=GERMAN))
    box = re.search(r'<input type="checkbox" name="coach" value="1"[^>]*>', page).group(0)
    assert "checked" not in box
    assert "Unsere erste Partie" in page and "Neu in diesem Spiel?" in page


def test_a_first_game_opens_with_the_introduction_and_says_what_to_do(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"), me="0", coach="1")
    card = coach_card(text(host.get(f"/t/{code}", headers=GERMAN)))
    assert "Der Punkteblock ist der Punktezettel für jedes Spiel" in card  # the goal
    assert "Ein Handy für jeden" in card or "ein Handy für jeden" in card  # what you need
    assert "der Block kennt keine Zugreihenfolge" in card  # who starts
    assert "Nach der ersten Runde tippt jeder das Feld unter seinem Namen an" in card
    assert 'href="/rules/scorepad#entering-scores"' in card and "Warum?" in card
    assert host.snapshot()["coach"] is True

    host.act(type="enter_score", player="Ann", round=1, points=7)
    card = coach_card(text(host.get(f"/t/{code}", headers=GERMAN)))
    assert "Es fehlen noch Punkte: Runde 1 von Ben." in card
    assert "Der Punkteblock ist der Punktezettel" not in card.split("<details")[0]  # intro folded
    assert "So geht das Spiel" in card


def test_a_table_without_it_shows_no_card(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"), me="0")
    assert coach_card(text(host.get(f"/t/{code}"))) == ""
    assert host.snapshot()["coach"] is False


def test_the_host_switches_it_on_and_off_mid_game_and_nobody_else_can(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"), me="host")
    ann = phone("10.0.0.3")
    ann.join(code, "Ann")
    ann.act(type="enter_score", player="Ann", round=1, points=4)
    assert ann.post(f"/t/{code}/host/coach-on", htmx=True).status_code == 403
    assert coach_card(text(ann.get(f"/t/{code}"))) == ""

    assert host.post(f"/t/{code}/host/coach-on", htmx=True).status_code == 200
    card = coach_card(text(ann.get(f"/t/{code}")))
    assert "Points still missing: round 1 from Ben." in card
    host_page = text(host.get(f"/t/{code}"))
    assert "Switch off the coach (Our first game)" in host_page
    assert host.post(f"/t/{code}/host/coach-off", htmx=True).status_code == 200
    assert coach_card(text(ann.get(f"/t/{code}"))) == ""
    log = [entry["text"] for entry in host.snapshot()["log"]]
    assert log[:2] == ["The host switched the teaching mode off.",
                       "The host switched the teaching mode on."]
    assert ann.snapshot()["scores"] == {"Ann": 4, "Ben": 0}  # the game is untouched


def test_the_api_starts_a_table_in_teaching_mode_and_refuses_a_word_for_it(client):
    table = api_table(client, coach=True)
    assert client.get(f"/api/tables/{table['code']}").get_json()["coach"] is True
    refused = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"],
                                               "coach": "yes"})
    assert refused.status_code == 422 and refused.get_json()["kind"] == "invalid"
    assert "coach" in refused.get_json()["error"]


def test_a_rematch_keeps_the_teaching_mode(client):
    table = api_table(client, coach=True)
    headers = bearer(table["token"])
    code = table["code"]
    client.post(f"/api/tables/{code}/actions", headers=headers,
                json={"type": "enter_score", "player": "Ann", "round": 1, "points": 3})
    client.post(f"/api/tables/{code}/actions", headers=headers, json={"type": "finish_game"})
    again = client.post(f"/api/tables/{code}/rematch", headers=headers)
    assert again.status_code in (200, 201), again.get_json()
    assert client.get(f"/api/tables/{again.get_json()['code']}").get_json()["coach"] is True


def test_the_set_up_form_knows_who_in_the_group_has_played_the_game(client):
    night = Night(client, players=("Katrin", "Ben", "Cem"))
    night.play({"Katrin": 5, "Ben": 3})
    def played(game: str) -> list[str]:
        page = client.get(f"/new/{game}?group={night.code}").get_data(as_text=True)
        found = re.search(r'value="%s"[^>]*data-played="([^"]*)"' % night.code, page).group(1)
        return sorted(json.loads(unescape(found)))

    assert played("scorepad") == ["Ben", "Katrin"]  # Cem has not played the score pad yet
    assert played("kartenspiel") == []


def test_make_coach_sentences_prints_every_games_sentences_in_both_languages(tmp_path):
    english, german = coach_sentences(tmp_path)
    for game in GAMES.values():
        package = game.id.replace("-", "_")
        assert f"## {package}" in english.read_text() and f"## {package}" in german.read_text()
    assert "(MISSING)" not in german.read_text()
    # Beside each sentence, the rules section its card's "Why?" opens, in the file's language.
    assert "- Points still missing: ‹rounds›. — § Entering scores (#entering-scores)\n" in english.read_text()
    assert "- Es fehlen noch Punkte: ‹rounds›. — § Punkte eintragen (#entering-scores)\n" in german.read_text()
    # A sentence built before its card rests on the cards its function makes.
    assert "- Lena wins with ‹count› point! — § Who wins (#winning)\n" in english.read_text()


def test_after_three_moves_of_a_kind_the_card_is_one_line_for_that_player_only(phone):
    host = phone()
    code = host.start(game="asterix-co", players=("Ann", "Ben"), me="host", coach="1")
    ann, ben = phone("10.0.0.3"), phone("10.0.0.4")
    ann.join(code, "Ann")
    ben.join(code, "Ben")
    game = GAMES["asterix-co"]

    def card_for(who) -> str:
        return re.search(r'<p class="coach-say"[^>]*>(.*?)</p>', coach_card(text(who.get(f"/t/{code}"))),
                         re.S).group(1)

    for turn in range(3):
        for who, name, colour in ((ann, "Ann", "Gaul"), (ben, "Ben", "Roman")):
            coach = game.coach(host.snapshot()["state"])
            assert coach.player == name and coach.control == "play_character"
            assert card_for(who) == coach.say.render(), (turn, name)  # the whole sentence still
            moved = who.act(type="play_character", player=name, album=1 + turn % 2, strength=2,
                            character_type="Legionary", colour=colour if turn % 2 == 0 else
                            {"Gaul": "Roman", "Roman": "Gaul"}[colour])
            assert moved.status_code == 200, text(moved)
            assert game.coach(host.snapshot()["state"]).control == "end_power"
            assert who.act(type="end_power").status_code == 200  # its power, entered by its player
    coach = game.coach(host.snapshot()["state"])
    assert coach.player == "Ann" and coach.short is not None
    assert card_for(ann) == coach.short.render()  # Ann has played three characters
    assert card_for(ben) == coach.say.render()  # Ben's phone still reads the whole step
