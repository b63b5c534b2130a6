"""Release 3.0: node_traits -- the traits of each node (API 1.37).

Additive only: a new table, which release 2.0 services never read (a
service pinned to 2.0 never writes it either: the API refuses trait
writes until it is unpinned).

Revision ID: d3f6b2a9c4e1
Revises: c5d1a8e3f2b6
Create Date: 2026-11-23

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'd3f6b2a9c4e1'
down_revision = 'c5d1a8e3f2b6'


def upgrade():
    op.create_table(
        'node_traits',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  primary_key=True, nullable=False),
        sa.Column('trait', sa.String(255), primary_key=True,
                  nullable=False),
        sa.Column('version', sa.String(15), nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('node_traits_idx', 'node_traits', ['trait'])
