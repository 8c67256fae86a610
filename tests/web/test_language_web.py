"""Each phone reads the companion in its own language: the browser's Accept-Language at
first, then the phone's own choice (the switch), remembered; rules and the rules API follow."""

from __future__ import annotations

import re

import pytest

from companion.rules import load_library
from tests.conftest import api_table


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_the_browser_language_decides_the_rules_language_at_first(phone, library):
    german = library.section("asterix-obelix", "turn", "de")
    english = library.section("asterix-obelix", "turn", "en")
    reader = phone()
    page = reader.get("/rules/asterix-obelix/turn", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert page.status_code == 200
    assert german.title in page.get_data(as_text=True)
    page = reader.get("/rules/asterix-obelix/turn", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert english.title in page.get_data(as_text=True)
    # A language the rules are not written in reads English.
    page = reader.get("/rules/asterix-obelix/turn", headers={"Accept-Language": "fr-FR"})
    assert english.title in page.get_data(as_text=True)


def test_the_switch_is_remembered_by_the_phone_over_its_browser_language(phone, library):
    reader = phone()
    reader.get("/rules")
    answer = reader.post("/language", {"lang": "de", "next": "/rules/kartenspiel/turn"})
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/rules/kartenspiel/turn"
    assert "lang=de" in answer.headers["Set-Cookie"]
    page = reader.get("/rules/kartenspiel/turn", headers={"Accept-Language": "en"})
    assert library.section("kartenspiel", "turn", "de").title in page.get_data(as_text=True)
    # Another phone at the same table keeps its own language.
    other = phone("10.0.0.9")
    page = other.get("/rules/kartenspiel/turn", headers={"Accept-Language": "en"})
    assert library.section("kartenspiel", "turn", "en").title in page.get_data(as_text=True)


def test_an_unknown_language_is_refused_with_a_sentence_and_changes_nothing(phone):
    reader = phone()
    reader.get("/rules")
    answer = reader.post("/language", {"lang": "xx", "next": "/rules"})
    assert answer.status_code == 400
    assert "no language 'xx'" in answer.get_data(as_text=True)
    assert "Deutsch" in answer.get_data(as_text=True)
    assert "Set-Cookie" not in answer.headers


def test_the_home_screen_name_is_in_the_phone_language_the_page_links(phone):
    reader = phone()
    reader.get("/rules")
    reader.post("/language", {"lang": "de", "next": "/rules"})
    page = reader.get("/rules").get_data(as_text=True)
    link = re.search(r'<link rel="manifest" href="([^"]+)"', page).group(1)
    assert link.endswith("?lang=de")
    # The browser asks for it without the phone's cookie.
    manifest = reader.client.application.test_client().get(link).get_json()
    assert (manifest["lang"], manifest["name"], manifest["short_name"]) == (
        "de", "Tischbegleiter", "Tischbegleiter")
    english = reader.client.application.test_client().get("/manifest.webmanifest?lang=en").get_json()
    assert (english["lang"], english["name"]) == ("en", "Table companion")
    refused = reader.get("/manifest.webmanifest?lang=xx")
    assert refused.status_code == 400 and "no language 'xx'" in refused.get_data(as_text=True)


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/x", "rules"])
def test_the_switch_never_sends_the_phone_to_another_site(phone, target):
    reader = phone()
    reader.get("/rules")
    answer = reader.post("/language", {"lang": "en", "next": target})
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/"


def test_the_rules_api_answers_in_the_language_asked_for(client, library):
    german = client.get("/api/rules/search?q=Wildschwein&game=asterix-obelix",
                        headers={"Accept-Language": "de"}).get_json()
    english = client.get("/api/rules/search?q=Wildschwein&game=asterix-obelix",
                         headers={"Accept-Language": "en"}).get_json()
    assert german[0]["section"] == english[0]["section"] == "wild-boar"
    assert german[0]["title"] == library.section("asterix-obelix", "wild-boar", "de").title
    assert english[0]["title"] == library.section("asterix-obelix", "wild-boar", "en").title
    sections = client.get("/api/rules/zaubertrank", headers={"Accept-Language": "de"}).get_json()
    assert [s["title"] for s in sections] == [s.title for s in library.sections("zaubertrank", "de")]


def test_a_mixed_table_shows_each_phone_its_language_and_the_log_in_it(phone):
    code = phone().start(players=("Ann", "Ben"))
    german, english = phone("10.0.0.3"), phone("10.0.0.4")
    german.get("/")
    german.post("/language", {"lang": "de", "next": "/"})
    german.join(code, "Ann")
    english.join(code, "Ben")
    page = german.get(f"/t/{code}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="de">' in page
    assert "Der Tisch wurde für Ann, Ben angelegt." in page
    assert "Ein Handy hat den Platz von Ann übernommen." in page
    assert "Du bist <strong>Ann</strong>" in page and ">Verlauf <" in page and "Am Tisch" in page
    page = english.get(f"/t/{code}").get_data(as_text=True)
    assert '<html lang="en">' in page
    assert "The table was set up for Ann, Ben." in page
    assert "A phone took Ben&#39;s seat." in page
    # A live update brings each phone the log in its own language.
    version = english.snapshot()["version"]
    english.act(type="enter_score", player="Ben", round="1", points="4")
    update = german.client.get(f"/t/{code}/live?v={version}", headers={"HX-Request": "true"})
    assert update.status_code == 200
    assert "Der Tisch wurde für Ann, Ben angelegt." in update.get_data(as_text=True)
    update = english.client.get(f"/t/{code}/live?v={version}", headers={"HX-Request": "true"})
    assert "The table was set up for Ann, Ben." in update.get_data(as_text=True)


def test_the_api_answers_errors_in_the_language_asked_for(client):
    german = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "ann"]},
                         headers={"Accept-Language": "de"})
    assert german.status_code == 422
    assert german.get_json()["error"] == "Zwei Spieler heißen „ann“; gib jedem Spieler einen eigenen Namen."
    english = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "ann"]})
    assert english.get_json()["error"] == "Two players are called 'ann'; give each player a different name."


