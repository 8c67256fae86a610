"""Turning text into search terms: the same steps for content, aliases and queries.

A term is a word folded to lower case without accents ("Legionär" -> "legionar",
"Straße" -> "strasse"), stripped of a few English endings so that word forms meet
("centurions" -> "centurion", "blocking"/"blocked"/"block" -> "block",
"scoring"/"scored"/"score" -> "scor"), with common question words dropped
("what", "does", "the", "wie", "ist"; German text and questions drop German function
words too, see ``GERMAN_STOPWORDS``). Each token keeps its character span in the
original text so that snippets can highlight exactly the words that matched.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

# Words that carry no meaning in a rules question. "die" is kept on purpose: it is the potion die.
STOPWORDS = frozenset(
    """
    a an the and or but of to in on at by for with from into onto as than then so
    is are was were be been being am do does did doing done have has had having
    can could may might must shall should will would
    i me my mine we us our you your yours he him his she her it its they them their
    this that these those what which who whom whose when where why how if
    there here about just also too very any some such
    get gets got happen happens happened much many please
    der das den dem des ein eine einen einem einer und oder ist sind wie was wer wann wo
    warum mit von zu im am auf fur bei nicht kann man ich es
    """.split()
)

# German function words, for German content and for questions (which may be in either
# language). "die" is not among them for questions: there it may be the potion die.
GERMAN_STOPWORDS = frozenset(
    """
    aber alle allem allen aller alles als also an andere anderen anderer anderes auch aus
    bin bis bist da dabei damit dann dass dein deine deinem deinen deiner dem den denn der
    des dich die dies diese diesem diesen dieser dieses dir doch dort du durch eigentlich
    ein eine einem einen einer eines er es etwas euch euer eure fur gibt gilt genau hab habe
    haben hat hatte hier ihm ihn ihr ihre ihrem ihren ihrer ich im in ins ist jetzt kann
    konnen konnte man mein meine meinem meinen meiner mich mir mit muss mussen musste nach
    noch nun nur ob oder ohne passiert passieren sein seine seinem seinen seiner sich sie
    sind so soll sollen sollte uber um und uns unser unsere vom von vor war waren warum was
    weil welche welchem welchen welcher welches wenn wer werde werden wie wieso wieder wir
    wird wo wann weshalb zu zum zur darf durfen bitte
    """.split()
)
QUESTION_STOPWORDS = STOPWORDS | (GERMAN_STOPWORDS - {"die"})
_STOPWORDS_BY_LANG = {"en": STOPWORDS, "de": STOPWORDS | GERMAN_STOPWORDS, None: QUESTION_STOPWORDS}

# "K.O.", "K.O.'d", "k. o." are one word at the table: the knock-out of Asterix & Co.
_KNOCK_OUT = re.compile(r"\bk\.\s?o\.?(?:['’]d)?(?![a-z])", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_DOUBLE_END = re.compile(r"([bdfgkmnprt])\1$")


@dataclass(frozen=True)
class Token:
    """One search term and where its word sits in the original text."""

    term: str
    start: int
    end: int


def fold(text: str) -> str:
    """Lower-case and remove accents, so that "Römer", "romer" and "ROMER" compare equal."""
    text = text.replace("ß", "ss").replace("ẞ", "ss").casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def stem(word: str) -> str:
    """Cut a folded word to the part its forms share; small and predictable, not a full stemmer."""
    if word.isdigit() or len(word) <= 3:
        return word
    if word.endswith("ies"):
        word = word[:-3] + ("y" if len(word) > 4 else "ie")
    elif word.endswith("ied"):
        word = word[:-3] + ("y" if len(word) > 4 else "ie")
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for ending in ("ing", "ed"):
        rest = word[: -len(ending)]
        if word.endswith(ending) and len(rest) >= 3 and re.search(r"[aeiouy]", rest):
            word = _DOUBLE_END.sub(r"\1", rest)
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


_german = snowballstemmer.stemmer("german")


@lru_cache(maxsize=8192)
def german_stem(folded: str) -> str:
    """The Snowball German stem of a folded word: "punkte", "punkten" -> "punkt". German
    text is indexed under these besides ``stem``'s terms, so German word forms meet too."""
    return _german.stemWord(folded)


def without_umlaut_spelling(folded: str) -> str:
    """"roemer" -> "romer": umlauts typed as ae/oe/ue, as on a keyboard without them."""
    return folded.replace("ae", "a").replace("oe", "o").replace("ue", "u")


@lru_cache(maxsize=8192)
def term_of(word: str, lang: str | None = "en") -> str | None:
    """The search term of one word, or None for a stop word or a single letter.

    ``lang``: the language of the text ("en", "de"), None for a question (either)."""
    folded = fold(word)
    if folded in _STOPWORDS_BY_LANG[lang] or (len(folded) < 2 and not folded.isdigit()):
        return None
    return stem(folded)


def tokenize(text: str, lang: str | None = "en") -> list[Token]:
    """Split text into search terms with their spans; stop words and single letters are dropped.

    ``lang``: the language of the text ("en", "de"), None for a question (either)."""
    tokens: list[Token] = []
    for match in _WORD.finditer(text):
        term = term_of(match.group(), lang)
        if term is not None:
            tokens.append(Token(term, match.start(), match.end()))
    # Knock-outs are matched on the raw text so that "K.O.'d" becomes one term, not "k", "o", "d".
    knock_outs = [Token("ko", m.start(), m.end()) for m in _KNOCK_OUT.finditer(text)]
    if knock_outs:
        tokens = sorted(tokens + knock_outs, key=lambda t: t.start)
    return tokens


def terms(text: str, lang: str | None = "en") -> list[str]:
    """The search terms of a text, in order."""
    return [token.term for token in tokenize(text, lang)]
