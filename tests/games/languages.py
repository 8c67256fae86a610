"""A game's sentences as a phone in each language reads them, without Flask: the German
catalogue that set-up compiles (companion/translations)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.support import Translations

from companion.games.text import Sentence

CATALOGUES = Path(__file__).resolve().parents[2] / "companion" / "translations"


@cache
def _german() -> Translations:
    return Translations.load(str(CATALOGUES), ["de"])


def english(sentence: Sentence) -> str:
    return sentence.render()


def german(sentence: Sentence) -> str:
    """The German words; a sentence the catalogue lacks comes out in English."""
    catalogue = _german()
    return sentence.render(catalogue.gettext, catalogue.ngettext)


def translated(sentence: Sentence) -> bool:
    """Whether the German catalogue has this sentence (and its printed names)."""
    return german(sentence) != english(sentence)
