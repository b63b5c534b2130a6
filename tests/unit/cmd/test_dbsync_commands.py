"""ironic-dbsync in-process: its exit codes and what it refuses.

tests/functional/test_commands.py runs the same commands as processes;
these run ``dbsync.main`` in the test process on SQLite (and fake online
migrations where only the loop is under test), so that the rules are
pinned down by the unit tests too: 0 done, 1 run again (``--max-count``
reached) or a command failed, 2 rows this release cannot read or a schema
of a newer release (``upgrade`` refuses), 3 a migration raised, 127 bad
arguments.  The mutation run (``tox -e mutation``) uses only unit tests.
"""

import sqlite3

from oslo_log import log as logging
import pytest

from ironic_lite.cmd import dbsync
from ironic_lite.common import release_mappings
from ironic_lite.db import migration
from ironic_lite import objects
from ironic_lite.objects import migrations as obj_migrations
from tests import node_rows


@pytest.fixture
def db(sqlite_url, use_db, monkeypatch):
    """An empty SQLite database; ``dbsync.main`` parses no config file
    (the test's overrides stay) and leaves the test's logging alone."""
    monkeypatch.setattr(logging, 'setup', lambda *args, **kwargs: None)
    use_db(sqlite_url, migrate=False)
    yield sqlite_url.split('///', 1)[1]
    # main() registers its sub-commands on the global CONF: the other
    # commands parsed in this process must not see them.
    dbsync.CONF.reset()
    if dbsync.command_opt.name in dbsync.CONF:
        dbsync.CONF.unregister_opt(dbsync.command_opt)


def run(capsys, *args):
    """(exit code, stdout, stderr) of ``ironic-dbsync ARGS``."""
    capsys.readouterr()
    code = dbsync.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def errors(err):
    """The ERROR lines the command printed on stderr (a log handler left
    by another test in this process may write there too)."""
    return [line for line in err.splitlines() if line.startswith('ERROR: ')]


# -- schema commands ----------------------------------------------------------

def test_upgrade_goes_to_head_by_default(db, capsys):
    assert run(capsys, 'version')[:2] == (0, 'None\n')
    assert run(capsys, 'upgrade')[0] == dbsync.EXIT_OK
    assert run(capsys, 'version')[:2] == (0, migration.head() + '\n')


def test_upgrade_to_a_given_revision_stops_there(db, capsys):
    from alembic import script
    scripts = script.ScriptDirectory.from_config(migration._config())
    first = list(scripts.walk_revisions())[-1].revision
    assert first != migration.head()
    assert run(capsys, 'upgrade', '--revision', first)[0] == 0
    assert run(capsys, 'version')[1] == first + '\n'


def test_upgrade_refuses_rows_this_release_cannot_read(db, capsys):
    assert run(capsys, 'upgrade')[0] == 0
    node_rows.insert_nodes(db, 2, '0.9')
    code, out, _err = run(capsys, 'upgrade')
    assert code == dbsync.EXIT_INCOMPATIBLE_DB == 2
    readable = ', '.join(sorted(
        release_mappings.supported_object_versions()['Node']))
    assert out == (
        'The database is not compatible with this release:\n'
        '  - 2 Node row(s) at version 0.9; this release reads %s\n'
        'This release is rolled to from release(s) %s only. Run '
        '"ironic-dbsync online_data_migrations" with the code of the '
        'release the deployment runs until it completes (upgrading to one '
        'of those releases first if it is older), then run this upgrade '
        'again.\n' % (readable, ', '.join(release_mappings.rolls_from())))
    # Nothing was touched.
    assert node_rows.node_versions(db) == ['0.9', '0.9']


