"""Issue 20 ("crash-consistent across processes") on the two-API,
two-conductor cluster: a conductor frozen past heartbeat_timeout cannot
undo what happened to its nodes meanwhile (fencing), and a database drop
at the moment a deployment ends leaves no node in ``deploying``."""

import signal

import pytest

from tests.functional import procs
from tests import timeouts

pytestmark = pytest.mark.backend

PROVISION = '/v1/nodes/%s/states/provision'


def _available_node(cluster):
    status, body = cluster.request('POST', '/v1/nodes',
                                   {'driver': 'fake-hardware'})
    assert status == 201, body
    cluster.make_available(body['uuid'])
    return body['uuid']


def _get(cluster, uuid):
    status, node = cluster.request('GET', '/v1/nodes/%s' % uuid)
    assert status == 200, node
    return node


def _deploy(cluster, uuid):
    """Start deploying; returns the label of the conductor doing it."""
    owner = _get(cluster, uuid)['conductor']
    status, body = cluster.request('PUT', PROVISION % uuid,
                                   {'target': 'active'})
    assert status == 202, body
    return owner


def _undeploy(cluster, uuid):
    """'deleted', retried while the API still routes to the frozen
    conductor (its ring is rebuilt every few seconds)."""
    def sent():
        status, body = cluster.request('PUT', PROVISION % uuid,
                                       {'target': 'deleted'})
        assert status in (202, 503), body
        return status == 202
    procs.wait_for(sent, interval=1, what='undeploy accepted')


@pytest.mark.long(60)
def test_frozen_conductor_does_not_undo_the_operator(scanned):
    """SIGSTOP the conductor mid-deploy; the other takes the node over and
    fails it, the operator undeploys it to available; SIGCONT: the node
    stays available -- the woken conductor's completion is dropped (its
    log says so), nothing of it is written."""
    cluster = scanned
    uuid = _available_node(cluster)
    owner = _deploy(cluster, uuid)
    service = cluster.services[owner]
    seen = len(service.log())
    service.proc.send_signal(signal.SIGSTOP)
    try:
        node = _get(cluster, uuid)
        assert (node['provision_state'], node['reservation']) == (
            'deploying', owner), 'deploy ended before the freeze: %s' % node
        cluster.wait_state(
            uuid, lambda n: n['provision_state'] == 'deploy failed'
            and not n['reservation'],
            timeout=timeouts.HANG,
            what='failed by the other conductor')
        _undeploy(cluster, uuid)
        cluster.wait_state(uuid, lambda n: n['provision_state'] ==
                           'available' and not n['reservation'],
                           what='available after undeploy')
    finally:
        service.proc.send_signal(signal.SIGCONT)
    # Until the woken conductor has tried to end its deploy: the write
    # dropped (logged), or -- what the fencing prevents -- made.
    procs.wait_for(lambda: 'no longer locked' in service.log()[seen:]
                   or _get(cluster, uuid)['provision_state'] != 'available',
                   what='%s ending its deploy' % owner)
    node = _get(cluster, uuid)
    assert (node['provision_state'], node['reservation'],
            node['last_error']) == ('available', None, None), node
    rows = cluster.sql('SELECT provision_state, reservation FROM nodes '
                       'WHERE uuid = :uuid', uuid=uuid)
    assert [tuple(r) for r in rows] == [('available', None)]
    assert 'no longer locked' in service.log()[seen:]


@pytest.mark.long(45)
def test_database_drop_at_the_completion_write(scanned):
    """The database goes away while a deploy runs, so the write of its
    end fails; once it is back the node is not left in deploying: the
    worker writes the end it kept (active), or -- if the other conductor
    took the node over first -- it is failed, never stuck and unlocked
    in deploying."""
    cluster = scanned
    uuid = _available_node(cluster)
    owner = _deploy(cluster, uuid)
    service = cluster.services[owner]
    seen = len(service.log())
    cluster.database.down()
    try:
        procs.wait_for(
            lambda: 'writing its end (event done) failed'
            in service.log()[seen:],
            what='%s failing to write the end of the deploy' % owner)
    finally:
        cluster.database.up()
    node = cluster.wait_state(
        uuid, lambda n: n['provision_state'] != 'deploying'
        and not n["reservation"], what='deploy settled')
    assert node['provision_state'] in ('active', 'deploy failed'), node
    if node['provision_state'] == 'deploy failed':
        assert node['last_error'], node
    print('settled in %s' % node['provision_state'])
    assert not cluster.locked_nodes()
