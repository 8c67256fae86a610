"""Rate limits leave the database.

Flask-Limiter counts them in the server's memory (or Redis), keyed by the phone; the join
attempts and the buckets the database kept go with their tables.

Revision ID: 0006
Revises: 0005
Created: 2026-12-03 20:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table('rate_bucket')
    op.drop_table('join_attempt')


def downgrade() -> None:
    op.create_table('join_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_join_attempt_at', 'join_attempt', ['at'], unique=False)
    op.create_index('ix_join_attempt_client', 'join_attempt', ['client'], unique=False)
    op.create_table('rate_bucket',
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('due', sa.Float(), nullable=False),
    sa.Column('hits', sa.Integer(), nullable=False),
    sa.Column('allowed', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('client', 'kind')
    )
