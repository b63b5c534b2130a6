"""Release 4.0: node and port group names unique byte for byte on MySQL.

On MySQL and MariaDB the unique indexes on ``nodes.name`` and
``portgroups.name`` followed the tables' case-insensitive collation:
``node1`` was refused (409) while ``Node1`` existed, which PostgreSQL and
SQLite accept.  Both columns get the binary collation ``shard`` already
has (``utf8mb4_bin``); PostgreSQL and SQLite compare bytes already and
are left alone.

Why this ALTER is allowed (the DB change policy is additive only): it
changes neither a name nor a type the previous release reads, and the
server must do it online or not at all -- MariaDB with
``ALGORITHM=NOCOPY, LOCK=NONE`` (only the index is rebuilt, reads and
writes go on; MariaDB 10.11 does so), MySQL with ``ALGORITHM=INPLACE,
LOCK=NONE``.  A server that could only copy the table refuses the
statement before doing anything; the migration then leaves the column
as it was and logs the statement for a maintenance window (names still
*find* only their own node: ironic_lite/db/exact.py).  Release 3.0
services keep working: the index keeps its name (their duplicate-name
errors still map to 409), their lookups become the exact ones they were
on PostgreSQL, and the existing names were already unique under the
stricter case-folding index.

Revision ID: f2c8e6a1d4b7
Revises: e4a7c1d9b2f5
Create Date: 2026-12-02

"""

import logging

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'f2c8e6a1d4b7'
down_revision = 'e4a7c1d9b2f5'

LOG = logging.getLogger('alembic.runtime.migration')

# MySQL's "ALGORITHM=... is not supported" errors (ER_ALTER_OPERATION_*).
_NOT_ONLINE = (1845, 1846)


def _online_alter(bind, table):
    algorithm = 'NOCOPY' if bind.dialect.is_mariadb else 'INPLACE'
    statement = sa.text(
        'ALTER TABLE %s MODIFY name VARCHAR(255) CHARACTER SET utf8mb4 '
        'COLLATE utf8mb4_bin NULL, ALGORITHM=%s, LOCK=NONE'
        % (table, algorithm))
    try:
        op.execute(statement)
    except sa.exc.DBAPIError as err:
        if (getattr(err.orig, 'args', None) or (None,))[0] not in _NOT_ONLINE:
            raise
        LOG.warning('%s.name keeps its case-insensitive collation: this '
                    'server cannot change it online (%s).  Names that '
                    'differ only in case stay refused as duplicates; run '
                    'the statement without ALGORITHM and LOCK in a '
                    'maintenance window to change it: %s',
                    table, err.orig.args[-1], statement)


def upgrade():
    bind = op.get_bind()
    if bind.dialect.name not in ('mysql', 'mariadb'):
        return
    for table in ('nodes', 'portgroups'):
        _online_alter(bind, table)
