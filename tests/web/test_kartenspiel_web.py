"""Asterix: Das Kartenspiel on the web: the table API, the page and its regions, the quick score."""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import ApiTable, bearer
from tests.pages import region

PLAYERS = ["Ann", "Ben", "Cid"]


def api_game(client, players=PLAYERS) -> ApiTable:
    """A Kartenspiel table driven through the JSON API, a phone at every seat."""
    table = ApiTable(client, "kartenspiel", players)
    table.join(*players)
    return table


def roman(player, value):
    return {"type": "win_roman", "player": player, "value": value}


# Round 1 tapped trick by trick: wins, an Idefix gift, a clash, a pirate, players running out,
# and the last player's draws (Idefix among two cards counts, so two cards come from the deck).
ROUND_ONE_TAPS = [
    roman("Ann", 10),
    roman("Ben", 10),
    {"type": "idefix_look", "player": "Ben", "roman": 5, "given_to": "Cid"},
    {"type": "idefix_clash"},
    {"type": "win_pirate", "player": "Cid", "kind": "highest"},
    roman("Ann", 3),
    roman("Cid", 12),
    {"type": "player_out", "player": "Ben"},
    {"type": "player_out", "player": "Cid"},
    {"type": "last_player", "player": "Ann", "cards_left": 2, "idefix_among": True},
    roman("Ann", 10),
    {"type": "win_pirate", "player": "Ann", "kind": "choice"},
]
ROUND_ONE_PILES = {
    "Ann": {"romans": [10, 3, 10], "pirates": ["choice"], "choice": None},
    "Ben": {"romans": [10], "pirates": [], "choice": None},
    "Cid": {"romans": [5, 12], "pirates": ["highest"], "choice": None},
}


def direct_round(piles: dict[str, str], pirates: dict[str, list[str]] | None = None) -> list[dict]:
    payloads = [{"type": "enter_romans", "player": name, "values": values}
                for name, values in piles.items()]
    for name, kinds in (pirates or {}).items():
        payloads += [{"type": "add_pirate", "player": name, "kind": kind} for kind in kinds]
    return payloads + [{"type": "close_round"}]


# -- the table API ---------------------------------------------------------------------------


def test_a_four_round_game_through_the_table_api(client):
    table = api_game(client)
    first = table.snapshot()
    assert first["state"]["phase"] == "tricks" and first["scores"] == {"Ann": 0, "Ben": 0, "Cid": 0}

    for payload in ROUND_ONE_TAPS:
        snap = table.move(payload, by=payload.get("player", "Ann"))
    assert snap["state"]["phase"] == "scoring"
    assert snap["state"]["piles"] == ROUND_ONE_PILES
    assert snap["status"].startswith("Round 1 of 4 · scoring")
    # The pirate of choice waits for Ann: the round is not closed, and nobody else names it.
    assert "Ann has not yet chosen" in table.post({"type": "close_round"}, by="Ben").get_json()["error"]
    assert "It is Ann's choice" in table.post({"type": "choose_escape", "player": "Ann", "value": 3},
                                              by="Ben").get_json()["error"]
    # Ann names the 10, takes it back, then names the 3 (losing a 10 would break the pair).
    table.move({"type": "choose_escape", "player": "Ann", "value": 10}, by="Ann")
    table.move({"type": "choose_escape", "player": "Ann"}, by="Ann")
    table.move({"type": "choose_escape", "player": "Ann", "value": 3}, by="Ann")
    snap = table.move({"type": "close_round"}, by="Ben")
    assert snap["scores"] == {"Ann": 40, "Ben": 10, "Cid": 5}  # 10+10+20 · 10 · the 12 escapes
    assert snap["log"][0]["text"] == "Round 1 was scored: Ann 40, Ben 10, Cid 5."
    assert snap["state"]["round"] == 2 and not snap["finished"]

    snap = table.moves(*direct_round({"Ann": "1 2", "Ben": "7, 7, 7", "Cid": "14"}, {"Cid": ["lowest"]}))
    assert snap["scores"] == {"Ann": 43, "Ben": 81, "Cid": 5}  # Ben's three 7s: 21 + 50
    snap = table.moves(*direct_round({"Ann": "9 9 9 9", "Ben": "", "Cid": "13"}))
    assert snap["scores"] == {"Ann": 179, "Ben": 81, "Cid": 18}
    assert not snap["finished"] and snap["winners"] == []
    snap = table.moves(*direct_round({"Ann": "", "Ben": "11", "Cid": "4 4"}))
    assert snap["scores"] == {"Ann": 179, "Ben": 92, "Cid": 46}
    assert snap["finished"] and snap["winners"] == ["Ann"]
    assert snap["status"] == "Ann wins with 179 points!"
    over = table.post({"type": "win_roman", "player": "Ben", "value": 3}, by="Ben")
    assert over.status_code == 422 and "The game is over" in over.get_json()["error"]
    # Undo reopens the last round; redo closes it again.
    undone = table.undo()
    assert not undone["finished"] and undone["state"]["phase"] == "scoring"
    redone = table.redo()
    assert redone["winners"] == ["Ann"]


