"""Schema migrations: they walk on every backend, match the models, and
only ever add (the DB change policy of doc/source/contributor).

The additive-only rule: a migration must not drop, alter or rename an
existing table, column, index or constraint -- services of the previous
release still use them during a rolling upgrade.  An exception needs an
entry in ALLOWED_DESTRUCTIVE with the reason and the release it waited for.
"""

import ast
from concurrent import futures
import glob
import os
import re
import time

from alembic import autogenerate
from alembic import command as alembic_command
from alembic import config as alembic_config
from alembic import migration as alembic_migration
from alembic import script as alembic_script
import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import mysql as mysql_dialect

from ironic_lite.db import migration as db_migration
from ironic_lite.db import models
from tests import conftest
from tests import timeouts

FORBIDDEN_OPS = {'drop_table', 'drop_column', 'alter_column',
                 'drop_constraint', 'drop_index', 'rename_table',
                 'drop_table_comment', 'drop_column_comment'}
SQL_WORDS = ('DROP ', 'ALTER ', 'RENAME ', 'TRUNCATE ')
# {(revision file name, operation): 'why this is safe'}
ALLOWED_DESTRUCTIVE = {
    ('f2c8e6a1d4b7_exact_names_on_mysql.py', 'execute ALTER'):
        'MySQL/MariaDB only: a column collation the server changes online '
        '(ALGORITHM=NOCOPY or INPLACE, LOCK=NONE: it refuses rather than '
        'copy the table); no name or type release 3.0 reads changes',
}
# What an allowed ALTER must ask of the server: online, or an error.
ONLINE_ALTER = ('LOCK=NONE', 'ALGORITHM=')


def alembic_cfg(connection, **attributes):
    cfg = alembic_config.Config()
    cfg.set_main_option('script_location', db_migration.script_location())
    cfg.attributes['connection'] = connection
    cfg.attributes.update(attributes)
    return cfg


def revision_module(revision):
    """The module of one migration script (its frozen code)."""
    scripts = alembic_script.ScriptDirectory.from_config(alembic_cfg(None))
    return scripts.get_revision(revision).module


def revisions_oldest_first():
    scripts = alembic_script.ScriptDirectory.from_config(alembic_cfg(None))
    return [r.revision for r in reversed(list(
        scripts.walk_revisions('base', 'heads')))]


def current_revision(engine):
    with engine.connect() as conn:
        return alembic_migration.MigrationContext.configure(
            conn).get_current_revision()


def upgrade(engine, revision, **attributes):
    # As ironic-dbsync runs them (db/migration.py): alembic opens the
    # transaction of each migration itself.
    with engine.connect() as conn:
        alembic_command.upgrade(alembic_cfg(conn, **attributes), revision)


@pytest.fixture
def engine(db_url):
    engine = sa.create_engine(db_url)
    yield engine
    engine.dispose()


def test_single_head():
    scripts = alembic_script.ScriptDirectory.from_config(alembic_cfg(None))
    assert len(scripts.get_heads()) == 1


def test_each_migration_is_logged_on_one_line():
    """alembic logs "Running upgrade A -> B, <message>", the message being
    the first paragraph of the script's docstring: one line, or the log
    line wraps."""
    scripts = alembic_script.ScriptDirectory.from_config(alembic_cfg(None))
    for script in scripts.walk_revisions('base', 'heads'):
        assert script.doc and '\n' not in script.doc, (
            '%s: the first paragraph of the docstring is not one line: %r'
            % (script.revision, script.doc))


def test_walk_upgrades_one_step_at_a_time(engine):
    for revision in revisions_oldest_first():
        upgrade(engine, revision)
        assert current_revision(engine) == revision
    upgrade(engine, 'head')  # idempotent at head
    assert current_revision(engine) == revisions_oldest_first()[-1]


def _ignorable(diff):
    # MySQL reflects BOOLEAN as TINYINT(1); that is the same column.
    if diff[0] == 'modify_type' and isinstance(diff[-1], sa.Boolean):
        return isinstance(diff[-2], sa.types.Integer)
    return False


