"""An operator's backup, restore and purge (`companion backup|restore|purge`).

A backup is one zip file: the SQLite database, copied with SQLite's online backup API (a
consistent copy while the server writes, what is still in its WAL included), the instance's
secret key (phones' signed cookies and the groups' owner links depend on it) and a manifest
(format, schema revision, time, rows per table). A PostgreSQL database is pg_dump's to copy
(docs/operating.md). A restore brings a backup into an empty instance, its schema brought up to
date on a copy first: refused, it leaves the instance exactly as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import zipfile
import zlib
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import Engine, delete, func, select

from ..service.database import init_db, make_engine, writing
from ..service.migrations import head_revision
from ..service.models import Device, GameTable, LogEntry, StateCheckpoint

FORMAT = "table-companion-backup/1"
DATABASE, SECRET, MANIFEST = "companion.sqlite3", "secret_key", "manifest.json"


class BackupProblem(Exception):
    """Why a backup, restore or purge was not done (nothing was changed)."""


def sqlite_path(url: str) -> Path | None:
    """The database file of a SQLite address (None: another database)."""
    return Path(url.split("sqlite:///", 1)[1]) if url.startswith("sqlite:///") else None


def backup(instance: Path, url: str, target: Path) -> dict:
    """Write the backup of the instance to ``target`` (readable by its owner only)."""
    key = instance / SECRET
    if not key.is_file():
        raise BackupProblem(f"{key} is missing: is {instance} the companion's instance folder?")
    database = sqlite_path(url)
    if database is None:
        raise BackupProblem("The database is PostgreSQL: copy it with pg_dump and keep the "
                            "secret key beside it, as docs/operating.md says.")
    if not database.is_file():
        raise BackupProblem(f"There is no database at {database}.")
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / DATABASE
        source, into = sqlite3.connect(database), sqlite3.connect(copy)
        try:
            with into:
                source.backup(into)  # page by page, consistent while the server writes
            tables, schema = _counts(into), _schema(into)
        finally:
            source.close()
            into.close()
        manifest = {"format": FORMAT, "schema": schema,
                    "created": datetime.now(timezone.utc).isoformat(), "rows": tables}
        partial = target.with_name(target.name + ".partial")
        try:
            _write_zip(partial, {DATABASE: copy, SECRET: key}, manifest)
            os.replace(partial, target)  # a backup file is whole or not there
        except BaseException:
            partial.unlink(missing_ok=True)  # it holds the secret key
            raise
    return manifest


def _write_zip(path: Path, files: dict[str, Path], manifest: dict) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as raw, \
            zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, file in files.items():
            zipped.write(file, name)
        zipped.writestr(MANIFEST, json.dumps(manifest, indent=1))


def _schema(connection: sqlite3.Connection) -> str | None:
    """The database's Alembic revision (None: made before migrations)."""
    try:
        return connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    except (sqlite3.OperationalError, TypeError):
        return None


