"""SIGHUP reloads the configuration; the service keeps serving.  SIGTERM
and SIGINT stop it, leaving its SQLite data in the database file."""

import os
import shutil
import signal
import sqlite3

import pytest

from tests.functional import procs
from tests import timeouts


def _available_node(base):
    status, _, node = procs.http('POST', base + '/v1/nodes',
                                 {'driver': 'fake-hardware'})
    assert status == 201, node
    for verb, state in (('manage', 'manageable'), ('provide', 'available')):
        status, _, body = procs.http(
            'PUT', '%s/v1/nodes/%s/states/provision' % (base, node['uuid']),
            {'target': verb})
        assert status == 202, body
        procs.wait_provision_state(base, node['uuid'], state)
    return node['uuid']


def test_sighup_reloads_and_keeps_serving(lite_service):
    base = lite_service.base
    first, second = _available_node(base), _available_node(base)
    # A mutable option: deleting available nodes is allowed by default.
    status, _, body = procs.http('DELETE', '%s/v1/nodes/%s' % (base, first))
    assert status == 204, body

    config = os.path.join(os.path.dirname(lite_service.log_path),
                          'ironic.conf')
    with open(config, 'a') as f:
        f.write('\n[conductor]\nallow_deleting_available_nodes = false\n')
    lite_service.proc.send_signal(signal.SIGHUP)
    procs.wait_for(lambda: 'Caught SIGHUP' in lite_service.log(),
                   what='the SIGHUP log line')

    # The reloaded value is in force without a restart (the reload runs
    # in the signal handler: once it is logged, it is done) ...
    procs.wait_for(
        lambda: procs.http('DELETE', '%s/v1/nodes/%s' % (base, second))[0]
        == 409, what='the reloaded option in force')
    status, _, body = procs.http('GET', '%s/v1/nodes/%s' % (base, second))
    assert status == 200 and body['provision_state'] == 'available', body
    # ... and the service kept serving.
    assert lite_service.alive()


@pytest.mark.parametrize('signum', [signal.SIGTERM, signal.SIGINT])
def test_clean_stop_leaves_the_data_in_the_sqlite_file(
        lite_service, tmp_path, signum):
    """After a clean stop the write-ahead log is empty or gone: a copy of
    the ``.sqlite`` file alone -- a backup -- holds every node."""
    names = ['wal-%d' % i for i in range(3)]
    for name in names:
        status, _, body = procs.http('POST', lite_service.base + '/v1/nodes',
                                     {'driver': 'fake-hardware',
                                      'name': name})
        assert status == 201, body
    # One signal, then wait: stop() would send SIGTERM again to a process
    # still stopping.
    lite_service.proc.send_signal(signum)
    assert lite_service.proc.wait(timeouts.HANG) == 0, lite_service.log()
    database = str(tmp_path / 'state' / 'ironic-lite.sqlite')
    wal = database + '-wal'
    assert not os.path.exists(wal) or os.path.getsize(wal) == 0
    backup = str(tmp_path / 'backup.sqlite')
    shutil.copyfile(database, backup)
    with sqlite3.connect(backup) as conn:
        copied = [row[0] for row in conn.execute(
            'SELECT name FROM nodes ORDER BY name')]
    assert copied == names
