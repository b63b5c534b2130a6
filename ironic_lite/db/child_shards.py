"""The shard of each port and port group, kept by the database (6.0).

A page of a shard's ports used to select the ports of the shard's nodes
(``node_id IN (nodes of the shard)``) and sort all their ids to keep a
page: its cost grew with the shard, and so with the fleet (54 ms for
1,000 ports at a million nodes).  Ports and port groups now carry their
node's ``shard``, indexed with their id (``ports_shard_id_idx``,
``portgroups_shard_id_idx``): a page of a shard is an index range read
in id order that stops after the page, as a page of a shard's nodes is.

Triggers keep the copy, never the code that writes ports: during a
rolling upgrade the previous release's services write ports and nodes
too and know nothing of the column.

* A port or port group inserted, or whose ``node_id`` is written, takes
  its node's shard.  The node's row is read with a share lock
  (PostgreSQL, MySQL/MariaDB): a change of the node's shard in flight is
  waited for and read; one that comes later waits for this write's
  commit and then updates this row too.
* A node whose shard changes writes it to its ports and port groups.

On SQLite, whose writers are serialized, AFTER triggers do the same
(SQLite's triggers cannot set ``NEW``).

Runtime code: ``ironic-dbsync create_schema`` installs these triggers on
a new database at the head.  The migration that brought them
(alembic/versions/e7c3a9d1b5f2_child_shards.py) carries its own frozen
copy of this SQL and the fill of the rows already there: a change here
reaches an existing database only through a new migration.
"""

import sqlalchemy as sa

from ironic_lite.db import exact

CHILDREN = ('ports', 'portgroups')


def _postgresql():
    statements = [
        'CREATE OR REPLACE FUNCTION ironic_lite_child_shard() '
        'RETURNS trigger AS $$ BEGIN '
        'IF NEW.node_id IS NULL THEN NEW.shard := NULL; ELSE '
        'NEW.shard := (SELECT shard FROM nodes WHERE id = NEW.node_id '
        'FOR SHARE); END IF; RETURN NEW; END $$ LANGUAGE plpgsql',
        'CREATE OR REPLACE FUNCTION ironic_lite_node_shard() '
        'RETURNS trigger AS $$ BEGIN '
        'UPDATE ports SET shard = NEW.shard WHERE node_id = NEW.id; '
        'UPDATE portgroups SET shard = NEW.shard WHERE node_id = NEW.id; '
        'RETURN NULL; END $$ LANGUAGE plpgsql',
        'CREATE TRIGGER nodes_children_shard AFTER UPDATE OF shard ON '
        'nodes FOR EACH ROW WHEN (OLD.shard IS DISTINCT FROM NEW.shard) '
        'EXECUTE FUNCTION ironic_lite_node_shard()',
    ]
    for table in CHILDREN:
        statements.append(
            'CREATE TRIGGER %s_shard BEFORE INSERT OR UPDATE OF node_id, '
            'shard ON %s FOR EACH ROW EXECUTE FUNCTION '
            'ironic_lite_child_shard()' % (table, table))
    return statements


def _mysql():
    # Byte for byte: the column's collation pads ('a' = 'a ').
    statements = [
        'CREATE TRIGGER nodes_children_shard AFTER UPDATE ON nodes '
        'FOR EACH ROW BEGIN IF NOT (CAST(OLD.shard AS BINARY) <=> '
        'CAST(NEW.shard AS BINARY)) THEN '
        'UPDATE ports SET shard = NEW.shard WHERE node_id = NEW.id; '
        'UPDATE portgroups SET shard = NEW.shard WHERE node_id = NEW.id; '
        'END IF; END',
    ]
    # Every update of a row reads its node's shard again (a MySQL
    # trigger cannot name the columns it fires on); under the share lock
    # the read is of the latest committed row, not the snapshot.
    body = ('FOR EACH ROW BEGIN DECLARE node_shard VARCHAR(255) '
            'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL; '
            'IF NEW.node_id IS NOT NULL THEN SELECT shard INTO node_shard '
            'FROM nodes WHERE id = NEW.node_id LOCK IN SHARE MODE; '
            'END IF; SET NEW.shard = node_shard; END')
    for table in CHILDREN:
        for event in ('INSERT', 'UPDATE'):
            statements.append('CREATE TRIGGER %s_shard_%s BEFORE %s ON %s '
                              '%s' % (table, event[:3].lower(), event,
                                      table, body))
    return statements


def _sqlite():
    statements = [
        'CREATE TRIGGER nodes_children_shard AFTER UPDATE OF shard ON '
        'nodes WHEN OLD.shard IS NOT NEW.shard BEGIN '
        'UPDATE ports SET shard = NEW.shard WHERE node_id = NEW.id; '
        'UPDATE portgroups SET shard = NEW.shard WHERE node_id = NEW.id; '
        'END',
    ]
    for table in CHILDREN:
        update = ('UPDATE %s SET shard = (SELECT shard FROM nodes WHERE '
                  'id = NEW.node_id) WHERE id = NEW.id' % table)
        statements.append('CREATE TRIGGER %s_shard_ins AFTER INSERT ON %s '
                          'BEGIN %s; END' % (table, table, update))
        statements.append('CREATE TRIGGER %s_shard_upd AFTER UPDATE OF '
                          'node_id ON %s BEGIN %s; END'
                          % (table, table, update))
    return statements


def trigger_statements(dialect):
    """The statements that create the triggers on ``dialect``."""
    if dialect == 'postgresql':
        return _postgresql()
    if dialect in exact.MYSQL:
        return _mysql()
    return _sqlite()


def _trigger_name(statement):
    """The trigger a statement creates (None: a function, replaced)."""
    words = statement.split()
    return words[2] if words[1] == 'TRIGGER' else None


def _existing_triggers(connection):
    dialect = connection.dialect.name
    if dialect == 'postgresql':
        query = 'SELECT tgname FROM pg_trigger WHERE NOT tgisinternal'
    elif dialect in exact.MYSQL:
        query = ('SELECT trigger_name FROM information_schema.triggers '
                 'WHERE trigger_schema = DATABASE()')
    else:
        query = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    return {row[0] for row in connection.execute(sa.text(query))}


def install(connection):
    """Create the triggers that are not there yet, in the caller's
    transaction where the backend has transactional DDL."""
    existing = _existing_triggers(connection)
    for statement in trigger_statements(connection.dialect.name):
        if _trigger_name(statement) not in existing:
            connection.execute(sa.text(statement))
