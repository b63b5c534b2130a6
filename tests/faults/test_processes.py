"""Processes failing under a two-API, two-conductor deployment: slow
clients, kill -9 of an API and of a conductor in the middle of deploying
and cleaning."""

import socket
import threading

import pytest

from tests.functional import procs
from tests import timeouts

pytestmark = pytest.mark.backend

# States a node may be left in once the dust settles: none transitional.
SETTLED = {'enroll', 'manageable', 'available', 'active', 'deploy failed',
           'clean failed'}


def test_half_open_connections_do_not_stall_an_api(scanned):
    """8 clients that send half a header and go silent (as a client whose
    machine vanished would) take no worker of api-1 away.  (The cluster
    keeps a silent connection for NEVER: had they held its workers, no
    request would be answered within a hang's bound.)"""
    cluster = scanned
    port = cluster.api_ports['api-1']
    slow = []
    try:
        for _ in range(8):
            sock = socket.create_connection(('127.0.0.1', port),
                                            timeouts.HANG)
            sock.sendall(b'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Half: ')
            slow.append(sock)
        for _ in range(10):
            status, _, body = procs.http(
                'GET', cluster.api_url('api-1') + '/v1/nodes')
            assert status == 200, body
    finally:
        for sock in slow:
            sock.close()


def test_api_kill_9_the_other_api_serves(scanned):
    cluster = scanned
    cluster.kill('api-1')
    try:
        statuses = [cluster.request('GET', '/v1/nodes')[0]
                    for _ in range(10)]
        statuses.append(cluster.request('POST', '/v1/nodes',
                                        {'driver': 'fake-hardware'})[0])
        assert statuses == [200] * 10 + [201], statuses
    finally:
        cluster.revive('api-1')
    status, _, _ = procs.http('GET', cluster.api_url('api-1') + '/v1/nodes')
    assert status == 200


def _in_parallel(func, items):
    threads = [threading.Thread(target=func, args=(item,)) for item in items]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeouts.HANG)


def _provision(cluster, uuid, verb):
    status, body = cluster.request(
        'PUT', '/v1/nodes/%s/states/provision' % uuid, {'target': verb})
    assert status == 202, (uuid, verb, status, body)


def test_conductor_kill_9_mid_deploy_and_clean(scanned):
    """The nodes of a conductor killed while it deploys and cleans them
    end unlocked and in a stable or failed state: none stays stuck."""
    cluster = scanned
    nodes = []
    for _ in range(8):
        status, body = cluster.request('POST', '/v1/nodes',
                                       {'driver': 'fake-hardware'})
        assert status == 201, body
        nodes.append(body['uuid'])
    deploy, clean = nodes[:4], nodes[4:]
    _in_parallel(cluster.make_available, deploy)
    _in_parallel(lambda u: _provision(cluster, u, 'manage'), clean)
    for uuid in clean:
        cluster.wait_state(uuid, lambda n: n['provision_state'] ==
                           'manageable' and not n['reservation'])
    owners = {}
    lock = threading.Lock()

    def start(uuid, verb):
        _provision(cluster, uuid, verb)
        # Read right after its own action was accepted, not after all of
        # them: the node is at work for FAKE_DELAY seconds from then.
        node = cluster.request('GET', '/v1/nodes/%s' % uuid)[1]
        if node['provision_state'] in ('deploying', 'cleaning',
                                       'wait call-back', 'clean wait'):
            with lock:
                owners.setdefault(node['conductor'], []).append(uuid)
    _in_parallel(lambda u: start(u, 'active'), deploy)
    _in_parallel(lambda u: start(u, 'provide'), clean)
    assert owners, 'no node was still at work: the fake work is too short'
    victim = max(owners, key=lambda host: len(owners[host]))
    cluster.kill(victim)
    try:
        # Found dead after HEARTBEAT_TIMEOUT (10 s); waited for as long as
        # a hang.
        for uuid in nodes:
            node = cluster.wait_state(
                uuid, lambda n: n['provision_state'] in SETTLED
                and not n['reservation'],
                what='settled after %s died' % victim)
            if uuid in owners[victim]:
                assert node['provision_state'] in (
                    'deploy failed', 'clean failed', 'active',
                    'available'), node
    finally:
        cluster.revive(victim)
    assert not cluster.locked_nodes()
