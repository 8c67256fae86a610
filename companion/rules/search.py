"""Ranking rule sections for a player's question: a small in-memory index of our own.

Why not SQLite FTS5: the whole rules corpus is about a hundred sections (some 8,000 words),
so an index of Python dicts is built in milliseconds and answers in well under a millisecond.
What the table needs — typo tolerance, German/English names, word forms ("zenturios",
"Legionäre"), phrase aliases ("wild boar" = "Wildschwein") and the current game first — FTS5
does not give: its stemmer is English-only and it matches no typos, so rapidfuzz and the alias
expansion would have to sit on top of it anyway, and some Python builds ship without FTS5.

How a query is answered:

1. The query is cut into terms (``text.tokenize``: folded, lightly stemmed, English and
   German stop words out). The rules exist in English and German (``Section.lang``); a
   question in either language finds a section in either, and the hit is shown in the
   phone's language. German text is also indexed under Snowball's German stems ("Punkte",
   "Punkten" -> "punkt"), and a German compound under its known parts
   ("Wildschweinplättchen" -> "wildschwein" + "plattchen"); a question gets the same
   treatment, and umlauts typed as ae/oe/ue ("Roemer") meet the folded ones ("Römer").
2. A term the index does not know is replaced by near words: words it is the beginning of
   (typing in progress: "centur" -> "centurion") and words within a small edit distance
   (rapidfuzz ``ratio``: "zentruio" -> "zenturio"), each weighted by how close it is.
3. Alias phrases among the (corrected) terms become their group term, which every section
   using any member of the group also carries.
4. Each section scores per query term: BM25-style saturation of the body count plus fixed
   bonuses for a hit in the title (2.5), the section's own aliases (2.0) and its tags (1.5),
   all times the term's rarity (idf). A title hit alone thus beats any number of body hits.
   The sum is multiplied by the share of query terms the section matches, and two query words
   found side by side in the section earn a small phrase bonus.
5. A section counts once, with the better score of its languages. Sections scoring under a
   tenth of the best are dropped; the rest are ordered with the current game's sections
   first, each group best first.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from html import escape

from rapidfuzz import fuzz, process

from .aliases import AliasTable
from .content import Section
from .text import Token, fold, german_stem, terms, tokenize, without_umlaut_spelling

TITLE_BONUS = 2.5
ALIAS_BONUS = 2.0
TAG_BONUS = 1.5
SATURATION = 1.2  # BM25 k1: the fifth mention of a word adds little over the second
LENGTH_WEIGHT = 0.5  # BM25 b: long sections are only partly penalised for their length
PHRASE_BONUS = 0.6
PREFIX_WEIGHT = 0.75
RELATIVE_CUTOFF = 0.1
SNIPPET_WIDTH = 170
COMPOUND_PART = 4  # the shortest part of a German compound worth splitting off


@dataclass(frozen=True)
class Hit:
    """One search result.

    ``snippet`` is a tuple of ``(text, is_match)`` pieces of the section's plain text: joined
    they give the excerpt, and pieces with ``is_match`` true are the words that matched the
    query. ``snippet_html`` gives the same as escaped HTML with ``<mark>`` around the matches;
    ``as_dict()`` is the JSON form, with the snippet as that HTML.
    """

    game: str
    game_title: str
    section: str
    title: str
    snippet: tuple[tuple[str, bool], ...]
    url_path: str
    score: float

    @property
    def snippet_text(self) -> str:
        """The excerpt as plain text."""
        return "".join(text for text, _ in self.snippet)

    @property
    def snippet_html(self) -> str:
        """The excerpt as safe HTML, matches wrapped in ``<mark>``."""
        return "".join(
            f"<mark>{escape(text)}</mark>" if is_match else escape(text)
            for text, is_match in self.snippet
        )

    def as_dict(self) -> dict:
        """The JSON shape of the search API: game, section, title, snippet (HTML), url, score."""
        return {
            "game": self.game,
            "section": self.section,
            "title": self.title,
            "snippet": self.snippet_html,
            "url": self.url_path,
            "score": self.score,
        }


@dataclass(frozen=True)
class QueryTerm:
    """One thing the player asked for, with the index terms that stand for it and their weights."""

    words: str  # what the player typed for it, for explanations and tests
    choices: dict[str, float]


@dataclass
class _Entry:
    """A section as the index sees it."""

    section: Section
    title: frozenset[str]
    names: frozenset[str]
    tags: frozenset[str]
    body: Counter
    length: int
    pairs: frozenset[tuple[str, str]]
    tokens: list[Token]
    token_groups: list[frozenset[str]]


class SearchIndex:
    """All sections of all games in every language, indexed once; ``search`` answers one query."""

    def __init__(self, sections: list[Section], aliases: AliasTable,
                 game_titles: dict[str, dict[str, str]]):
        self.aliases = aliases
        self.game_titles = game_titles  # language -> game id -> title
        self.entries = [self._entry(section) for section in sections]
        self._known = {term for entry in self.entries
                       for term in entry.title | entry.names | entry.tags | set(entry.body)}
        self._known |= aliases.words()
        for entry in self.entries:
            if entry.section.lang == "de":
                self._add_compound_parts(entry)
        self.by_key = {(e.section.game, e.section.id, e.section.lang): e for e in self.entries}
        self.postings: dict[str, list[int]] = {}
        for number, entry in enumerate(self.entries):
            for term in entry.title | entry.names | entry.tags | set(entry.body):
                self.postings.setdefault(term, []).append(number)
        total = len(self.entries)
        self.idf = {
            term: math.log(1 + (total - len(found) + 0.5) / (len(found) + 0.5))
            for term, found in self.postings.items()
        }
        self.average_length = sum(e.length for e in self.entries) / max(total, 1)
        self.vocabulary = sorted(
            {term for term in self.postings if not term.startswith("~")} | aliases.words()
        )
        self._known = set(self.vocabulary)

    def _with_groups(self, sequence: list[str]) -> list[str]:
        return sequence + [match.group for match in self.aliases.find(sequence)]

    def _entry(self, section: Section) -> _Entry:
        lang = section.lang
        german = lang == "de"

        def with_stems(text: str) -> list[str]:
            found = self._with_groups(terms(text, lang))
            if german:  # German word forms meet through their Snowball stems too
                found += [german_stem(fold(text[t.start:t.end])) for t in tokenize(text, lang)]
            return found

        title_terms = terms(section.title, lang)
        names = {t for name in section.aliases for t in with_stems(name)}
        tags = {t for tag in section.tags for t in with_stems(tag)}
        tokens = tokenize(section.text, lang)
        body_terms = [token.term for token in tokens]
        token_groups: list[set[str]] = [set() for _ in tokens]
        for match in self.aliases.find(body_terms):
            for position in range(match.start, match.end):
                token_groups[position].add(match.group)
        body = Counter(self._with_groups(body_terms))
        if german:
            body.update(german_stem(fold(section.text[t.start:t.end])) for t in tokens)
        pairs = set(zip(title_terms, title_terms[1:])) | set(zip(body_terms, body_terms[1:]))
        return _Entry(
            section=section,
            title=frozenset(with_stems(section.title)),
            names=frozenset(names),
            tags=frozenset(tags),
            body=body,
            length=len(body_terms),
            pairs=frozenset(pairs),
            tokens=tokens,
            token_groups=[frozenset(groups) for groups in token_groups],
        )

    def _add_compound_parts(self, entry: _Entry) -> None:
        """A German compound in a section also counts as its parts that are words of the
        index ("Wildschweinplättchen" is found by "Wildschwein")."""
        extra: list[str] = []
        for token in entry.tokens:
            parts = self.compound_parts(token.term)
            if parts:
                extra += parts
        entry.body.update(extra)

    def compound_parts(self, word: str) -> list[str] | None:
        """Known words that ``word`` (a folded German compound) is made of, or None: tried
        as two parts, the second possibly split again, with the linking s/n/en/es between."""
        if len(word) < 2 * COMPOUND_PART:
            return None
        for cut in range(len(word) - COMPOUND_PART, COMPOUND_PART - 1, -1):
            left, right = word[:cut], word[cut:]
            first = self._known_form(left)
            if first is None:
                for link in ("s", "n", "en", "es"):
                    if left.endswith(link) and len(left) - len(link) >= COMPOUND_PART:
                        first = self._known_form(left[: -len(link)])
                        if first:
                            break
            if first is None:
                continue
            second = self._known_form(right)
            if second is not None:
                return [first, second]
            rest = self.compound_parts(right)
            if rest:
                return [first, *rest]
        return None

    def _known_form(self, folded: str) -> str | None:
        for form in (folded, german_stem(folded), terms(folded, "de")[0] if terms(folded, "de") else ""):
            if form and len(form) >= COMPOUND_PART - 1 and form in self._known:
                return form
        return None

    # -- the query ---------------------------------------------------------------------------
    def _near(self, word: str) -> dict[str, float]:
        """Known words a misspelt or unfinished word probably means, with a closeness weight."""
        choices: dict[str, float] = {}
        if len(word) < 3:
            return choices
        starting = [known for known in self.vocabulary if known.startswith(word)]
        for known in sorted(starting, key=len)[:8]:
            choices[known] = PREFIX_WEIGHT
        if len(word) >= 4:
            cutoff = 80 if len(word) <= 5 else 75
            for known, similarity, _ in process.extract(
                word, self.vocabulary, scorer=fuzz.ratio, limit=3, score_cutoff=cutoff
            ):
                choices[known] = max(choices.get(known, 0.0), similarity / 100 * 0.9)
        return choices

    def _choices(self, query: str, token: Token) -> dict[str, float]:
        """What one word of a question may mean in the index: its English-style term, its
        German stem, the same with umlauts typed as ae/oe/ue; else near words."""
        folded = fold(query[token.start:token.end])
        plain = without_umlaut_spelling(folded)
        choices: dict[str, float] = {}
        # English-style terms first: the first of the best choices is the one aliases match.
        for form in (token.term, *terms(plain, None), german_stem(folded), german_stem(plain)):
            if form in self._known and form not in choices:
                choices[form] = 1.0
        return choices or self._near(token.term)

    def _split_compounds(self, query: str, tokens: list[Token]) -> list[Token]:
        """A German compound the index does not know, as its known parts (same span each)."""
        out: list[Token] = []
        for token in tokens:
            parts = None
            if token.term not in self._known and not any(
                    form in self._known for form in (german_stem(token.term),)):
                parts = self.compound_parts(without_umlaut_spelling(
                    fold(query[token.start:token.end])))
            if parts:
                out += [Token(part, token.start, token.end) for part in parts]
            else:
                out.append(token)
        return out

    def parse(self, query: str) -> list[QueryTerm]:
        """The query as terms: typos corrected, unfinished words completed, aliases grouped."""
        tokens = self._split_compounds(query, tokenize(query, None))
        options = [self._choices(query, token) if token.term not in self._known
                   else {token.term: 1.0, **self._choices(query, token)} for token in tokens]
        best = [max(choice, key=choice.get) if choice else token.term
                for choice, token in zip(options, tokens)]
        grouped = {match.start: match for match in self.aliases.find(best)}
        parsed: list[QueryTerm] = []
        position = 0
        while position < len(tokens):
            match = grouped.get(position)
            if match is not None:
                covered = options[match.start : match.end]
                weight = min(max(choice.values(), default=0.0) for choice in covered)
                words = query[tokens[match.start].start : tokens[match.end - 1].end]
                parsed.append(QueryTerm(words, {match.group: weight}))
                position = match.end
            else:
                token = tokens[position]
                parsed.append(QueryTerm(query[token.start : token.end], options[position]))
                position += 1
        return parsed

    # -- scoring -----------------------------------------------------------------------------
    def _term_score(self, entry: _Entry, term: str) -> float:
        count = entry.body.get(term, 0)
        normalised = count / (1 - LENGTH_WEIGHT + LENGTH_WEIGHT * entry.length / self.average_length)
        score = normalised * (SATURATION + 1) / (normalised + SATURATION) if count else 0.0
        if term in entry.title:
            score += TITLE_BONUS
        if term in entry.names:
            score += ALIAS_BONUS
        if term in entry.tags:
            score += TAG_BONUS
        return score * self.idf[term]

    def score(self, entry: _Entry, parsed: list[QueryTerm]) -> float:
        """How well one section answers the parsed query (0 when it matches nothing)."""
        total = 0.0
        matched = 0
        for term in parsed:
            best = max(
                (weight * self._term_score(entry, choice)
                 for choice, weight in term.choices.items() if choice in self.idf),
                default=0.0,
            )
            if best > 0:
                matched += 1
                total += best
        if not matched:
            return 0.0
        for first, second in zip(parsed, parsed[1:]):
            if any((a, b) in entry.pairs for a in first.choices for b in second.choices):
                total += PHRASE_BONUS * (
                    max(self.idf.get(a, 0.0) for a in first.choices)
                    + max(self.idf.get(b, 0.0) for b in second.choices)
                ) / 2
        return total * matched / len(parsed)

    def search(self, query: str, game: str | None, limit: int, lang: str = "en") -> list[Hit]:
        """Best sections for the query, the given game's first, shown in ``lang``; see the
        module docstring."""
        parsed = self.parse(query)
        candidates = {
            number
            for term in parsed
            for choice in term.choices
            for number in self.postings.get(choice, ())
        }
        best: dict[tuple[str, str], tuple[float, int]] = {}  # a section once, in any language
        for number in candidates:
            score = self.score(self.entries[number], parsed)
            section = self.entries[number].section
            key = (section.game, section.id)
            if score > 0 and (key not in best or score > best[key][0]):
                best[key] = (score, number)
        if not best:
            return []
        cutoff = max(score for score, _ in best.values()) * RELATIVE_CUTOFF
        scored = [(score, n) for score, n in best.values() if score >= cutoff]
        scored.sort(key=lambda item: (self.entries[item[1]].section.game != game, -item[0], item[1]))
        hits = []
        for score, number in scored[:limit]:
            found = self.entries[number].section
            shown = (self.by_key.get((found.game, found.id, lang))
                     or self.by_key[(found.game, found.id, "en")])
            hits.append(self._hit(shown, parsed, score, lang))
        return hits

    # -- snippets ----------------------------------------------------------------------------
    def _hit(self, entry: _Entry, parsed: list[QueryTerm], score: float, lang: str = "en") -> Hit:
        section = entry.section
        titles = self.game_titles.get(lang) or self.game_titles.get("en", {})
        return Hit(
            game=section.game,
            game_title=titles.get(section.game, section.game),
            section=section.id,
            title=section.title,
            snippet=snippet(entry, parsed),
            url_path=section.url_path,
            score=round(score, 3),
        )


def snippet(
    entry: _Entry, parsed: list[QueryTerm], width: int = SNIPPET_WIDTH
) -> tuple[tuple[str, bool], ...]:
    """A window of the section text around the most distinct matches, as (text, is_match) pieces."""
    text = entry.section.text
    answers: dict[str, set[int]] = {}  # index term -> the query terms it stands for
    for number, term in enumerate(parsed):
        for choice in term.choices:
            answers.setdefault(choice, set()).add(number)
    satisfied: list[set[int]] = []  # per body token: which query terms it answers
    for token, groups in zip(entry.tokens, entry.token_groups):
        found = set(answers.get(token.term, ()))
        for group in groups:
            found |= answers.get(group, set())
        satisfied.append(found)
    marked = [i for i, answers in enumerate(satisfied) if answers]

    def window_from(start: int) -> tuple[int, int]:
        if start > 0:
            start = text.rfind(" ", 0, start) + 1
        end = min(len(text), start + width)
        if end < len(text):
            space = text.rfind(" ", start, end)
            end = space if space > start else end
        return start, end

    start, end = window_from(0)
    best_quality = (-1, -1)
    for anchor in marked:
        candidate = window_from(max(0, entry.tokens[anchor].start - 40))
        inside = [i for i in marked if entry.tokens[i].end <= candidate[1]
                  and entry.tokens[i].start >= candidate[0]]
        quality = (len(set().union(*(satisfied[i] for i in inside))), len(inside))
        if quality > best_quality:
            best_quality, (start, end) = quality, candidate

    pieces: list[list] = []
    if start > 0:
        pieces.append(["… ", False])
    cursor = start
    for i in marked:
        token = entry.tokens[i]
        if token.start < start or token.end > end:
            continue
        gap = text[cursor : token.start]
        if pieces and pieces[-1][1] and len(gap) <= 3 and not any(c.isalnum() for c in gap):
            pieces[-1][0] += gap + text[token.start : token.end]  # "wild boar", "Wi-Fi" as one mark
        else:
            if gap:
                pieces.append([gap, False])
            pieces.append([text[token.start : token.end], True])
        cursor = token.end
    if cursor < end:
        pieces.append([text[cursor:end], False])
    if end < len(text):
        pieces.append([" …", False])
    return tuple((piece, is_match) for piece, is_match in pieces)
