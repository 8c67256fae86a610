"""The rules library: every game's sections, loaded and indexed once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..games import GAMES
from ..games.text import Sentence
from .aliases import AliasTable
from .content import Section, parse_sections
from .errors import QueryTooLong, RulesFormatError, UnknownGame, UnknownSection
from .search import Hit, QueryTerm, SearchIndex

MAX_QUERY_LENGTH = 200
MAX_LIMIT = 50

# The order of the rules index page, and each rules page's heading: the games of the
# registry, then the page about the companion itself.
GAME_TITLES = {**{game.id: game.name for game in GAMES.values()},
               "companion": "How the companion works"}
# The languages the rules are written in: English (content/*.md) and German (content/de/*.md,
# the same sections under the same ids). A section not yet in German is shown in English.
LANGUAGES = ("en", "de")
TRANSLATED_TITLES = {"de": {"companion": "So funktioniert der Begleiter"}}


def title_of(game: str, lang: str = "en") -> str:
    """A rules page's heading in ``lang`` (game names are the same in both languages)."""
    return TRANSLATED_TITLES.get(lang, {}).get(game) or GAME_TITLES.get(game, game)


@dataclass(frozen=True)
class GameRules:
    """One game's rules page: its id, heading and sections in reading order."""

    id: str
    title: str
    sections: tuple[Section, ...]

    @property
    def url_path(self) -> str:
        return f"/rules/{self.id}"


