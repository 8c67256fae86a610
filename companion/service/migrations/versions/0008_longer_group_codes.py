"""Group codes of ten characters: a group's code opens its history, so it must not be guessed.

Revision ID: 0008
Revises: 0007
Created: 2026-12-05 05:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.alter_column('code', existing_type=sa.String(length=6),
                              type_=sa.String(length=10), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.alter_column('code', existing_type=sa.String(length=10),
                              type_=sa.String(length=6), existing_nullable=False)
