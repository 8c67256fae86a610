"""An import writes its plays and new players in short transactions, hidden until it is whole:
``pending`` names the import still writing them (a row of ``pending_import``).

Revision ID: 0011
Revises: 0010
Created: 2026-12-05 08:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'pending_import',
        sa.Column('key', sa.String(length=32), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('key'),
    )
    for table in ('play', 'group_player'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('pending', sa.String(length=32), nullable=True))
            batch_op.create_index(batch_op.f(f'ix_{table}_pending'), ['pending'], unique=False)


def downgrade() -> None:
    for table in ('group_player', 'play'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f'ix_{table}_pending'))
            batch_op.drop_column('pending')
    op.drop_table('pending_import')
