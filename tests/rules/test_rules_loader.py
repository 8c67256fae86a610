"""Loading the rules content: the shipped files are complete and well formed, bad files say why."""

import re
from pathlib import Path

import pytest

from companion.rules import (
    Library,
    RulesFormatError,
    UnknownGame,
    UnknownSection,
    load_library,
    parse_sections,
)

# The ids the trackers' "?" buttons link to; every one must exist.
REQUIRED = {
    "scorepad": "turn entering-scores editing winning rounds",
    "companion": "start joining seats host live undo conflicts offline",
    "asterix-obelix": "turn setup attack soldiers pirates traitor wild-boar village-feast looking "
    "failed-attack formation-broken end-of-attack blocking end-of-game scoring tie-breaks "
    "card-counting",
    "kartenspiel": "turn setup trick ties-flasks idefix pirates end-of-round scoring sets values "
    "winning",
    "asterix-co": "turn setup albums play-character placement powers heroes bonus-tokens potion "
    "fish boar reinforce resolution helmets album-effects end-of-game call-on discard draw "
    "eliminate ko neutral reinvigorate strength",
    "zaubertrank": "turn setup difficulty goal actions moving use-location locations ingredients "
    "magic-potion potion-die pass-on helper-cards sub-task tasks roman-timeline mishaps "
    "characters winning-losing",
}
# The rulebooks sit in ../shared beside the checkout (on developer machines and in CI).
SOURCES = Path(__file__).resolve().parents[3] / "shared" / "sources"


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_every_game_has_rules_and_they_are_loaded_once(library):
    assert {rules.id for rules in library.games()} == set(REQUIRED)
    assert load_library() is library


@pytest.mark.parametrize("game", sorted(REQUIRED))
def test_every_linked_section_exists(library, game):
    ids = [section.id for section in library.sections(game)]
    if game != "companion":  # the companion's help page is not a game and has no turns
        assert ids[0] == "turn", "the turn card opens each game's rules"
    missing = set(REQUIRED[game].split()) - set(ids)
    assert not missing
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("game", sorted(REQUIRED))
def test_every_section_is_complete_and_its_links_lead_somewhere(library, game):
    for section in library.sections(game):
        assert section.title and section.text and section.html.strip()
        assert section.url_path == f"/rules/{game}#{section.id}"
        for target in section.links:
            assert library.has_section(game, target), f"{game}#{section.id} links to #{target}"


def test_the_content_is_written_in_our_own_words(library):
    """No run of eight words is taken over from a rulebook."""
    if not SOURCES.is_dir():
        pytest.skip("the rulebook texts are not on this machine")

    def runs(text, length=8):
        words = re.findall(r"[a-z0-9äöüß']+", text.lower())
        return {tuple(words[i : i + length]) for i in range(len(words) - length + 1)}

    rulebooks = set().union(*(runs(p.read_text()) for p in SOURCES.glob("*.txt")))
    for rules in library.games():
        for section in rules.sections:
            copied = runs(section.body) & rulebooks
            assert not copied, f"{rules.id}#{section.id} copies: {' '.join(sorted(copied)[0])}"


def test_a_section_is_looked_up_by_game_and_id(library):
    section = library.section("asterix-obelix", "formation-broken")
    assert section.title == "Breaking the formation"
    assert "tortoise broken" in section.aliases
    assert "<strong>" in section.html and "**" not in section.text


def test_unknown_games_and_sections_are_refused_with_a_sentence(library):
    with pytest.raises(UnknownGame, match="no rules for a game called 'chess'"):
        library.sections("chess")
    with pytest.raises(UnknownSection, match="Asterix & Obelix have no section called 'nope'"):
        library.section("asterix-obelix", "nope")
    assert not library.has_section("chess", "turn")


def test_raw_html_is_shown_as_text_and_script_links_are_dropped():
    (section,) = parse_sections(
        "---\nid: s\ntitle: T\n---\n<script>alert(1)</script> [x](javascript:alert(1)) "
        "[ok](#s)\n",
        "g",
    )
    assert "<script>" not in section.html and "&lt;script&gt;" in section.html
    assert "javascript:" not in section.html
    assert '<a href="#s">ok</a>' in section.html
    assert section.links == ("s",)


