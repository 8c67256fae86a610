"""The rules library: every game's sections, loaded and indexed once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..games import GAMES
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
    """All rules content with its search index. Build it with ``load_library`` or ``from_texts``."""

    def __init__(self, games: dict[str, list[Section]], aliases: AliasTable):
        known = [game for game in GAME_TITLES if game in games]
        others = sorted(game for game in games if game not in GAME_TITLES)
        self._games = {
            game: GameRules(game, GAME_TITLES.get(game, game), tuple(games[game]))
            for game in known + others
        }
        self._sections = {
            game: {section.id: section for section in rules.sections}
            for game, rules in self._games.items()
        }
        self.aliases = aliases
        self.index = SearchIndex(
            [section for rules in self._games.values() for section in rules.sections],
            aliases,
            {game: rules.title for game, rules in self._games.items()},
        )

    @classmethod
    def from_texts(cls, files: dict[str, str], aliases: str = "") -> "Library":
        """A library from in-memory content (game id -> file text) and alias text; for tests."""
        return cls(
            {game: parse_sections(text, game) for game, text in files.items()},
            AliasTable.parse(aliases),
        )

    @classmethod
    def from_directory(cls, content_dir: Path, aliases_file: Path | None = None) -> "Library":
        """Every ``<game-id>.md`` in ``content_dir``, plus the alias file if given."""
        files = sorted(Path(content_dir).glob("*.md"))
        if not files:
            raise RulesFormatError(f"{content_dir}: there are no rules files (*.md) here.")
        games = {
            path.stem: parse_sections(path.read_text(encoding="utf-8"), path.stem, path.name)
            for path in files
        }
        aliases = AliasTable()
        if aliases_file is not None:
            aliases = AliasTable.parse(aliases_file.read_text(encoding="utf-8"), aliases_file.name)
        return cls(games, aliases)

    # -- reading -----------------------------------------------------------------------------
    def games(self) -> list[GameRules]:
        """Every game with rules, in the order of the rules index page."""
        return list(self._games.values())

    def game(self, game_id: str) -> GameRules:
        """One game's rules; raises UnknownGame."""
        try:
            return self._games[game_id]
        except (KeyError, TypeError):
            raise UnknownGame(f"There are no rules for a game called '{game_id}'.") from None

    def sections(self, game_id: str) -> list[Section]:
        """One game's sections in reading order; raises UnknownGame."""
        return list(self.game(game_id).sections)

    def section(self, game_id: str, section_id: str) -> Section:
        """One section; raises UnknownGame or UnknownSection."""
        rules = self.game(game_id)
        try:
            return self._sections[game_id][section_id]
        except (KeyError, TypeError):
            raise UnknownSection(
                f"The rules of {rules.title} have no section called '{section_id}'."
            ) from None

    def has_section(self, game_id: str, section_id: str) -> bool:
        """Whether a "?" pointing at this section would find it."""
        return section_id in self._sections.get(game_id, {})

    # -- searching ---------------------------------------------------------------------------
    def search(self, query: str, game: str | None = None, limit: int = 10) -> list[Hit]:
        """The best sections for a player's question, those of ``game`` first, best first.

        An empty or blank query, or a limit below 1, gives []. ``game`` None or "" means no
        current game. Raises UnknownGame for a game without rules and QueryTooLong (the query
        is refused, not cut) above MAX_QUERY_LENGTH characters. ``limit`` is capped at 50.
        """
        if game:
            self.game(game)
        else:
            game = None
        query = (query or "").strip()
        if len(query) > MAX_QUERY_LENGTH:
            raise QueryTooLong(
                f"Please shorten the search to {MAX_QUERY_LENGTH} characters or fewer "
                f"(it has {len(query)})."
            )
        if not query or limit < 1:
            return []
        return self.index.search(query, game, min(limit, MAX_LIMIT))

    def explain(self, query: str) -> list[QueryTerm]:
        """How a query is understood: each term with the index terms standing for it."""
        return self.index.parse(query)
