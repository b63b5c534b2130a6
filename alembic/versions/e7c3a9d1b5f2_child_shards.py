"""Release 6.0: ports and port groups carry their node's shard.

A page of a shard's ports sorted the ids of every port of every node of
the shard to keep one page: it grew with the shard, so with the fleet
(54 ms for 1,000 ports at a million nodes).  With the shard on the rows
and ``(shard, id)`` indexed, the page is an index range read in id order
that stops after the page, as a page of a shard's nodes is.

Triggers keep the column, so that the previous release's services,
which write ports, port groups and nodes knowing nothing of it, keep it
right too.  The rows already there get their shard in batches of ids,
each committed on its own (older services are held back for one batch
at most), through the same triggers; an interrupted run is finished by
running the upgrade again.  Measured at a million nodes (2 million
ports): see doc/source/admin/upgrade-guide.rst.

On PostgreSQL the indexes are built ``CONCURRENTLY`` after the rows are
filled, partial (``WHERE shard IS NOT NULL``) as ``shard_id_idx`` is.
On MySQL/MariaDB with binary logging on, creating a trigger needs the
SUPER privilege or ``log_bin_trust_function_creators = 1``.

Frozen: the SQL below (triggers, fill, indexes) is what this revision
runs, as text of its own, never the live code's (db/child_shards.py,
which ``ironic-dbsync create_schema`` runs for a new database at the
head): a later release that changes the triggers does it with a
revision of its own.  ``ironic-dbsync`` lends the run its progress
reporter (``config.attributes['progress']``); a test may lend a smaller
batch (``['fill_batch']``).

Additive only: two nullable columns, two indexes and triggers that the
older releases neither read nor know.

Revision ID: e7c3a9d1b5f2
Revises: d4b9e2a7c1f6
Create Date: 2026-11-27

"""

from alembic import op
from oslo_db import api as oslo_db_api
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

# revision identifiers, used by Alembic.
revision = 'e7c3a9d1b5f2'
down_revision = 'd4b9e2a7c1f6'

CHILDREN = ('ports', 'portgroups')

INDEXES = (('ports_shard_id_idx', 'ports'),
           ('portgroups_shard_id_idx', 'portgroups'))

# Ids per batch of ``fill``: the writes of a batch's ports, and of their
# nodes, wait for it.  On PostgreSQL 55 ms each, 0.3 s at worst, at a
# million nodes (tools/benchmark/fill.py); batches of 10,000 had taken
# up to 2 s on a slower machine.
BATCH = 2000

# A port or port group inserted, or whose node_id is written, takes its
# node's shard, the node's row read with a share lock (a change of the
# node's shard in flight is waited for and read; one that comes later
# waits for this write's commit and then updates this row too).  A node
# whose shard changes writes it to its ports and port groups.
_PG_CHILD = ('CREATE TRIGGER %s_shard BEFORE INSERT OR UPDATE OF node_id, '
             'shard ON %s FOR EACH ROW EXECUTE FUNCTION '
             'ironic_lite_child_shard()')
# Every update of a row reads its node's shard again (a MySQL trigger
# cannot name the columns it fires on); under the share lock the read is
# of the latest committed row, not the snapshot.
_MYSQL_CHILD = ('CREATE TRIGGER %s_shard_%s BEFORE %s ON %s FOR EACH ROW '
                'BEGIN DECLARE node_shard VARCHAR(255) CHARACTER SET utf8mb4 '
                'COLLATE utf8mb4_bin DEFAULT NULL; IF NEW.node_id IS NOT '
                'NULL THEN SELECT shard INTO node_shard FROM nodes WHERE '
                'id = NEW.node_id LOCK IN SHARE MODE; END IF; '
                'SET NEW.shard = node_shard; END')
# SQLite's writers are serialized; its triggers cannot set NEW: AFTER
# triggers write the row again.
_SQLITE_CHILD = ('UPDATE %s SET shard = (SELECT shard FROM nodes WHERE '
                 'id = NEW.node_id) WHERE id = NEW.id')
_NODE_WRITES = ('UPDATE ports SET shard = NEW.shard WHERE node_id = NEW.id; '
                'UPDATE portgroups SET shard = NEW.shard '
                'WHERE node_id = NEW.id;')