def test_upgrade_refuses_a_schema_of_a_newer_release(db, capsys):
    assert run(capsys, 'upgrade')[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dcafe'")
    code, out, err = run(capsys, 'upgrade')
    assert code == dbsync.EXIT_INCOMPATIBLE_DB
    assert errors(err) == [
        'ERROR: the database schema is at revision f00dcafe, which this '
        'release does not know: it was upgraded by a newer release. Run the '
        'newer release\'s ironic-dbsync instead.']
    assert out == ''
    assert run(capsys, 'version')[1] == 'f00dcafe\n'


def test_create_schema_then_refused(db, capsys):
    assert run(capsys, 'create_schema')[0] == 0
    assert run(capsys, 'version')[1] == migration.head() + '\n'
    code, _out, err = run(capsys, 'create_schema')
    assert code == 1
    assert errors(err) == [
        'ERROR: The database is already under version control; use '
        '"ironic-dbsync upgrade" instead.']


def test_stamp_marks_without_migrating(db, capsys):
    assert run(capsys, 'stamp', migration.head())[0] == 0
    assert run(capsys, 'version')[1] == migration.head() + '\n'
    assert not migration.has_tables()


def test_revision_is_handed_its_options(db, capsys, monkeypatch):
    calls = []
    monkeypatch.setattr(migration, 'revision',
                        lambda **kwargs: calls.append(kwargs))
    assert run(capsys, 'revision', '-m', 'add a thing',
               '--autogenerate')[0] == 0
    assert run(capsys, 'revision')[0] == 0
    assert calls == [{'message': 'add a thing', 'autogenerate': True},
                     {'message': None, 'autogenerate': False}]


# -- bad arguments ------------------------------------------------------------

@pytest.mark.parametrize('args', [
    ['online_data_migrations', '--max-count', '0'],
    ['online_data_migrations', '--max-count', '-3'],
    ['online_data_migrations', '--max-count', 'many'],
    ['no_such_command'],
    [],
    ['upgrade', '--no-such-option'],
])
def test_bad_arguments_exit_127(db, capsys, args):
    code, _out, err = run(capsys, *args)
    assert code == dbsync.EXIT_BAD_ARGS == 127
    if '--max-count' in args:
        assert err.rstrip().endswith(
            'error: argument --max-count: --max-count must be a positive '
            'integer, not %r' % args[-1]), err


def test_positive_int():
    assert dbsync._positive_int('1') == 1
    assert dbsync._positive_int('25') == 25
    for text in ('0', '-1', 'x', ''):
        with pytest.raises(Exception) as exc:
            dbsync._positive_int(text)
        assert 'positive integer' in str(exc.value)


def test_help_exits_0(db, capsys):
    code, out, _err = run(capsys, 'upgrade', '--help')
    assert code == dbsync.EXIT_OK
    assert out.startswith('usage: ironic-dbsync upgrade ')
    assert 'exit codes:' in out and '--revision' in out


def test_the_arguments_default_to_the_command_line(db, capsys,
                                                   monkeypatch):
    monkeypatch.setattr('sys.argv', ['ironic-dbsync', 'version'])
    capsys.readouterr()
    assert dbsync.main() == 0
    assert capsys.readouterr().out == 'None\n'


def test_an_invalid_configuration_exits_127(db, capsys):
    code, _out, err = run(capsys, '--config-file', '/nonexistent/x.conf',
                          'version')
    assert code == dbsync.EXIT_BAD_ARGS
    assert len(errors(err)) == 1, err


# -- online data migrations: the batch loop -----------------------------------

class Fake(object):
    """A migration with ``rows`` to migrate; records each max_count."""

    def __init__(self, rows, fail=False):
        self.rows = rows
        self.fail = fail
        self.calls = []

    def __call__(self, context, max_count, **options):
        # Migrations run with an admin context (as Ironic's).
        assert context.is_admin
        self.calls.append((max_count, options))
        if self.fail:
            raise RuntimeError('simulated failure')
        done = min(self.rows, max_count)
        total, self.rows = self.rows, self.rows - done
        return total, done


def use(monkeypatch, **migrations):
    monkeypatch.setattr(obj_migrations, 'ONLINE_MIGRATIONS',
                        list(migrations.items()))


def test_max_count_reached_exits_1_after_one_batch(db, capsys, monkeypatch):
    mig = Fake(5)
    use(monkeypatch, bump_x=mig)
    code, out, _err = run(capsys, 'online_data_migrations',
                          '--max-count', '2')
    assert code == dbsync.EXIT_RUN_AGAIN == 1
    assert mig.calls == [(2, {})]
    assert 'batch 1: bump_x: 2/5 migrated' in out
    assert out.rstrip().endswith(
        'There are more objects to migrate; run this command again.')
    # Run again until done: exactly what is left is asked for.
    assert run(capsys, 'online_data_migrations', '--max-count', '2')[0] == 1
    code, out, _err = run(capsys, 'online_data_migrations',
                          '--max-count', '2')
    assert code == dbsync.EXIT_OK
    assert mig.rows == 0
    assert out.rstrip().endswith('Data migrations have completed.')


def test_max_count_exactly_reached_with_nothing_left(db, capsys,
                                                     monkeypatch):
    # The batch is full, so the command cannot know that nothing is left:
    # "run again", as Ironic says.
    mig = Fake(2)
    use(monkeypatch, bump_x=mig)
    assert run(capsys, 'online_data_migrations', '--max-count', '2')[0] == 1
    assert mig.calls == [(2, {})]


def test_without_max_count_batches_of_50_until_done(db, capsys, monkeypatch):
    mig = Fake(120)
    use(monkeypatch, bump_x=mig)
    code, out, _err = run(capsys, 'online_data_migrations')
    assert code == dbsync.EXIT_OK
    assert dbsync.DEFAULT_BATCH == 50
    assert [c[0] for c in mig.calls] == [50, 50, 50]
    assert mig.rows == 0
    assert out.startswith('Running batches of 50 until the migrations have '
                          'completed.\n')
    for batch, done in ((1, 50), (2, 100), (3, 120)):
        assert 'batch %d: bump_x: %d/120 migrated' % (batch, done) in out
    assert 'batch 4' not in out
    assert out.rstrip().endswith('Data migrations have completed.')


def test_a_batch_is_shared_by_the_migrations_in_order(db, capsys,
                                                      monkeypatch):
    first, second, third = Fake(3), Fake(10), Fake(4)
    use(monkeypatch, first=first, second=second, third=third)
    code, _out, _err = run(capsys, 'online_data_migrations',
                           '--max-count', '8')
    assert code == dbsync.EXIT_RUN_AGAIN
    # The second gets what the first left of the batch; the batch is then
    # full, so the third is not called.
    assert first.calls == [(8, {})]
    assert second.calls == [(5, {})]
    assert third.calls == []


def test_nothing_to_do_exits_0_with_a_summary(db, capsys, monkeypatch):
    use(monkeypatch, bump_x=Fake(0), bump_y=Fake(0))
    code, out, _err = run(capsys, 'online_data_migrations')
    assert code == dbsync.EXIT_OK
    assert out.splitlines()[-7:] == [
        '+-----------+--------------+-----------+--------+',
        '| Migration | Total Needed | Completed | Errors |',
        '+-----------+--------------+-----------+--------+',
        '| bump_x    |            0 |         0 |      0 |',
        '| bump_y    |            0 |         0 |      0 |',
        '+-----------+--------------+-----------+--------+',
        'Data migrations have completed.',
    ]


def test_summary_table(db, capsys, monkeypatch):
    use(monkeypatch, a_rather_long_name=Fake(60), b=Fake(7))
    code, out, _err = run(capsys, 'online_data_migrations')
    assert code == dbsync.EXIT_OK
    border = '+-%s-+-%s-+-%s-+-%s-+' % ('-' * 18, '-' * 12, '-' * 9, '-' * 6)
    assert out.splitlines()[-7:] == [
        border,
        '| Migration          | Total Needed | Completed | Errors |',
        border,
        '| a_rather_long_name |           60 |        60 |      0 |',
        '| b                  |            7 |         7 |      0 |',
        border,
        'Data migrations have completed.',
    ]


def test_a_migration_that_raises_exits_3(db, capsys, monkeypatch):
    before, broken, after = Fake(1), Fake(5, fail=True), Fake(5)
    use(monkeypatch, before=before, broken=broken, after=after)
    code, out, err = run(capsys, 'online_data_migrations')
    assert code == dbsync.EXIT_MIGRATION_ERROR == 3
    assert errors(err) == [
        'ERROR: online data migration broken failed: simulated failure']
    # The migrations after it are not run; the summary counts the error.
    assert after.calls == []
    assert '| broken    |            0 |         0 |      1 |' in out
    assert 'Data migrations have completed' not in out
    assert 'run this command again' not in out


def test_options_go_to_their_migration(db, capsys, monkeypatch):
    x, y = Fake(0), Fake(0)
    use(monkeypatch, bump_x=x, bump_y=y)
    code, _out, _err = run(
        capsys, 'online_data_migrations', '--option', 'bump_x.size=3',
        '--option', 'bump_x.mode=a=b', '--option', 'bump_y.flag=',
        '--option', 'bump_x.db.table=nodes')
    assert code == 0
    # The first dot ends the migration's name, the first "=" the key.
    assert x.calls == [(50, {'size': '3', 'mode': 'a=b',
                             'db.table': 'nodes'})]
    assert y.calls == [(50, {'flag': ''})]


@pytest.mark.parametrize('option', ['bump_x', 'bump_x.size', '.size=1',
                                    'bump_x.=1', 'size=1', 'nope.size=1'])
def test_bad_options_exit_127(db, capsys, monkeypatch, option):
    mig = Fake(1)
    use(monkeypatch, bump_x=mig)
    code, _out, err = run(capsys, 'online_data_migrations', '--option',
                          option)
    assert code == dbsync.EXIT_BAD_ARGS
    if option.startswith('nope'):
        assert errors(err) == [
            "ERROR: --option 'nope.size=1': no migration named 'nope' "
            "(known: bump_x)"]
    else:
        assert errors(err) == [
            'ERROR: --option %r is not MIGRATION.KEY=VALUE' % option]
    assert mig.calls == []


def test_parse_migration_options():
    known = [name for name, _f in obj_migrations.ONLINE_MIGRATIONS][0]
    assert dbsync.parse_migration_options([]) == {}
    assert dbsync.parse_migration_options(
        ['%s.a=1' % known, '%s.b=x.y=z' % known, '%s.a=2' % known]) == {
            known: {'a': '2', 'b': 'x.y=z'}}


# -- online data migrations on a real database --------------------------------

def test_rows_of_the_previous_release_are_moved_to_latest(db, capsys,
                                                          monkeypatch):
    """update_to_latest_versions: rows at a version the previous release
    wrote move to the latest; rows at a version nobody here reads stay."""
    objects.register_all()
    latest = objects.Node.VERSION
    # The newest release this tree rolls from (after a cut, the cut one).
    previous = release_mappings.rolls_from()[0]
    entry = release_mappings.RELEASE_MAPPING[previous]
    monkeypatch.setitem(entry['objects'], 'Node',
                        entry['objects']['Node'] + ['1.0'])
    assert run(capsys, 'upgrade')[0] == 0
    node_rows.insert_nodes(db, 3, '1.0')
    node_rows.insert_nodes(db, 1, '0.9')
    code, out, _err = run(capsys, 'online_data_migrations',
                          '--max-count', '2')
    assert code == dbsync.EXIT_RUN_AGAIN
    assert node_rows.node_versions(db) == sorted(
        ['0.9', '1.0', latest, latest])
    code, out, _err = run(capsys, 'online_data_migrations')
    assert code == dbsync.EXIT_OK, out
    assert node_rows.node_versions(db) == sorted(
        ['0.9', latest, latest, latest])
    # The unreadable row is still there for upgrade to refuse.
    assert run(capsys, 'upgrade')[0] == dbsync.EXIT_INCOMPATIBLE_DB


def test_a_confirming_batch_when_another_run_migrated_rows(db, capsys,
                                                           monkeypatch):
    """Rows counted but found migrated by another run: one more batch
    (numbered after the last) tells that none is left."""
    calls = []

    def migrate(context, max_count):
        assert context.is_admin
        calls.append(max_count)
        return (5, 0) if len(calls) == 1 else (0, 0)
    use(monkeypatch, bump_x=migrate)
    code, out, _err = run(capsys, 'online_data_migrations')
    assert code == dbsync.EXIT_OK
    assert calls == [50, 50]
    assert [line.split(' (')[0] for line in out.splitlines()
            if line.startswith('batch ')] == [
        'batch 1: bump_x: 0/5 migrated', 'batch 2: bump_x: 0/5 migrated']


def test_rows_of_a_skip_level_release_are_moved_to_latest(db, capsys,
                                                          monkeypatch):
    """Rows the oldest release this code rolls from wrote (skip-level)
    move to the latest; rows of a release it does not roll from (2.0's
    Node 1.1) stay, and upgrade refuses them."""
    objects.register_all()
    latest = objects.Node.VERSION
    oldest = release_mappings.oldest_roll_from()
    assert oldest != release_mappings.released_names()[0]
    entry = release_mappings.RELEASE_MAPPING[oldest]
    monkeypatch.setitem(entry['objects'], 'Node',
                        entry['objects']['Node'] + ['1.0'])
    too_old = release_mappings.RELEASE_MAPPING['2.0']['objects']['Node'][0]
    assert too_old not in release_mappings.supported_object_versions()[
        'Node']
    assert run(capsys, 'upgrade')[0] == 0
    node_rows.insert_nodes(db, 2, '1.0')
    node_rows.insert_nodes(db, 1, too_old)
    code, out, _err = run(capsys, 'online_data_migrations')
    assert code == dbsync.EXIT_OK, out
    assert node_rows.node_versions(db) == sorted([too_old, latest, latest])
    code, out, _err = run(capsys, 'upgrade')
    assert code == dbsync.EXIT_INCOMPATIBLE_DB
    assert '1 Node row(s) at version %s' % too_old in out


# -- import-ironic ------------------------------------------------------------

def test_import_ironic_prints_the_summary_and_exits_0(db, capsys, tmp_path):
    from tests import ironic_db
    url = 'sqlite:///%s' % (tmp_path / 'ironic.sqlite')
    ironic_db.fleet(ironic_db.create(url))
    assert run(capsys, 'upgrade')[0] == 0
    code, out, _err = run(capsys, 'import-ironic', '--source-connection', url)
    assert code == dbsync.EXIT_OK
    assert ('nodes                             3          3'
            in out.splitlines())
    # The nodes are reported against the configured drivers.
    assert '  driver=ipmi: 1' in out.splitlines()
    # A second run is refused: the target holds rows now.
    code, out, err = run(capsys, 'import-ironic', '--source-connection', url)
    assert code == 1 and out == ''
    assert errors(err) == [
        'ERROR: nothing imported: the ironic-lite database is not empty '
        '(chassis, nodes, node_traits, portgroups, ports, allocations, '
        'deploy_templates, deploy_template_steps, volume_connectors, '
        'volume_targets, node_history, bios_settings, node_inventory, '
        'inspection_rules, firmware_information, runbooks, runbook_steps, '
        'runbook_traits hold rows): an import goes into a new database '
        'only']


def test_import_ironic_that_fails_exits_1_without_a_traceback(
        db, capsys, tmp_path):
    from tests import ironic_db
    url = 'sqlite:///%s' % (tmp_path / 'ironic.sqlite')
    engine = ironic_db.create(url)
    ironic_db.fleet(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE nodes SET extra = '[1]' WHERE id = 8")
    assert run(capsys, 'upgrade')[0] == 0
    code, out, err = run(capsys, 'import-ironic', '--source-connection', url)
    assert (code, out) == (1, '')
    assert errors(err) == [
        'ERROR: the import failed and was rolled back, nothing is imported: '
        'TypeError: JSONEncodedDict stores dict objects, got list']


def test_import_ironic_needs_the_source(db, capsys):
    assert run(capsys, 'import-ironic')[0] == dbsync.EXIT_BAD_ARGS
