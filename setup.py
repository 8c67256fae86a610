"""The installed package's data files: every file under templates/ and static/ (the games'
folders included, found by a glob, so a new game needs no line here)."""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
PREFIX = Path("share/table-companion")


def data_files(*folders: str) -> list[tuple[str, list[str]]]:
    found: dict[str, list[str]] = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                relative = path.relative_to(ROOT)
                found.setdefault(str(PREFIX / relative.parent), []).append(str(relative))
    return sorted(found.items())


# static/vendor holds htmx and its SSE extension once `make setup` or `npm ci` put them there.
setup(data_files=data_files("templates", "static"))
