"""Release 4.0: volume_connectors and volume_targets (API 1.32).

Additive only: two new tables, which release 3.0 services never read.
While an API is pinned to 3.0 it reads them (empty until unpinned) and
refuses every write of them (409), so no 3.0 conductor is asked to act on
a row it does not know.

Revision ID: a9d4e7c2b8f1
Revises: a9d3e5c7b1f4
Create Date: 2026-11-26

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'a9d4e7c2b8f1'
down_revision = 'a9d3e5c7b1f4'


def _common_columns():
    return [
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('uuid', sa.String(36), nullable=True),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  nullable=True),
    ]


def upgrade():
    op.create_table(
        'volume_connectors',
        *_common_columns(),
        sa.Column('type', sa.String(32), nullable=True),
        sa.Column('connector_id', sa.String(255), nullable=True),
        sa.Column('extra', sa.Text(), nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_volumeconnectors0uuid'),
        sa.UniqueConstraint('type', 'connector_id',
                            name='uniq_volumeconnectors0type0connector_id'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('volume_connectors_node_id_idx', 'volume_connectors',
                    ['node_id'])
    op.create_table(
        'volume_targets',
        *_common_columns(),
        sa.Column('volume_type', sa.String(64), nullable=True),
        sa.Column('properties', sa.Text(), nullable=True),
        sa.Column('boot_index', sa.Integer(), nullable=True),
        sa.Column('volume_id', sa.String(36), nullable=True),
        sa.Column('extra', sa.Text(), nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_volumetargets0uuid'),
        sa.UniqueConstraint('node_id', 'boot_index',
                            name='uniq_volumetargets0node_id0boot_index'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('volume_targets_node_id_idx', 'volume_targets',
                    ['node_id'])
