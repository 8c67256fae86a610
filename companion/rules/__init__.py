"""Rules lookup: every game's rules as linkable sections, with a search that forgives typos.

Pure Python, no Flask. The content lives in ``content/<game-id>.md`` (format in
``content.py``), the name equivalences in ``aliases.txt``; both are read and indexed once,
by the first ``load_library()`` call, and shared afterwards.

    library = load_library()
    library.games()                              # [GameRules(id, title, sections), ...]
    library.sections("asterix-obelix")           # [Section, ...] in reading order
    library.section("asterix-obelix", "turn")    # Section(game, id, title, tags, aliases,
                                                 #         body, html, text, url_path)
    library.search("zenturio tie", game="asterix-obelix", limit=10)
                                                 # [Hit(game, game_title, section, title,
                                                 #      snippet, url_path, score), ...]

``Hit.snippet`` is a tuple of ``(text, is_match)`` pieces; ``Hit.snippet_html`` is the same as
escaped HTML with ``<mark>``; ``Hit.as_dict()`` is the JSON form of the search API. How the
search works and why it is built this way: ``search.py``.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from .aliases import AliasTable
from .content import Section, parse_sections
from .errors import QueryTooLong, RulesError, RulesFormatError, UnknownGame, UnknownSection
from .library import GAME_TITLES, MAX_QUERY_LENGTH, GameRules, Library
from .search import Hit, QueryTerm

PACKAGE_DIR = Path(__file__).resolve().parent
CONTENT_DIR = PACKAGE_DIR / "content"
ALIASES_FILE = PACKAGE_DIR / "aliases.txt"


def load_library(path: str | Path | None = None) -> Library:
    """The rules library, loaded and indexed on the first call for a directory, then cached.

    ``path`` is a directory of ``<game-id>.md`` files (default: the package's content); the
    alias file is the package's ``aliases.txt``. Raises RulesFormatError for malformed content.
    """
    with _loading:  # two first requests at once build the library once, not twice
        return _load(Path(path).resolve() if path is not None else CONTENT_DIR)


_loading = threading.Lock()


@lru_cache(maxsize=4)
def _load(content_dir: Path) -> Library:
    return Library.from_directory(content_dir, ALIASES_FILE)


__all__ = [
    "ALIASES_FILE",
    "CONTENT_DIR",
    "GAME_TITLES",
    "MAX_QUERY_LENGTH",
    "AliasTable",
    "GameRules",
    "Hit",
    "Library",
    "QueryTerm",
    "QueryTooLong",
    "RulesError",
    "RulesFormatError",
    "Section",
    "UnknownGame",
    "UnknownSection",
    "load_library",
    "parse_sections",
]