GOOD = "---\nid: turn\ntitle: Turn\n---\nText.\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "has no sections"),
        ("Some words\n" + GOOD, "line 1: expected '---'"),
        ("---\nid: turn\ntitle: Turn\n", "line 1: this header is never closed"),
        ("---\nid: turn\ntitle: Turn\nText.\n", "line 4: a header line must look like 'key: value'"),
        ("---\ntitle: Turn\n---\nText.\n", "line 1: the header has no 'id'"),
        ("---\nid: turn\n---\nText.\n", "line 1: the header has no 'title'"),
        ("---\nid: turn\ntitle: Turn\nlevel: 2\n---\nText.\n", "line 4: unknown header key 'level'"),
        ("---\nid: turn\nid: two\ntitle: T\n---\nText.\n", "line 3: 'id' is given twice"),
        ("---\nid: turn\njust words\n---\nText.\n", "line 3: a header line must look like"),
        ("---\nid: Turn Card\ntitle: T\n---\nText.\n", "the id 'Turn Card' may only use"),
        (GOOD + GOOD, "line 6: the id 'turn' is already used on line 1"),
        ("---\nid: turn\ntitle: Turn\n---\n\n", "the section 'turn' has no text"),
    ],
)
def test_bad_headers_raise_a_clear_error(text, message):
    with pytest.raises(RulesFormatError) as refused:
        parse_sections(text, "demo")
    assert str(refused.value).startswith("demo.md")
    assert message in str(refused.value)


def test_a_directory_with_a_bad_file_names_the_file(tmp_path):
    (tmp_path / "good.md").write_text(GOOD)
    (tmp_path / "broken.md").write_text("---\nid: turn\n")
    with pytest.raises(RulesFormatError, match="broken.md, line 1"):
        Library.from_directory(tmp_path)


def test_an_empty_directory_is_refused(tmp_path):
    with pytest.raises(RulesFormatError, match="no rules files"):
        Library.from_directory(tmp_path)


def test_a_content_directory_can_be_loaded_from_elsewhere(tmp_path):
    (tmp_path / "mygame.md").write_text(GOOD)
    library = load_library(tmp_path)
    assert [rules.id for rules in library.games()] == ["mygame"]
    assert library.games()[0].title == "mygame"
    assert load_library(str(tmp_path)) is library


# -- German ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(REQUIRED))
def test_every_section_of_every_game_exists_in_german(library, game):
    english = library.sections(game, "en")
    german = library.sections(game, "de")
    assert [s.id for s in german] == [s.id for s in english]
    untranslated = [s.id for s in german if s.lang != "de"]
    assert untranslated == [], f"{game}: not yet in German: {untranslated}"
    for section in german:
        assert not set(section.links) - {s.id for s in english}, f"{game}/{section.id}: a link goes nowhere"


def test_a_translation_keeps_the_english_ids():
    english = "---\nid: turn\ntitle: Turn\n---\nPlay a card.\n"
    with pytest.raises(RulesFormatError, match="'zug' has no English original"):
        Library.from_texts({"g": english}, translations={"de": {"g": "---\nid: zug\ntitle: Zug\n---\nSpiel eine Karte.\n"}})
    with pytest.raises(RulesFormatError, match="no English"):
        Library.from_texts({"g": english}, translations={"de": {"h": english}})


def test_a_section_not_yet_in_german_is_shown_in_english_and_searches_find_both():
    english = ("---\nid: turn\ntitle: Turn\n---\nPlay one card.\n"
               "---\nid: ties\ntitle: Ties\n---\nOn a tie the younger player wins.\n")
    german = "---\nid: ties\ntitle: Gleichstand\n---\nBei Gleichstand gewinnt der jüngere Spieler.\n"
    library = Library.from_texts({"g": english}, translations={"de": {"g": german}})
    assert [(s.id, s.lang) for s in library.sections("g", "de")] == [("turn", "en"), ("ties", "de")]
    assert library.section("g", "ties", "de-AT").title == "Gleichstand"
    # A German question finds the section; an English phone sees it in English, and back.
    assert [(h.section, h.title) for h in library.search("Gleichstand", lang="en")] == [("ties", "Ties")]
    assert [(h.section, h.title) for h in library.search("tie younger", lang="de")] == [("ties", "Gleichstand")]
    assert [h.title for h in library.search("jüngeren Spielern", lang="de")] == ["Gleichstand"]