def _flatten(diffs):
    for diff in diffs:
        if isinstance(diff, list):  # column changes come as a list
            yield from diff
        else:
            yield diff


def test_models_and_migrations_in_sync(engine):
    upgrade(engine, 'head')
    with engine.connect() as conn:
        context = alembic_migration.MigrationContext.configure(
            conn, opts={'compare_type': True})
        diffs = autogenerate.compare_metadata(context, models.Base.metadata)
    real = [d for d in _flatten(diffs) if not _ignorable(d)]
    assert real == [], ('models and migrations differ; write a migration '
                        '(ironic-dbsync revision --autogenerate)')


def _model_collations():
    """{(table, column): collation} the models give MySQL columns."""
    dialect = mysql_dialect.dialect()
    found = {}
    for table in models.Base.metadata.tables.values():
        for column in table.columns:
            match = re.search(r'COLLATE (\w+)',
                              column.type.compile(dialect=dialect))
            if match:
                found[(table.name, column.name)] = match.group(1)
    return found


def test_mysql_collations_match_the_models(mysql_url):
    """alembic's comparison ignores collations: a model asking for a
    binary collation without a migration giving it passes unseen."""
    engine = sa.create_engine(mysql_url)
    try:
        upgrade(engine, 'head')
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT table_name, column_name, collation_name FROM "
                "information_schema.columns WHERE table_schema = DATABASE() "
                "AND collation_name LIKE '%\\_bin'")).all()
    finally:
        engine.dispose()
    assert {(t, c): coll for t, c, coll in rows} == _model_collations()


# -- the additive-only policy ---------------------------------------------

def _created_index_names(tree):
    names = set()
    for call in _calls(tree):
        if _op_name(call) == 'create_index' and call.args:
            if isinstance(call.args[0], ast.Constant):
                names.add(call.args[0].value)
    return names


def _calls(tree):
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def _op_name(call):
    return getattr(call.func, 'attr', getattr(call.func, 'id', None))


def _execute_sql(call):
    text = ' '.join(a.value for a in ast.walk(call)
                    if isinstance(a, ast.Constant)
                    and isinstance(a.value, str))
    return [w.strip() for w in SQL_WORDS if w in text.upper()]


def destructive_operations(source):
    """The forbidden operations a migration script's source performs."""
    tree = ast.parse(source)
    created = _created_index_names(tree)
    found = []
    for call in _calls(tree):
        name = _op_name(call)
        if name == 'drop_index' and call.args and isinstance(
                call.args[0], ast.Constant) and call.args[0].value in created:
            continue  # an index this same migration created
        if name in FORBIDDEN_OPS:
            found.append(name)
        elif name in ('execute', 'text'):
            found.extend('execute %s' % w for w in _execute_sql(call))
    return found


def migration_scripts():
    pattern = os.path.join(db_migration.script_location(), 'versions', '*.py')
    return sorted(glob.glob(pattern))


def test_there_are_migration_scripts():
    assert migration_scripts()


@pytest.mark.parametrize('path', migration_scripts(),
                         ids=os.path.basename)
def test_migrations_are_additive_only(path):
    with open(path) as f:
        found = destructive_operations(f.read())
    name = os.path.basename(path)
    bad = [op for op in found if (name, op) not in ALLOWED_DESTRUCTIVE]
    assert bad == [], ('%s breaks the additive-only DB policy: %s'
                       % (name, bad))


@pytest.mark.parametrize('allowed', sorted(
    name for name, op in ALLOWED_DESTRUCTIVE if op == 'execute ALTER'))
def test_allowed_alters_are_online(allowed):
    """An ALTER let through the policy must make the server refuse it
    rather than copy the table or block writes."""
    path = os.path.join(db_migration.script_location(), 'versions', allowed)
    with open(path) as f:
        tree = ast.parse(f.read())
    alters = [a.value.upper() for a in ast.walk(tree)
              if isinstance(a, ast.Constant) and isinstance(a.value, str)
              and a.value.upper().startswith('ALTER ')]
    assert alters
    for alter in alters:
        for clause in ONLINE_ALTER:
            assert clause in alter, (allowed, alter)


