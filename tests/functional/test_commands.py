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

import pytest

from ironic_lite.common import release_mappings
from ironic_lite import objects
from tests.functional import procs
from tests import node_rows
from tests import timeouts

# The object versions this tree writes, and the previous release's.
objects.register_all()
LATEST_NODE = objects.Node.VERSION
PREVIOUS_NODE = release_mappings.RELEASE_MAPPING[
    release_mappings.rolls_from()[0]]['objects']['Node'][0]
# When the previous release wrote the same Node version as this tree (3.0
# changed no object that 2.0 had), a pending migration is simulated in the
# child process: the previous release is made to read Node 1.0 as well, so
# that this tree must move 1.0 rows to its own version.
SIMULATED_PREVIOUS = ''
if PREVIOUS_NODE == LATEST_NODE:
    SIMULATED_PREVIOUS = textwrap.dedent('''
        from ironic_lite.common import release_mappings as rm
        rm.RELEASE_MAPPING[rm.rolls_from()[0]]['objects']['Node'].append(
            '1.0')
    ''')
    PREVIOUS_NODE = '1.0'

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
                          timeout=timeouts.HANG)


def run_python(prelude, module, conf, *args):
    code = 'import sys\n' + prelude + (
        'from ironic_lite.cmd import %s\n'
        'sys.exit(%s.main(sys.argv[1:]))\n' % (module, module))
    return subprocess.run([sys.executable, '-c', code, '--config-file',
                           conf] + list(args), capture_output=True,
                          text=True, timeout=timeouts.HANG)


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


def last_line(result):
    """The command's own output: logging may come before it."""
    return result.stdout.strip().splitlines()[-1]


def head():
    from ironic_lite.db import migration
    return migration.head()


# -- ironic-dbsync: schema ----------------------------------------------------

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
    node_rows.insert_nodes(db_path, 2, version=None)
    result = run('ironic-dbsync', upgraded, 'upgrade')
    assert result.returncode == 2
    assert '2 Node row(s) at version None' in result.stdout
    assert 'online_data_migrations' in result.stdout


# -- ironic-dbsync: online data migrations ------------------------------------

def migrate(conf, *args):
    """``ironic-dbsync online_data_migrations`` with a pending migration."""
    return run_python(SIMULATED_PREVIOUS, 'dbsync', conf,
                      'online_data_migrations', *args)


def summary_row(stdout, name):
    """The summary table's cells of one migration, as ints."""
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip('|').split('|')]
        if cells and cells[0] == name:
            return [int(c) for c in cells[1:]]
    raise AssertionError('no summary row for %s in:\n%s' % (name, stdout))


def test_online_migrations_max_count_run_again(upgraded, db_path):
    assert PREVIOUS_NODE != LATEST_NODE
    node_rows.insert_nodes(db_path, 3, version=PREVIOUS_NODE)
    first = migrate(upgraded, '--max-count', '2')
    assert first.returncode == 1, first.stdout + first.stderr
    assert 'batch 1: update_to_latest_versions: 2/3 migrated' in first.stdout
    # Migration | Total Needed | Completed | Errors
    assert summary_row(first.stdout, 'update_to_latest_versions') == [3, 2, 0]
    assert sorted(node_rows.node_versions(db_path)) == sorted(
        [LATEST_NODE, LATEST_NODE, PREVIOUS_NODE])
    second = migrate(upgraded, '--max-count', '2')
    assert second.returncode == 0, second.stdout
    assert summary_row(second.stdout, 'update_to_latest_versions') == [1, 1, 0]
    assert node_rows.node_versions(db_path) == [LATEST_NODE] * 3
    assert run('ironic-dbsync', upgraded, 'upgrade').returncode == 0


