"""The search engine on small hand-made libraries: ranking, aliases, word forms, snippets, bad input."""

import pytest

from companion.rules import (
    AliasTable,
    Library,
    QueryTooLong,
    RulesFormatError,
    UnknownGame,
    load_library,
)

ALIASES = """
# test groups
idefix = dogmatix
wild boar = wildschwein
centurion = zenturio = centurio
formation = tortoise = phalanx
"""

CARDS = """---
id: pirates
title: Pirates
---
Easy to beat with any card.
---
id: scoring
title: Scoring
tags: points
---
At the end the pirate majority gets a token, and pirate ties give nothing. Count every pirate.
---
id: boar
title: The boar card
---
The wild boar ends the attack at once.
---
id: legions
title: Legions
aliases: roman soldiers
---
Each legion has a centurion.
"""

DOG = """---
id: dog
title: The dog
---
Idefix looks at the top card of the deck.
---
id: pirates
title: Pirate cards
---
A pirate makes a Roman escape.
"""


@pytest.fixture
def library():
    return Library.from_texts({"cards": CARDS, "dog": DOG}, ALIASES)


def places(hits):
    return [(hit.game, hit.section) for hit in hits]


# -- ranking ------------------------------------------------------------------------------------
def test_a_title_match_beats_a_body_with_many_mentions(library):
    hits = library.search("pirate", game="cards")
    assert places(hits)[:2] == [("cards", "pirates"), ("cards", "scoring")]
    assert hits[0].score > hits[1].score


def test_the_current_game_comes_first_even_when_another_scores_higher(library):
    assert places(library.search("pirate", game="dog"))[0] == ("dog", "pirates")
    from_cards = places(library.search("pirate", game="cards"))
    assert from_cards.index(("cards", "scoring")) < from_cards.index(("dog", "pirates"))


def test_without_a_current_game_the_best_score_comes_first(library):
    hits = library.search("pirate")
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_a_section_matching_every_word_beats_one_matching_a_single_word(library):
    assert places(library.search("pirate ties token"))[0] == ("cards", "scoring")


def test_a_section_alias_in_the_header_is_searchable(library):
    assert places(library.search("roman soldiers", game="cards"))[0] == ("cards", "legions")


def test_the_limit_is_respected(library):
    assert len(library.search("pirate", limit=1)) == 1
    assert library.search("pirate", limit=0) == []


# -- aliases and word forms ---------------------------------------------------------------------
def test_an_alias_finds_the_other_name(library):
    assert places(library.search("Dogmatix")) == [("dog", "dog")]
    assert places(library.search("Wildschwein")) == [("cards", "boar")]


def test_a_phrase_alias_becomes_one_term(library):
    understood = library.explain("the wild boar")
    assert [term.choices for term in understood] == [{"~wild_boar": 1.0}]


def test_alias_groups_know_each_member():
    table = AliasTable.parse(ALIASES)
    assert table.group_of("Zenturio") == ("centurion", "zenturio", "centurio")
    assert table.group_of("centurions") == ("centurion", "zenturio", "centurio")
    assert table.group_of("Tortoise") == ("formation", "tortoise", "phalanx")
    assert table.group_of("legionary") == ()


@pytest.mark.parametrize("query", ["centurions", "Zenturio", "centurio", "zentruio", "centur"])
def test_word_forms_typos_and_unfinished_words_are_forgiven(library, query):
    assert places(library.search(query))[0] == ("cards", "legions")


def test_accents_and_case_do_not_matter():
    library = Library.from_texts(
        {"game": "---\nid: roman\ntitle: Legionär\n---\nEin Römer.\n"}, "legionary = legionär"
    )
    for query in ("LEGIONAR", "legionary", "römer", "Romer"):
        assert places(library.search(query)) == [("game", "roman")], query