@pytest.mark.parametrize('source,expected', [
    ("op.drop_column('nodes', 'x')", ['drop_column']),
    ("with op.batch_alter_table('nodes') as b:\n"
     "    b.alter_column('x', nullable=False)", ['alter_column']),
    ("op.rename_table('a', 'b')", ['rename_table']),
    ("op.drop_index('ix_old', 'nodes')", ['drop_index']),
    ("op.create_index('ix_new', 'nodes', ['x'])\n"
     "op.drop_index('ix_new', 'nodes')", []),
    ("op.execute('ALTER TABLE nodes DROP COLUMN x')",
     ['execute DROP', 'execute ALTER']),
    ("op.add_column('nodes', sa.Column('shard', sa.String(255)))", []),
])
def test_policy_scanner_catches_destructive_operations(source, expected):
    assert destructive_operations(source) == expected


def test_sync_check_sees_a_missing_migration():
    engine = sa.create_engine('sqlite://')
    upgrade(engine, 'head')
    metadata = sa.MetaData()
    for table in models.Base.metadata.tables.values():
        table.to_metadata(metadata)
    metadata.tables['nodes'].append_column(
        sa.Column('not_migrated_yet', sa.String(255)))
    with engine.connect() as conn:
        context = alembic_migration.MigrationContext.configure(conn)
        diffs = autogenerate.compare_metadata(context, metadata)
    assert [d[0] for d in _flatten(diffs)] == ['add_column']


# -- f2c8e6a1d4b7: names unique byte for byte on MySQL/MariaDB -------------

def _load_revision(name):
    scripts = alembic_script.ScriptDirectory.from_config(alembic_cfg(None))
    return scripts.get_revision(name).module


def _insert_names(conn, suffix, names):
    """A node and a port group named after each of ``names``."""
    for i, name in enumerate(names):
        node_uuid = '00000000-0000-0000-0000-%s%02d' % (suffix, i)
        conn.execute(sa.text(
            "INSERT INTO nodes (uuid, name, driver, conductor_group) "
            "VALUES (:uuid, :name, 'fake-hardware', '')"),
            {'uuid': node_uuid, 'name': name})
        conn.execute(sa.text(
            'INSERT INTO portgroups (uuid, name) VALUES (:uuid, :name)'),
            {'uuid': node_uuid, 'name': name})


def test_names_differing_in_case_coexist_after_upgrade(mysql_url):
    """On MariaDB the old case-folding unique indexes refused ``node1``
    beside ``Node1``; after the migration, rows written before it are
    kept and both names can be stored (as on PostgreSQL and SQLite)."""
    engine = sa.create_engine(mysql_url)
    try:
        upgrade(engine, 'e4a7c1d9b2f5')
        with engine.begin() as conn:
            _insert_names(conn, '0000000000', ['Node1'])
        with pytest.raises(sa.exc.IntegrityError):
            with engine.begin() as conn:
                _insert_names(conn, '0000000001', ['node1'])
        upgrade(engine, 'f2c8e6a1d4b7')
        with engine.begin() as conn:
            _insert_names(conn, '0000000001', ['node1', 'NODE1'])
            names = conn.execute(sa.text(
                'SELECT name FROM nodes ORDER BY id')).scalars().all()
        assert names == ['Node1', 'node1', 'NODE1']
        with pytest.raises(sa.exc.IntegrityError):  # still unique
            with engine.begin() as conn:
                _insert_names(conn, '0000000002', ['node1'])
    finally:
        engine.dispose()