def test_the_trick_log_builds_the_same_piles_as_direct_entry(client):
    tapped = api_game(client)
    tapped.moves(*ROUND_ONE_TAPS)
    typed = api_game(client)
    typed.moves(
        {"type": "enter_romans", "player": "Ann", "values": "10 3 10"},
        {"type": "enter_romans", "player": "Ben", "values": "10"},
        {"type": "enter_romans", "player": "Cid", "values": "5 12"},
        {"type": "add_pirate", "player": "Ann", "kind": "choice"},
        {"type": "add_pirate", "player": "Cid", "kind": "highest"},
    )
    assert tapped.snapshot()["state"]["piles"] == typed.snapshot()["state"]["piles"] == ROUND_ONE_PILES
    assert typed.snapshot()["state"]["phase"] == tapped.snapshot()["state"]["phase"] == "scoring"
    for table in (tapped, typed):
        table.move({"type": "choose_escape", "player": "Ann", "value": 3}, by="Ann")
    assert (tapped.move({"type": "close_round"})["scores"]
            == typed.move({"type": "close_round"})["scores"] == {"Ann": 40, "Ben": 10, "Cid": 5})


def after_a_few_taps(client) -> ApiTable:
    table = api_game(client, ["Ann", "Ben"])
    table.moves(roman("Ann", 11), {"type": "win_pirate", "player": "Ann", "kind": "highest"})
    return table


@pytest.mark.parametrize("payload, sentence", [
    (roman("Ann", 15), "The deck has no Roman worth 15."),
    (roman("Ann", 0), "The field 'value' is not valid"),
    (roman("Zed", 5), "There is no player called 'Zed' at this table."),
    (roman("Ben", 11), "The only Roman worth 11 is already in a pile; the deck has none left."),
    ({"type": "win_pirate", "player": "Ben", "kind": "highest"}, "already in Ann's pile"),
    ({"type": "win_pirate", "player": "Ben", "kind": "admiral"}, "The field 'kind' is not valid"),
    ({"type": "idefix_look", "player": "Ann"}, "Say what Dogmatix saw"),
    ({"type": "close_round"}, "Round 1 is still being played (48 cards in the deck)"),
    ({"type": "last_player", "player": "Ann", "cards_left": 3}, "Ann and Ben still hold cards"),
    ({"type": "choose_escape", "player": "Ann", "value": 11}, "Nobody holds the pirate of choice."),
    ({"type": "enter_romans", "player": "Ben", "values": "11"}, "only 0 can be Ben's"),
    ({"type": "enter_romans", "player": "Ben", "values": "4 four"}, "'four' is not"),
    ({"type": "remove_roman", "player": "Ben", "value": 4}, "Ben's pile has no Roman worth 4."),
    ({"type": "remove_pirate", "player": "Ben", "kind": "lowest"}, "Ben's pile has no pirate"),
    ({"type": "choose_gaul", "player": "Ann", "gaul": "caesar"}, "The field 'gaul' is not valid"),
    ({"type": "draw_card"}, "The action type is 'draw_card'"),
])
def test_each_refusal_through_the_api_is_a_422_sentence_and_changes_nothing(client, payload, sentence):
    table = after_a_few_taps(client)
    before = table.snapshot()
    response = table.post(payload, by="Ann")
    assert response.status_code == 422
    assert sentence in response.get_json()["error"]
    assert response.get_json()["error"].endswith(".")
    assert table.snapshot()["version"] == before["version"]


def test_refusals_that_depend_on_the_moment_of_the_round(client):
    table = api_game(client, ["Ann", "Ben"])
    table.move({"type": "player_out", "player": "Ben"})
    only = table.post(roman("Ann", 3))
    assert only.status_code == 422 and "Only Ann still holds cards" in only.get_json()["error"]
    table.move({"type": "last_player", "player": "Ann", "cards_left": 2})
    drawing = table.post(roman("Ben", 3))
    assert drawing.status_code == 422
    assert drawing.get_json()["error"] == "Only Ann takes cards from the deck now, not Ben."
    watcher = client.post(f"/api/tables/{table.code}/join", json={"watch": True}).get_json()["token"]
    watched = client.post(f"/api/tables/{table.code}/actions", headers=bearer(watcher), json=roman("Ann", 3))
    assert watched.status_code == 403


# -- quick score (point 6) ---------------------------------------------------------------------


QUICK_EXAMPLE = {
    "players": [{"name": "Ann", "romans": [10, 10, 3], "pirates": ["highest"]},
                {"name": "Ben", "romans": [5, 5, 5], "pirates": []}],
    "bonus": {"2": 20, "3": 50, "4": 100},
    "ranks": {"dekurio": 5, "zenturio": 10, "general": 15},
}


