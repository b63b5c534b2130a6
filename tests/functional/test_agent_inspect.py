"""In-band inspection completed by the ramdisk's agent, against the
embedded service (``ironic-lite``, http_basic, the ``agent`` inspect
interface enabled): the operator inspects a fake-hardware node through
openstacksdk; the node waits in ``inspect wait``; the test plays the
agent with no credentials: it sends its inventory to
``/v1/continue_inspection`` (found by MAC), gets its token back, and the
node goes ``manageable`` with its ports, ``cpu_arch`` and the inventory
served at ``/v1/nodes/<node>/inventory``.
"""

import contextlib

import pytest
import requests

from tests import agent
from tests.functional import conftest
from tests.functional import consumers
from tests import timeouts

MAC = '52:54:00:aa:bb:02'
INVENTORY = {
    'interfaces': [{'name': 'eth0', 'mac_address': MAC,
                    'ipv4_address': '192.0.2.30'}],
    'boot': {'pxe_interface': MAC},
    'cpu': {'architecture': 'aarch64'},
}


@pytest.fixture(scope='module')
def lite(tmp_path_factory):
    with contextlib.ExitStack() as stack:
        service = conftest.start_lite(
            str(tmp_path_factory.mktemp('inspect')), auth='http_basic',
            options={'enabled_inspect_interfaces': 'agent,fake,no-inspect'})
        stack.callback(conftest.stop_lite, service)
        yield service


@pytest.fixture(scope='module')
def bm(lite):
    return consumers.connect(lite).baremetal


def test_agent_completes_an_inspection(lite, bm):
    node = bm.create_node(driver='fake-hardware', name='inspected',
                          inspect_interface='agent')
    bm.set_node_provision_state(node, 'manage', wait=True)
    bm.set_node_provision_state(node, 'inspect')
    node, = bm.wait_for_nodes_provision_state([node.id], 'inspect wait')
    assert node.power_state == 'power on'

    # Data no node matches: the same bare 404, nothing changes.
    other = dict(INVENTORY, interfaces=[
        {'name': 'eth0', 'mac_address': '52:54:00:aa:bb:ff'}])
    resp = agent.continue_inspection(lite.base, {'inventory': other})
    assert resp.status_code == 404, resp.text

    # The agent: no credentials.  The node has no port yet: it is found
    # by the UUID the agent sends (?node_uuid=, 1.84).
    resp = agent.continue_inspection(
        lite.base, {'inventory': INVENTORY, 'root_disk': 'sda'},
        params={'node_uuid': node.id})
    assert resp.status_code == 202, resp.text
    found = resp.json()
    assert found['node']['uuid'] == node.id
    assert found['config']['agent_token'] not in (None, '******')

    node, = bm.wait_for_nodes_provision_state([node.id], 'manageable')
    assert node.last_error is None
    assert node.power_state == 'power off'
    assert node.properties['cpu_arch'] == 'aarch64'
    ports = list(bm.ports(node_uuid=node.id, details=True))
    assert [(p.address, p.is_pxe_enabled) for p in ports] == [(MAC, True)]
    creds = lite.credentials
    inventory = requests.get(
        '%s/v1/nodes/%s/inventory' % (lite.base, node.id),
        auth=(creds.username, creds.password),
        headers={'X-OpenStack-Ironic-API-Version': '1.84'},
        timeout=timeouts.HANG).json()
    assert inventory['inventory'] == INVENTORY
    assert inventory['plugin_data']['root_disk'] == 'sda'