def _counts(connection: sqlite3.Connection) -> dict[str, int]:
    names = [row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return {name: connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            for name in sorted(names)}


def restore(source: Path, instance: Path, url: str) -> tuple[dict, str]:
    """Bring the backup ``source`` into the empty instance, at this companion's schema; its
    manifest and what the schema's upgrade did."""
    database = sqlite_path(url)
    if database is None:
        raise BackupProblem("The database is PostgreSQL: restore it with pg_restore, as "
                            "docs/operating.md says.")
    try:
        zipped = zipfile.ZipFile(source)
    except (OSError, zipfile.BadZipFile) as exc:
        raise BackupProblem(f"{source} is not a backup of the companion ({exc}).") from None
    with zipped, tempfile.TemporaryDirectory() as folder:
        try:
            manifest = json.loads(zipped.read(MANIFEST))
            key = zipped.read(SECRET).decode().strip()
            zipped.extract(DATABASE, folder)
        # zlib.error, EOFError: a damaged member; RuntimeError: an encrypted one.
        except (KeyError, ValueError, zipfile.BadZipFile, OSError, zlib.error, EOFError,
                RuntimeError, NotImplementedError) as exc:
            raise BackupProblem(f"{source} is not a whole backup of the companion "
                                f"({exc}).") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not key:
            raise BackupProblem(f"{source} is not a backup of the companion ({FORMAT}).")
        # Revisions are numbered 0001, 0002, …: a later one is a newer companion's schema.
        if str(manifest.get("schema") or "") > head_revision():
            raise BackupProblem(f"{source} was made by a newer companion (schema "
                                f"{manifest['schema']}, this one knows up to {head_revision()}): "
                                "install that version, then restore.")
        _check_copy(Path(folder) / DATABASE, manifest, source)
        if database.exists() and _has_tables(database):
            raise BackupProblem(f"{database} already holds a database: a backup is restored "
                                "into an empty instance only. Move it away first.")
        upgraded = _bring_up_to_date(Path(folder) / DATABASE, source)
        _place(Path(folder) / DATABASE, database, key, instance)
    return manifest, upgraded


def _check_copy(copy_path: Path, manifest: dict, source: Path) -> None:
    """The database of the backup is whole, holds the rows and the schema its manifest says."""
    copy = sqlite3.connect(copy_path)
    try:
        healthy = copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = _counts(copy) if healthy else {}
        schema = _schema(copy) if healthy else None
    except sqlite3.DatabaseError:
        healthy = False
    finally:
        copy.close()
    if not healthy or rows != manifest.get("rows"):
        raise BackupProblem(f"The database in {source} is damaged; nothing was restored.")
    if schema != manifest.get("schema"):
        raise BackupProblem(f"The database in {source} is at schema {schema}, but its manifest "
                            f"says {manifest.get('schema')}: it is damaged; nothing was restored.")


def _bring_up_to_date(copy_path: Path, source: Path) -> str:
    """The copy brought to this companion's schema before it goes into the instance, so that
    a migration that fails leaves the instance as it was; what was done."""
    engine = make_engine(f"sqlite:///{copy_path}")
    try:
        return init_db(engine)
    except Exception as exc:  # noqa: BLE001 - whatever stops the migration, nothing is restored
        raise BackupProblem(f"The database in {source} could not be brought to this companion's "
                            f"schema ({type(exc).__name__}); nothing was restored.") from None
    finally:
        engine.dispose()


def _place(copy_path: Path, database: Path, key: str, instance: Path) -> None:
    """The database and the secret key into the instance, both or neither."""
    made = not instance.exists()
    instance.mkdir(parents=True, exist_ok=True)
    secret = instance / SECRET
    try:
        into, copy = sqlite3.connect(database), sqlite3.connect(copy_path)
        try:
            with into:
                copy.backup(into)
        finally:
            copy.close()
            into.close()
        descriptor = os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(key)
    except BaseException:
        for written in (database, secret, *database.parent.glob(database.name + "-*")):
            written.unlink(missing_ok=True)
        if made:
            instance.rmdir()
        raise


def _has_tables(database: Path) -> bool:
    connection = sqlite3.connect(database)
    try:
        return bool(connection.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0])
    except sqlite3.DatabaseError:
        return True  # a file that is no database: not ours to overwrite either
    finally:
        connection.close()


def purge(engine: Engine, days: int, archive_days: int) -> dict[str, int]:
    """Remove the logs, checkpoints and phones of tables without activity for ``days`` days
    (archived: no phone can reach them). The tables stay, and their groups' plays with them."""
    if not archive_days:
        raise BackupProblem("Tables are never put away here (ARCHIVE_DAYS=0), so every table "
                            "may still be in use: purge removes archived tables' logs only.")
    if days < archive_days:
        raise BackupProblem(f"Tables are put away after {archive_days} days without activity; "
                            f"purge removes only what is older than that (--days {archive_days} "
                            "or more).")
    before = datetime.now(timezone.utc) - timedelta(days=days)
    with writing(engine) as db:  # on SQLite, BEGIN IMMEDIATE: the server may write meanwhile
        old = select(GameTable.id).where(GameTable.updated_at < before)
        tables = db.scalar(select(func.count()).select_from(GameTable)
                           .where(GameTable.updated_at < before))
        removed = {"tables": tables}
        for model, name in ((LogEntry, "log entries"), (StateCheckpoint, "checkpoints"),
                            (Device, "phones")):
            removed[name] = db.exec(delete(model).where(model.table_id.in_(old))).rowcount
    return removed