def test_the_quick_score_answers_exactly_as_documented(client):
    response = client.post("/api/games/kartenspiel/score", json=QUICK_EXAMPLE)
    assert response.status_code == 200
    assert response.get_json() == {"players": [
        {"name": "Ann", "kept": [10, 3], "escaped": [10], "points": 13, "bonus": 0, "total": 13},
        {"name": "Ben", "kept": [5, 5, 5], "escaped": [], "points": 15, "bonus": 50, "total": 65},
    ]}


def test_the_quick_score_defaults_and_every_pirate_kind(client):
    body = {"players": [
        {"name": "Ann", "romans": [2, 2, 3, 10], "pirates": ["choice", "zenturio"]},
        {"name": "Ben", "romans": [9, 4, 4], "pirates": ["lowest", "dekurio"]},
        {"name": "Cid", "romans": [14, 6], "pirates": ["general"]},
        {"name": "Dan", "romans": [], "pirates": ["highest"]},
    ]}
    players = client.post("/api/games/kartenspiel/score", json=body).get_json()["players"]
    ann, ben, cid, dan = players
    # Default ranks: the Zenturio is 10; the cheapest choice keeps Ann's pair of 2s.
    assert (ann["escaped"], ann["kept"], ann["total"]) == ([3, 10], [2, 2], 24)
    # No Dekurio or General value by default: nothing escapes for them.
    assert (ben["escaped"], ben["total"]) == ([4], 13)
    assert (cid["escaped"], cid["total"]) == ([], 20)
    assert (dan["escaped"], dan["total"]) == ([], 0)
    named = {"players": [player("Ann", [2, 2, 3], [{"choice": 2}]), player("Ben")]}
    ann = client.post("/api/games/kartenspiel/score", json=named).get_json()["players"][0]
    assert (ann["kept"], ann["escaped"], ann["total"]) == ([2, 3], [2], 5)


def player(name, romans=(), pirates=()):
    return {"name": name, "romans": list(romans), "pirates": list(pirates)}


@pytest.mark.parametrize("players, sentence", [
    ([player("Ann")], "Das Kartenspiel is scored for 2 to 5 players, not 1."),
    ([player(n) for n in "ABCDEF"], "Das Kartenspiel is scored for 2 to 5 players, not 6."),
    ([player("Ann", [15]), player("Ben")], "Ann has a Roman worth 15, but the deck has no such card"),
    ([player("Ann", [7, 7, 7]), player("Ben", [7, 7])], "The deck holds 4 Romans worth 7, but the piles have 5."),
    ([player("Ann", [12]), player("Ben", [12])], "The deck holds 1 Roman worth 12, but the piles have 2."),
    ([player("Ann", [], ["highest", "lowest", "choice", "dekurio"]),
      player("Ben", [], ["zenturio", "general", "highest"])], "The deck has 6 pirates, but the piles have 7."),
    ([player("Ann", [3], ["admiral"]), player("Ben")], "Ann has a pirate 'admiral' of no known kind"),
    ([player("Ann", [3], [{"choice": 7}]), player("Ben")], "Ann's pirate of choice names 7, but that pile has no 7."),
])
def test_each_quick_score_refusal_is_a_422_sentence(client, players, sentence):
    response = client.post("/api/games/kartenspiel/score", json={"players": players})
    assert response.status_code == 422
    assert sentence in response.get_json()["error"]


def test_the_openapi_document_names_the_quick_score_request(client):
    doc = client.get("/api/openapi.json").get_json()
    ref = doc["paths"]["/api/games/kartenspiel/score"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]["$ref"]
    assert ref.rsplit("/", 1)[-1] in doc["components"]["schemas"]
    assert "players" in doc["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"]


# -- the page -----------------------------------------------------------------------------------


def page_text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def words(fragment: str) -> str:
    """What a player reads: the text without tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split()).replace(" :", ":")


def game_part(page: str) -> str:
    """This game's own regions and folds (not the shared top bar, log and rules search)."""
    parts = [region(page, name) for name in ("deck", "piles", "scoring", "totals", "entry")]
    start = page.index('class="card ks-gauls')
    return "\n".join(parts + [page[start:page.index("</details>", start)]])


def test_the_setup_form_explains_every_option(phone):
    host = phone()
    text = page_text(host.get("/new/kartenspiel"))
    for label in ("High values in the deck",
                  "Dekurio's value", "Zenturio's value", "General's value", "Bonus for a pair",
                  "Bonus for three of a kind", "Bonus for four of a kind"):
        assert label in text
    # The names on the cards follow the phone's language: no table setting for them.
    assert "Names on the cards" not in text
    code = host.start(game="kartenspiel", players=("Ann", "Ben", "Cid"), pair_bonus="30")
    page = game_part(page_text(host.get(f"/t/{code}")))
    assert "Vitalstatistix" in page and "Dogmatix" in page
    for german in ("Majestix", "Idefix", "Miraculix", "Troubadix"):
        assert german not in page
    assert host.snapshot()["state"]["bonus"]["2"] == 30
    german = game_part(page_text(host.get(f"/t/{code}", headers={"Accept-Language": "de-DE,de;q=0.9"})))
    assert "Majestix" in german and "Idefix" in german
    for english in ("Vitalstatistix", "Dogmatix", "Getafix", "Cacofonix"):
        assert english not in german