def test_online_migrations_without_max_count_finish(upgraded, db_path):
    node_rows.insert_nodes(db_path, 120, version=PREVIOUS_NODE)
    result = migrate(upgraded)
    assert result.returncode == 0, result.stdout + result.stderr
    # Batches of 50: progress after each one, then the summary.
    for batch, done in ((1, 50), (2, 100), (3, 120)):
        assert ('batch %d: update_to_latest_versions: %d/120 migrated'
                % (batch, done)) in result.stdout, result.stdout
    assert summary_row(result.stdout, 'update_to_latest_versions') == [
        120, 120, 0]
    assert set(node_rows.node_versions(db_path)) == {LATEST_NODE}


def test_online_migrations_with_nothing_to_do(upgraded, db_path):
    node_rows.insert_nodes(db_path, 2, version=LATEST_NODE)
    result = run('ironic-dbsync', upgraded, 'online_data_migrations')
    assert result.returncode == 0, result.stdout + result.stderr
    assert summary_row(result.stdout, 'update_to_latest_versions') == [
        0, 0, 0]
    assert 'Data migrations have completed.' in result.stdout


def test_online_migrations_leave_unreadable_rows(upgraded, db_path):
    """Rows older than the previous release are not guessed at."""
    node_rows.insert_nodes(db_path, 2, version='0.9')
    result = run('ironic-dbsync', upgraded, 'online_data_migrations')
    assert result.returncode == 0, result.stdout + result.stderr
    assert node_rows.node_versions(db_path) == ['0.9', '0.9']
    assert run('ironic-dbsync', upgraded, 'upgrade').returncode == 2


def test_online_migration_error_exits_3(upgraded, db_path):
    node_rows.insert_nodes(db_path, 1, version=PREVIOUS_NODE)
    result = run_python(SIMULATED_PREVIOUS + FAILING_MIGRATION, 'dbsync',
                        upgraded, 'online_data_migrations')
    assert result.returncode == 3, result.stdout + result.stderr
    assert 'simulated failure' in result.stderr
    assert summary_row(result.stdout, 'broken') == [0, 0, 1]
    # The later migrations did not run.
    assert node_rows.node_versions(db_path) == [PREVIOUS_NODE]


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


# -- ironic-status upgrade check ----------------------------------------------

def test_status_of_a_newer_schema_fails(upgraded, db_path):
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f0f0newer'")
    result = run('ironic-status', upgraded, 'upgrade', 'check')
    assert result.returncode == 2, result.stdout
    assert 'f0f0newer' in result.stdout


def test_status_success(upgraded):
    result = run('ironic-status', upgraded, 'upgrade', 'check')
    assert result.returncode == 0, result.stdout


def test_status_fails_without_schema(conf):
    result = run('ironic-status', conf, 'upgrade', 'check')
    assert result.returncode == 2, result.stdout
    assert 'ironic-dbsync upgrade' in result.stdout


def test_status_fails_on_unreadable_rows(upgraded, db_path):
    node_rows.insert_nodes(db_path, 1, version=None)
    result = run('ironic-status', upgraded, 'upgrade', 'check')
    assert result.returncode == 2, result.stdout


def test_status_warns_on_pending_migrations(upgraded, db_path):
    node_rows.insert_nodes(db_path, 1, version=PREVIOUS_NODE)
    result = run_python(SIMULATED_PREVIOUS, 'status', upgraded, 'upgrade',
                        'check')
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Node: 1' in result.stdout


@pytest.mark.long(25)
def test_previous_schema_without_the_new_tables(conf):
    """The previous release's schema lacks the services table: status
    reports it and the object checks skip it, and upgrade succeeds."""
    previous_head = 'b7e4f1c2d9a0'  # release 2.0's head revision
    assert run('ironic-dbsync', conf, 'upgrade', '--revision',
               previous_head).returncode == 0
    result = run('ironic-status', conf, 'upgrade', 'check')
    # A schema upgrade still to run is a warning (step 0), not a failure.
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'ironic-dbsync upgrade' in result.stdout
    assert 'Upgrade state' in result.stdout
    assert 'Traceback' not in result.stdout + result.stderr
    result = run('ironic-dbsync', conf, 'upgrade')
    assert result.returncode == 0, result.stdout + result.stderr
    assert last_line(run('ironic-dbsync', conf, 'version')) == head()


