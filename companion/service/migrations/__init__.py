"""Schema migrations: Alembic, configured here in code (no alembic.ini), on SQLModel's metadata.

``companion.service.database.init_db`` calls ``upgrade`` with a locked connection; developers write
new revisions with ``python -m companion.service.migrations revision --autogenerate -m "..."``
(see DEVELOPERS.md, "Schema changes")."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent
# The schema as it was when migrations came in: a database without an alembic_version table
# but with these tables was made by create_all then, and is that revision.
BASELINE = "0001"
BASELINE_TABLE = "game_table"


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, pointing at this folder; ``connection`` is the one to migrate."""
    cfg = Config(stdout=sys.stdout)  # Alembic's default is sys.stdout as it was at import
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")  # 0002_add_feast_count.py
    cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def _head() -> tuple[str, str]:
    """The newest revision and its name: the revision files are read once per process."""
    scripts = ScriptDirectory.from_config(config())
    head = scripts.get_current_head()
    return head, f"{head} ({scripts.get_revision(head).doc})"


def head_revision() -> str:
    return _head()[0]


def upgrade(connection: Connection) -> str:
    """Bring the database to the newest revision inside ``connection``'s transaction, which
    the caller holds alone (see ``init_db``); say what was done, in a few words."""
    cfg = config(connection)
    head, named = _head()
    current = MigrationContext.configure(connection).get_current_revision()
    if current is None and inspect(connection).has_table(BASELINE_TABLE):
        command.stamp(cfg, BASELINE)
        command.upgrade(cfg, "head")
        done = f"found tables from before migrations and marked them as revision {BASELINE}"
        return done if head == BASELINE else f"{done}, then upgraded them to {named}"
    if current is None:
        command.upgrade(cfg, "head")
        return f"created the tables at revision {named}"
    if current == head:
        return f"already at the newest revision, {named}"
    command.upgrade(cfg, "head")
    return f"upgraded from revision {current} to {named}"