def test_the_page_shows_the_deck_who_is_in_and_one_tap_controls(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben", "Cid"))
    page = page_text(host.get(f"/t/{code}"))
    deck = region(page, "deck")
    assert "<strong>50</strong>" in deck and "Round 1 of 4" in deck
    assert "Asterix" in deck and "Obelix" in deck and "10 Gauls + Dogmatix" in deck
    # One form per event: value chips and a button per player still in.
    assert deck.count('name="value" value=') == 14
    assert re.search(r'type="submit" name="player" value="Cid"', deck)
    for section in ("trick", "ties-flasks", "pirates", "idefix", "end-of-round", "values"):
        assert f"/rules/kartenspiel#{section}" in deck
    for section in ("turn", "setup", "scoring", "winning"):
        assert f"/rules/kartenspiel#{section}" in page

    assert host.act(type="win_roman", value="7", player="Ben").status_code == 200
    assert host.act(type="idefix_look", player="Ann", roman="12", given_to="Cid").status_code == 200
    assert host.act(type="win_pirate", kind="general", player="Cid").status_code == 200
    page = page_text(host.get(f"/t/{code}"))
    assert "<strong>47</strong>" in region(page, "deck")
    assert "9 Gauls + Dogmatix" in region(page, "deck")  # Ben spent a Gaul on the 7 and the pirate
    piles = region(page, "piles")
    assert re.search(r"Cid <small>Vitalstatistix</small>.*?>12<.*?☠ General", piles, re.S)
    # Every region also renders alone, as the live update sends it.
    live = page_text(host.get(f"/t/{code}/live?v=0", headers={"HX-Request": "true"}))
    for name in ("deck", "piles", "scoring", "totals"):
        assert f'id="{name}" data-region="{name}"' in live
    assert "<strong>47</strong>" in region(live, "deck")


def test_a_refused_tap_on_the_page_says_why(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    host.act(type="win_roman", value="13", player="Ann")
    refused = host.act(type="win_roman", value="13", player="Ben")
    assert refused.status_code == 422
    assert "The only Roman worth 13 is already in a pile" in refused.get_data(as_text=True)
    assert host.snapshot()["state"]["piles"]["Ben"]["romans"] == []
    assert "<strong>49</strong>" in region(page_text(host.get(f"/t/{code}")), "deck")


def test_the_last_player_and_the_draws_on_the_page(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    host.act(type="player_out", player="Ben")
    deck = region(page_text(host.get(f"/t/{code}")), "deck")
    assert "Only Ann still holds cards: how many?" in deck
    assert 'value="11" class="primary"' in deck  # the taps say ten Gauls and Idefix
    host.act(type="last_player", player="Ann", cards_left="2", idefix_among="on")
    deck = region(page_text(host.get(f"/t/{code}")), "deck")
    assert "Ann takes 2 more cards from the deck: tap each one." in deck
    host.act(type="win_roman", player="Ann", value="4")
    host.act(type="win_pirate", player="Ann", kind="dekurio")
    page = page_text(host.get(f"/t/{code}"))
    assert "The tricks of round 1 are over" in region(page, "deck")
    scoring = words(region(page, "scoring"))
    assert "Scoring round 1" in scoring
    assert "no value is set for the Dekurio, so nobody escapes" in scoring
    assert "Kept 4 = 4" in scoring


def test_direct_entry_leads_to_the_scoring_screen_with_its_working(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    page = page_text(host.get(f"/t/{code}"))
    assert "Type in round 1's piles" in page and 'name="values"' in page
    host.act(type="enter_romans", player="Ann", values="10 10 10 2")
    host.act(type="enter_romans", player="Ben", values="6 6 1")
    host.act(type="add_pirate", player="Ann", kind="highest")
    host.act(type="add_pirate", player="Ben", kind="choice")
    scoring = region(page_text(host.get(f"/t/{code}")), "scoring")
    said = words(scoring)
    assert "/rules/kartenspiel#sets" in scoring and "/rules/kartenspiel#pirates" in scoring
    # Ann: the highest pirate takes a 10 and breaks the three 10s into a pair.
    assert "☠ Highest: the 10 escapes" in said
    assert "Kept 10 10 2 = 22 Sets 2 × 10: +20 Round total 22 + 20 = 42" in said
    # Ben: the pirate of choice waits for Ben's choice, offered on the phone.
    assert "☠ Choice: Ben still chooses which Roman escapes" in said
    assert "Kept 6 6 1 = 13" in said and "cheapest" not in said
    assert re.search(r'name="value" value="6" class="small secondary"', scoring)
    host.act(type="choose_escape", player="Ben", value="6")
    said = words(region(page_text(host.get(f"/t/{code}")), "scoring"))
    assert "☠ Choice (Ben's choice): the 6 escapes" in said and "Kept 6 1 = 7" in said
    # Corrections on the piles are undoable actions too.
    piles = region(page_text(host.get(f"/t/{code}")), "piles")
    assert 'aria-label="Take a 2 out of Ann\'s pile"' in piles
    host.act(type="remove_roman", player="Ann", value="2")
    assert host.snapshot()["state"]["piles"]["Ann"]["romans"] == [10, 10, 10]
    assert "Close round 1 and start round 2" in page_text(host.get(f"/t/{code}"))


def test_a_closed_round_leaves_every_phone_an_empty_form_that_refuses_last_rounds_piles(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    entry = region(page_text(ben.get(f"/t/{code}")), "entry")
    assert "Type in round 1's piles" in entry
    assert entry.count('name="round" value="1"') == 3  # each Roman form and the pirates' form
    # Ben types the piles in on his page (its forms say round 1) and closes the round.
    assert ben.act(type="enter_romans", player="Ann", values="10 10 7", round="1").status_code == 200
    assert ben.act(type="enter_romans", player="Ben", values="5 5", round="1").status_code == 200
    assert ben.act(type="close_round").status_code == 200
    # Every phone is sent a fresh form for round 2: empty fields, named for the new round.
    live = page_text(host.get(f"/t/{code}/live?v=0", headers={"HX-Request": "true"}))
    for page in (page_text(ben.get(f"/t/{code}")), live):
        entry = region(page, "entry")
        assert "Type in round 2's piles" in entry and 'name="round" value="2"' in entry
        assert re.findall(r'<input [^>]*name="values"[^>]*>', entry) and all(
            "value=" not in field and "required" in field
            for field in re.findall(r'<input [^>]*name="values"[^>]*>', entry))
    # A page that still shows round 1's form cannot save its values into round 2.
    stale = ben.act(type="enter_romans", player="Ann", values="10 10 7", round="1")
    assert stale.status_code == 422
    assert "This was typed in for round 1, but round 2 is being played now" in page_text(stale)
    state = host.snapshot()["state"]
    assert state["round"] == 2 and state["phase"] == "tricks"
    assert state["piles"]["Ann"]["romans"] == []


def test_totals_chart_and_winner_after_the_last_round_on_every_phone(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben", "Cid"))
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    for piles in ({"Ann": "10 10", "Ben": "5 5 5", "Cid": "1"},
                  {"Ann": "14", "Ben": "1", "Cid": "2"}):
        for name, values in piles.items():
            host.act(type="enter_romans", player=name, values=values)
        host.act(type="close_round")
    totals = region(page_text(ben.get(f"/t/{code}")), "totals")
    assert "Σ 54" in totals and "Σ 66" in totals  # running totals after round 2
    assert totals.count("<polyline") == 3
    markers = re.findall(r'data-marker="(\w+)"', totals)
    assert len(set(markers)) == 3
    assert "Ann 54" in totals and "Ben 66" in totals and "Cid 3" in totals
    assert "Running totals after each round: Ann 40, 54; Ben 65, 66; Cid 1, 3" in totals
    for _ in range(2):
        host.act(type="enter_romans", player="Ann", values="")
        host.act(type="close_round")
    for who in (host, ben):
        page = page_text(who.get(f"/t/{code}"))
        assert "Ben wins with 66 points!" in region(page, "totals")
        assert "🏆 Ben wins!" in region(page, "status")


def test_a_shared_win_shows_on_every_phone(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"), rounds="1")
    ann = phone("10.0.0.4")
    ann.join(code, "Ann")
    host.act(type="enter_romans", player="Ann", values="9")
    host.act(type="enter_romans", player="Ben", values="9")
    host.act(type="close_round")
    for who in (host, ann):
        page = page_text(who.get(f"/t/{code}"))
        assert "Shared win: Ann & Ben with 9 points each" in page
    assert "Type in round" not in page and 'name="values"' not in page


# -- the quick-score page -------------------------------------------------------------------------


def quick_form(**rows):
    form = {"name": ["Ann", "Ben", "", "", ""], "romans": ["10 10 3", "5 5 5", "", "", ""],
            "bonus_2": "20", "bonus_3": "50", "bonus_4": "100",
            "dekurio": "", "zenturio": "10", "general": ""}
    form.update(rows)
    return form


def test_the_quick_score_page_scores_a_round(phone):
    visitor = phone()
    blank = page_text(visitor.get("/games/kartenspiel/score"))
    assert "Quick score: Asterix: Das Kartenspiel" in blank and 'name="pirates-4"' in blank
    scored = visitor.post("/games/kartenspiel/score", quick_form(**{"pirates-0": "highest"}))
    said = words(page_text(scored))
    assert scored.status_code == 200
    assert "Ann 13 points Escaped 10 Kept 10 3 = 13 Set bonus none Round total 13" in said
    assert "Ben 65 points Escaped none Kept 5 5 5 = 15 Set bonus +50 Round total 15 + 50 = 65" in said
    named = words(page_text(visitor.post("/games/kartenspiel/score", quick_form(**{"choice-0": "3"}))))
    assert "Ann 40 points Escaped 3 Kept 10 10 = 20 Set bonus +20" in named


@pytest.mark.parametrize("rows, sentence", [
    ({"romans": ["10 99", "", "", "", ""]}, "Ann has a Roman worth 99, but the deck has no such card"),
    ({"name": ["Ann", "", "", "", ""], "romans": ["3", "", "", "", ""]}, "scored for 2 to 5 players, not 1"),
    ({"romans": ["", "", "4", "", ""]}, "Row 3 has cards but no name"),
    ({"choice-1": "7"}, "Ben's pirate of choice names 7, but that pile has no 7."),
    ({"bonus_2": "lots"}, "The bonus for a pair must be a whole number, not 'lots'."),
])
def test_the_quick_score_page_explains_a_refusal_and_keeps_the_input(phone, rows, sentence):
    visitor = phone()
    refused = visitor.post("/games/kartenspiel/score", quick_form(**rows))
    assert refused.status_code == 422
    text = page_text(refused)
    assert sentence in text
    assert 'value="Ann"' in text or 'value=""' in text


# -- the table of moves on the page --------------------------------------------------------------

FORM = re.compile(r'<form [^>]*data-action="(\w+)"[^>]*>(.*?)</form>', re.S)
WHY_NOT = re.compile(r'<p class="why-not">(.*?)</p>', re.S)


def controls(page: str) -> list[tuple[str, bool, str | None]]:
    """Each action form on the page: its move, whether its controls are disabled, the reason shown."""
    found = []
    for kind, body in FORM.findall(page):
        why = WHY_NOT.search(body)
        found.append((kind, "<fieldset disabled>" in body, why.group(1) if why else None))
    return found


def test_each_control_is_disabled_with_its_reason_exactly_when_the_moves_table_says_so(phone):
    from companion.games import GAMES

    game = GAMES["kartenspiel"]
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben", "Cid"))
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    steps = [
        {},  # tricks: closing the round is shown, disabled, with what is expected instead
        *({"type": "win_pirate", "player": "Ann", "kind": kind}
          for kind in ("highest", "lowest", "choice", "dekurio", "zenturio", "general")),
        {"type": "player_out", "player": "Cid"},
        {"type": "player_out", "player": "Ben"},  # Ann's last hand
        {"type": "last_player", "player": "Ann", "cards_left": "2"},  # Ann draws
        {"type": "win_roman", "player": "Ann", "value": "4"},
        {"type": "win_roman", "player": "Ann", "value": "9"},  # scoring
        {"type": "close_round"},
    ]
    seen = set()
    for payload in steps:
        if payload:
            assert host.act(**payload).status_code == 200, payload
        legal = game.legal_actions(ben.snapshot()["state"], "Ben")
        page = page_text(ben.get(f"/t/{code}"))
        shown = controls(page)
        assert shown, payload
        for kind, disabled, why in shown:
            assert disabled == (legal[kind] is not None), (payload, kind, why)
            assert why == legal[kind], (payload, kind)
            seen.add((kind, disabled))
        assert "Hand the turn" not in page  # everyone plays at once: there is no turn to hand on
    assert ("close_round", True) in seen and ("close_round", False) in seen
    assert ("win_pirate", True) in seen and ("add_pirate", True) in seen  # all six pirates are out


def test_a_player_out_and_a_pirate_taken_stay_in_place_disabled_as_the_rules_refuse_them(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben", "Cid"))
    host.act(type="player_out", player="Ben")
    host.act(type="win_pirate", player="Ann", kind="highest")
    page = page_text(host.get(f"/t/{code}"))
    deck, entry = region(page, "deck"), region(page, "entry")
    button = r'<button type="submit" name="{name}" value="{value}"[^>]*>'
    # Ben still has his place in every row of winners, disabled with the reason.
    for found in re.findall(button.format(name="player", value="Ben"), deck):
        assert "disabled" in found and ("Ben is " in found or "already in a pile" in found), found
    assert re.search(button.format(name="player", value="Ben") + r"Ben <small>✗ out</small>", deck)
    assert "disabled" not in re.search(button.format(name="player", value="Cid"), deck).group(0)
    # The highest pirate is in Ann's pile: its row stays, marked taken, its buttons disabled.
    row = deck[deck.index('name="kind" value="highest"') - 400:deck.index('name="kind" value="lowest"')]
    assert "☠ Highest <small>taken</small>" in row
    assert all("disabled" in b for b in re.findall(button.format(name="player", value=r"\w+"), row))
    assert "disabled" in re.search(button.format(name="kind", value="highest"), entry).group(0)
    assert "disabled" not in re.search(button.format(name="kind", value="lowest"), entry).group(0)
    # The rules refuse exactly what the page shows disabled.
    for payload in ({"type": "win_roman", "player": "Ben", "value": "5"},
                    {"type": "win_pirate", "player": "Cid", "kind": "highest"},
                    {"type": "player_out", "player": "Ben"},
                    {"type": "add_pirate", "player": "Cid", "kind": "highest"}):
        assert host.act(**payload).status_code == 422, payload


def test_the_close_button_says_why_the_round_cannot_be_closed_yet(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    scoring = region(page_text(host.get(f"/t/{code}")), "scoring")
    said = words(scoring)
    assert "Close round 1 and start round 2" in said
    assert ("Not now: Round 1 is still being played (50 cards in the deck): Ann and Ben still hold cards; "
            "finish the tricks or type in the piles.") in said
    assert "<fieldset disabled>" in scoring


def test_a_move_out_of_phase_is_refused_with_what_is_expected(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    ann = phone("10.0.0.4")
    ann.join(code, "Ann")
    refused = ann.act(type="close_round")
    assert refused.status_code == 422
    assert ("Not now: Round 1 is still being played (50 cards in the deck): Ann and Ben still hold cards"
            in page_text(refused))
    host.act(type="enter_romans", player="Ann", values="3")
    late = ann.act(type="idefix_clash")
    assert late.status_code == 422
    assert "Not now: Round 1 is being typed in: type in the Romans of Ben" in page_text(late)
    assert ann.snapshot()["state"]["clashes"] == 0


def test_there_is_no_turn_to_hand_on_for_the_host_or_a_player(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    before = host.snapshot()["state_version"]
    for who in (host, ben):
        refused = who.act(type="hand_turn", player="Ann")
        assert refused.status_code == 422
        assert "The action type is 'hand_turn'; Asterix: Das Kartenspiel knows:" in page_text(refused)
    assert host.snapshot()["state_version"] == before


# -- both languages (issue 13) -------------------------------------------------------------------

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


def log_of(page: str) -> str:
    start = page.index('<ol class="log"')
    return words(page[start:page.index("</ol>", start)])


def visible_and_labels(fragment: str) -> str:
    """The words a German phone shows or reads out: text, titles, aria-labels, placeholders."""
    labels = re.findall(r'(?:title|aria-label|placeholder)="([^"]*)"', fragment)
    return words(fragment) + " " + " ".join(labels)


def mid_game(phone):
    """Three players a few tricks in: a Roman won, an Idefix gift, a pirate, a clash."""
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben", "Cid"))
    assert host.act(type="win_roman", value="7", player="Ben").status_code == 200
    assert host.act(type="idefix_look", player="Ann", roman="12", given_to="Cid").status_code == 200
    assert host.act(type="win_pirate", kind="general", player="Cid").status_code == 200
    assert host.act(type="idefix_clash").status_code == 200
    return host, code


def test_the_table_speaks_german_to_a_german_phone_and_english_to_an_english_one(phone):
    host, code = mid_game(phone)
    german = page_text(host.get(f"/t/{code}", headers=GERMAN))
    deck = words(region(german, "deck"))
    assert "Runde 1 von 4" in deck and "47 von 50 Karten im Stapel" in deck
    assert "✓ 9 Gallier + Idefix" in deck and "✓ 10 Gallier + Idefix" in deck
    assert "① Der offene Römer" in deck and "② Wer gewinnt ihn?" in deck
    assert "☠ Offen liegt ein Pirat" in deck and "Idefix schaut nach" in deck
    assert "Mehrmals Idefix: keiner schaut" in deck
    assert "Ann Asterix" in deck and "Cid Majestix" in deck
    piles = words(region(german, "piles"))
    assert "Punktestapel" in piles and "Cid Majestix 12 ☠ General" in piles
    assert "Korrigieren kannst du, sobald die Stiche gespielt sind." in piles
    # A move the phase does not allow says why, in German.
    scoring = words(region(german, "scoring"))
    assert "Jetzt nicht: Runde 1 läuft noch (47 Karten im Stapel): Ann, Ben und Cid haben noch Karten" in scoring
    assert "Gesamtpunkte" in words(region(german, "totals"))
    # The same log entries: German on this phone, English on an English one.
    log = log_of(german)
    assert "Idefix von Ann findet oben auf dem Stapel einen Römer im Wert von 12 und gibt ihn Cid." in log
    assert "Ben gewinnt einen Römer im Wert von 7." in log
    english = page_text(host.get(f"/t/{code}", headers=ENGLISH))
    assert "Ann's Dogmatix looked at the top card, a Roman worth 12, and gave it to Cid." in log_of(english)
    assert "Ben won a Roman worth 7." in log_of(english)
    assert "47 of 50 cards in the deck" in words(region(english, "deck"))
    assert "Cid Vitalstatistix" in words(region(english, "deck"))
    # A refused tap answers in the phone's language.
    refused = host.post(f"/t/{code}/act", {"type": "win_roman", "value": "12", "player": "Ben",
                                            "expected_version": host.version()},
                        htmx=True, headers=dict(GERMAN))
    assert refused.status_code == 422
    assert ("Der einzige Römer im Wert von 12 liegt schon auf einem Punktestapel; im Stapel ist keiner mehr."
            in page_text(refused))


def test_the_scoring_and_totals_speak_german(phone):
    host = phone()
    code = host.start(game="kartenspiel", players=("Ann", "Ben"))
    host.act(type="enter_romans", player="Ann", values="10 10 2", round="1")
    host.act(type="enter_romans", player="Ben", values="6 1", round="1")
    host.act(type="add_pirate", player="Ann", kind="highest", round="1")
    host.act(type="add_pirate", player="Ben", kind="dekurio", round="1")
    german = page_text(host.get(f"/t/{code}", headers=GERMAN))
    scoring = words(region(german, "scoring"))
    assert "Wertung von Runde 1" in scoring
    assert "☠ Ranghöchste: die 10 entkommt" in scoring
    assert "☠ Dekurio: für den Dekurio ist kein Wert eingestellt, also entkommt keiner" in scoring
    assert "Behalten 10 2 = 12" in scoring and "Rundensumme 12" in scoring
    assert "Runde 1 abschließen, Runde 2 beginnen" in scoring
    assert "Römer kommt auf den Punktestapel" not in log_of(german)  # typed in, not added
    assert "Der Pirat (der höchste Römer entkommt) kommt auf den Punktestapel von Ann." in log_of(german)
    english = page_text(host.get(f"/t/{code}", headers=ENGLISH))
    assert "The pirate (the highest Roman escapes) was added to Ann's pile." in log_of(english)
    host.act(type="close_round")
    german = page_text(host.get(f"/t/{code}", headers=GERMAN))
    totals = words(region(german, "totals"))
    assert "Punkte pro Runde" in totals and "Punkteverlauf" in totals and "Summe" in totals
    assert "Runde 1 ist gewertet: Ann 12, Ben 7." in log_of(german)


# English words of this game's pages that a German phone must no longer see.
LEFTOVER_ENGLISH = (
    "Round", "round", "cards in the deck", "Gaul", "Gauls", "Dogmatix", "Vitalstatistix", "Getafix",
    "Cacofonix", "face-up", "Who won it", "pirate", "Pirate", "Highest", "Lowest", "Choice",
    "left", "taken", "looked at the top card", "Kept it", "Gave it to", "ran out of cards",
    "is out", "nobody looks", "Score piles", "No cards yet", "Corrections", "Take out",
    "Scoring", "Totals", "Points per round", "swipe", "Running total", "Total", "Type in",
    "Save", "Whose pile", "Who plays which", "plays", "escapes", "Kept", "Sets", "none",
    "Close round", "still being played", "hold cards", "Playing a trick", "Equal Gauls",
    "End of a round", "Setting up", "Winning the game", "What the deck holds", "chart",
)


def test_a_german_phone_sees_no_english_words_of_this_game(phone):
    host, code = mid_game(phone)
    pages = [game_part(page_text(host.get(f"/t/{code}", headers=GERMAN)))]
    host.act(type="enter_romans", player="Ann", values="3 3", round="1")
    host.act(type="add_pirate", player="Ann", kind="choice", round="1")
    pages.append(game_part(page_text(host.get(f"/t/{code}", headers=GERMAN))))
    host.act(type="close_round")
    pages.append(game_part(page_text(host.get(f"/t/{code}", headers=GERMAN))))
    for page in pages:
        said = visible_and_labels(page)
        for english in LEFTOVER_ENGLISH:
            assert not re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", said), (english, said)


def test_the_quick_score_page_speaks_german(phone):
    visitor = phone()
    blank = words(page_text(visitor.get("/games/kartenspiel/score", headers=GERMAN)))
    assert "Schnellwertung: Asterix: Das Kartenspiel" in blank and "Runde werten" in blank
    form = {"name": ["Ann", "Ben", "", "", ""], "romans": ["10 10 3", "5 x", "", "", ""]}
    refused = visitor.post("/games/kartenspiel/score", form, headers=dict(GERMAN))
    assert refused.status_code == 422
    assert ("Die Römer von Ben müssen ganze Zahlen sein, getrennt durch Kommas oder Leerzeichen; „x“ ist keine."
            in page_text(refused))
    form["romans"][1] = "5 5 5"
    said = words(page_text(visitor.post("/games/kartenspiel/score", {**form, "pirates-0": "highest"},
                                        headers=dict(GERMAN))))
    assert "Ben 65 Punkte Entkommen keine Behalten 5 5 5 = 15 Satzbonus +50 Rundensumme 15 + 50 = 65" in said
