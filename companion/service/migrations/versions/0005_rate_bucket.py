"""Fair share: the rate limits become buckets that refill at an even pace (``rate_bucket``,
one row per client and kind) instead of counts per minute (``rate_window``), so a client that
hammers gets its requests spread out, never a minute's worth at once when a minute turns.
The counts of the minute being are dropped with their table: nothing to carry over.

Revision ID: 0005
Revises: 0004
Created: 2026-12-01 07:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table('rate_window')
    op.create_table('rate_bucket',
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('due', sa.Float(), nullable=False),
    sa.Column('hits', sa.Integer(), nullable=False),
    sa.Column('allowed', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('client', 'kind')
    )


def downgrade() -> None:
    op.drop_table('rate_bucket')
    op.create_table('rate_window',
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('window', sa.Integer(), nullable=False),
    sa.Column('hits', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('client', 'kind', 'window')
    )
