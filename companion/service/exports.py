"""A group's plays leaving the server: the export file (read back by ``imports``) and the CSV a
spreadsheet of the phone's language opens."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, tzinfo

from sqlmodel import Session

from .groups import play_records
from .models import PlayerGroup

EXPORT_FORMAT = "table-companion-plays/1"


def export_plays(db: Session, group: PlayerGroup) -> list[dict]:
    """The plays as the export lists them (the import reads the same): the group's file is
    ``{"format": EXPORT_FORMAT, "group": its name, "players": its names, "plays": these}``."""
    records = play_records(db, group)
    for record in records:
        record.pop("table")
    return records


@dataclass(frozen=True)
class CsvDialect:
    """How a spreadsheet of the phone's language reads a CSV. English keeps the machine's
    shape (commas, ISO 8601 times in UTC); German Excel and LibreOffice want semicolons, the
    day and time as they write them, in the players' own time, and their own words."""

    headings: tuple[str, ...]
    delimiter: str
    yes_no: tuple[str, str]
    results: dict[str, str]
    day: str | None = None  # strftime of a day in the local zone; None: ISO 8601 in UTC
    moment: str | None = None
    byte_order_mark: str = ""  # Excel reads a file without one as its own code page


CSV_DIALECTS = {
    "en": CsvDialect(("play", "game", "bgg_id", "date", "started_at", "ended_at", "duration_minutes",
                      "player", "score", "winner", "cooperative_result"), ",", ("yes", "no"),
                     {"won": "won", "lost": "lost"}),
    "de": CsvDialect(("Partie", "Spiel", "BGG-ID", "Datum", "Beginn", "Ende", "Dauer (Minuten)",
                      "Spieler", "Punkte", "Sieger", "Ergebnis (kooperativ)"), ";", ("Ja", "Nein"),
                     {"won": "gewonnen", "lost": "verloren"}, "%d.%m.%Y", "%d.%m.%Y %H:%M", "\ufeff"),
}


# A spreadsheet runs a cell that begins with one of these as a formula (OWASP: CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _as_text(typed: str) -> str:
    """A cell someone typed, shown by a spreadsheet as typed: a leading ' keeps it text."""
    return "'" + typed if typed.startswith(FORMULA_STARTS) else typed


def export_csv(records: list[dict], lang: str = "en", zone: tzinfo | None = None) -> Iterator[str]:
    """One row per player per play (``records``: ``play_records``), the shape spreadsheets and
    play-logging sites import, as a spreadsheet of ``lang`` reads it, a few plays at a time;
    ``zone``: the players' time zone (German times are local)."""
    dialect = CSV_DIALECTS[lang]
    out = io.StringIO()
    out.write(dialect.byte_order_mark)
    writer = csv.writer(out, delimiter=dialect.delimiter)
    writer.writerow(dialect.headings)

    def moment(iso: str, pattern: str | None) -> str:
        return datetime.fromisoformat(iso).astimezone(zone).strftime(pattern) if pattern else iso

    for number, record in enumerate(records, start=1):
        for player in record["players"]:
            writer.writerow([
                _as_text(record["uid"]), record["game"], record["bgg_id"] or "",
                moment(record["ended_at"], dialect.day) if dialect.day else record["ended_at"][:10],
                moment(record["started_at"], dialect.moment), moment(record["ended_at"], dialect.moment),
                record["duration_minutes"], _as_text(player["name"]),
                "" if player["score"] is None else player["score"],
                dialect.yes_no[0] if player["winner"] else dialect.yes_no[1],
                dialect.results.get(record["result"] or "", "")])
        if number % 100 == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()
