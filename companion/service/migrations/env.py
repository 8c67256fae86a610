"""Alembic's environment: run by ``companion.service.migrations`` on the connection it is handed."""

from __future__ import annotations

from alembic import context
from sqlalchemy.types import TypeDecorator
from sqlmodel import SQLModel

from companion.service import models  # noqa: F401  (registers the tables)


def render_item(kind, obj, _autogen_context):
    """Write SQLModel's column types (AutoString, UTCDateTime) as the plain SQLAlchemy types
    they stand for, so that a revision needs no import of SQLModel."""
    from_sqlmodel = type(obj).__module__.startswith("sqlmodel")
    if kind == "type" and isinstance(obj, TypeDecorator) and from_sqlmodel:
        return f"sa.{obj.impl_instance!r}"
    return False


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("Run migrations through companion.service.migrations (init_db, or "
                           "`python -m companion.service.migrations`), which hands them a "
                           "connection.")
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        # SQLite alters most things by copying the table: write such steps as batches.
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=render_item,
        compare_type=True,
    )
    # The caller's transaction (and lock) holds the whole upgrade: nothing to begin here.
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("Offline (--sql) migrations are not set up for the companion.")
run_migrations()
