"""Groups of players, their plays and undoable changes; a table's group, seats and rematch.

Revision ID: 0003
Revises: 0002
Created: 2026-12-01 02:23:52.512790
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('player_group',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=6), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_group_code'), ['code'], unique=True)

    op.create_table('group_change',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('undone', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('group_change', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_change_group_id'), ['group_id'], unique=False)

    op.create_table('group_player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('group_id', 'name')
    )
    with op.batch_alter_table('group_player', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_player_group_id'), ['group_id'], unique=False)

    op.create_table('play',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=40), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=True),
    sa.Column('game_id', sa.String(length=40), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('cooperative', sa.Boolean(), nullable=False),
    sa.Column('result', sa.String(length=10), nullable=True),
    sa.Column('facts', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('group_id', 'uid')
    )
    with op.batch_alter_table('play', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_play_group_id'), ['group_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_play_table_id'), ['table_id'], unique=False)

    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('seat_players', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('next_code', sa.String(length=6), nullable=True))
        batch_op.create_index(batch_op.f('ix_game_table_group_id'), ['group_id'], unique=False)
        batch_op.create_foreign_key('fk_game_table_group_id_player_group', 'player_group',
                                    ['group_id'], ['id'], ondelete='SET NULL')



def downgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_constraint('fk_game_table_group_id_player_group', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_table_group_id'))
        batch_op.drop_column('next_code')
        batch_op.drop_column('seat_players')
        batch_op.drop_column('group_id')

    with op.batch_alter_table('play', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_play_table_id'))
        batch_op.drop_index(batch_op.f('ix_play_group_id'))

    op.drop_table('play')
    with op.batch_alter_table('group_player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_player_group_id'))

    op.drop_table('group_player')
    with op.batch_alter_table('group_change', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_change_group_id'))

    op.drop_table('group_change')
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_group_code'))

    op.drop_table('player_group')
