"""The phone behind a move, undo or redo: its own change is no conflict for its next tap.

Revision ID: 0013
Revises: 0012
Created: 2026-12-06 03:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('device_id', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.drop_column('device_id')
