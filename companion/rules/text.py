"""Turning text into search terms: the same steps for content, aliases and queries.

A term is a word folded to lower case without accents ("Legionär" -> "legionar",
"Straße" -> "strasse"), stripped of a few English endings so that word forms meet
("centurions" -> "centurion", "blocking"/"blocked"/"block" -> "block",
"scoring"/"scored"/"score" -> "scor"), with common question words dropped
("what", "does", "the", "wie", "ist"). Each token keeps its character span in the
original text so that snippets can highlight exactly the words that matched.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

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


@lru_cache(maxsize=8192)
def term_of(word: str) -> str | None:
    """The search term of one word, or None for a stop word or a single letter."""
    folded = fold(word)
    if folded in STOPWORDS or (len(folded) < 2 and not folded.isdigit()):
        return None
    return stem(folded)


def tokenize(text: str) -> list[Token]:
    """Split text into search terms with their spans; stop words and single letters are dropped."""
    tokens: list[Token] = []
    for match in _WORD.finditer(text):
        term = term_of(match.group())
        if term is not None:
            tokens.append(Token(term, match.start(), match.end()))
    # Knock-outs are matched on the raw text so that "K.O.'d" becomes one term, not "k", "o", "d".
    knock_outs = [Token("ko", m.start(), m.end()) for m in _KNOCK_OUT.finditer(text)]
    if knock_outs:
        tokens = sorted(tokens + knock_outs, key=lambda t: t.start)
    return tokens


def terms(text: str) -> list[str]:
    """The search terms of a text, in order."""
    return [token.term for token in tokenize(text)]
