"""Release 2.0: nodes.shard, indexed -- the node's shard key.

Additive only: a nullable column and an index, which release 1.0 services
(whose model has no ``shard``) keep working against.

Revision ID: b7e4f1c2d9a0
Revises: a1b2c3d4e5f6
Create Date: 2026-11-22

"""

from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

# revision identifiers, used by Alembic.
revision = 'b7e4f1c2d9a0'
down_revision = 'a1b2c3d4e5f6'


def upgrade():
    # Case-sensitive everywhere: MySQL gets a binary collation.
    shard_type = sa.String(255).with_variant(
        mysql.VARCHAR(255, collation='utf8mb4_bin'), 'mysql', 'mariadb')
    op.add_column('nodes', sa.Column('shard', shard_type, nullable=True))
    op.create_index('shard_idx', 'nodes', ['shard'])
