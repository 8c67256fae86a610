"""baseline

The schema as SQLModel.metadata.create_all made it before migrations: a game table, the
devices joined to it, its log, and the join attempts kept for rate limiting. A database made
then has these tables and no alembic_version; init_db marks it as this revision.

Revision ID: 0001
Revises:
Created: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=6), nullable=False),
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state_version", sa.Integer(), nullable=False),
        sa.Column("undo_depth", sa.Integer(), nullable=False),
        sa.Column("redo_depth", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_game_table_code", "game_table", ["code"], unique=True)

    op.create_table(
        "device",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.String(length=24), nullable=True),
        sa.Column("is_host", sa.Boolean(), nullable=False),
        sa.Column("read_only", sa.Boolean(), nullable=False),
        sa.Column("label", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_device_table_id", "device", ["table_id"], unique=False)
    op.create_index("ix_device_token_hash", "device", ["token_hash"], unique=True)

    op.create_table(
        "log_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("actor", sa.String(length=40), nullable=True),
        sa.Column("sentence", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "seq"),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_log_entry_table_id", "log_entry", ["table_id"], unique=False)

    op.create_table(
        "join_attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_join_attempt_at", "join_attempt", ["at"], unique=False)
    op.create_index("ix_join_attempt_client", "join_attempt", ["client"], unique=False)


def downgrade() -> None:
    op.drop_table("join_attempt")
    op.drop_table("log_entry")
    op.drop_table("device")
    op.drop_table("game_table")
