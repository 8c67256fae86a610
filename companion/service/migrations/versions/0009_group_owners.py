"""Groups with an owner: their history changes only with the owner key.

Revision ID: 0009
Revises: 0008
Created: 2026-12-05 05:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owned', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.drop_column('owned')
