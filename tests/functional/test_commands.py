"""ironic-dbsync and ironic-status as real processes, by exit code.

dbsync: 0 done, 1 run again, 2 DB too old for this release, 3 a migration
raised, 127 bad arguments.  ironic-status upgrade check: 0 / 1 warning /
2 failure.  Cases that need code of another release (a pending migration
this release can read, a migration that raises) run the same entry points
through ``python -c`` with the release mapping changed in that process.
"""

import sqlite3
import subprocess
import sys
import textwrap
import uuid

import pytest

from ironic_lite.common import release_mappings
from ironic_lite import objects
from tests.functional import procs

# The object versions this tree writes, and the previous release's.
objects.register_all()
LATEST_NODE = objects.Node.VERSION
PREVIOUS_NODE = release_mappings.RELEASE_MAPPING[
    release_mappings.released_names()[0]]['objects']['Node'][0]

FAILING_MIGRATION = textwrap.dedent('''
    import sys
    from ironic_lite.objects import migrations
    def broken(context, max_count, **options):
        raise RuntimeError('simulated failure')
    migrations.ONLINE_MIGRATIONS.insert(0, ('broken', broken))
''')


def run(name, conf, *args):
    return subprocess.run([procs.command(name), '--config-file', conf]
                          + list(args), capture_output=True, text=True,
                          timeout=120)


def run_python(prelude, module, conf, *args):
    code = prelude + ('from ironic_lite.cmd import %s\n'
                      'sys.exit(%s.main(sys.argv[1:]))\n' % (module, module))
    return subprocess.run([sys.executable, '-c', code, '--config-file',
                           conf] + list(args), capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / 'ironic.sqlite')


@pytest.fixture
def conf(tmp_path, db_path):
    return procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'state_path': str(tmp_path)},
        'database': {'connection': 'sqlite:///%s' % db_path},
    })


@pytest.fixture
def upgraded(conf):
    result = run('ironic-dbsync', conf, 'upgrade')
    assert result.returncode == 0, result.stderr
    return conf


def insert_nodes(db_path, count, version=None):
    with sqlite3.connect(db_path) as conn:
        for _ in range(count):
            conn.execute(
                'INSERT INTO nodes (uuid, driver, maintenance, '
                'console_enabled, protected, version) '
                "VALUES (?, 'fake-hardware', 0, 0, 0, ?)",
                (str(uuid.uuid4()), version))


def node_versions(db_path):
    with sqlite3.connect(db_path) as conn:
        return sorted(str(v) for (v,) in
                      conn.execute('SELECT version FROM nodes'))


def last_line(result):
    """The command's own output: logging may come before it."""
    return result.stdout.strip().splitlines()[-1]


def head():
    from ironic_lite.db import migration
    return migration.head()


# -- ironic-dbsync: schema ------------------------------------------------------

def test_version_upgrade_version(conf):
    assert last_line(run('ironic-dbsync', conf, 'version')) == 'None'
    assert run('ironic-dbsync', conf, 'upgrade').returncode == 0
    result = run('ironic-dbsync', conf, 'version')
    assert (result.returncode, last_line(result)) == (0, head())


def test_create_schema_on_empty_then_refused(conf):
    assert run('ironic-dbsync', conf, 'create_schema').returncode == 0
    assert last_line(run('ironic-dbsync', conf, 'version')) == head()
    result = run('ironic-dbsync', conf, 'create_schema')
    assert result.returncode == 1
    assert 'upgrade' in result.stderr


def test_stamp(conf):
    assert run('ironic-dbsync', conf, 'stamp', head()).returncode == 0
    assert last_line(run('ironic-dbsync', conf, 'version')) == head()


def test_upgrade_refuses_rows_too_old(upgraded, db_path):
    insert_nodes(db_path, 2, version=None)
    result = run('ironic-dbsync', upgraded, 'upgrade')
    assert result.returncode == 2
    assert '2 Node row(s) at version None' in result.stdout
    assert 'online_data_migrations' in result.stdout