def test_a_server_that_cannot_alter_online_keeps_the_column(
        monkeypatch, caplog):
    """Where the server would copy the table, the migration changes
    nothing and says what to run in a maintenance window."""
    module = _load_revision('f2c8e6a1d4b7')

    def refuse(statement):
        raise sa.exc.OperationalError(str(statement), {}, Exception(
            1846, 'ALGORITHM=NOCOPY is not supported.  Try ALGORITHM=COPY'))

    monkeypatch.setattr(module.op, 'execute', refuse, raising=False)
    bind = type('Bind', (), {'dialect': type(
        'Dialect', (), {'name': 'mysql', 'is_mariadb': True})})
    monkeypatch.setattr(module.op, 'get_bind', lambda: bind, raising=False)
    module.upgrade()
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 2
    assert 'ALTER TABLE portgroups MODIFY name' in warnings[1]
    assert 'ALGORITHM=NOCOPY, LOCK=NONE' in warnings[1]


def test_other_server_errors_stop_the_migration(monkeypatch):
    module = _load_revision('f2c8e6a1d4b7')

    def fail(statement):
        raise sa.exc.OperationalError(str(statement), {},
                                      Exception(2013, 'Lost connection'))

    monkeypatch.setattr(module.op, 'execute', fail, raising=False)
    bind = type('Bind', (), {'dialect': type(
        'Dialect', (), {'name': 'mysql', 'is_mariadb': False})})
    with pytest.raises(sa.exc.OperationalError):
        module._online_alter(bind, 'nodes')


SHARD_PAGE_INDEXES = {'shard_id_idx': 'nodes (shard, id)',
                      'ports_node_id_id_idx': 'ports (node_id, id)',
                      'portgroups_node_id_id_idx': 'portgroups (node_id, id)'}


def _pg_indexes(engine):
    with engine.connect() as conn:
        return dict(conn.execute(sa.text(
            'SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c '
            'ON c.oid = i.indexrelid WHERE c.relname = ANY(:names)'),
            {'names': list(SHARD_PAGE_INDEXES)}).all())


def test_shard_page_indexes_finish_a_run_cut_short(postgresql_url):
    """The shard page indexes are built CONCURRENTLY, outside any
    transaction: a run stopped half way leaves one built and one invalid
    (a concurrent build interrupted) behind.  Running the upgrade again
    finishes the job: every index valid, the revision at head."""
    engine = sa.create_engine(postgresql_url)
    try:
        upgrade(engine, 'b2c6d0e3f8a4')
        with engine.begin() as conn:
            conn.execute(sa.text(
                'CREATE INDEX shard_id_idx ON nodes (shard, id) '
                'WHERE shard IS NOT NULL'))
            conn.execute(sa.text(
                'CREATE INDEX ports_node_id_id_idx ON ports (node_id, id) '
                'WHERE node_id IS NOT NULL'))
            # What an interrupted CREATE INDEX CONCURRENTLY leaves.
            conn.execute(sa.text(
                "UPDATE pg_index SET indisvalid = false WHERE indexrelid = "
                "'ports_node_id_id_idx'::regclass"))
        assert _pg_indexes(engine) == {'shard_id_idx': True,
                                       'ports_node_id_id_idx': False}
        upgrade(engine, 'head')
        assert _pg_indexes(engine) == dict.fromkeys(SHARD_PAGE_INDEXES,
                                                    True)
        assert current_revision(engine) == revisions_oldest_first()[-1]
    finally:
        engine.dispose()


def test_shard_page_indexes_are_partial_on_postgresql(postgresql_url):
    """A lookup by id alone can never pick one of them (see the
    migration): each is partial, with a predicate the shard and node
    queries imply."""
    engine = sa.create_engine(postgresql_url)
    try:
        upgrade(engine, 'head')
        with engine.connect() as conn:
            definitions = dict(conn.execute(sa.text(
                'SELECT c.relname, pg_get_indexdef(c.oid) FROM pg_class c '
                'WHERE c.relname = ANY(:names)'),
                {'names': list(SHARD_PAGE_INDEXES)}).all())
        assert {name: d.split(' ON ')[1] for name, d in definitions.items()
                } == {
            'shard_id_idx':
                'public.nodes USING btree (shard, id) '
                'WHERE (shard IS NOT NULL)',
            'ports_node_id_id_idx':
                'public.ports USING btree (node_id, id) '
                'WHERE (node_id IS NOT NULL)',
            'portgroups_node_id_id_idx':
                'public.portgroups USING btree (node_id, id) '
                'WHERE (node_id IS NOT NULL)'}
    finally:
        engine.dispose()


