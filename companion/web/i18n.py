"""Languages: English and German, chosen per phone.

A phone's language is, in this order: the one it picked with the switch in the top bar (a
cookie, kept a year), else the best match of its browser's ``Accept-Language``, else English.
Flask-Babel asks ``select_language`` once per request; the gettext catalogues live in
``companion/translations/`` (see DEVELOPERS.md, "Languages").
"""

from __future__ import annotations

from flask import Flask, has_request_context, request
from flask_babel import Babel

from ..games.text import Sentence, say, use_translator
from ..live.regions import catalogue, catalogue_in_use
from ..service.stats.numbers import number_text, percent_text
from ..service.tables import entry_sentence

LANGUAGES = ("en", "de")
DEFAULT = "en"
COOKIE = "lang"
COOKIE_DAYS = 365
NAMES = {"en": "English", "de": "Deutsch"}

babel = Babel()


def select_language() -> str:
    """The language of this request's phone (see the module docstring)."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def unknown_language(lang: str) -> str:
    """The sentence refusing a language the companion does not speak (in neither of its own:
    the phone has not got one)."""
    offered = ", ".join(f"{code} ({name})" for code, name in NAMES.items())
    return f"There is no language '{lang[:20]}' here; choose one of {offered}."


def init_i18n(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_language, default_locale=DEFAULT,
                   default_translation_directories="translations")
    # Templates find the catalogue once per render (live.regions.one_catalogue), not per word.
    app.jinja_env.install_gettext_callables(
        gettext=lambda text: catalogue().ugettext(text),
        ngettext=lambda singular, plural, n: catalogue().ungettext(singular, plural, n),
        pgettext=lambda context, text: catalogue().upgettext(context, text),
        npgettext=lambda context, singular, plural, n: catalogue().unpgettext(
            context, singular, plural, n),
        newstyle=True)
    # ``pattern``: a message translated once, then filled in with ``%`` for every cell of a table.
    app.jinja_env.globals["pattern"] = lambda text: catalogue().ugettext(text)
    app.jinja_env.globals.update(entry_text=entry_text, languages=NAMES,
                                 current_language=select_language, number_text=number_text,
                                 percent_text=percent_text)
    # Sentences and printed names (games/text.py) speak the phone's language in templates.
    app.jinja_env.filters["say"] = say
    use_translator(_translator, select_language)


def _translator():
    """This request's catalogue, without Flask-Babel's own formatting (a sentence fills in its
    fields itself; Flask-Babel's ngettext would format with ``num`` alone)."""
    translations = catalogue_in_use()
    if translations is None and not has_request_context():
        return (lambda text: text), (lambda singular, plural, n: singular if n == 1 else plural)
    translations = translations or catalogue()
    return translations.ugettext, translations.ungettext


def render_sentence(sentence: Sentence) -> str:
    """A sentence in this request's language."""
    return sentence.render(*_translator())


def entry_text(entry) -> str:
    """What a log entry says, in this request's language."""
    return render_sentence(entry_sentence(entry))
