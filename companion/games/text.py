"""Sentences that each phone reads in its own language.

A rule returns a ``Sentence``: the English text with ``%(fields)s`` (which is also its
gettext message id; Babel checks that a translation keeps the same fields) and the values of
the fields. The log stores it as JSON (``to_json``) and each
phone turns it into words in its own language (``render`` with that language's gettext):
"Ann scored 7 points." here, "Ann bekommt 7 Punkte." there.

A value may itself need translating: a ``Name`` (a character, place or card as the English
edition prints it; the German catalogue gives the German edition's name) or another
``Sentence`` ("Ann undid: …"). Pure Python: no Flask, so the games stay free of it.

For ``pybabel extract`` the keywords are ``Sentence``, ``plural_sentence:1,2`` and ``N_``.

In a template a ``Sentence`` or ``Name`` needs no filter: ``{{ reason }}`` prints it in the
phone's language (both carry ``__html__``, which asks the translator the web layer installed
with ``use_translator``). Where a filter or ``~`` would first turn it into English text, use
``|say`` (the words in the phone's language) before transforming it. ``str()`` is English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from html import escape

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _same(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_translator: Callable[[], tuple[Gettext, Ngettext]] | None = None
_language: Callable[[], str] | None = None


def use_translator(provider: Callable[[], tuple[Gettext, Ngettext]] | None,
                   language: Callable[[], str] | None = None) -> None:
    """Install what ``say`` asks for the current language's gettext and ngettext, and what
    ``current_language`` asks for its code (the web layer: the phone's; None: English)."""
    global _translator, _language
    _translator, _language = provider, language


def current_language() -> str:
    """The code of the language sentences are said in now ("en" unless the web layer says)."""
    return _language() if _language is not None else "en"


def gettext(text: str, **fields: Any) -> str:
    """``text`` in the current language, its ``%(fields)s`` filled in: how the table service
    words its answers (as ``_``) without knowing where the language comes from."""
    words = _current()[0](text)
    return words % fields if fields else words


def _current() -> tuple[Gettext, Ngettext]:
    return _translator() if _translator is not None else (_same, _english_plural)


def say(value: Any) -> str:
    """A sentence, name, list of them or plain value as words in the current language."""
    if value is None:
        return ""
    return str(_render_value(value, *_current()))


class Name(str):
    """A name printed on a card or board (English edition); translated when rendered."""

    __slots__ = ()

    def __html__(self) -> str:
        return str(escape(say(self)))


def N_(text: str) -> Name:
    """Mark a printed name for translation (it stays the English name until rendered)."""
    return Name(text)


class Sentence:
    """English text with fields, its values, and (optionally) the plural form chosen by
    the field ``count``."""

    __slots__ = ("text", "plural", "args")

    def __init__(self, text: str, plural: str | None = None, /, **args: Any):
        self.text = text
        self.plural = plural
        self.args = args

    def render(self, gettext: Gettext = _same, ngettext: Ngettext = _english_plural) -> str:
        if self.plural is not None:
            template = ngettext(self.text, self.plural, int(self.args.get("count", 0)))
        else:
            template = gettext(self.text)
        values = {key: _render_value(value, gettext, ngettext) for key, value in self.args.items()}
        try:
            return template % values
        except (KeyError, TypeError, ValueError):  # a broken translation: the English, never a crash
            english = self.text if self.plural is None or values.get("count") == 1 else self.plural
            return english % values

    def __str__(self) -> str:
        return self.render()

    def __html__(self) -> str:
        return str(escape(self.render(*_current())))

    def __repr__(self) -> str:
        return f"Sentence({self.text!r}, {self.args!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str(self) == other
        return (isinstance(other, Sentence) and (self.text, self.plural, self.args)
                == (other.text, other.plural, other.args))

    def __hash__(self) -> int:
        return hash(str(self))

    def to_json(self) -> dict:
        return {"text": self.text, "plural": self.plural,
                "args": {key: _value_json(value) for key, value in self.args.items()}}

    @classmethod
    def from_json(cls, data: Mapping) -> "Sentence":
        args = {key: _value_from_json(value) for key, value in (data.get("args") or {}).items()}
        return cls(data["text"], data.get("plural"), **args)


def and_list(names: list) -> Any:
    """Names as a sentence says them: "Ann", "Ann and Ben", "Ann, Ben and Cem"."""
    if len(names) < 2:
        return names[0] if names else ""
    return Sentence("%(most)s and %(last)s", most=list(names[:-1]), last=names[-1])


def plural_sentence(singular: str, plural: str, count: int, /, **args: Any) -> Sentence:
    """A sentence whose wording depends on ``count`` ("1 point", "2 points")."""
    return Sentence(singular, plural, count=count, **args)


# How much of a value sent a refusal quotes: enough to recognise it, never a whole upload.
QUOTE = 30


def quote(value: Any, limit: int = QUOTE) -> str:
    """The first ``limit`` characters of a value sent, for the sentence that refuses it:
    visible ones only (no control, format or bidirectional characters), "…" when cut."""
    text = str(value)
    shown = "".join(char for char in text[:limit] if char.isprintable())
    return shown + ("…" if len(text) > limit else "")


def as_sentence(value: str | Sentence) -> Sentence:
    """A plain string (from code not yet speaking both languages) as a fixed sentence."""
    if isinstance(value, Sentence):
        return value
    return Sentence("%(text)s", text=str(value))


def _render_value(value: Any, gettext: Gettext, ngettext: Ngettext) -> Any:
    if isinstance(value, Sentence):
        return value.render(gettext, ngettext)
    if isinstance(value, Name):
        return gettext(str(value))
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_render_value(item, gettext, ngettext)) for item in value)
    return value


def _value_json(value: Any) -> Any:
    if isinstance(value, Sentence):
        return {"sentence": value.to_json()}
    if isinstance(value, Name):
        return {"name": str(value)}
    if isinstance(value, (list, tuple)):
        return {"list": [_value_json(item) for item in value]}
    return value


def _value_from_json(value: Any) -> Any:
    if isinstance(value, dict):
        if "sentence" in value:
            return Sentence.from_json(value["sentence"])
        if "name" in value:
            return Name(value["name"])
        if "list" in value:
            return [_value_from_json(item) for item in value["list"]]
    return value
