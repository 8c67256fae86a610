"""A group's play remembers when its table changed the result after the end, and whether
the table is open again.

Revision ID: 0010
Revises: 0009
Created: 2026-12-05 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('play', schema=None) as batch_op:
        batch_op.add_column(sa.Column('corrected_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('reopened', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('play', schema=None) as batch_op:
        batch_op.drop_column('reopened')
        batch_op.drop_column('corrected_at')
