"""A ramdisk deploy completed by its agent, against the embedded service
(``ironic-lite``, http_basic): the operator deploys a fake-hardware node
with ``deploy_interface=ramdisk`` through openstacksdk; the node waits in
``wait call-back``; the test plays the agent with no credentials at all
(the lookup and heartbeat routes are public): it looks itself up by MAC,
gets its token, heartbeats with it, and the node goes ``active``.  A
wrong token is refused.  Then the operator undeploys.
"""

import contextlib

import pytest

from tests import agent
from tests.functional import conftest
from tests.functional import consumers

MAC = '52:54:00:aa:bb:01'
CALLBACK = 'http://192.0.2.50:9999'


@pytest.fixture(scope='module')
def lite(tmp_path_factory):
    with contextlib.ExitStack() as stack:
        service = conftest.start_lite(
            str(tmp_path_factory.mktemp('agent')), auth='http_basic')
        stack.callback(conftest.stop_lite, service)
        yield service


@pytest.fixture(scope='module')
def bm(lite):
    return consumers.connect(lite).baremetal


def _heartbeat(lite, node_id, token):
    return agent.heartbeat(lite.base, node_id, {
        'callback_url': CALLBACK, 'agent_token': token,
        'agent_version': '10.0.0', 'agent_status': 'start'})


def test_agent_completes_a_ramdisk_deploy(lite, bm):
    node = bm.create_node(driver='fake-hardware', name='agent-node',
                          deploy_interface='ramdisk')
    bm.create_port(node_uuid=node.id, address=MAC)
    bm.set_node_provision_state(node, 'manage', wait=True)
    bm.set_node_provision_state(node, 'provide', wait=True)
    bm.set_node_provision_state(node, 'active')
    node, = bm.wait_for_nodes_provision_state([node.id], 'wait call-back')
    assert node.target_provision_state == 'active'
    assert node.power_state == 'power on'

    # The agent: no credentials.
    resp = agent.lookup(lite.base, {'addresses': MAC.upper() + ',garbage'})
    assert resp.status_code == 200, resp.text
    found = resp.json()
    assert found['node']['uuid'] == node.id
    token = found['config']['agent_token']
    assert token and token != '******'
    # The agent calls anonymously: as Ironic 39, whose lookup renders the
    # node through the same sanitizing as a GET, it sees none of
    # driver_internal_info (baremetal:node:get:driver_internal_info).
    assert found['node']['driver_internal_info'] == {
        'content': '** Redacted - Requires baremetal:node:get:'
                   'driver_internal_info permission. **'}
    # Only once.
    again = agent.lookup(lite.base, {'node_uuid': node.id}).json()
    assert again['config']['agent_token'] == '******'
    # The operator never sees the token.
    assert bm.get_node(node.id).driver_internal_info[
        'agent_secret_token'] == '******'

    wrong = _heartbeat(lite, node.id, 'not-' + token)
    assert wrong.status_code == 400
    assert 'Invalid or missing agent token received.' in wrong.text
    assert bm.get_node(node.id).provision_state == 'wait call-back'

    resp = _heartbeat(lite, 'agent-node', token)
    assert resp.status_code == 202, resp.text
    node, = bm.wait_for_nodes_provision_state([node.id], 'active')
    assert node.target_provision_state is None
    assert node.last_error is None
    internal = node.driver_internal_info
    assert internal['agent_version'] == '10.0.0'
    assert 'agent_secret_token' not in internal

    # The deploy is over: the token no longer works, a lookup finds
    # nothing in "active".
    assert _heartbeat(lite, node.id, token).status_code == 400
    assert agent.lookup(lite.base, {'addresses': MAC}).status_code == 404

    bm.set_node_provision_state(node, 'deleted')
    node, = bm.wait_for_nodes_provision_state([node.id], 'available')
    assert node.power_state == 'power off'
    assert not [k for k in bm.get_node(node.id).driver_internal_info
                if k.startswith('agent_')]
