"""Release 3.0: the services table -- every API and conductor process.

Each ``ironic-api`` and ``ironic-conductor`` records its host, type,
release and effective pin, with a heartbeat, so that ``ironic-status``
can tell which step of a rolling upgrade the deployment is in.

Additive only: a new table, which release 2.0 services never read.

Revision ID: c5d1a8e3f2b6
Revises: b7e4f1c2d9a0
Create Date: 2026-11-22

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'c5d1a8e3f2b6'
down_revision = 'b7e4f1c2d9a0'


def upgrade():
    op.create_table(
        'services',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('service_type', sa.String(32), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('host', sa.String(255), nullable=False),
        sa.Column('release', sa.String(32), nullable=False),
        sa.Column('pin', sa.String(32), nullable=True),
        sa.Column('online', sa.Boolean()),
        sa.Column('version', sa.String(15), nullable=True),
        sa.UniqueConstraint('service_type', 'name',
                            name='uniq_services0service_type0name'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
