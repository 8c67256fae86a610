"""The rules pages, the overlay's fragments and the rules JSON."""

import pytest


def test_every_game_has_a_rules_page_with_contents_and_anchors(client):
    from companion.games import GAMES

    for game_id in GAMES:
        html = client.get(f"/rules/{game_id}").get_data(as_text=True)
        assert 'class="toc"' in html
        assert 'href="#turn"' in html and 'id="turn"' in html


def test_a_section_reads_in_place_as_a_fragment_and_alone_as_a_page(client):
    fragment = client.get("/rules/asterix-obelix/traitor", headers={"HX-Request": "true"})
    html = fragment.get_data(as_text=True)
    assert "<html" not in html and 'data-game="asterix-obelix"' in html
    assert "HX-Request" in fragment.headers["Vary"]
    page = client.get("/rules/asterix-obelix/traitor").get_data(as_text=True)
    assert "<html" in page and "Moralelastix" in page


def test_search_results_put_the_current_game_first_and_mark_the_words(client):
    html = client.get("/rules/search?q=centurion+tie&game=asterix-obelix",
                      headers={"HX-Request": "true"}).get_data(as_text=True)
    first = html.index("<li>")
    assert "Asterix &amp; Obelix" in html[first:first + 600]
    assert "<mark>" in html


def test_search_api_shape_and_order(client):
    hits = client.get("/api/rules/search?q=Idefix&game=kartenspiel").get_json()
    assert hits and set(hits[0]) == {"game", "section", "title", "snippet", "url", "score"}
    assert hits[0]["game"] == "kartenspiel"
    assert hits[0]["url"].startswith("/rules/kartenspiel#")
    assert [h["score"] for h in hits if h["game"] == "kartenspiel"] == sorted(
        [h["score"] for h in hits if h["game"] == "kartenspiel"], reverse=True)


def test_rules_json_of_a_game(client):
    sections = client.get("/api/rules/zaubertrank").get_json()
    assert {"section", "title", "tags", "aliases", "markdown", "html", "url"} <= set(sections[0])
    assert "turn" in [s["section"] for s in sections]


@pytest.mark.parametrize("url, status, message", [
    ("/api/rules/search?q=" + "x" * 500, 422, "shorten the search"),
    ("/api/rules/search?q=boar&game=chess", 404, "no rules for a game called 'chess'"),
    ("/api/rules/chess", 404, "no rules for a game called 'chess'"),
])
def test_bad_rules_requests_get_a_sentence(client, url, status, message):
    response = client.get(url)
    assert response.status_code == status
    assert message in response.get_json()["error"]


def test_empty_queries_give_an_empty_result_not_an_error(client):
    assert client.get("/api/rules/search?q=").get_json() == []
    html = client.get("/rules/search?q=+++", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Type a few words" in html


def test_unknown_sections_and_long_queries_in_the_overlay_say_so(client):
    missing = client.get("/rules/scorepad/flying", headers={"HX-Request": "true"})
    assert missing.status_code == 404
    assert "no section called 'flying'" in missing.get_data(as_text=True).replace("&#39;", "'")
    long = client.get("/rules/search?q=" + "y" * 300, headers={"HX-Request": "true"})
    assert long.status_code == 200 and "shorten the search" in long.get_data(as_text=True)
    assert client.get("/rules/chess").status_code == 404
