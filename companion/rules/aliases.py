"""Alias groups: words and phrases that name the same thing ("Idefix = Dogmatix").

Each group gets one group term ("~idefix"). Wherever a member phrase occurs — in a section
or in a query — the group term is added, so a search for any member finds every other.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesFormatError
from .text import terms

GROUP_MARK = "~"  # never produced by the tokenizer, so a group term cannot collide with a word


@dataclass(frozen=True)
class AliasMatch:
    """A member phrase found in a term sequence: terms[start:end] belong to ``group``."""

    start: int
    end: int
    group: str


class AliasTable:
    """The alias groups with a phrase lookup for longest-first matching."""

    def __init__(self, groups: list[tuple[str, ...]] | None = None, source: str = "aliases"):
        self.groups: list[tuple[str, ...]] = []
        self._phrase_group: dict[tuple[str, ...], str] = {}
        self._group_members: dict[str, tuple[str, ...]] = {}
        self.longest = 0
        for number, members in enumerate(groups or [], start=1):
            self._add(members, f"{source}, group {number}")

    def _add(self, members: tuple[str, ...], where: str) -> None:
        phrases = [tuple(terms(member)) for member in members]
        if any(not phrase for phrase in phrases):
            empty = members[[bool(p) for p in phrases].index(False)]
            raise RulesFormatError(
                f"{where}: '{empty}' has no searchable word (only short or common words)."
            )
        group = GROUP_MARK + "_".join(phrases[0])
        for member, phrase in zip(members, phrases):
            owner = self._phrase_group.get(phrase)
            if owner is not None and owner != group:
                raise RulesFormatError(
                    f"{where}: '{member}' is already in the group of "
                    f"'{self._group_members[owner][0]}'; merge the two lines."
                )
            self._phrase_group[phrase] = group
            self.longest = max(self.longest, len(phrase))
        self._group_members[group] = tuple(members)
        self.groups.append(tuple(members))

    @classmethod
    def parse(cls, text: str, source: str = "aliases.txt") -> "AliasTable":
        """Read one group per line, members separated by '=', '#' starting a comment."""
        table = cls(source=source)
        for number, line in enumerate(text.splitlines(), start=1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            members = tuple(member.strip() for member in line.split("="))
            if len(members) < 2 or not all(members):
                raise RulesFormatError(
                    f"{source}, line {number}: write two or more names separated by '=', "
                    f"like 'idefix = dogmatix'."
                )
            table._add(members, f"{source}, line {number}")
        return table

    def find(self, sequence: list[str]) -> list[AliasMatch]:
        """Member phrases in a term sequence, left to right, the longest phrase winning at each place."""
        found: list[AliasMatch] = []
        position = 0
        while position < len(sequence):
            for length in range(min(self.longest, len(sequence) - position), 0, -1):
                group = self._phrase_group.get(tuple(sequence[position : position + length]))
                if group is not None:
                    found.append(AliasMatch(position, position + length, group))
                    position += length
                    break
            else:
                position += 1
        return found

    def group_of(self, phrase: str) -> tuple[str, ...]:
        """All names in the group of ``phrase`` (itself included), or () if it has no aliases."""
        group = self._phrase_group.get(tuple(terms(phrase)))
        return self._group_members[group] if group else ()

    def words(self) -> set[str]:
        """Every term that appears in some member phrase (they count as known words)."""
        return {term for phrase in self._phrase_group for term in phrase}
