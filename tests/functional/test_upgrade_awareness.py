"""Services report themselves; ironic-status and start-up read it.

Real ``ironic-status`` and ``ironic-api`` processes on an SQLite database
whose services and conductors tables hold the deployment under test: rows
written the way each release writes them (a release before 3.0 appears
only in the conductors table).
"""

import datetime
import sqlite3

import pytest

from ironic_lite.common import release_mappings
from ironic_lite.common import upgrade_state
from ironic_lite import version
from tests.functional import procs

NEW = version.RELEASE
# The release a rolling upgrade to NEW starts from.
OLD = upgrade_state.previous_release(NEW)
# Whether OLD's services write a services row (3.0 and later) or are seen
# through the conductors table only.
OLD_REPORTS = not upgrade_state.is_older(
    upgrade_state.Record('conductor', 'x', OLD, None),
    upgrade_state.FIRST_REPORTING_RELEASE)


def named_old(name):
    """How ironic-status names a conductor of OLD, unpinned."""
    return upgrade_state.describe(upgrade_state.Record(
        'conductor', name, OLD if OLD_REPORTS else None, None))


def _now(offset=0):
    stamp = (datetime.datetime.now(datetime.timezone.utc).replace(
        tzinfo=None) + datetime.timedelta(seconds=offset))
    return stamp.strftime('%Y-%m-%d %H:%M:%S.%f')


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / 'ironic.sqlite')


@pytest.fixture
def config(tmp_path, db_path):
    path = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'state_path': str(tmp_path), 'host': 'api-host',
                    'transport_url': 'fake://'},
        'database': {'connection': 'sqlite:///%s' % db_path},
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port()},
    })
    procs.run('ironic-dbsync', '--config-file', path, 'upgrade')
    return path


def legacy_conductor(db_path, hostname, age=0):
    """A conductor of a release before 3.0: the conductors table only."""
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            'INSERT INTO conductors (hostname, drivers, online, '
            "conductor_group, version, created_at, updated_at) "
            "VALUES (?, '[\"fake-hardware\"]', 1, '', '1.0', ?, ?)",
            (hostname, _now(-age), _now(-age)))


def service(db_path, kind, name, release=NEW, pin=None, age=0,
            online=True):
    """A services row as a service of ``release`` writes it (plus its
    conductor): at the Service version of its pin, else of its release."""
    written = pin or (release if release != NEW else 'master')
    row_version = release_mappings.RELEASE_MAPPING[written]['objects'][
        'Service'][0]
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            'INSERT INTO services (service_type, name, host, release, pin, '
            'online, version, created_at, updated_at) '
            'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
            (kind, name, name.split(':')[0], release, pin, int(online),
             row_version, _now(-age), _now(-age)))
    if kind == 'conductor':
        legacy_conductor(db_path, name, age)


def old_conductor(db_path, hostname, age=0):
    """A conductor of OLD, as OLD records itself."""
    if OLD_REPORTS:
        service(db_path, 'conductor', hostname, release=OLD, age=age)
    else:
        legacy_conductor(db_path, hostname, age)


def status(config):
    """(exit code, the result table's text on one line)."""
    result = procs.run('ironic-status', '--config-file', config, 'upgrade',
                       'check', check=False)
    return result.returncode, procs.unwrap_table(result.stdout)


def test_every_service_on_the_old_release(config, db_path):
    old_conductor(db_path, 'cond-1')
    old_conductor(db_path, 'cond-2')
    code, out = status(config)
    assert code == 1, out
    assert 'Step: 2: the schema is upgraded' in out
    assert ('Step 4.1: restart one conductor on release %s with '
            '[DEFAULT]/pin_release_version = %s.' % (NEW, OLD)) in out
    assert named_old('cond-1') in out


def test_conductors_being_upgraded(config, db_path):
    old_conductor(db_path, 'cond-1')
    service(db_path, 'conductor', 'cond-2', pin=OLD)
    code, out = status(config)
    assert code == 1, out
    assert 'Step: 4: conductors being upgraded.' in out
    assert 'Upgrade conductor(s) cond-1 to release %s' % NEW in out
    assert 'conductor cond-2 (release %s, pinned to %s)' % (NEW, OLD) in out


def test_unpinned_while_old_alive_fails(config, db_path):
    old_conductor(db_path, 'cond-1')
    service(db_path, 'conductor', 'cond-2', pin=OLD)
    service(db_path, 'api', 'api-1:6385')
    code, out = status(config)
    assert code == 2, out
    assert 'UNSAFE: Unpinned while services of an older release' in out
    assert 'api api-1:6385 (release %s, unpinned)' % NEW in out
    assert 'pin_release_version = %s' % OLD in out


