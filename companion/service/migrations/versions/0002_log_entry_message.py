"""Log entries keep their sentence as text and values, so each phone reads it in its language.

Revision ID: 0002
Revises: 0001
Created: 2026-12-01 02:14:54.807053
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('message', sa.JSON(), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('log_entry', schema=None) as batch_op:
        batch_op.drop_column('message')

