"""What an operator who gets the rolling upgrade wrong sees.

* A new service pinned to a release it does not know refuses to start,
  listing the valid values.
* ``ironic-dbsync upgrade`` of a database that still holds rows of a
  release older than 1.0 (never migrated off it) refuses with exit 2 and
  leaves the schema alone.
* An unpinned new API in front of a 1.0 conductor (step 6.3 done before
  6.1) answers a 2.0 request with a clear error, and nothing is written;
  once the conductor runs the new code the same request works.
"""

import json
import uuid

import pytest
import sqlalchemy as sa

from tests.functional import procs
from tests.upgrade import deployment

SHARD_VERSION = '1.82'


# -- an unknown pin ------------------------------------------------------------

@pytest.mark.parametrize('service', ['ironic-api', 'ironic-conductor'])
@pytest.mark.parametrize('pin', ['0.5', 'master', '2.0'])
def test_unknown_pin_refused(tmp_path, new_release, service, pin):
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'pin_release_version': pin,
                    'transport_url': 'fake://',
                    'state_path': str(tmp_path)},
        'database': {'connection': 'sqlite:///%s' % (tmp_path / 'db')},
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port()},
    })
    result = procs.run_command(new_release.command(service),
                               '--config-file', config, check=False,
                               timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert 'pin_release_version' in output, output
    assert repr(pin) in output or pin in output, output
    # The valid values are listed: every released name and alias.
    from ironic_lite.common import release_mappings
    for choice in release_mappings.pin_choices():
        assert choice in output, (choice, output)
    assert 'Traceback' not in output, output


# -- rows older than release 1.0 -----------------------------------------------

def _insert_pre_1_0_node(db_url):
    """A node row as a release before 1.0 left it: version '0.9'."""
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                'INSERT INTO nodes (uuid, driver, conductor_group, '
                'protected, maintenance, console_enabled, retired, '
                'version) VALUES (:uuid, :driver, :group, :f, :f, :f, :f, '
                ':version)'),
                {'uuid': str(uuid.uuid4()), 'driver': 'fake-hardware',
                 'group': '', 'f': False, 'version': '0.9'})
    finally:
        engine.dispose()


def test_dbsync_upgrade_refuses_rows_older_than_1_0(tmp_path, db_url,
                                                     old_release,
                                                     new_release):
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
    revision_1_0 = revision(old_release)
    _insert_pre_1_0_node(db_url)

    result = dbsync(new_release, 'upgrade')
    assert result.returncode == 2, (result.returncode, result.stdout,
                                    result.stderr)
    assert '0.9' in result.stdout and 'Node' in result.stdout, result.stdout
    assert 'online_data_migrations' in result.stdout, result.stdout
    # Refused before anything changed: the schema is still 1.0's.
    assert revision(new_release) == revision_1_0

    status = procs.run_command(new_release.command('ironic-status'),
                               '--config-file', config, 'upgrade', 'check',
                               check=False)
    assert status.returncode == 2, (status.stdout, status.stderr)
    assert '0.9' in status.stdout, status.stdout


# -- an unpinned new API in front of a 1.0 conductor ---------------------------

def _error_message(body):
    """Ironic's error body: {"error_message": "<json with faultstring>"}."""
    assert isinstance(body, dict) and 'error_message' in body, body
    inner = body['error_message']
    if isinstance(inner, str):
        try:
            inner = json.loads(inner)
        except ValueError:
            return inner
    return inner.get('faultstring') or ''


def test_unpinned_api_with_1_0_conductor(tmp_path, postgresql_url,
                                         rabbit_url, old_release,
                                         new_release):
    """Step 6.3 before 6.1: the 1.0 conductor cannot read 2.0's Node."""
    dep = deployment.Deployment(str(tmp_path), postgresql_url, rabbit_url)
    report = []
    try:
        dep.dbsync(old_release, 'upgrade')
        dep.dbsync(new_release, 'upgrade')
        dep.start('conductor-1', 'conductor', old_release)
        dep.start('api-old', 'api', old_release)
        old_api = dep.api_url('api-old')
        status, _, node = procs.http('POST', old_api + '/v1/nodes',
                                     {'driver': 'fake-hardware',
                                      'extra': {'k': 1}}, version='1.1')
        assert status == 201, (status, node)
        node = node['uuid']
        # The mistake: a new API, unpinned, while the conductor is 1.0.
        dep.start('api-new', 'api', new_release)
        new_api = dep.api_url('api-new')
        url = '%s/v1/nodes/%s' % (new_api, node)

        status, _, body = procs.http(
            'PATCH', url, [{'op': 'add', 'path': '/shard', 'value': 'sa'}],
            version=SHARD_VERSION, timeout=120)
        report.append('PATCH /shard at %s via the unpinned API -> %s: %s'
                      % (SHARD_VERSION, status, body))
        # A clear conflict, not a 5xx that invites a retry.
        assert status == 409, report[-1]
        assert 'unpin every conductor' in _error_message(body), report[-1]
        row = _node_row(postgresql_url, node)
        assert row['shard'] is None, (row, report)
        assert row['version'] == '1.0', (row, report)

        # An ordinary 1.0 request through the same API: it must succeed
        # with the write persisted, or fail clearly with nothing written.
        status, _, body = procs.http(
            'PATCH', url, [{'op': 'replace', 'path': '/extra/k',
                            'value': 2}], version='1.1', timeout=120)
        report.append('PATCH /extra at 1.1 via the unpinned API -> %s: %s'
                      % (status, body))
        row = _node_row(postgresql_url, node)
        if status == 200:
            assert row['extra'] == {'k': 2}, (row, report)
        else:
            assert status == 409, report[-1]
            assert 'unpin every conductor' in _error_message(body), \
                report[-1]
            assert row['extra'] == {'k': 1}, (row, report)
        status, _, body = procs.http('GET', '%s/v1/nodes/%s'
                                     % (old_api, node), version='1.1')
        assert status == 200, (status, body)
        expected = 2 if row['extra'] == {'k': 2} else 1
        assert body['extra'] == {'k': expected}, body

        # Doing 6.1 (the conductor on the new code, unpinned) fixes it.
        dep.restart('conductor-1', new_release)
        status, _, body = procs.wait_for(
            lambda: _patch_ok(url), timeout=30,
            what='PATCH /shard after step 6.1')
        report.append('after 6.1: PATCH /shard -> %s' % status)
        assert body['shard'] == 'sa', body
        assert _node_row(postgresql_url, node)['shard'] == 'sa'
    finally:
        dep.stop_all()
        print('\n'.join(report))


def _patch_ok(url):
    result = procs.http('PATCH', url,
                        [{'op': 'add', 'path': '/shard', 'value': 'sa'}],
                        version=SHARD_VERSION)
    return result if result[0] == 200 else None


def _node_row(db_url, node):
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(sa.text(
                'SELECT shard, version, extra FROM nodes WHERE uuid = :u'),
                {'u': node}).mappings().one()
        row = dict(row)
        if isinstance(row['extra'], str):
            row['extra'] = json.loads(row['extra'])
        return row
    finally:
        engine.dispose()



# -- the old release's commit missing (e.g. a shallow clone) ------------------

def test_missing_release_commit_fails_loudly():
    """Never a skip: the message says how to get the history."""
    from tests.upgrade import releases
    with pytest.raises(pytest.fail.Exception) as failed:
        releases._check_commit('1.0', 'f' * 40)
    message = str(failed.value)
    assert 'f' * 40 in message and 'git fetch' in message, message
    assert '--unshallow' in message, message
