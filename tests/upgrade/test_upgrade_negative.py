"""What an operator who gets the rolling upgrade wrong sees.

* A new service pinned to a release it does not know refuses to start,
  listing the valid values.
* A new service pinned to a release it does not roll from (2.0: older
  than its skip-level 3.0) refuses to start, naming those it rolls from.
* ``ironic-dbsync upgrade`` of a database that still holds rows older
  than the releases it rolls from read (1.0's nodes never migrated by
  2.0) refuses with exit 2 and leaves the schema alone.
* A new service started unpinned while an old conductor runs refuses to
  start, saying why; forced with ``allow_unsafe_unpin`` it starts and
  ``ironic-status`` fails naming it; pinned it starts.
"""

import os
import subprocess
import sys
import uuid

import pytest
import sqlalchemy as sa

from tests.functional import procs
from tests import timeouts
from tests.upgrade import conftest
from tests.upgrade import deployment


# -- an unknown pin -----------------------------------------------------------

@pytest.mark.parametrize('service', ['ironic-api', 'ironic-conductor'])
@pytest.mark.parametrize('pin', ['0.5', 'master', '9.0'])
def test_unknown_pin_refused(tmp_path, new_release, service, pin):
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'pin_release_version': pin,
                    'transport_url': 'fake://',
                    'state_path': str(tmp_path)},
        'database': {'connection': 'sqlite:///%s' % (tmp_path / 'db')},
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port()},
    })
    result = procs.run_command(new_release.command(service),
                               '--config-file', config, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert 'pin_release_version' in output, output
    assert repr(pin) in output or pin in output, output
    # The valid values are listed: every released name and alias.
    from ironic_lite.common import release_mappings
    for choice in release_mappings.pin_choices():
        assert choice in output, (choice, output)
    assert 'Traceback' not in output, output


def test_pin_to_a_release_too_old_refused(tmp_path, new_release):
    from ironic_lite.common import release_mappings
    too_old = [n for n in release_mappings.released_names()
               if n not in release_mappings.rolls_from()][0]
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'pin_release_version': too_old,
                    'transport_url': 'fake://',
                    'state_path': str(tmp_path)},
        'database': {'connection': 'sqlite:///%s' % (tmp_path / 'db')},
    })
    result = procs.run_command(new_release.command('ironic-conductor'),
                               '--config-file', config, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert ('pin_release_version = %s names a release this code cannot '
            'run beside' % too_old) in output, output
    assert ', '.join(release_mappings.rolls_from()) in output, output
    assert 'Traceback' not in output, output


# -- rows older than the old release reads ------------------------------------

def _insert_old_node(db_url, version):
    """A node row at ``version``, as an older release left it."""
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                'INSERT INTO nodes (uuid, driver, conductor_group, '
                'protected, maintenance, console_enabled, retired, '
                'version) VALUES (:uuid, :driver, :group, :f, :f, :f, :f, '
                ':version)'),
                {'uuid': str(uuid.uuid4()), 'driver': 'fake-hardware',
                 'group': '', 'f': False, 'version': version})
    finally:
        engine.dispose()


@pytest.mark.long(30)
# The refusal is backend-independent code over a version column, and each
# run is a few commands over a whole schema: the real skip-level case
# (release 1.0's Node, never migrated by 2.0) on every backend, a version
# that was never a release on the embedded default only.
@pytest.mark.parametrize('db_url,version', [
    ('sqlite', '0.9'),
    ('sqlite', '1.0'),
    ('postgresql', '1.0'),
    ('mysql', '1.0'),
], indirect=['db_url'])
def test_dbsync_upgrade_refuses_rows_too_old(tmp_path, db_url, old_release,
                                             new_release, version):
    config = procs.write_config(str(tmp_path / 'dbsync.conf'), {
        'DEFAULT': {'state_path': str(tmp_path)},
        'database': {'connection': db_url},
    })

    def dbsync(release, *args):
        return procs.run_command(release.command('ironic-dbsync'),
                                 '--config-file', config, *args,
                                 check=False)

    def revision(release):
        # The revision is the last line (logging may come before it).
        return dbsync(release, 'version').stdout.strip().splitlines()[-1]

    assert dbsync(old_release, 'upgrade').returncode == 0
    old_revision = revision(old_release)
    _insert_old_node(db_url, version)

    result = dbsync(new_release, 'upgrade')
    assert result.returncode == 2, (result.returncode, result.stdout,
                                    result.stderr)
    assert ('1 Node row(s) at version %s' % version) in result.stdout, \
        result.stdout
    assert 'online_data_migrations' in result.stdout, result.stdout
    # Refused before anything changed: the schema is still the old one.
    assert revision(new_release) == old_revision

    status = procs.run_command(new_release.command('ironic-status'),
                               '--config-file', config, 'upgrade', 'check',
                               check=False)
    assert status.returncode == 2, (status.stdout, status.stderr)
    assert version in status.stdout, status.stdout


