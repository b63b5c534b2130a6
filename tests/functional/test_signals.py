"""SIGHUP reloads the configuration; the service keeps serving."""

import os
import signal

from tests.functional import procs


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
