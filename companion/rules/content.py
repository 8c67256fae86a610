"""Reading rules content: Markdown files made of sections, each opened by a small header.

A content file is a sequence of sections::

    ---
    id: formation-broken
    title: Breaking the formation
    tags: attack, line, row, column, bonus attack
    aliases: tortoise broken, phalanx broken
    ---
    Markdown body...

``id`` and ``title`` are required; ``tags`` and ``aliases`` are optional comma-separated
lists. A line holding only ``---`` always starts a header, so bodies cannot use ``---`` as a
horizontal rule. Raw HTML in a body is shown as text, never passed through.
"""

from __future__ import annotations

import re
import threading
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

import markdown
from markdown.treeprocessors import Treeprocessor

from .errors import RulesFormatError

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
HEADER_KEYS = ("id", "title", "tags", "aliases")
SAFE_LINK = re.compile(r"^(?:#|/|https?://|mailto:)", re.IGNORECASE)


@dataclass(frozen=True)
class Section:
    """One linkable piece of a game's rules."""

    game: str
    id: str
    title: str
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    body: str  # the Markdown source
    html: str  # the body rendered, raw HTML escaped
    text: str  # the body as plain text, for snippets and the index
    links: tuple[str, ...] = field(default=(), compare=False)  # "#id" targets used in the body
    lang: str = "en"  # the language it is written in: "en", or "de" (content/de/)

    @property
    def url_path(self) -> str:
        """Where the section is read: the game's rules page with this section as the anchor."""
        return f"/rules/{self.game}#{self.id}"


class _SafeLinks(Treeprocessor):
    """Drops link targets that could run script and records in-page ``#section`` links."""

    def __init__(self, md: markdown.Markdown):
        super().__init__(md)
        self.anchors: list[str] = []

    def run(self, root: etree.Element) -> None:
        for link in root.iter("a"):
            target = link.get("href", "")
            if not SAFE_LINK.match(target):
                link.attrib.pop("href", None)
            elif target.startswith("#"):
                self.anchors.append(target[1:])


def _markdown() -> tuple[markdown.Markdown, _SafeLinks]:
    md = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")
    # Without these two steps Python-Markdown passes raw HTML through; with them it is escaped text.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    links = _SafeLinks(md)
    md.treeprocessors.register(links, "safe_links", 0)
    return md, links


_converter: tuple[markdown.Markdown, _SafeLinks] | None = None
_converter_lock = threading.Lock()  # a Markdown instance keeps state while converting


def render(body: str) -> tuple[str, tuple[str, ...]]:
    """Markdown to HTML with raw HTML escaped; also returns the ``#section`` links found."""
    global _converter
    with _converter_lock:
        if _converter is None:
            _converter = _markdown()  # building a converter costs more than converting a section
        md, links = _converter
        md.reset()
        links.anchors = []
        html = md.convert(body)
        return html, tuple(links.anchors)


class _TextCollector(HTMLParser):
    """Collects the visible text of rendered HTML, with a space wherever a block or cell ends."""

    BREAKS = {"p", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "br", "ul", "ol", "table"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.BREAKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BREAKS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(html: str) -> str:
    """The readable text of rendered HTML on one line."""
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    return " ".join(unescape("".join(collector.parts)).split())


def _split_list(value: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in value.split(",") if item.strip())


def _read_header(lines: list[str], index: int, source: str) -> tuple[dict[str, str], int]:
    """The header's keys and values from line ``index`` on, and the line after its '---'."""
    header_line = index
    header: dict[str, str] = {}
    while True:
        if index == len(lines):
            raise RulesFormatError(
                f"{source}, line {header_line}: this header is never closed with '---'."
            )
        line = lines[index]
        if line.strip() == "---":
            return header, index + 1
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon or not key:
            raise RulesFormatError(
                f"{source}, line {index + 1}: a header line must look like 'key: value' "
                f"(or is the closing '---' missing?)."
            )
        if key not in HEADER_KEYS:
            raise RulesFormatError(
                f"{source}, line {index + 1}: unknown header key '{key}' "
                f"(allowed: {', '.join(HEADER_KEYS)})."
            )
        if key in header:
            raise RulesFormatError(f"{source}, line {index + 1}: '{key}' is given twice.")
        header[key] = value.strip()
        index += 1


def parse_sections(text: str, game: str, source: str | None = None,
                   lang: str = "en") -> list[Section]:
    """Parse one game's content file into its sections, in file order.

    Raises RulesFormatError naming the file and line for text before the first header, an
    unclosed header, an unknown or repeated key, a missing id or title, a badly formed or
    repeated id, or an empty body.
    """
    source = source or f"{game}.md"
    if not ID_PATTERN.match(game):
        raise RulesFormatError(
            f"{source}: '{game}' is not a usable game id (lower-case letters, digits and dashes)."
        )
    lines = text.splitlines()
    sections: list[Section] = []
    seen: dict[str, int] = {}
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index == len(lines):
        raise RulesFormatError(f"{source}: the file has no sections.")
    while index < len(lines):
        if lines[index].strip() != "---":
            raise RulesFormatError(
                f"{source}, line {index + 1}: expected '---' to open a section header."
            )
        header_line = index + 1
        header, index = _read_header(lines, index + 1, source)
        body_start = index
        while index < len(lines) and lines[index].strip() != "---":
            index += 1
        body = "\n".join(lines[body_start:index]).strip()
        for key in ("id", "title"):
            if not header.get(key):
                raise RulesFormatError(f"{source}, line {header_line}: the header has no '{key}'.")
        section_id = header["id"]
        if not ID_PATTERN.match(section_id):
            raise RulesFormatError(
                f"{source}, line {header_line}: the id '{section_id}' may only use lower-case "
                f"letters, digits and single dashes."
            )
        if section_id in seen:
            raise RulesFormatError(
                f"{source}, line {header_line}: the id '{section_id}' is already used "
                f"on line {seen[section_id]}."
            )
        if not body:
            raise RulesFormatError(
                f"{source}, line {header_line}: the section '{section_id}' has no text."
            )
        seen[section_id] = header_line
        html, links = render(body)
        sections.append(
            Section(
                game=game,
                id=section_id,
                title=header["title"],
                tags=_split_list(header.get("tags", "")),
                aliases=_split_list(header.get("aliases", "")),
                body=body,
                html=html,
                text=plain_text(html),
                links=links,
                lang=lang,
            )
        )
    return sections
