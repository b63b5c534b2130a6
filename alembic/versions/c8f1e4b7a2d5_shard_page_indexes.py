"""Release 6.0: indexes that keep a shard's pages from growing with it.

* ``nodes (shard, id)``: a page of a shard is ``WHERE shard = X ORDER BY
  id LIMIT n``.  With ``shard_idx`` alone PostgreSQL reads every node of
  the shard and sorts them to keep ``n``; this index hands them over in
  id order, so the page reads its ``n`` rows and stops.  It also gives
  the shard's node ids without reading the table (the sub-select of a
  port or port group page of a shard).
* ``ports (node_id, id)`` and ``portgroups (node_id, id)``: a port page
  of a shard sorts the ids of every port of the shard to keep ``n``
  (db/api.paginate's ``ids_first``); these indexes hold those ids, so the
  sort no longer reads whole rows from the table.

Measured at 1,000,000 nodes (doc/source/admin/performance.rst).

On PostgreSQL each index is partial (``WHERE shard IS NOT NULL``,
``WHERE node_id IS NOT NULL``): the queries above imply the predicate,
while a lookup by ``id`` alone does not, so the planner can never take a
whole-index scan of one of these for ``WHERE id = $1`` -- which it did,
without statistics, for the foreign key check of every port inserted
while a fleet was loaded in one transaction (hours instead of minutes for
a million nodes).  MySQL/MariaDB and SQLite already keep each entry of
``shard_idx`` and ``*_node_id_idx`` in primary key order (InnoDB appends
the primary key, SQLite the rowid); the index is plain there, for one
schema on every backend.

Additive only: older services neither know nor need these indexes (their
queries may use them).  On PostgreSQL each is built ``CONCURRENTLY``,
outside the migration's transaction, so that the services of the running
release keep writing while it is built (a plain CREATE INDEX blocks
writes to the table for the whole build); MySQL/MariaDB build an index
in place without blocking writes by default.

Such a build commits on its own, so a run of the upgrade stopped half
way may have built some of the indexes, and may have left one invalid
(a concurrent build interrupted; queries never use it): running the
upgrade again builds the missing ones and rebuilds an invalid one.
Frozen: this SQL is the revision's own text, never live code's.

Revision ID: c8f1e4b7a2d5
Revises: b2c6d0e3f8a4
Create Date: 2026-11-27

"""

from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'c8f1e4b7a2d5'
down_revision = 'b2c6d0e3f8a4'

# name, table, columns, PostgreSQL predicate
INDEXES = (('shard_id_idx', 'nodes', ['shard', 'id'], 'shard IS NOT NULL'),
           ('ports_node_id_id_idx', 'ports', ['node_id', 'id'],
            'node_id IS NOT NULL'),
           ('portgroups_node_id_id_idx', 'portgroups', ['node_id', 'id'],
            'node_id IS NOT NULL'))


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        for name, table, columns, _where in INDEXES:
            op.create_index(name, table, columns)
        return
    with op.get_context().autocommit_block():
        for name, table, columns, where in INDEXES:
            _build_on_postgresql(name, table, columns, where)


def _pg_index_valid(bind, name):
    """True/False: the index exists and is valid/invalid; None: absent."""
    return bind.execute(sa.text(
        'SELECT i.indisvalid FROM pg_index i JOIN pg_class c '
        'ON c.oid = i.indexrelid WHERE c.relname = :name '
        'AND pg_catalog.pg_table_is_visible(c.oid)'),
        {'name': name}).scalar()


def _build_on_postgresql(name, table, columns, where):
    """Build the partial index ``name`` (``WHERE where``) concurrently,
    unless an earlier run built it; build an invalid one again."""
    valid = _pg_index_valid(op.get_bind(), name)
    if valid is False:
        op.execute('REINDEX INDEX CONCURRENTLY %s' % name)
    elif valid is None:
        op.create_index(name, table, columns, postgresql_where=sa.text(where),
                        postgresql_concurrently=True)