def test_the_project_alias_file_holds_the_names_the_issues_ask_for():
    aliases = load_library().aliases
    same = [
        ("Idefix", "Dogmatix"),
        ("Majestix", "Vitalstatistix"),
        ("Miraculix", "Getafix"),
        ("Troubadix", "Cacofonix"),
        ("Zenturio", "centurion"),
        ("Legionär", "legionary"),
        ("Wildschwein", "wild boar"),
        ("Dorffest", "village feast"),
        ("Zaubertrank", "magic potion"),
        ("Hinkelstein", "menhir"),
        ("Moralelastix", "Moraalelastix"),
        ("Moraalelastix", "traitor"),
        ("tortoise", "phalanx"),
        ("phalanx", "formation"),
        ("Ranghöchste", "highest ranking"),
        ("Gaius Bonus", "Crismus Bonus"),
        ("Hornist", "bugler"),
        ("K.O.", "knocked out"),
        ("Wi-Fi", "WLAN"),
    ]
    for one, other in same:
        group = {name.casefold() for name in aliases.group_of(one)}
        assert other.casefold() in group, f"{one} and {other} should be aliases"


@pytest.mark.parametrize(
    "text, message",
    [
        ("idefix", "separated by '='"),
        ("idefix = ", "separated by '='"),
        ("idefix = dogmatix\ndogmatix = snowy", "already in the group of 'idefix'"),
        ("the = dogmatix", "'the' has no searchable word"),
    ],
)
def test_bad_alias_lines_are_refused_with_the_line(text, message):
    with pytest.raises(RulesFormatError) as refused:
        AliasTable.parse(text, "aliases.txt")
    assert message in str(refused.value)
    assert "aliases.txt, line" in str(refused.value)


# -- snippets -----------------------------------------------------------------------------------
def test_the_snippet_marks_the_matching_words(library):
    hit = library.search("boar")[0]
    assert ("boar", True) in hit.snippet or ("wild boar", True) in hit.snippet
    assert hit.snippet_text == "The wild boar ends the attack at once."
    assert "<mark>" in hit.snippet_html


def test_an_alias_marks_the_words_of_the_other_name(library):
    hit = library.search("Wildschwein")[0]
    assert [text for text, is_match in hit.snippet if is_match] == ["wild boar"]


def test_the_snippet_html_is_escaped():
    library = Library.from_texts({"g": "---\nid: s\ntitle: T\n---\nUse <b>pirate</b> & co.\n"})
    hit = library.search("pirate")[0]
    assert hit.snippet_html == "Use &lt;b&gt;<mark>pirate</mark>&lt;/b&gt; &amp; co."


def test_a_long_section_gives_a_window_around_the_matches():
    body = " ".join(["filler"] * 80) + " the traitor hides here " + " ".join(["filler"] * 80)
    library = Library.from_texts({"g": f"---\nid: s\ntitle: T\n---\n{body}\n"})
    hit = library.search("traitor")[0]
    assert hit.snippet[0] == ("… ", False) and hit.snippet[-1] == (" …", False)
    assert ("traitor", True) in hit.snippet
    assert len(hit.snippet_text) < 200


def test_the_json_form_has_the_api_keys(library):
    hit = library.search("Dogmatix")[0]
    assert hit.as_dict() == {
        "game": "dog",
        "section": "dog",
        "title": "The dog",
        "snippet": "<mark>Idefix</mark> looks at the top card of the deck.",
        "url": "/rules/dog#dog",
        "score": hit.score,
    }


# -- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("query", ["", "   ", "\n\t", "the of and", "zzzqqqxx"])
def test_empty_or_meaningless_queries_give_nothing(library, query):
    assert library.search(query) == []


def test_a_query_over_200_characters_is_refused_with_a_sentence(library):
    assert library.search("pirate " + "x" * 193) is not None  # exactly 200 is fine
    with pytest.raises(QueryTooLong, match="200 characters or fewer"):
        library.search("pirate " + "x" * 194)


def test_an_unknown_game_is_refused_with_a_sentence(library):
    with pytest.raises(UnknownGame, match="no rules for a game called 'chess'"):
        library.search("pirate", game="chess")


def test_an_empty_game_means_no_current_game(library):
    assert places(library.search("pirate", game="")) == places(library.search("pirate"))
