"""A table remembers the log entry its next undo takes back (``last_action_seq``), so every
phone can name the last move beside its undo button; tables from before get it from their log.

Revision ID: 0007
Revises: 0006
Created: 2026-12-04 21:38:43
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from companion.service.history import stacks

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_action_seq', sa.Integer(), nullable=True))
    connection = op.get_bind()
    tables = connection.execute(sa.text(
        "SELECT id FROM game_table WHERE undo_depth > 0")).scalars().all()
    for table_id in tables:
        rows = connection.execute(sa.text(
            "SELECT seq, kind FROM log_entry WHERE table_id = :id ORDER BY seq"),
            {"id": table_id}).all()
        applied, _redoable = stacks(rows, kind_of=lambda row: row.kind, item_of=lambda row: row.seq)
        if applied:
            connection.execute(sa.text(
                "UPDATE game_table SET last_action_seq = :seq WHERE id = :id"),
                {"seq": applied[-1], "id": table_id})


def downgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('last_action_seq')
