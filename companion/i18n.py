"""Languages: English and German, chosen per phone.

A phone's language is, in this order: the one it picked with the switch in the top bar (a
cookie, kept a year), else the best match of its browser's ``Accept-Language``, else English.
Flask-Babel asks ``select_language`` once per request; the gettext catalogues live in
``companion/translations/`` (see DEVELOPERS.md, "Languages").
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from babel.numbers import format_decimal, format_percent
from flask import Flask, has_request_context, request
from flask_babel import Babel, get_translations

from .games.text import Sentence, say, use_translator

LANGUAGES = ("en", "de")
DEFAULT = "en"
COOKIE = "lang"
COOKIE_DAYS = 365
NAMES = {"en": "English", "de": "Deutsch"}

babel = Babel()
# The catalogue of the render in progress (see ``one_catalogue``); greenlets and threads each
# have their own.
_catalogue: ContextVar = ContextVar("companion_catalogue", default=None)


def select_language() -> str:
    """The language of this request's phone (see the module docstring)."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def number_text(value: float | None) -> str:
    """A statistic as the phone's language writes it: whole numbers plainly, others to one
    decimal ("13.5", in German "13,5"); "–" for none."""
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return format_decimal(value, format="0.0", locale=select_language())


def percent_text(rate: float | None) -> str:
    """A rate from 0 to 1 as a whole percentage in the phone's language ("71%", in German
    "71 %" with a space that does not break); "–" for none."""
    if rate is None:
        return "–"
    return format_percent(round(rate * 100) / 100, locale=select_language())


def init_i18n(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_language, default_locale=DEFAULT,
                   default_translation_directories="translations")
    # Templates find this request's catalogue once per render instead of once per word:
    # Flask-Babel's own callables look up the request, its locale and the cache for each
    # word, which made up a fifth of drawing a region.
    app.jinja_env.install_gettext_callables(
        gettext=lambda text: _current_catalogue().ugettext(text),
        ngettext=lambda singular, plural, n: _current_catalogue().ungettext(singular, plural, n),
        pgettext=lambda context, text: _current_catalogue().upgettext(context, text),
        npgettext=lambda context, singular, plural, n: _current_catalogue().unpgettext(
            context, singular, plural, n),
        newstyle=True)
    # ``pattern``: a message translated but not yet filled in, for a template to fill in with
    # ``%`` for every cell of a table: the usual ``_()`` per cell made up half of drawing a
    # long score sheet.
    app.jinja_env.globals["pattern"] = lambda text: _current_catalogue().ugettext(text)
    app.jinja_env.globals.update(entry_text=entry_text, languages=NAMES,
                                 current_language=select_language, number_text=number_text,
                                 percent_text=percent_text)
    # Sentences and printed names (games/text.py) speak the phone's language in templates.
    app.jinja_env.filters["say"] = say
    use_translator(_translator)


def _current_catalogue():
    catalogue = _catalogue.get()
    return catalogue if catalogue is not None else get_translations()


@contextmanager
def one_catalogue():
    """Within: templates (and sentences) use this request's catalogue, looked up once."""
    token = _catalogue.set(get_translations() if has_request_context() else None)
    try:
        yield
    finally:
        _catalogue.reset(token)


def _translator():
    """This request's catalogue, without Flask-Babel's own formatting (a sentence fills in its
    fields itself; Flask-Babel's ngettext would format with ``num`` alone)."""
    translations = _catalogue.get()
    if translations is None:
        if not has_request_context():
            return (lambda text: text), (lambda singular, plural, n: singular if n == 1 else plural)
        translations = get_translations()
    return translations.ugettext, translations.ungettext


def render_sentence(sentence: Sentence) -> str:
    """A sentence in this request's language."""
    return sentence.render(*_translator())


def entry_text(entry) -> str:
    """What a log entry says, in this request's language."""
    from .tables import entry_sentence

    return render_sentence(entry_sentence(entry))


ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "companion" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
# Besides gettext's usual names: lazy _l, sentences for the log (games/text.py), names (N_),
# patterns a template fills in itself (``pattern``).
KEYWORDS = {"_l": None, "Sentence": None, "plural_sentence": (1, 2), "N_": None, "pattern": None}


def extract():
    """Every message of the sources (as babel.cfg maps them), as a Babel catalogue."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, "babel.cfg")
    catalogue = Catalog(project="companion")
    keywords = {**DEFAULT_KEYWORDS, **KEYWORDS}
    for filename, _line, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords, strip_comment_tags=True):
        catalogue.add(message, None, [(filename, 0)], auto_comments=comments, context=context)
    return catalogue


def untranslated(path: Path = CATALOGUE) -> list[str]:
    """The messages of the German catalogue still without a translation (or marked fuzzy)."""
    from babel.messages.pofile import read_po

    with open(path, "rb") as handle:
        catalogue = read_po(handle)
    missing = []
    for message in catalogue:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy or not all(strings):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


if __name__ == "__main__" and sys.argv[1:2] == ["extract"]:
    from babel.messages.pofile import write_po

    with open(sys.argv[2], "wb") as out:
        write_po(out, extract(), no_location=True, sort_output=True, width=100)

if __name__ == "__main__" and sys.argv[1:] == ["untranslated"]:
    missing = untranslated()
    for text in missing:
        print(f"untranslated: {text}")
    print(f"{len(missing)} German messages still to translate "
          "(companion/translations/de/LC_MESSAGES/messages.po).")
