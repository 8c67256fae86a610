"""Log entries remember the Idempotency-Key of the change that wrote them: a retried action,
undo or redo finds its entry and is not recorded twice.

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
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_key', sa.String(length=100), nullable=True))
        batch_op.create_unique_constraint('uq_log_entry_request_key', ['table_id', 'request_key'])


def downgrade() -> None:
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.drop_constraint('uq_log_entry_request_key', type_='unique')
        batch_op.drop_column('request_key')
