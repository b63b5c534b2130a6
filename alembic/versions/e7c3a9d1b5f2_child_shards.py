"""Release 6.0: ports and port groups carry their node's shard.

A page of a shard's ports sorted the ids of every port of every node of
the shard to keep one page: it grew with the shard, so with the fleet
(54 ms for 1,000 ports at a million nodes).  With the shard on the rows
and ``(shard, id)`` indexed, the page is an index range read in id order
that stops after the page, as a page of a shard's nodes is.

Triggers keep the column (db/child_shards.py), so that the previous
release's services, which write ports, port groups and nodes knowing
nothing of it, keep it right too.  The rows already there get their
shard in batches of ids, each committed on its own (older services are
held back for one batch at most), through the same triggers; an
interrupted run is finished by running the upgrade again.  Measured at a
million nodes (2 million ports): see doc/source/admin/upgrade-guide.rst.

On PostgreSQL the indexes are built ``CONCURRENTLY`` after the rows are
filled, partial (``WHERE shard IS NOT NULL``) as ``shard_id_idx`` is.
On MySQL/MariaDB with binary logging on, creating a trigger needs the
SUPER privilege or ``log_bin_trust_function_creators = 1``.

Additive only: two nullable columns, two indexes and triggers that the
older releases neither read nor know.

Revision ID: e7c3a9d1b5f2
Revises: d4b9e2a7c1f6
Create Date: 2026-11-27

"""

from alembic import op
import sqlalchemy as sa

from ironic_lite.db import child_shards
from ironic_lite.db import models
from ironic_lite.db import online_index

# revision identifiers, used by Alembic.
revision = 'e7c3a9d1b5f2'
down_revision = 'd4b9e2a7c1f6'

INDEXES = (('ports_shard_id_idx', 'ports'),
           ('portgroups_shard_id_idx', 'portgroups'))


def upgrade():
    bind = op.get_bind()
    for table in child_shards.CHILDREN:
        if 'shard' not in {c['name']
                           for c in sa.inspect(bind).get_columns(table)}:
            op.add_column(table, sa.Column(
                'shard', models.CASE_SENSITIVE_STRING_255, nullable=True))
    child_shards.install(bind)
    if bind.dialect.name == 'sqlite':
        # One writer at a time: one transaction is as good as batches.
        child_shards.fill(bind)
        _create_indexes(bind)
        return
    with op.get_context().autocommit_block():
        # Each statement of a batch commits on its own.
        child_shards.fill(bind)
        _create_indexes(bind)


def _create_indexes(bind):
    """The indexes not built yet (a run cut short may have built some).

    After the rows are filled: building an index once is cheaper than
    updating it for every row.
    """
    for name, table in INDEXES:
        if bind.dialect.name == 'postgresql':
            online_index.build_on_postgresql(op, name, table, ['shard', 'id'],
                                             'shard IS NOT NULL')
        elif name not in {i['name']
                          for i in sa.inspect(bind).get_indexes(table)}:
            op.create_index(name, table, ['shard', 'id'])
