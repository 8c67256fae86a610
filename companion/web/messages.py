"""The German catalogue's tooling (``make setup`` and ``make translations``): extract every
message of the sources, and list the German ones still untranslated.

    python -m companion.web.messages extract companion/translations/messages.pot
    python -m companion.web.messages untranslated
    python -m companion.web.messages coach build/   (make coach-sentences)
"""

from __future__ import annotations

import ast
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
    ‹field›, the player as Lena; beside each, the rules section its card's "Why?" opens (the
    one the sentence rests on), to read it against."""
    with open(CATALOGUE, "rb") as handle:
        german = read_po(handle)
    keywords = {key: KEYWORDS[key] for key in ("Sentence", "plural_sentence")}
    lines = {"en": ["# The coach's sentences (English)"], "de": ["# Die Sätze des Coachs (Deutsch)"]}
    # A game's coach may keep some of its words in coach_<part>.py beside coach.py.
    for game in sorted((ROOT / "companion" / "games").glob("*/coach.py")):
        parts = [game] + sorted(set(game.parent.glob("coach*.py")) - {game})
        rules = _rules_by_line(parts)
        titles = {language: _section_titles(game.parent.name.replace("_", "-"), language)
                  for language in lines}
        for source in parts:
            for words in lines.values():
                words.append(f"\n## {game.parent.name}"
                             f"{'' if source == game else ' (' + source.stem.replace('_', '-') + ')'}\n")
            _list_sentences(source, rules, titles, german, lines)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for language, words in lines.items():
        path = folder / f"coach-sentences.{language}.md"
        path.write_text("\n".join(words) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _list_sentences(source: Path, rules: dict, titles: dict, german, lines: dict) -> None:
    """Each sentence of one coach module, in both languages, with its rules sections."""
    keywords = {key: KEYWORDS[key] for key in ("Sentence", "plural_sentence")}
    for line, message, _comments, _context in extract_from_file("python", str(source), keywords=keywords):
        english = message if isinstance(message, str) else message[0]
        found = german.get(english)
        translated = found.string if found is not None else ""
        if isinstance(translated, (list, tuple)):
            translated = translated[0]
        where = {language: " · ".join(f"§ {titles[language].get(rule, rule)} (#{rule})"
                                      for rule in rules.get((source, line), ())) or "§ —"
                 for language in lines}
        lines["en"].append(f"- {_example(english)} — {where['en']}")
        lines["de"].append(f"- {_example(translated) if translated else '(MISSING) ' + english}"
                           f" — {where['de']}")


def _rules_by_line(sources: list[Path]) -> dict[tuple[Path, int], list[str]]:
    """For each line of a game's coach modules with a sentence, the rules sections (``rule=``
    of ``Coach``) it rests on: the card it is written in, else every card its function makes,
    else those of the cards made by the functions that call it (in any of the modules)."""
    trees = {source: ast.parse(source.read_text(encoding="utf-8")) for source in sources}
    functions = {node.name: node for tree in trees.values() for node in ast.walk(tree)
                 if isinstance(node, ast.FunctionDef)}
    where = {node.name: source for source, tree in trees.items() for node in ast.walk(tree)
             if isinstance(node, ast.FunctionDef)}

    def calls(node, names) -> list[ast.Call]:
        return [call for call in ast.walk(node) if isinstance(call, ast.Call)
                and (getattr(call.func, "id", None) or getattr(call.func, "attr", None)) in names]

    def rules_of(node) -> list[str]:
        found = [rule for call in calls(node, ("Coach",)) for keyword in call.keywords
                 if keyword.arg == "rule" for rule in _strings(keyword.value)]
        # The introduction ("How the game goes") rests on the game's overview.
        return list(dict.fromkeys(found + (["turn"] if calls(node, ("Intro",)) else [])))

    def rules_of_function(name: str, seen: frozenset = frozenset()) -> list[str]:
        own = rules_of(functions[name])
        if own or name in seen:
            return own
        callers = [caller for caller, node in functions.items() if calls(node, (name,))]
        return list(dict.fromkeys(rule for caller in callers
                                  for rule in rules_of_function(caller, seen | {name})))

    found: dict[tuple[Path, int], list[str]] = {}
    for name, function in functions.items():
        cards = calls(function, ("Coach",))
        for call in calls(function, ("Sentence", "plural_sentence")):
            card = next((card for card in cards if card.lineno <= call.lineno <= card.end_lineno), None)
            found.setdefault((where[name], call.lineno), rules_of(card) if card else rules_of_function(name))
    return found


def _strings(node) -> list[str]:
    return [part.value for part in ast.walk(node) if isinstance(part, ast.Constant) and isinstance(part.value, str)]


def _section_titles(game_id: str, language: str) -> dict[str, str]:
    """The rules sections of a game by id, with their titles in ``language``."""
    folder = ROOT / "companion" / "rules" / "content" / ("de" if language == "de" else "")
    path = folder / f"{game_id}.md"
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    return dict(re.findall(r"^id: (\S+)\ntitle: (.+)$", text, re.M))


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