TRIGGERS = {
    'postgresql': [
        'CREATE OR REPLACE FUNCTION ironic_lite_child_shard() '
        'RETURNS trigger AS $$ BEGIN '
        'IF NEW.node_id IS NULL THEN NEW.shard := NULL; ELSE '
        'NEW.shard := (SELECT shard FROM nodes WHERE id = NEW.node_id '
        'FOR SHARE); END IF; RETURN NEW; END $$ LANGUAGE plpgsql',
        'CREATE OR REPLACE FUNCTION ironic_lite_node_shard() '
        'RETURNS trigger AS $$ BEGIN ' + _NODE_WRITES + ' '
        'RETURN NULL; END $$ LANGUAGE plpgsql',
        'CREATE TRIGGER nodes_children_shard AFTER UPDATE OF shard ON '
        'nodes FOR EACH ROW WHEN (OLD.shard IS DISTINCT FROM NEW.shard) '
        'EXECUTE FUNCTION ironic_lite_node_shard()',
        _PG_CHILD % ('ports', 'ports'),
        _PG_CHILD % ('portgroups', 'portgroups'),
    ],
    'mysql': [
        # Byte for byte: the column's collation pads ('a' = 'a ').
        'CREATE TRIGGER nodes_children_shard AFTER UPDATE ON nodes '
        'FOR EACH ROW BEGIN IF NOT (CAST(OLD.shard AS BINARY) <=> '
        'CAST(NEW.shard AS BINARY)) THEN ' + _NODE_WRITES + ' '
        'END IF; END',
        _MYSQL_CHILD % ('ports', 'ins', 'INSERT', 'ports'),
        _MYSQL_CHILD % ('ports', 'upd', 'UPDATE', 'ports'),
        _MYSQL_CHILD % ('portgroups', 'ins', 'INSERT', 'portgroups'),
        _MYSQL_CHILD % ('portgroups', 'upd', 'UPDATE', 'portgroups'),
    ],
    'sqlite': [
        'CREATE TRIGGER nodes_children_shard AFTER UPDATE OF shard ON '
        'nodes WHEN OLD.shard IS NOT NEW.shard BEGIN ' + _NODE_WRITES + ' '
        'END',
        'CREATE TRIGGER ports_shard_ins AFTER INSERT ON ports '
        'BEGIN %s; END' % (_SQLITE_CHILD % 'ports'),
        'CREATE TRIGGER ports_shard_upd AFTER UPDATE OF node_id ON ports '
        'BEGIN %s; END' % (_SQLITE_CHILD % 'ports'),
        'CREATE TRIGGER portgroups_shard_ins AFTER INSERT ON portgroups '
        'BEGIN %s; END' % (_SQLITE_CHILD % 'portgroups'),
        'CREATE TRIGGER portgroups_shard_upd AFTER UPDATE OF node_id ON '
        'portgroups BEGIN %s; END' % (_SQLITE_CHILD % 'portgroups'),
    ],
}


def _mysql(connection):
    return connection.dialect.name in ('mysql', 'mariadb')


def _existing_triggers(connection):
    dialect = connection.dialect.name
    if dialect == 'postgresql':
        query = 'SELECT tgname FROM pg_trigger WHERE NOT tgisinternal'
    elif _mysql(connection):
        query = ('SELECT trigger_name FROM information_schema.triggers '
                 'WHERE trigger_schema = DATABASE()')
    else:
        query = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    return {row[0] for row in connection.execute(sa.text(query))}


def _install(connection):
    """Create the triggers that are not there yet (a run cut short may
    have made some), in the migration's transaction where the backend
    has transactional DDL; a function is always replaced."""
    existing = _existing_triggers(connection)
    dialect = 'mysql' if _mysql(connection) else connection.dialect.name
    for statement in TRIGGERS[dialect]:
        words = statement.split()
        if words[1] != 'TRIGGER' or words[2] not in existing:
            connection.execute(sa.text(statement))


def fill(connection, batch=BATCH, progress=None):
    """Give every port and port group its node's shard, ``batch`` ids at
    a time: on a connection in autocommit, each batch in a transaction
    of its own (see ``_fill_batch``); on SQLite in the caller's.  The
    triggers must exist: the rows are rewritten through them.

    ``progress(what, total, unit)``, if given, makes the reporter told
    of each batch done (``add``) and of the end (``finish``).
    """
    own_transactions = connection.dialect.name != 'sqlite'
    for table in CHILDREN:
        top = connection.execute(sa.text(
            'SELECT MAX(id) FROM %s' % table)).scalar()
        if top is None:
            continue
        told = progress and progress('shard of %s' % table, top, unit='ids')
        start = 0
        while start <= top:
            bounds = {'start': start, 'end': start + batch}
            if own_transactions:
                _fill_batch(connection, table, bounds)
            else:
                _rewrite(connection, table, bounds)
            if told:
                told.add(min(start + batch, top) - start)
            start += batch
        if told:
            told.finish()


