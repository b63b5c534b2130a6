"""HTTP stories shared by the process-level tests."""

from tests.functional import procs


def node_lifecycle(base, name='node-0', mac='52:54:00:aa:bb:01'):
    """Drive one node from enroll to active and back to available."""
    status, hdrs, node = procs.http('POST', base + '/v1/nodes',
                                    {'driver': 'fake-hardware',
                                     'name': name})
    assert status == 201, node
    assert node['provision_state'] == 'enroll'
    uuid = node['uuid']

    status, _, port = procs.http('POST', base + '/v1/ports',
                                 {'address': mac, 'node_uuid': uuid})
    assert status == 201, port

    for verb, state in (('manage', 'manageable'), ('provide', 'available'),
                        ('active', 'active')):
        status, _, body = procs.http(
            'PUT', '%s/v1/nodes/%s/states/provision' % (base, uuid),
            {'target': verb})
        assert status == 202, (verb, body)
        procs.wait_provision_state(base, uuid, state)

    node = procs.http('GET', '%s/v1/nodes/%s' % (base, uuid))[2]
    assert node['power_state'] == 'power on'

    status, _, body = procs.http(
        'PUT', '%s/v1/nodes/%s/states/power' % (base, uuid),
        {'target': 'power off'})
    assert status == 202, body
    procs.wait_for(lambda: procs.http(
        'GET', '%s/v1/nodes/%s' % (base, uuid))[2]['power_state']
        == 'power off', what='power off')

    status, _, body = procs.http(
        'PUT', '%s/v1/nodes/%s/states/provision' % (base, uuid),
        {'target': 'deleted'})
    assert status == 202, body
    node = procs.wait_provision_state(base, uuid, 'available')
    assert node['reservation'] is None
    return uuid
