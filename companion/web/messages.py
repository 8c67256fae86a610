"""The German catalogue's tooling (``make setup`` and ``make translations``): extract every
message of the sources, and list the German ones still untranslated.

    python -m companion.web.messages extract companion/translations/messages.pot
    python -m companion.web.messages untranslated
    python -m companion.web.messages coach build/   (make coach-sentences)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent.parent
CATALOGUE = ROOT / "companion" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
# Besides gettext's names: _l, log sentences (games/text.py), names (N_), ``pattern``.
KEYWORDS = {"_l": None, "Sentence": None, "plural_sentence": (1, 2), "N_": None, "pattern": None}


def extract():
    """Every message of the sources (as babel.cfg maps them), as a Babel catalogue."""
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


def coach_sentences(folder: Path) -> list[Path]:
    """Every sentence of the teaching mode (``games/*/coach*.py``), game by game in the order
    the code has them, one file per language, for a reading by hand: a field shows as
    ‹field›, the player as Lena."""
    with open(CATALOGUE, "rb") as handle:
        german = read_po(handle)
    keywords = {key: KEYWORDS[key] for key in ("Sentence", "plural_sentence")}
    lines = {"en": ["# The coach's sentences (English)"], "de": ["# Die Sätze des Coachs (Deutsch)"]}
    sources = [source for game in sorted((ROOT / "companion" / "games").glob("*/coach.py"))
               for source in sorted(game.parent.glob("coach*.py"))]
    for source in sources:
        if source.name == "coach.py":
            for words in lines.values():
                words.append(f"\n## {source.parent.name}\n")
        for _line, message, _comments, _context in extract_from_file(
                "python", str(source), keywords=keywords):
            english = message if isinstance(message, str) else message[0]
            found = german.get(english)
            translated = found.string if found is not None else ""
            if isinstance(translated, (list, tuple)):
                translated = translated[0]
            lines["en"].append(f"- {_example(english)}")
            lines["de"].append(f"- {_example(translated) if translated else '(MISSING) ' + english}")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for language, words in lines.items():
        path = folder / f"coach-sentences.{language}.md"
        path.write_text("\n".join(words) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _example(text: str) -> str:
    return re.sub(r"%\((\w+)\)[sd]", lambda found: "Lena" if found.group(1) == "player"
                  else f"‹{found.group(1)}›", text)


if __name__ == "__main__" and sys.argv[1:2] == ["coach"]:
    for path in coach_sentences(Path(sys.argv[2] if len(sys.argv) > 2 else "build")):
        print(f"wrote {path}")

if __name__ == "__main__" and sys.argv[1:2] == ["extract"]:
    with open(sys.argv[2], "wb") as out:
        write_po(out, extract(), no_location=True, sort_output=True, width=100)

if __name__ == "__main__" and sys.argv[1:] == ["untranslated"]:
    missing = untranslated()
    for text in missing:
        print(f"untranslated: {text}")
    print(f"{len(missing)} German messages still to translate "
          "(companion/translations/de/LC_MESSAGES/messages.po).")