def test_api_unpinned_before_the_conductors_fails(config, db_path):
    service(db_path, 'conductor', 'cond-1', pin=OLD)
    service(db_path, 'api', 'api-1:6385')
    code, out = status(config)
    assert code == 2, out
    assert 'UNSAFE: API services unpinned before every conductor' in out


def test_all_pinned_then_unpinning(config, db_path):
    service(db_path, 'conductor', 'cond-1', pin=OLD)
    service(db_path, 'conductor', 'cond-2', pin=OLD)
    service(db_path, 'api', 'api-1:6385', pin=OLD)
    code, out = status(config)
    assert code == 1, out
    if OLD_REPORTS:
        assert 'Step: 5.2: every service runs %s, pinned.' % NEW in out
        assert 'Unpin conductor(s) cond-1, cond-2 one at a time' in out
        return
    # Releases before 3.0: their API services do not report, so 4.2 to
    # 5.2 look the same.
    assert ('Step: 5: every conductor runs %s, pinned; API services of '
            'release %s cannot be seen.' % (NEW, OLD)) in out
    assert ('once none is left, unpin conductor(s) cond-1, cond-2 one at '
            'a time') in out
    assert 'ironic-api services of release %s do not report' % OLD in out


def test_done_and_stale_rows_ignored(config, db_path):
    service(db_path, 'conductor', 'cond-1')
    service(db_path, 'api', 'api-1:6385')
    # Gone: stopped (offline) or silent for longer than service_down_time.
    service(db_path, 'api', 'api-old:6385', release=OLD, online=False)
    old_conductor(db_path, 'cond-dead', age=3600)
    # The rows of services gone for good stay at the old Service version
    # until the online data migrations (Service 1.1, release 4.0).
    procs.run('ironic-dbsync', '--config-file', config,
              'online_data_migrations')
    code, out = status(config)
    assert code == 0, out
    assert 'Step: done: every service runs %s unpinned.' % NEW in out
    assert 'cond-dead' not in out and 'api-old' not in out


# -- starting unpinned -------------------------------------------------------

def test_api_refuses_to_start_unpinned_while_old_alive(config, db_path,
                                                       tmp_path):
    old_conductor(db_path, 'cond-1')
    result = procs.run('ironic-api', '--config-file', config, check=False)
    output = result.stdout + result.stderr  # the log goes to stdout
    assert result.returncode == 1, output
    assert 'Refusing to start api api-host:' in output
    assert named_old('cond-1') in output
    assert 'allow_unsafe_unpin' in output
    assert 'Traceback' not in output
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM services WHERE "
                            "service_type = 'api'").fetchone() == (0,)


@pytest.mark.parametrize('extra', [{'pin_release_version': OLD},
                                   {'allow_unsafe_unpin': 'true'}])
def test_api_starts_pinned_or_forced_and_reports(config, db_path, tmp_path,
                                                 extra):
    old_conductor(db_path, 'cond-1')
    with open(config, 'a') as f:
        f.write('[DEFAULT]\n' + ''.join('%s = %s\n' % kv
                                        for kv in extra.items()))
    api = procs.Service('ironic-api', config, str(tmp_path))
    try:
        port = _port_of(config)
        procs.wait_http('http://127.0.0.1:%d/v1' % port, api)
        with sqlite3.connect(db_path) as conn:
            rows = conn.execute("SELECT service_type, name, release, pin, "
                                "online FROM services WHERE service_type "
                                "= 'api'").fetchall()
        assert rows == [('api', 'api-host:%d' % port, NEW,
                         extra.get('pin_release_version'), 1)]
    finally:
        assert api.stop() == 0, api.log()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT online FROM services WHERE "
                            "service_type = 'api'").fetchall() == [(0,)]


def _port_of(config):
    with open(config) as f:
        for line in f:
            if line.startswith('port = '):
                return int(line.split('=')[1])
    raise AssertionError('no port in %s' % config)


def test_refused_on_the_previous_schema_too(tmp_path, db_path):
    """Before "ironic-dbsync upgrade" there is no services table: the old
    conductors are still seen, through the conductors table."""
    path = procs.write_config(str(tmp_path / 'old-schema.conf'), {
        'DEFAULT': {'state_path': str(tmp_path), 'host': 'api-host',
                    'transport_url': 'fake://'},
        'database': {'connection': 'sqlite:///%s' % db_path},
        'api': {'host_ip': '127.0.0.1', 'port': procs.free_port()},
    })
    procs.run('ironic-dbsync', '--config-file', path, 'upgrade',
              '--revision', 'b7e4f1c2d9a0')  # release 2.0's head
    legacy_conductor(db_path, 'cond-1')
    result = procs.run('ironic-api', '--config-file', path, check=False)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert 'conductor cond-1 (release before 3.0' in output, output
    code, out = status(path)
    assert code == 2, out  # the schema check fails
    assert 'Step: 0: every service runs an older release.' in out
