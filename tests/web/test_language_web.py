"""Each phone reads the companion in its own language: the browser's Accept-Language at
first, then the phone's own choice (the switch), remembered; rules and the rules API follow."""

from __future__ import annotations

import pytest

from companion.rules import load_library


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
    assert "<b>Bo</b>" not in page


def test_a_refused_move_and_a_bad_field_are_explained_in_the_language_asked_for(client):
    table = client.post("/api/tables", json={"game": "asterix-obelix", "players": ["Ann", "Bob"]})
    code, token = table.get_json()["code"], table.get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
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
    assert client.get(f"/api/tables/{code}").get_json()["version"] == table.get_json()["version"]


def test_a_sentence_in_a_template_speaks_the_phone_language_and_escapes_its_values(app):
    from companion.games.text import N_, Sentence

    template = app.jinja_env.from_string("{{ s }} | {{ n }} | {{ s|say|upper }}")
    sentence = Sentence("It is %(player)s's turn.", player="<i>Bo</i>")
    with app.test_request_context(headers={"Accept-Language": "de"}):
        shown = template.render(s=sentence, n=N_("expected a whole number"))
    assert shown == ("&lt;i&gt;Bo&lt;/i&gt; ist am Zug. | erwartet wird eine ganze Zahl | "
                     "&lt;I&gt;BO&lt;/I&gt; IST AM ZUG.")
    assert str(sentence) == "It is <i>Bo</i>'s turn."  # str() is the English, for the API log