class Library:
    """All rules content with its search index. Build it with ``load_library`` or ``from_texts``.

    ``games`` holds each game's English sections; ``translations`` maps a language to each
    game's sections in it, every one the translation of the English section with its id."""

    def __init__(self, games: dict[str, list[Section]], aliases: AliasTable,
                 translations: dict[str, dict[str, list[Section]]] | None = None):
        known = [game for game in GAME_TITLES if game in games]
        others = sorted(game for game in games if game not in GAME_TITLES)
        translations = translations or {}
        self._games: dict[str, dict[str, GameRules]] = {}
        for lang in LANGUAGES:
            translated = translations.get(lang, {}) if lang != "en" else {}
            self._games[lang] = {}
            for game in known + others:
                own = {section.id: section for section in translated.get(game, [])}
                self._games[lang][game] = GameRules(
                    game, title_of(game, lang),
                    tuple(own.get(section.id, section) for section in games[game]))
        self._sections = {
            lang: {game: {section.id: section for section in rules.sections}
                   for game, rules in by_game.items()}
            for lang, by_game in self._games.items()
        }
        self.aliases = aliases
        written = [section for rules in self._games["en"].values() for section in rules.sections]
        written += [section for lang, by_game in translations.items() if lang != "en"
                    for sections in by_game.values() for section in sections]
        self.index = SearchIndex(
            written, aliases,
            {lang: {game: rules.title for game, rules in by_game.items()}
             for lang, by_game in self._games.items()},
        )

    @classmethod
    def from_texts(cls, files: dict[str, str], aliases: str = "",
                   translations: dict[str, dict[str, str]] | None = None) -> "Library":
        """A library from in-memory content (game id -> file text), alias text and
        translations (language -> game id -> file text); for tests."""
        english = {game: parse_sections(text, game) for game, text in files.items()}
        return cls(
            english,
            AliasTable.parse(aliases),
            {lang: {game: _translation(english, game, text, f"{lang}/{game}.md", lang)
                    for game, text in by_game.items()}
             for lang, by_game in (translations or {}).items()},
        )

    @classmethod
    def from_directory(cls, content_dir: Path, aliases_file: Path | None = None) -> "Library":
        """Every ``<game-id>.md`` in ``content_dir`` and its translations in ``<lang>/``,
        plus the alias file if given."""
        files = sorted(Path(content_dir).glob("*.md"))
        if not files:
            raise RulesFormatError(f"{content_dir}: there are no rules files (*.md) here.")
        games = {
            path.stem: parse_sections(path.read_text(encoding="utf-8"), path.stem, path.name)
            for path in files
        }
        translations: dict[str, dict[str, list[Section]]] = {}
        for lang in LANGUAGES[1:]:
            for path in sorted((Path(content_dir) / lang).glob("*.md")):
                source = f"{lang}/{path.name}"
                translations.setdefault(lang, {})[path.stem] = _translation(
                    games, path.stem, path.read_text(encoding="utf-8"), source, lang)
        aliases = AliasTable()
        if aliases_file is not None:
            aliases = AliasTable.parse(aliases_file.read_text(encoding="utf-8"), aliases_file.name)
        return cls(games, aliases, translations)

    # -- reading -----------------------------------------------------------------------------
    def games(self, lang: str = "en") -> list[GameRules]:
        """Every game with rules, in the order of the rules index page."""
        return list(self._by_lang(lang).values())

    def game(self, game_id: str, lang: str = "en") -> GameRules:
        """One game's rules; raises UnknownGame."""
        try:
            return self._by_lang(lang)[game_id]
        except (KeyError, TypeError):
            raise UnknownGame(Sentence("There are no rules for a game called '%(game)s'.",
                                       game=str(game_id)[:40])) from None

    def sections(self, game_id: str, lang: str = "en") -> list[Section]:
        """One game's sections in reading order; raises UnknownGame."""
        return list(self.game(game_id, lang).sections)

    def section(self, game_id: str, section_id: str, lang: str = "en") -> Section:
        """One section; raises UnknownGame or UnknownSection."""
        rules = self.game(game_id, lang)
        try:
            return self._sections[rules_lang(lang)][game_id][section_id]
        except (KeyError, TypeError):
            raise UnknownSection(Sentence(
                "The rules of %(game)s have no section called '%(section)s'.",
                game=rules.title, section=str(section_id)[:40])) from None

    def has_section(self, game_id: str, section_id: str) -> bool:
        """Whether a "?" pointing at this section would find it."""
        return section_id in self._sections["en"].get(game_id, {})

    def _by_lang(self, lang: str) -> dict[str, GameRules]:
        return self._games[rules_lang(lang)]

    # -- searching ---------------------------------------------------------------------------
    def search(self, query: str, game: str | None = None, limit: int = 10,
               lang: str = "en") -> list[Hit]:
        """The best sections for a player's question, those of ``game`` first, best first.

        The question may be asked in English or German whatever ``lang`` is; the hits are
        the sections in ``lang``. An empty or blank query, or a limit below 1, gives [].
        ``game`` None or "" means no current game. Raises UnknownGame for a game without
        rules and QueryTooLong (the query is refused, not cut) above MAX_QUERY_LENGTH
        characters. ``limit`` is capped at 50.
        """
        if game:
            self.game(game)
        else:
            game = None
        query = (query or "").strip()
        if len(query) > MAX_QUERY_LENGTH:
            raise QueryTooLong(Sentence(
                "Please shorten the search to %(most)s characters or fewer (it has %(count)s).",
                most=MAX_QUERY_LENGTH, count=len(query)))
        if not query or limit < 1:
            return []
        return self.index.search(query, game, min(limit, MAX_LIMIT), rules_lang(lang))

    def explain(self, query: str) -> list[QueryTerm]:
        """How a query is understood: each term with the index terms standing for it."""
        return self.index.parse(query)


def rules_lang(lang: str | None) -> str:
    """``lang`` if the rules are written in it, else English ("de-AT" reads German)."""
    base = (lang or "en").split("-")[0].split("_")[0].lower()
    return base if base in LANGUAGES else "en"


def _translation(english: dict[str, list[Section]], game: str, text: str, source: str,
                 lang: str) -> list[Section]:
    """A translated content file, checked against the English one: each of its sections
    must translate an English section of the same id (so every link and "?" finds it)."""
    if game not in english:
        raise RulesFormatError(f"{source}: there is no English {game}.md that this translates.")
    sections = parse_sections(text, game, source, lang)
    ids = {section.id for section in english[game]}
    for section in sections:
        if section.id not in ids:
            raise RulesFormatError(
                f"{source}: the section '{section.id}' has no English original in {game}.md "
                f"(a translation keeps the ids of the English sections).")
    return sections
