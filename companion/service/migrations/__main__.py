"""Alembic's command line for the companion, on a scratch SQLite database at the newest revision.

    .venv/bin/python -m companion.service.migrations revision --autogenerate -m "add feast_count"
    .venv/bin/python -m companion.service.migrations check     # do the models need a new revision?
    .venv/bin/python -m companion.service.migrations history

Autogenerate compares the models with what the existing revisions build, never with a real
database (which may be behind or hold tables of a branch). A new revision is numbered after
the newest one (0002, 0003, ...) unless ``--rev-id`` says otherwise."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from alembic.config import CommandLine
from alembic.script import ScriptDirectory

from ..database import init_db, make_engine, schema_lock
from . import config


def next_number() -> str:
    scripts = ScriptDirectory.from_config(config())
    numbers = [int(script.revision) for script in scripts.walk_revisions()
               if script.revision.isdigit()]
    return f"{max(numbers, default=0) + 1:04d}"


def main(argv: list[str] | None = None) -> None:
    cli = CommandLine(prog="python -m companion.service.migrations")
    options = cli.parser.parse_args(argv)
    if not hasattr(options, "cmd"):
        cli.parser.error("too few arguments")
    if options.cmd[0].__name__ == "revision" and not options.rev_id:
        options.rev_id = next_number()
    with tempfile.TemporaryDirectory() as scratch:
        engine = make_engine(f"sqlite:///{Path(scratch) / 'scratch.sqlite3'}")
        try:
            init_db(engine)
            with schema_lock(engine) as connection:
                cli.run_cmd(config(connection), options)
        finally:
            engine.dispose()


if __name__ == "__main__":
    main(sys.argv[1:])
