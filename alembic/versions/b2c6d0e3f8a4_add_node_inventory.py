"""Release 5.0: node_inventory, what inspection found (API 1.81).

Additive only: a new table that release 4.0 services never read or
write.  Deleting a node of 5.0 deletes its inventory; a 4.0 conductor
that deletes a node during the upgrade leaves the row (no foreign key
cascade), which no one reads.

Revision ID: b2c6d0e3f8a4
Revises: a7d2c9e4b1f3
Create Date: 2026-11-26

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import models

# revision identifiers, used by Alembic.
revision = 'b2c6d0e3f8a4'
down_revision = 'b1a5c9d2e7f3'


def upgrade():
    op.create_table(
        'node_inventory',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), primary_key=True, nullable=False),
        sa.Column('inventory_data', models.LongJSONEncodedDict()),
        sa.Column('plugin_data', models.LongJSONEncodedDict()),
        sa.Column('node_id', sa.Integer(), sa.ForeignKey('nodes.id'),
                  nullable=True),
        sa.Column('version', sa.String(15), nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    op.create_index('inventory_node_id_idx', 'node_inventory', ['node_id'])
