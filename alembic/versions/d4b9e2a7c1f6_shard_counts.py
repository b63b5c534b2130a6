"""Release 6.0: shard_counts, the nodes of each shard counted by triggers.

``GET /v1/shards`` counted every node (a GROUP BY over the nodes, 35 ms
at a million); it now reads one row per shard.  Triggers on ``nodes``
keep the counts, so that the writes of the previous release's services,
which know nothing of the table, are counted too.

The triggers are created and the table filled from the nodes in a way
that loses or doubles no write made meanwhile (``_install``): on
PostgreSQL the nodes are locked against writes (reads pass) for the
GROUP BY, from before the triggers exist to the commit -- writers wait
that long (about 35 ms per million nodes); on MySQL/MariaDB the counts
are set by one ``INSERT ... SELECT`` after the triggers exist.  On
MySQL/MariaDB with binary logging on, creating a trigger needs the SUPER
privilege or ``log_bin_trust_function_creators = 1``.

Frozen: the SQL below is what this revision installs, as text of its
own, never the live code's (db/shard_counts.py, which ``ironic-dbsync
create_schema`` runs for a new database at the head): a later release
that changes the triggers does it with a revision of its own.

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

# revision identifiers, used by Alembic.
revision = 'd4b9e2a7c1f6'
down_revision = 'c8f1e4b7a2d5'

# The key of a node's row: 's:' and its shard, '-' for no shard.
_KEY = "COALESCE('s:' || %s.shard, '-')"
_MYSQL_KEY = "COALESCE(CONCAT('s:', %s.shard), '-')"

_ADD = ("INSERT INTO shard_counts (shard_key, shard, nodes) "
        "VALUES (COALESCE('s:' || NEW.shard, '-'), NEW.shard, 1) "
        "ON CONFLICT (shard_key) "
        "DO UPDATE SET nodes = shard_counts.nodes + 1")
_TAKE = ("UPDATE shard_counts SET nodes = nodes - 1 "
         "WHERE shard_key = COALESCE('s:' || OLD.shard, '-')")
_MYSQL_ADD = ("INSERT INTO shard_counts (shard_key, shard, nodes) "
              "VALUES (COALESCE(CONCAT('s:', NEW.shard), '-'), NEW.shard, 1) "
              "ON DUPLICATE KEY UPDATE nodes = nodes + 1")
_MYSQL_TAKE = ("UPDATE shard_counts SET nodes = nodes - 1 "
               "WHERE shard_key = COALESCE(CONCAT('s:', OLD.shard), '-')")

TRIGGERS = {
    'postgresql': [
        'CREATE OR REPLACE FUNCTION ironic_lite_shard_counts() '
        'RETURNS trigger AS $$ BEGIN '
        "IF TG_OP <> 'INSERT' THEN " + _TAKE + '; END IF; '
        "IF TG_OP <> 'DELETE' THEN " + _ADD + '; END IF; '
        'RETURN NULL; END $$ LANGUAGE plpgsql',
        'CREATE TRIGGER nodes_shard_counts_ins AFTER INSERT ON nodes '
        'FOR EACH ROW EXECUTE FUNCTION ironic_lite_shard_counts()',
        'CREATE TRIGGER nodes_shard_counts_del AFTER DELETE ON nodes '
        'FOR EACH ROW EXECUTE FUNCTION ironic_lite_shard_counts()',
        'CREATE TRIGGER nodes_shard_counts_upd AFTER UPDATE OF shard ON '
        'nodes FOR EACH ROW WHEN (OLD.shard IS DISTINCT FROM NEW.shard) '
        'EXECUTE FUNCTION ironic_lite_shard_counts()',
    ],
    'mysql': [
        'CREATE TRIGGER nodes_shard_counts_ins AFTER INSERT ON nodes '
        'FOR EACH ROW ' + _MYSQL_ADD,
        'CREATE TRIGGER nodes_shard_counts_del AFTER DELETE ON nodes '
        'FOR EACH ROW ' + _MYSQL_TAKE,
        # Byte for byte: the column's collation pads ('a' = 'a ').
        'CREATE TRIGGER nodes_shard_counts_upd AFTER UPDATE ON nodes '
        'FOR EACH ROW BEGIN IF NOT (CAST(OLD.shard AS BINARY) <=> '
        'CAST(NEW.shard AS BINARY)) THEN ' + _MYSQL_TAKE + '; '
        + _MYSQL_ADD + '; END IF; END',
    ],
    'sqlite': [
        'CREATE TRIGGER nodes_shard_counts_ins AFTER INSERT ON nodes '
        'BEGIN ' + _ADD + '; END',
        'CREATE TRIGGER nodes_shard_counts_del AFTER DELETE ON nodes '
        'BEGIN ' + _TAKE + '; END',
        'CREATE TRIGGER nodes_shard_counts_upd AFTER UPDATE OF shard ON '
        'nodes WHEN OLD.shard IS NOT NEW.shard BEGIN ' + _TAKE + '; '
        + _ADD + '; END',
    ],
}


def _recount(key, mysql_dialect):
    """SQL setting every shard's row to the count of its nodes."""
    key = key % 'nodes'
    select = ('SELECT %s, MIN(shard), COUNT(*) FROM nodes GROUP BY %s'
              % (key, key))
    if mysql_dialect:
        return ('INSERT INTO shard_counts (shard_key, shard, nodes) %s '
                'ON DUPLICATE KEY UPDATE nodes = VALUES(nodes)' % select)
    return 'INSERT INTO shard_counts (shard_key, shard, nodes) %s' % select


def _install(connection):
    """Create the triggers and count the nodes already there.

    PostgreSQL and SQLite, in the migration's transaction: the nodes
    table is locked against writes (PostgreSQL: SHARE ROW EXCLUSIVE,
    which readers pass; SQLite: the database's one writer) from before
    the triggers exist until the commit, so every write is counted
    either by the GROUP BY or by a trigger, never both.

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
    mysql_dialect = dialect in ('mysql', 'mariadb')
    key = _MYSQL_KEY if mysql_dialect else _KEY
    if dialect == 'postgresql':
        connection.execute(sa.text(
            'LOCK TABLE nodes IN SHARE ROW EXCLUSIVE MODE'))
    for statement in TRIGGERS['mysql' if mysql_dialect else dialect]:
        connection.execute(sa.text(statement))
    if mysql_dialect:
        # The CREATE TRIGGERs committed: this starts the next one.
        connection.execute(sa.text(
            'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'))
    else:
        connection.execute(sa.text('DELETE FROM shard_counts'))
    connection.execute(sa.text(_recount(key, mysql_dialect)))
    if mysql_dialect:
        connection.execute(sa.text(
            'UPDATE shard_counts SET nodes = 0 WHERE shard_key NOT IN '
            '(SELECT %s FROM nodes)' % (key % 'nodes')))


def upgrade():
    op.create_table(
        'shard_counts',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('shard_key', sa.String(260).with_variant(
            mysql.VARBINARY(1024), 'mysql', 'mariadb'),
            primary_key=True, nullable=False),
        # Case-sensitive everywhere: MySQL gets a binary collation.
        sa.Column('shard', sa.String(255).with_variant(
            mysql.VARCHAR(255, collation='utf8mb4_bin'), 'mysql', 'mariadb'),
            nullable=True),
        sa.Column('nodes', sa.Integer(), nullable=False),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
    _install(op.get_bind())