# -- a new service unpinned while an old conductor runs -----------------------

@pytest.mark.long(60)
def test_unpinned_start_refused_while_old_conductor_alive(
        tmp_path, postgresql_url, rabbit_url, old_release, new_release):
    """Unpinning too early is refused at start, unless forced -- and
    ironic-status then fails, naming the services at fault."""
    dep = deployment.Deployment(str(tmp_path), postgresql_url, rabbit_url)
    try:
        dep.dbsync(old_release, 'upgrade')
        dep.dbsync(new_release, 'upgrade')
        dep.start('conductor-1', 'conductor', old_release)

        # The mistake: a new API, unpinned, while the conductor is old.
        output = dep.start_refused('api-new', 'api', new_release)
        assert conftest.old_conductor_named('conductor-1') in output, output
        assert 'pin_release_version = %s' % old_release.name in output

        # Forced: it starts, and ironic-status fails naming it.
        config = dep.config('api-new', 'api')
        with open(config, 'a') as f:
            f.write('[DEFAULT]\nallow_unsafe_unpin = true\n')
        api = procs.Service('ironic-api', config, dep.workdir,
                            label='api-new',
                            executable=new_release.command('ironic-api'))
        dep.services['api-new'] = api
        procs.wait_http(dep.api_url('api-new') + '/v1', api)
        status = dep.status(new_release)
        assert status.returncode == 2, status.stdout
        assert 'UNSAFE' in status.stdout, status.stdout
        assert 'api-new' in status.stdout, status.stdout
        assert api.stop() == 0, api.log()

        # Pinned, as the guide says: it starts; the deployment is in
        # step 4 (an old conductor is still alive).
        dep.start('api-new', 'api', new_release, pin=old_release.name)
        status = dep.status(new_release)
        assert status.returncode == 1, status.stdout
        assert 'Step: 4' in procs.unwrap_table(status.stdout), status.stdout
    finally:
        dep.stop_all()


# -- the old release's commit missing (e.g. a shallow clone) ------------------

def test_missing_release_commit_fails_loudly():
    """Never a skip: the message says how to get the history."""
    from tools import install_release
    with pytest.raises(install_release.InstallError) as failed:
        install_release.check_commit('1.0', 'f' * 40)
    message = str(failed.value)
    assert 'f' * 40 in message and 'git fetch' in message, message
    assert '--unshallow' in message, message


def test_an_unknown_release_is_named_with_the_known_ones(tmp_path):
    """The operator's command: exit 1 and the releases it knows."""
    from tools import install_release
    result = subprocess.run(
        [sys.executable, install_release.__file__, '9.9', '--venv',
         str(tmp_path / 'venv')], capture_output=True, text=True,
        timeout=timeouts.HANG)
    assert result.returncode == 1
    assert "release '9.9' is not recorded" in result.stderr
    assert '3.0' in result.stderr and 'Traceback' not in result.stderr
    assert not (tmp_path / 'venv').exists()


def test_the_operator_tool_installs_what_the_tests_run(old_release):
    """tests/upgrade builds the old release with the operator's tool: the
    same commit, a complete venv."""
    from tools import install_release
    venv = os.path.dirname(old_release.bin_dir)
    assert install_release.is_complete(venv, old_release.commit)
    assert old_release.commit == install_release.release_commit(
        old_release.name)


def test_the_old_release_runs_its_own_code(old_release, new_release):
    """Its commands import its own package, not the working tree that
    the tests' PYTHONPATH may point at (tests/functional/procs.env_of)."""
    from tests.functional import procs
    probe = ('import ironic_lite, ironic_lite.version as v; '
             'print(v.RELEASE, ironic_lite.__file__)')
    # -P: no current directory on sys.path (a console script has none).
    old = procs.run_command(old_release.command('python'), '-P', '-c',
                            probe)
    release, path = old.stdout.split()
    assert release == old_release.name, old.stdout
    assert path.startswith(os.path.dirname(old_release.bin_dir)), path
    new = procs.run_command(new_release.command('python'), '-P', '-c',
                            probe)
    assert new.stdout.split()[0] == new_release.name, new.stdout