def _rewrite(connection, table, bounds):
    connection.execute(sa.text(
        'UPDATE %s SET node_id = node_id WHERE id >= :start AND '
        'id < :end AND node_id IS NOT NULL' % table), bounds)


@oslo_db_api.wrap_db_retry(max_retries=10, retry_interval=0.1,
                           inc_retry_interval=True, max_retry_interval=1,
                           retry_on_deadlock=True)
def _fill_batch(connection, table, bounds):
    """One batch, its nodes share-locked first, in id order.

    The services lock a node before they write its ports (a node's
    deletion, a port's update).  Rewriting the ports first would lock
    them and then wait in the trigger for their node, while a service
    holding that node waits for one of those ports: a deadlock
    (PostgreSQL cancels one side after a second).  Locked first, the
    nodes make the batch wait for such a service's commit before it
    holds anything the service needs.  A deadlock that remains (a port
    moved to another node meanwhile) runs the batch again.
    """
    share = ('FOR SHARE' if connection.dialect.name == 'postgresql'
             else 'LOCK IN SHARE MODE')
    connection.exec_driver_sql('BEGIN')
    try:
        nodes = sorted(connection.execute(sa.text(
            'SELECT DISTINCT node_id FROM %s WHERE id >= :start AND '
            'id < :end AND node_id IS NOT NULL' % table), bounds).scalars())
        if nodes:
            connection.execute(sa.text(
                'SELECT id FROM nodes WHERE id IN :nodes ORDER BY id '
                + share).bindparams(sa.bindparam('nodes', expanding=True)),
                {'nodes': nodes}).all()
            _rewrite(connection, table, bounds)
    except BaseException:
        connection.exec_driver_sql('ROLLBACK')
        raise
    connection.exec_driver_sql('COMMIT')


def _pg_index_valid(bind, name):
    """True/False: the index exists and is valid/invalid; None: absent."""
    return bind.execute(sa.text(
        'SELECT i.indisvalid FROM pg_index i JOIN pg_class c '
        'ON c.oid = i.indexrelid WHERE c.relname = :name '
        'AND pg_catalog.pg_table_is_visible(c.oid)'),
        {'name': name}).scalar()


def _create_indexes(bind):
    """The indexes not built yet (a run cut short may have built some,
    or left one invalid: an interrupted concurrent build, rebuilt).

    After the rows are filled: building an index once is cheaper than
    updating it for every row.
    """
    for name, table in INDEXES:
        if bind.dialect.name == 'postgresql':
            valid = _pg_index_valid(bind, name)
            if valid is False:
                op.execute('REINDEX INDEX CONCURRENTLY %s' % name)
            elif valid is None:
                op.create_index(name, table, ['shard', 'id'],
                                postgresql_where=sa.text('shard IS NOT NULL'),
                                postgresql_concurrently=True)
        elif name not in {i['name']
                          for i in sa.inspect(bind).get_indexes(table)}:
            op.create_index(name, table, ['shard', 'id'])


def upgrade():
    bind = op.get_bind()
    # Case-sensitive everywhere: MySQL gets a binary collation.
    shard_type = sa.String(255).with_variant(
        mysql.VARCHAR(255, collation='utf8mb4_bin'), 'mysql', 'mariadb')
    for table in CHILDREN:
        if 'shard' not in {c['name']
                           for c in sa.inspect(bind).get_columns(table)}:
            op.add_column(table, sa.Column('shard', shard_type,
                                           nullable=True))
    _install(bind)
    config = op.get_context().config
    lent = config.attributes if config is not None else {}
    options = {'batch': lent.get('fill_batch', BATCH),
               'progress': lent.get('progress')}
    if bind.dialect.name == 'sqlite':
        # One writer at a time: one transaction is as good as batches.
        fill(bind, **options)
        _create_indexes(bind)
        return
    with op.get_context().autocommit_block():
        # Each statement of a batch commits on its own.
        fill(bind, **options)
        _create_indexes(bind)