def _insert_shards(conn, suffix, shards):
    for i, shard in enumerate(shards):
        conn.execute(sa.text(
            "INSERT INTO nodes (uuid, driver, conductor_group, shard) "
            "VALUES (:uuid, 'fake-hardware', '', :shard)"),
            {'uuid': '00000000-0000-0000-0000-%s%02d' % (suffix, i),
             'shard': shard})


def _counts(conn):
    return {shard: nodes for shard, nodes in conn.execute(sa.text(
        'SELECT shard, nodes FROM shard_counts WHERE nodes > 0'))}


def test_shard_counts_count_the_nodes_already_there(db_url):
    """The migration that adds shard_counts counts the nodes written
    before it (byte-exact shards, the unsharded ones under None); from
    then on its triggers count every write, also one made by SQL as an
    older release's service makes it."""
    engine = sa.create_engine(db_url)
    try:
        upgrade(engine, 'c8f1e4b7a2d5')
        with engine.begin() as conn:
            _insert_shards(conn, '0000000000',
                           ['s1', 's1', 'S1', None, 's2', None, None])
        upgrade(engine, 'd4b9e2a7c1f6')
        with engine.begin() as conn:
            assert _counts(conn) == {'s1': 2, 'S1': 1, 's2': 1, None: 3}
            _insert_shards(conn, '0000000001', ['s2', 's3'])
            conn.execute(sa.text(
                "UPDATE nodes SET shard = 's3' WHERE shard IS NULL"))
            conn.execute(sa.text("DELETE FROM nodes WHERE shard = 'S1'"))
        with engine.begin() as conn:
            assert _counts(conn) == {'s1': 2, 's2': 2, 's3': 4}
    finally:
        engine.dispose()


def _child_shards(conn):
    return sorted(conn.execute(sa.text(
        "SELECT 'port', c.address, c.shard, n.shard FROM ports c "
        "LEFT JOIN nodes n ON n.id = c.node_id UNION ALL "
        "SELECT 'group', c.address, c.shard, n.shard FROM portgroups c "
        "LEFT JOIN nodes n ON n.id = c.node_id")).all(),
        key=lambda row: (row[0], row[1]))


def test_child_shards_fill_the_rows_already_there(db_url):
    """The migration that gives ports and port groups their node's shard
    fills the rows written before it, batch after batch (a batch of 2 ids
    here), byte-exact; a run cut short and run again (the revision set
    back) finishes without error; the triggers then follow a write made
    by SQL as an older release's service makes it."""
    engine = sa.create_engine(db_url)
    try:
        upgrade(engine, 'd4b9e2a7c1f6')
        shards = ['s1', 'S1', None, 's1 ', 's2']
        with engine.begin() as conn:
            _insert_shards(conn, '0000000002', shards)
            ids = [row[0] for row in conn.execute(sa.text(
                'SELECT id FROM nodes ORDER BY id'))]
            for i, node_id in enumerate(ids * 2):
                conn.execute(sa.text(
                    'INSERT INTO ports (uuid, address, node_id) VALUES '
                    '(:uuid, :mac, :node)'),
                    {'uuid': '00000000-0000-0000-0001-%012d' % i,
                     'mac': '52:54:00:00:05:%02x' % i, 'node': node_id})
            conn.execute(sa.text(
                'INSERT INTO portgroups (uuid, address, node_id) VALUES '
                "('00000000-0000-0000-0002-000000000000', "
                "'52:54:00:00:06:00', :node)"), {'node': ids[1]})
        upgrade(engine, 'e7c3a9d1b5f2', fill_batch=2)
        with engine.begin() as conn:
            rows = _child_shards(conn)
            assert [row[2] for row in rows] == [row[3] for row in rows]
            assert sorted(row[2] or '' for row in rows) == sorted(
                [s or '' for s in shards * 2] + ['S1'])
            conn.execute(sa.text(
                "UPDATE alembic_version SET version_num = 'd4b9e2a7c1f6'"))
        upgrade(engine, 'e7c3a9d1b5f2', fill_batch=2)
        with engine.begin() as conn:
            conn.execute(sa.text(
                "UPDATE nodes SET shard = 's3' WHERE id = :node"),
                {'node': ids[1]})
            conn.execute(sa.text(
                'UPDATE ports SET node_id = :node WHERE node_id = :old'),
                {'node': ids[0], 'old': ids[2]})
        with engine.begin() as conn:
            rows = _child_shards(conn)
            assert [row[2] for row in rows] == [row[3] for row in rows]
            assert [row[2] for row in rows].count('s3') == 3
            assert [row[2] for row in rows].count('s1') == 4
    finally:
        engine.dispose()


