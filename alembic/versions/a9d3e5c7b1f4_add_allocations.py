"""Release 4.0: allocations -- requests for a node (API 1.52).

Additive only: a new table, which release 3.0 services never read (an
API pinned to 3.0 serves reads of it but refuses every write until it
is unpinned, so no 3.0 conductor is ever asked to process one).
``nodes.allocation_id`` exists since release 1.0.

Revision ID: a9d3e5c7b1f4
Revises: f2c8e6a1d4b7
Create Date: 2026-12-03

"""

from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

# revision identifiers, used by Alembic.
revision = 'a9d3e5c7b1f4'
down_revision = 'f2c8e6a1d4b7'


def upgrade():
    op.create_table(
        'allocations',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255).with_variant(
            mysql.VARCHAR(255, collation='utf8mb4_bin'), 'mysql',
            'mariadb'), nullable=True),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  nullable=True),
        sa.Column('state', sa.String(15), nullable=False),
        sa.Column('owner', sa.String(255), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.Column('resource_class', sa.String(80), nullable=True),
        sa.Column('traits', sa.Text(), nullable=True),
        sa.Column('candidate_nodes', sa.Text(), nullable=True),
        sa.Column('extra', sa.Text(), nullable=True),
        sa.Column('conductor_affinity', sa.Integer(), nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('name', name='uniq_allocations0name'),
        sa.UniqueConstraint('uuid', name='uniq_allocations0uuid'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('allocations_node_id_idx', 'allocations', ['node_id'])
    op.create_index('allocations_state_idx', 'allocations', ['state'])