# -- ironic-dbsync: online data migrations --------------------------------------

def test_online_migrations_max_count_run_again(upgraded, db_path):
    assert PREVIOUS_NODE != LATEST_NODE  # release 2.0 bumped Node
    insert_nodes(db_path, 3, version=PREVIOUS_NODE)
    first = run('ironic-dbsync', upgraded, 'online_data_migrations',
                '--max-count', '2')
    assert first.returncode == 1, first.stdout + first.stderr
    assert 'update_to_latest_versions' in first.stdout
    assert sorted(node_versions(db_path)) == sorted(
        [LATEST_NODE, LATEST_NODE, PREVIOUS_NODE])
    second = run('ironic-dbsync', upgraded, 'online_data_migrations',
                 '--max-count', '2')
    assert second.returncode == 0, second.stdout
    assert node_versions(db_path) == [LATEST_NODE] * 3
    assert run('ironic-dbsync', upgraded, 'upgrade').returncode == 0


def test_online_migrations_without_max_count_finish(upgraded, db_path):
    insert_nodes(db_path, 120, version=PREVIOUS_NODE)
    result = run('ironic-dbsync', upgraded, 'online_data_migrations')
    assert result.returncode == 0, result.stdout + result.stderr
    assert '120 |      120' in result.stdout
    assert set(node_versions(db_path)) == {LATEST_NODE}


def test_online_migrations_leave_unreadable_rows(upgraded, db_path):
    """Rows older than the previous release are not guessed at."""
    insert_nodes(db_path, 2, version='0.9')
    result = run('ironic-dbsync', upgraded, 'online_data_migrations')
    assert result.returncode == 0, result.stdout + result.stderr
    assert node_versions(db_path) == ['0.9', '0.9']
    assert run('ironic-dbsync', upgraded, 'upgrade').returncode == 2


def test_online_migration_error_exits_3(upgraded, db_path):
    insert_nodes(db_path, 1, version=PREVIOUS_NODE)
    result = run_python(FAILING_MIGRATION, 'dbsync', upgraded,
                        'online_data_migrations')
    assert result.returncode == 3, result.stdout + result.stderr
    assert 'simulated failure' in result.stderr
    # The later migrations did not run.
    assert node_versions(db_path) == [PREVIOUS_NODE]


@pytest.mark.parametrize('args', [
    ['online_data_migrations', '--max-count', '0'],
    ['online_data_migrations', '--max-count', '-3'],
    ['online_data_migrations', '--max-count', 'many'],
    ['online_data_migrations', '--option', 'nodot=1'],
    ['online_data_migrations', '--option', 'unknown.key=1'],
    ['no_such_command'],
    ['stamp'],
])
def test_bad_arguments_exit_127(upgraded, args):
    result = run('ironic-dbsync', upgraded, *args)
    assert result.returncode == 127, result.stdout + result.stderr


def test_missing_config_file_exits_127(tmp_path):
    result = run('ironic-dbsync', str(tmp_path / 'nope.conf'), 'version')
    assert result.returncode == 127


# -- ironic-status upgrade check ----------------------------------------------------

def test_status_success(upgraded):
    result = run('ironic-status', upgraded, 'upgrade', 'check')
    assert result.returncode == 0, result.stdout


def test_status_fails_without_schema(conf):
    result = run('ironic-status', conf, 'upgrade', 'check')
    assert result.returncode == 2, result.stdout
    assert 'ironic-dbsync upgrade' in result.stdout


def test_status_fails_on_unreadable_rows(upgraded, db_path):
    insert_nodes(db_path, 1, version=None)
    result = run('ironic-status', upgraded, 'upgrade', 'check')
    assert result.returncode == 2, result.stdout


def test_status_warns_on_pending_migrations(upgraded, db_path):
    insert_nodes(db_path, 1, version=PREVIOUS_NODE)
    result = run('ironic-status', upgraded, 'upgrade', 'check')
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Node: 1' in result.stdout