def test_version_prints_only_the_revision_on_stdout(upgraded):
    """Logs go to stderr: scripts can read stdout."""
    result = run('ironic-dbsync', upgraded, 'version')
    assert result.stdout.strip() == head(), result.stdout


def test_api_port_in_use_is_a_clear_error(tmp_path, conf):
    import socket
    with socket.socket() as busy:
        busy.bind(('127.0.0.1', 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with open(conf, 'a') as f:
            f.write('[DEFAULT]\ntransport_url = fake://\n'
                    '[api]\nhost_ip = 127.0.0.1\nport = %d\n' % port)
        assert run('ironic-dbsync', conf, 'upgrade').returncode == 0
        result = run('ironic-api', conf)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'cannot listen on 127.0.0.1:%d' % port in result.stderr
    assert 'Traceback' not in result.stdout + result.stderr


def test_upgrade_of_a_newer_schema_is_a_one_line_error(upgraded, db_path):
    """Issue 9, defect 8: a revision from a newer release: exit 2, one
    line on stderr, no traceback."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f0f0newer'")
    result = run('ironic-dbsync', upgraded, 'upgrade')
    assert result.returncode == 2, result.stderr
    assert 'Traceback' not in result.stderr + result.stdout
    errors = [line for line in result.stderr.splitlines()
              if line.startswith('ERROR')]
    assert len(errors) == 1 and 'f0f0newer' in errors[0], result.stderr


# -- a pin naming no release, a database out of reach -------------------------

@pytest.fixture
def bad_pin(tmp_path, db_path):
    return procs.write_config(str(tmp_path / 'bad-pin.conf'), {
        'DEFAULT': {'state_path': str(tmp_path),
                    'pin_release_version': '9.9'},
        'database': {'connection': 'sqlite:///%s' % db_path},
    })


@pytest.mark.parametrize('command', ['ironic-api', 'ironic-conductor',
                                     'ironic-dbsync'])
def test_a_pin_naming_no_release_stops_a_command_in_plain_words(
        bad_pin, command):
    result = run(command, bad_pin, *(['version'] if command ==
                                     'ironic-dbsync' else []))
    # ironic-dbsync's code for a configuration it cannot use is 127.
    assert result.returncode == (127 if command == 'ironic-dbsync' else 1)
    from ironic_lite.common import release_mappings
    assert result.stderr.strip().splitlines()[-1].startswith(
        "ERROR: [DEFAULT]/pin_release_version = '9.9' is not a release "
        "this code knows. Valid values: %s"
        % ', '.join(release_mappings.pin_choices()))
    # oslo.config's own wording names its internals.
    assert 'LocationInfo' not in result.stderr
    assert 'Traceback' not in result.stderr


def test_status_reports_a_bad_pin_as_a_failed_check(upgraded, tmp_path,
                                                    db_path):
    conf = procs.write_config(str(tmp_path / 'bad-pin.conf'), {
        'DEFAULT': {'state_path': str(tmp_path),
                    'pin_release_version': '9.9'},
        'database': {'connection': 'sqlite:///%s' % db_path},
    })
    result = run('ironic-status', conf, 'upgrade', 'check')
    assert result.returncode in (2, 255), result.stdout
    assert "'9.9' is not a release this" in result.stdout
    assert 'Traceback' not in result.stdout + result.stderr
    assert 'LocationInfo' not in result.stdout


def test_status_with_the_database_out_of_reach_names_it_per_check(
        tmp_path):
    conf = procs.write_config(str(tmp_path / 'no-db.conf'), {
        'DEFAULT': {'state_path': str(tmp_path)},
        'database': {'connection': 'sqlite:///%s/missing/dir/x.sqlite'
                                   % tmp_path},
    })
    result = run('ironic-status', conf, 'upgrade', 'check')
    assert result.returncode == 255, result.stdout
    assert 'Traceback' not in result.stdout + result.stderr
    assert result.stdout.count('The check could not run') >= 3