def test_a_seat_name_stays_text_inside_a_translated_sentence(phone):
    code = phone().start(players=("<b>Bo</b>", "Ben"))
    german = phone("10.0.0.5")
    german.join(code, "<b>Bo</b>")
    page = german.get(f"/t/{code}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Du bist <strong>&lt;b&gt;Bo&lt;/b&gt;</strong>" in page
    # The score sheet's cells (their words translated once per sheet, filled in per cell).
    assert 'aria-label="&lt;b&gt;Bo&lt;/b&gt;, Runde 1: keine Punkte. Zum Ändern tippen."' in page
    assert "<b>Bo</b>" not in page


def test_a_refused_move_and_a_bad_field_are_explained_in_the_language_asked_for(client):
    table = api_table(client, "asterix-obelix", ("Ann", "Bob"))
    code, headers = table["code"], table["headers"]
    unknown = {"type": "fly"}
    german = client.post(f"/api/tables/{code}/actions", json=unknown,
                         headers={**headers, "Accept-Language": "de-DE"})
    assert german.status_code == 422
    assert german.get_json()["error"].startswith("Den Aktionstyp „fly“ gibt es nicht;")
    english = client.post(f"/api/tables/{code}/actions", json=unknown, headers=headers)
    assert english.get_json()["error"].startswith("The action type is 'fly';")
    # pydantic's own checks get our words too: a field that is missing.
    german = client.post(f"/api/tables/{code}/actions", json={"type": "choose_line"},
                         headers={**headers, "Accept-Language": "de"})
    assert german.status_code == 422
    assert german.get_json()["error"].startswith("Das Feld „")
    assert client.get(f"/api/tables/{code}").get_json()["version"] == table["version"]


def test_a_sentence_in_a_template_speaks_the_phone_language_and_escapes_its_values(app):
    from companion.games.text import N_, Sentence

    template = app.jinja_env.from_string("{{ s }} | {{ n }} | {{ s|say|upper }}")
    sentence = Sentence("It is %(player)s's turn.", player="<i>Bo</i>")
    with app.test_request_context(headers={"Accept-Language": "de"}):
        shown = template.render(s=sentence, n=N_("expected a whole number"))
    assert shown == ("&lt;i&gt;Bo&lt;/i&gt; ist am Zug. | erwartet wird eine ganze Zahl | "
                     "&lt;I&gt;BO&lt;/I&gt; IST AM ZUG.")
    assert str(sentence) == "It is <i>Bo</i>'s turn."  # str() is the English, for the API log


# -- the pages outside the four games: home, set-up, join, history, rules, group, statistics,
# -- the score pad -----------------------------------------------------------------------------

import html as _html
import re as _re

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
# English words of these pages that a German phone must no longer see (as whole words).
LEFTOVERS = (
    "Join", "Join a table", "Table code", "Look up a rule", "Search", "Start a table", "players",
    "cooperative", "How the companion works", "All rules", "Start the table", "Add a player",
    "in seating order", "I only host or watch", "Options", "Watch only", "Who are you",
    "Choose another seat", "(you)", "(taken)", "Back to the table", "whole history",
    "Score pad", "Scores", "Round", "Total", "Running total", "total wins", "Tap a score",
    "Finish the game", "Enter a score", "Save score", "Save", "Points", "Player", "Change a score",
    "Swipe the sheet", "wrote", "points", "round", "Contents", "section", "sections", "rules",
    "Search results", "Win rate", "Plays", "Wins", "Scores over time", "oldest to newest", "Date",
    "Won", "plays", "The table with this chart", "Statistics", "Head to head", "Delete the group",
    "The host", "Nobody has scored", "Rules", "Home", "Close", "won",
)


def _visible(page: str) -> str:
    """The words a phone shows or reads out: text, titles, labels and placeholders (no
    script, no style, no values or ids the code reads)."""
    page = _re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    said = " ".join(_re.findall(r'(?<![\w-])(?:aria-label|title|placeholder|alt)="([^"]*)"', page))
    return _html.unescape(_re.sub(r"<[^>]+>", " ", page) + " " + said)


def _english_left(page: str) -> list[str]:
    text = _visible(page)
    return [word for word in LEFTOVERS if _re.search(r"(?<![\w-])" + _re.escape(word) + r"(?![\w-])", text)]


def _pages_of_a_game_night(phone):
    """A group whose score-pad table is mid-game (Ann 7, Ben 3 in round 1), one finished
    play of it for the statistics, and a phone seated as Ann."""
    host = phone()
    host.get("/")
    made = host.post("/groups", {"name": "Freitag", "players": "Ann\nBen"})
    group = made.headers["Location"].split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    done = host.start(players=("Ann", "Ben"), group=group, me="0")
    host.act(type="enter_score", player="Ann", round="1", points="9")
    host.act(type="enter_score", player="Ben", round="1", points="4")
    host.act(type="finish_game")
    code = host.start(players=("Ann", "Ben"), group=group, me="0")
    host.act(type="enter_score", player="Ann", round="1", points="7")
    host.act(type="enter_score", player="Ben", round="1", points="3")
    return host, code, group, done


def test_every_page_outside_the_games_speaks_the_phone_language(phone):
    host, code, group, _done = _pages_of_a_game_night(phone)
    pages = {"home": "/", "new table": "/new/scorepad", "join": f"/j/{code}?change=1",
             "history": f"/t/{code}/history", "rules index": "/rules",
             "rules section": "/rules/scorepad/editing", "rules search": "/rules/search?q=zzzz",
             "group": f"/g/{group}", "statistics": f"/g/{group}/stats", "score pad": f"/t/{code}"}
    for name, url in pages.items():
        german = host.get(url, headers=GERMAN)
        assert german.status_code == 200, name
        page = german.get_data(as_text=True)
        assert '<html lang="de">' in page, name
        assert _english_left(page) == [], (name, _english_left(page))
        english = host.get(url, headers=ENGLISH).get_data(as_text=True)
        assert '<html lang="en">' in english, name
    # Real German on each, and the English of the same page.
    def both(url):
        return (_visible(host.get(url, headers=GERMAN).get_data(as_text=True)),
                _visible(host.get(url, headers=ENGLISH).get_data(as_text=True)))
    de, en = both("/")
    assert "An einen Tisch setzen" in de and "Einen Tisch starten" in de and "Punkteblock" in de
    assert "1–12 Spieler" in de and "Join a table" in en and "1–12 players" in en
    de, en = both("/new/scorepad")
    assert "Spieler (1–12), in Sitzreihenfolge" in de and "Tisch starten" in de
    assert "Die niedrigste Summe gewinnt (Golf, Hearts …)" in de and "Anzahl Runden (freiwillig)" in de
    assert "Players (1–12), in seating order" in en and "The lowest total wins (golf, Hearts…)" in en
    de, en = both(f"/j/{code}?change=1")
    assert "Nur zuschauen" in de and "(du)" in de and "Watch only" in en
    de, en = both(f"/t/{code}/history")
    assert "Der ganze Verlauf von Punkteblock" in de and "Zurück zum Tisch" in de and "The whole history of Score pad" in en
    de, en = both("/rules")
    assert "Stell eine Regelfrage …" in de and "Abschnitte" in de and "sections" in en
    de, en = both(f"/g/{group}/stats")
    assert "Siegquote pro Spieler" in de and "Die Tabelle zu dieser Grafik enthält dieselben Zahlen." in de
    assert "Ergebnisse im Verlauf: Punkteblock" in de and "Partien, älteste zuerst" in de
    assert "Win rate per player" in en and "Scores over time: Score pad" in en


def test_the_score_pad_mid_game_reads_german_and_its_log_in_each_language(phone):
    host, code, _group, _done = _pages_of_a_game_night(phone)
    german = _visible(host.get(f"/t/{code}", headers=GERMAN).get_data(as_text=True))
    english = _visible(host.get(f"/t/{code}", headers=ENGLISH).get_data(as_text=True))
    # The board: the sheet's heads, the round line, the entry form.
    for words in ("Punkte", "Runde", "Summe", "Zwischensumme", "Die höchste Summe gewinnt.",
                  "Tipp auf Punkte, um sie zu ändern.", "Partie beenden", "Punkte eintragen",
                  "Punkte speichern", "Runde 1 · höchste Summe gewinnt", "Punkteblock"):
        assert words in german, words
    # What a screen reader says of a cell of the sheet, and a running total's title.
    assert "Ann, Runde 1: 7. Zum Ändern tippen." in german and "Zwischensumme" in german
    assert "Ben, round 1: 3. Tap to edit." in english and "Running total" in english
    # The same log entry, in each phone's language.
    assert "Runde 1: Ann schreibt sich 7 Punkte auf." in german
    assert "Ann wrote down 7 points in round 1." in english
    # A refusal in German: a round past the planned ones, and the "Not now" reason of Finish.
    planned = host.start(players=("Ann", "Ben"), rounds="2", me="0")
    refused = host.post(f"/t/{planned}/act", {"type": "enter_score", "player": "Ann", "round": "3",
                                              "points": "1", "expected_version": host.version()},
                        htmx=True, headers=GERMAN)
    assert "Diese Partie hat 2 Runden; eine Runde 3 gibt es nicht." in _html.unescape(refused.get_data(as_text=True))
    fresh = host.start(players=("Ann", "Ben"), me="0")
    page = _visible(host.get(f"/t/{fresh}", headers=GERMAN).get_data(as_text=True))
    assert "Noch hat niemand Punkte; trag erst Punkte ein, dann kannst du beenden." in page


def test_a_score_pad_sentence_has_its_plural_in_both_languages(app):
    from companion.games import get_game

    pad = get_game("scorepad")
    state = pad.initial_state(["Ann", "Ben"], pad.parse_options({}))
    from companion.games.scorepad.moves import EnterScore, enter_score

    one = enter_score(pad, state, EnterScore(player="Ann", round=1, points=1), "Ben")
    many = enter_score(pad, state, EnterScore(player="Ann", round=1, points=-3), None)
    assert str(one) == "Ben wrote 1 point for Ann in round 1."
    assert str(many) == "The host changed Ann's round 1 from 1 to -3 points."
    template = app.jinja_env.from_string("{{ a }} / {{ b }}")
    with app.test_request_context(headers=GERMAN):
        shown = _html.unescape(template.render(a=one, b=many))
    assert shown == ("Runde 1: Ben schreibt Ann 1 Punkt auf. / "
                     "Runde 1: Der Gastgeber ändert Ann von 1 auf -3 Punkte.")


def test_the_terminal_banner_speaks_the_terminal_language(monkeypatch):
    from companion import cli

    monkeypatch.delenv("PUBLIC_URL", raising=False)
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert cli.terminal_language() == "de"
    shown = cli.banner("127.0.0.1", 5000)
    assert "Tischbegleiter unter http://127.0.0.1:5000/ (nur dieser Computer)." in shown
    assert "also können andere Handys nicht beitreten" in shown
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert "(this computer only)" in cli.banner("127.0.0.1", 5000)
    assert "(this computer only)" in cli.banner("127.0.0.1", 5000, language="en")
