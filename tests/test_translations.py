"""The German catalogue: complete, not stale, placeholders intact, compiled and used.

Set-up (`make setup`) extracts the messages of the sources and compiles the catalogue; the
catalogue itself (messages.po) is written by hand and committed."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from companion.games.text import Name, Sentence, plural_sentence
from companion.web.messages import CATALOGUE, extract


def message_key(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


@pytest.fixture(scope="module")
def catalogue():
    with open(CATALOGUE, "rb") as handle:
        return read_po(handle)


@pytest.fixture(scope="module")
def sources():
    return extract()


def test_every_message_of_the_sources_has_a_german_translation(catalogue, sources):
    missing = []
    for message in sources:
        if not message.id:
            continue
        german = catalogue.get(message.id)
        strings = german and (german.string if isinstance(german.string, (list, tuple))
                              else [german.string])
        if german is None or german.fuzzy or not all(strings):
            missing.append(message_key(message))
    assert missing == [], f"untranslated (run `make translations`): {missing[:20]}"


def test_the_catalogue_holds_no_message_the_sources_no_longer_use(catalogue, sources):
    used = {message_key(m) for m in sources if m.id}
    stale = [message_key(m) for m in catalogue if m.id and message_key(m) not in used]
    assert stale == [], f"stale (run `make translations`): {stale[:20]}"


def test_translations_keep_the_placeholders_of_the_english(catalogue):
    problems = [(message_key(message), [str(e) for e in errors])
                for message, errors in catalogue.check() if errors]
    assert problems == []


def test_the_compiled_catalogue_is_what_the_app_reads(app):
    assert CATALOGUE.with_suffix(".mo").stat().st_mtime >= CATALOGUE.stat().st_mtime, \
        "messages.mo is older than messages.po: run `make setup`"
    client = app.test_client()
    german = client.get("/api/tables/ZZZZZZ", headers={"Accept-Language": "de-DE,de;q=0.9"})
    english = client.get("/api/tables/ZZZZZZ", headers={"Accept-Language": "en-US"})
    assert german.status_code == english.status_code == 404
    assert german.get_json()["error"] == "Es gibt keinen Tisch mit dem Code ZZZZZZ."
    assert english.get_json()["error"] == "There is no table with the code ZZZZZZ."


def test_a_sentence_renders_in_each_language_with_its_names_and_plurals():
    german = {"%(player)s takes %(card)s.": "%(player)s nimmt %(card)s.", "Dogmatix": "Idefix"}
    plurals = {("%(count)d point", "%(count)d points"): ("%(count)d Punkt", "%(count)d Punkte")}

    def gettext(text):
        return german.get(text, text)

    def ngettext(singular, plural, count):
        forms = plurals.get((singular, plural), (singular, plural))
        return forms[0] if count == 1 else forms[1]

    taken = Sentence("%(player)s takes %(card)s.", player="Ann", card=Name("Dogmatix"))
    stored = Sentence.from_json(taken.to_json())
    assert str(stored) == "Ann takes Dogmatix."
    assert stored.render(gettext, ngettext) == "Ann nimmt Idefix."
    one, two = plural_sentence("%(count)d point", "%(count)d points", 1), \
        plural_sentence("%(count)d point", "%(count)d points", 2)
    assert (str(one), str(two)) == ("1 point", "2 points")
    assert (one.render(gettext, ngettext), two.render(gettext, ngettext)) == ("1 Punkt", "2 Punkte")
    undone = Sentence("%(player)s undid: %(what)s", player="Ben", what=taken)
    assert Sentence.from_json(undone.to_json()).render(
        lambda t: {"%(player)s undid: %(what)s": "%(player)s nahm zurück: %(what)s"}.get(t, gettext(t)),
        ngettext) == "Ben nahm zurück: Ann nimmt Idefix."
    # A translation with a broken placeholder shows the English, never fails.
    assert taken.render(lambda t: "%(spieler)s nimmt" if t.startswith("%(player)s") else t) \
        == "Ann takes Dogmatix."


def test_german_calls_the_app_tischbegleiter_never_companion(catalogue):
    """Every German text, the catalogue and the rules library, says "Tischbegleiter"."""
    from pathlib import Path

    found = [message.id for message in catalogue if message.id and "Companion" in (
        message.string if isinstance(message.string, str) else " ".join(message.string))]
    rules = Path(__file__).resolve().parents[1] / "companion/rules/content/de"
    found += [f"{path.name}:{number}" for path in sorted(rules.glob("*.md"))
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if "Companion" in line]
    assert found == []
