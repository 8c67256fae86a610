"""Hardening: log entries remember the Idempotency-Key of the change that wrote them (a
retried action, undo or redo finds its entry and is not recorded twice), and the per-client
request counts of the rate limits (``rate_window``), and the state checkpoints that spare an
undo the replay of a long game from its start (``state_checkpoint``).

Revision ID: 0004
Revises: 0003
Created: 2026-12-01 05:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('rate_window',
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('window', sa.Integer(), nullable=False),
    sa.Column('hits', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('client', 'kind', 'window')
    )
    op.create_table('state_checkpoint',
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('depth', sa.Integer(), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'depth')
    )
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_key', sa.String(length=100), nullable=True))
        batch_op.create_unique_constraint('uq_log_entry_request_key', ['table_id', 'request_key'])


def downgrade() -> None:
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.drop_constraint('uq_log_entry_request_key', type_='unique')
        batch_op.drop_column('request_key')
    op.drop_table('rate_window')
    op.drop_table('state_checkpoint')
