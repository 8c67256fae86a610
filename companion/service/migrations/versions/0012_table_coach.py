"""A table may be in teaching mode ("Our first game"): the coach card on every phone.

Revision ID: 0012
Revises: 0011
Created: 2026-12-05 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('coach', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('coach')
