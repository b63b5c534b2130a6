"""The number of nodes in each shard, kept by the database (release 6.0).

``GET /v1/shards`` used to count every node (a GROUP BY over the nodes):
its cost grew with the fleet (35 ms at a million nodes).  The counts now
live in ``shard_counts``, one row per shard (and one for the unsharded
nodes), and triggers on ``nodes`` keep them: an insert adds one to the
node's shard, a delete takes one away, a change of shard does both.

Triggers rather than the code that writes nodes: during a rolling
upgrade, services of the previous release write nodes too and know
nothing of the table; the database counts their writes all the same.

A row's key (``shard_key``) is ``'s:'`` followed by the shard, or ``'-'``
for the unsharded nodes (NULL cannot be a key).  On MySQL/MariaDB it is
a VARBINARY, so that shards differing in case or trailing spaces -- kept
apart everywhere else (db/exact.py) -- are counted apart.  A row whose
count fell to 0 stays; readers skip it.

``install`` creates the triggers and fills the table from the nodes in
a way that no concurrent write is lost or counted twice.

Runtime code: ``ironic-dbsync create_schema`` installs these triggers on
a new database at the head.  The migration that brought them
(alembic/versions/d4b9e2a7c1f6_shard_counts.py, run while the previous
release's services write nodes) carries its own frozen copy of this
SQL: a change here reaches an existing database only through a new
migration.
"""

import sqlalchemy as sa

from ironic_lite.db import exact


def _key(dialect, row):
    """SQL of the key of ``row`` (``NEW``/``OLD``, or a table name)."""
    if dialect in exact.MYSQL:
        return "COALESCE(CONCAT('s:', %s.shard), '-')" % row
    return "COALESCE('s:' || %s.shard, '-')" % row


def _add(dialect):
    """SQL adding one to NEW's shard (its row created at 1)."""
    key = _key(dialect, 'NEW')
    if dialect in exact.MYSQL:
        return ('INSERT INTO shard_counts (shard_key, shard, nodes) '
                'VALUES (%s, NEW.shard, 1) '
                'ON DUPLICATE KEY UPDATE nodes = nodes + 1' % key)
    return ('INSERT INTO shard_counts (shard_key, shard, nodes) '
            'VALUES (%s, NEW.shard, 1) ON CONFLICT (shard_key) '
            'DO UPDATE SET nodes = shard_counts.nodes + 1' % key)


def _take(dialect):
    """SQL taking one from OLD's shard."""
    return ('UPDATE shard_counts SET nodes = nodes - 1 '
            'WHERE shard_key = %s' % _key(dialect, 'OLD'))


def _postgresql():
    return [
        'CREATE OR REPLACE FUNCTION ironic_lite_shard_counts() '
        'RETURNS trigger AS $$ BEGIN '
        "IF TG_OP <> 'INSERT' THEN %s; END IF; "
        "IF TG_OP <> 'DELETE' THEN %s; END IF; "
        'RETURN NULL; END $$ LANGUAGE plpgsql'
        % (_take('postgresql'), _add('postgresql')),
        'CREATE TRIGGER nodes_shard_counts_ins AFTER INSERT ON nodes '
        'FOR EACH ROW EXECUTE FUNCTION ironic_lite_shard_counts()',
        'CREATE TRIGGER nodes_shard_counts_del AFTER DELETE ON nodes '
        'FOR EACH ROW EXECUTE FUNCTION ironic_lite_shard_counts()',
        'CREATE TRIGGER nodes_shard_counts_upd AFTER UPDATE OF shard ON '
        'nodes FOR EACH ROW WHEN (OLD.shard IS DISTINCT FROM NEW.shard) '
        'EXECUTE FUNCTION ironic_lite_shard_counts()',
    ]


def _mysql(dialect):
    return [
        'CREATE TRIGGER nodes_shard_counts_ins AFTER INSERT ON nodes '
        'FOR EACH ROW %s' % _add(dialect),
        'CREATE TRIGGER nodes_shard_counts_del AFTER DELETE ON nodes '
        'FOR EACH ROW %s' % _take(dialect),
        # Byte for byte: the column's collation pads ('a' = 'a ').
        'CREATE TRIGGER nodes_shard_counts_upd AFTER UPDATE ON nodes '
        'FOR EACH ROW BEGIN IF NOT (CAST(OLD.shard AS BINARY) <=> '
        'CAST(NEW.shard AS BINARY)) THEN %s; %s; END IF; END'
        % (_take(dialect), _add(dialect)),
    ]


def _sqlite(dialect):
    return [
        'CREATE TRIGGER nodes_shard_counts_ins AFTER INSERT ON nodes '
        'BEGIN %s; END' % _add(dialect),
        'CREATE TRIGGER nodes_shard_counts_del AFTER DELETE ON nodes '
        'BEGIN %s; END' % _take(dialect),
        'CREATE TRIGGER nodes_shard_counts_upd AFTER UPDATE OF shard ON '
        'nodes WHEN OLD.shard IS NOT NEW.shard BEGIN %s; %s; END'
        % (_take(dialect), _add(dialect)),
    ]


def trigger_statements(dialect):
    """The statements that create the counting triggers on ``dialect``."""
    if dialect == 'postgresql':
        return _postgresql()
    if dialect in exact.MYSQL:
        return _mysql(dialect)
    return _sqlite(dialect)


def _recount(dialect):
    """SQL setting every shard's row to the count of its nodes."""
    key = _key(dialect, 'nodes')
    select = ('SELECT %s, MIN(shard), COUNT(*) FROM nodes GROUP BY %s'
              % (key, key))
    if dialect in exact.MYSQL:
        return ('INSERT INTO shard_counts (shard_key, shard, nodes) %s '
                'ON DUPLICATE KEY UPDATE nodes = VALUES(nodes)' % select)
    return 'INSERT INTO shard_counts (shard_key, shard, nodes) %s' % select


def install(connection):
    """Create the triggers and count the nodes already there.

    PostgreSQL and SQLite, in the caller's transaction: the nodes table
    is locked against writes (PostgreSQL: SHARE ROW EXCLUSIVE, which
    readers pass; SQLite: the database's one writer) from before the
    triggers exist until the commit, so every write is counted either by
    the GROUP BY or by a trigger, never both.

    MySQL/MariaDB, where each CREATE TRIGGER commits on its own: the
    triggers first, so that every write from then on is counted, then,
    in one REPEATABLE READ transaction, an ``INSERT ... SELECT`` that
    sets each shard's row to its count and an UPDATE that sets the rows
    of shards without nodes to 0 (rows the triggers made meanwhile).
    InnoDB reads the nodes of an ``INSERT ... SELECT`` with shared
    next-key locks at that level: it waits for the writers in flight
    (whose triggers added to a row it then overwrites with a count that
    includes their node) and holds new ones back until it commits (their
    triggers then add to the right count).
    """
    dialect = connection.dialect.name
    mysql = dialect in exact.MYSQL
    if dialect == 'postgresql':
        connection.execute(sa.text(
            'LOCK TABLE nodes IN SHARE ROW EXCLUSIVE MODE'))
    for statement in trigger_statements(dialect):
        connection.execute(sa.text(statement))
    if mysql:
        # The CREATE TRIGGERs committed: this starts the next one.
        connection.execute(sa.text(
            'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'))
    else:
        connection.execute(sa.text('DELETE FROM shard_counts'))
    connection.execute(sa.text(_recount(dialect)))
    if mysql:
        connection.execute(sa.text(
            'UPDATE shard_counts SET nodes = 0 WHERE shard_key NOT IN '
            '(SELECT %s FROM nodes)' % _key(dialect, 'nodes')))