def _node_with_a_port(engine, suffix):
    with engine.begin() as conn:
        _insert_shards(conn, suffix, ['s1'])
        conn.execute(sa.text(
            "INSERT INTO ports (uuid, address, node_id) SELECT "
            "'00000000-0000-0000-%s-000000000000', '52:54:00:00:%s:00', id "
            "FROM nodes" % (suffix[-4:], suffix[-2:])))


def _wait_for_a_lock_wait(engine, work):
    """Until a transaction waits for a lock (or ``work`` has ended)."""
    if engine.dialect.name == 'postgresql':
        query = 'SELECT count(*) FROM pg_locks WHERE NOT granted'
    else:
        query = ("SELECT count(*) FROM information_schema.innodb_trx "
                 "WHERE trx_state = 'LOCK WAIT'")
    deadline = time.monotonic() + timeouts.HANG
    with engine.connect().execution_options(
            isolation_level='AUTOCOMMIT') as watcher:
        while not watcher.execute(sa.text(query)).scalar():
            assert not work.done() and time.monotonic() < deadline, (
                'nothing waited for a lock')
            # Above InnoDB's 0.1 s: its lock tables are refreshed only
            # once nobody has read them for that long.
            time.sleep(0.2)


@pytest.mark.parametrize('db_url', conftest.BACKEND_PARAMS, indirect=True)
def test_child_shards_fill_waits_for_a_node_writer(db_url):
    """A service that holds a node (as a deletion does) and then writes
    its port, while the fill's batch waits for that node, is not
    deadlocked by the fill: the batch locks its nodes before its ports,
    as the services do, so the service commits and the batch then ends."""
    child_shards = revision_module('e7c3a9d1b5f2')
    engine = sa.create_engine(db_url)
    pool = futures.ThreadPoolExecutor(1)
    try:
        upgrade(engine, 'head')
        _node_with_a_port(engine, '0000000003')
        with engine.connect() as service:
            service.begin()
            service.execute(sa.text('SELECT id FROM nodes FOR UPDATE'))
            with engine.connect().execution_options(
                    isolation_level='AUTOCOMMIT') as filler:
                filled = pool.submit(child_shards.fill, filler)
                _wait_for_a_lock_wait(engine, filled)
                service.execute(sa.text("UPDATE ports SET extra = '{}'"))
                service.commit()
                filled.result(timeout=timeouts.HANG)
        with engine.begin() as conn:
            assert conn.execute(sa.text(
                'SELECT extra, shard FROM ports')).all() == [('{}', 's1')]
    finally:
        pool.shutdown()
        engine.dispose()


