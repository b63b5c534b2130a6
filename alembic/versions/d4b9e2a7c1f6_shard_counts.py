"""Release 6.0: shard_counts, the nodes of each shard counted by triggers.

``GET /v1/shards`` counted every node (a GROUP BY over the nodes, 35 ms
at a million); it now reads one row per shard.  Triggers on ``nodes``
keep the counts (db/shard_counts.py), so that the writes of the previous
release's services, which know nothing of the table, are counted too.

The triggers are created and the table filled from the nodes in a way
that loses or doubles no write made meanwhile (``shard_counts.install``):
on PostgreSQL the nodes are locked against writes (reads pass) for the
GROUP BY, from before the triggers exist to the commit -- writers wait
that long (about 35 ms per million nodes); on MySQL/MariaDB the counts
are set by one ``INSERT ... SELECT`` after the triggers exist.  On
MySQL/MariaDB with binary logging on, creating a trigger needs the SUPER
privilege or ``log_bin_trust_function_creators = 1``.

Additive only: a new table and triggers that the older releases neither
read nor know; their node writes keep working (each now also updates a
row of ``shard_counts``).

Revision ID: d4b9e2a7c1f6
Revises: c8f1e4b7a2d5
Create Date: 2026-11-27

"""

from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

from ironic_lite.db import models
from ironic_lite.db import shard_counts

# revision identifiers, used by Alembic.
revision = 'd4b9e2a7c1f6'
down_revision = 'c8f1e4b7a2d5'


def upgrade():
    op.create_table(
        'shard_counts',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('shard_key', sa.String(260).with_variant(
            mysql.VARBINARY(1024), 'mysql', 'mariadb'),
            primary_key=True, nullable=False),
        sa.Column('shard', models.CASE_SENSITIVE_STRING_255, nullable=True),
        sa.Column('nodes', sa.Integer(), nullable=False),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    shard_counts.install(op.get_bind())