def test_upgrade_runs_a_migration_again_after_a_deadlock(postgresql_url,
                                                         use_db):
    """A service's transaction that wrote a node and then writes a port
    while the migration that adds the ports' shard holds the ports and
    waits for the nodes: PostgreSQL cancels the migration, which waited
    first, and ``ironic-dbsync upgrade`` runs it again once the service
    has committed."""
    from ironic_lite.db import migration
    use_db(postgresql_url, migrate=False)
    migration.upgrade('d4b9e2a7c1f6')
    engine = sa.create_engine(postgresql_url)
    pool = futures.ThreadPoolExecutor(1)
    try:
        _node_with_a_port(engine, '0000000004')
        with engine.connect() as service:
            service.execute(sa.text("UPDATE nodes SET extra = '{}'"))
            upgraded = pool.submit(migration.upgrade, 'e7c3a9d1b5f2')
            _wait_for_a_lock_wait(engine, upgraded)
            service.execute(sa.text("UPDATE ports SET extra = '{}'"))
            service.commit()
            upgraded.result(timeout=timeouts.HANG)
        assert migration.version() == 'e7c3a9d1b5f2'
        with engine.begin() as conn:
            assert conn.execute(sa.text(
                'SELECT extra, shard FROM ports')).all() == [('{}', 's1')]
    finally:
        pool.shutdown()
        engine.dispose()


def test_parent_node_migration_finishes_a_run_cut_short(postgresql_url):
    """nodes.parent_node (f9a3c6e2d8b4): on PostgreSQL the column is
    committed before its index is built CONCURRENTLY; a run stopped in
    between (the column there, the index invalid) is finished by running
    the upgrade again."""
    engine = sa.create_engine(postgresql_url)
    try:
        upgrade(engine, 'e7c3a9d1b5f2')
        with engine.begin() as conn:
            conn.execute(sa.text(
                'ALTER TABLE nodes ADD COLUMN parent_node VARCHAR(36)'))
            conn.execute(sa.text(
                'CREATE INDEX parent_node_idx ON nodes (parent_node)'))
            conn.execute(sa.text(
                "UPDATE pg_index SET indisvalid = false WHERE indexrelid = "
                "'parent_node_idx'::regclass"))
        upgrade(engine, 'head')
        with engine.connect() as conn:
            assert conn.execute(sa.text(
                'SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON '
                "c.oid = i.indexrelid WHERE c.relname = 'parent_node_idx'")
            ).scalar() is True
        assert current_revision(engine) == revisions_oldest_first()[-1]
    finally:
        engine.dispose()


def test_a_schema_change_gives_way_to_the_services_on_mysql(mysql_url,
                                                            use_db,
                                                            monkeypatch,
                                                            caplog):
    """An ``ALTER TABLE nodes`` waits for every open transaction that used
    ``nodes``, and every query on ``nodes`` sent meanwhile queues behind
    it: a service holding such a transaction while it waits for another
    (an API reading a node, then calling a conductor) held everyone until
    its RPC timed out.  The migration's DDL waits a bounded time, lets the
    queued queries through and tries again: a reader is answered while
    the transaction is still open, and the migration ends once it is
    closed."""
    from ironic_lite.db import migration
    monkeypatch.setattr(migration, 'DDL_LOCK_WAIT', 1)
    monkeypatch.setattr(migration, 'DDL_RETRY_PAUSE', 0.2)
    use_db(mysql_url, migrate=False)
    migration.upgrade('f9a3c6e2d8b4')
    engine = sa.create_engine(mysql_url)
    pool = futures.ThreadPoolExecutor(2)
    try:
        with engine.connect() as holder:
            # An open transaction that read the nodes (a shared metadata
            # lock on the table until it ends).
            holder.execute(sa.text('SELECT count(*) FROM nodes')).scalar()
            upgraded = pool.submit(migration.upgrade, 'c3e8a5f1d7b9')
            deadline = time.monotonic() + timeouts.HANG
            while 'A schema change waited' not in caplog.text:
                assert not upgraded.done(), upgraded.exception()
                assert time.monotonic() < deadline, 'the ALTER never waited'
                time.sleep(0.1)

            def read():
                with engine.connect() as reader:
                    return reader.execute(sa.text(
                        'SELECT count(*) FROM nodes')).scalar()
            # Answered while the holder's transaction is still open.
            assert pool.submit(read).result(timeout=timeouts.HANG) == 0
            assert not upgraded.done()
            holder.rollback()
        upgraded.result(timeout=timeouts.HANG)
        assert migration.version() == 'c3e8a5f1d7b9'
        assert migration.has_column('nodes', 'instance_name')
    finally:
        pool.shutdown()
        engine.dispose()
