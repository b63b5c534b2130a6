"""Nova's and networking-baremetal's calls against ``ironic`` started
with the configuration devstack writes for Ironic (issue 37): the nodes
are enrolled with no interface named, as Nova's operators enroll them,
so every interface is the one Ironic's rules choose from
``[DEFAULT]enabled_<iface>_interfaces``.  Rescue and the serial console
work only if those rules pick the ``fake`` interfaces, as Ironic's do.
"""

import uuid

import pytest

from tests.functional import consumers
from tests.functional import procs
from tests.functional import test_ironic_conf
from tests import timeouts


class _Service(object):
    """What consumers.connect needs of a service."""

    credentials = procs.NOAUTH

    def __init__(self, base):
        self.base = base


@pytest.fixture(scope='module')
def bm(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('nova-ironic-conf')
    port, rpc_port = procs.free_port(), procs.free_port()
    config = procs.write_config(str(tmp / 'ironic.conf'), {
        'DEFAULT': dict(test_ironic_conf.DEVSTACK, host='127.0.0.1',
                        state_path=str(tmp / 'state')),
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1,
                      'sync_power_state_interval': 0},
        # devstack's rpc_transport = json-rpc: the API calls the conductor
        # of its own process over HTTP, on a port of this test's own.
        'json_rpc': {'host_ip': '127.0.0.1', 'port': rpc_port},
    })
    service = procs.Service('ironic', config, str(tmp))
    try:
        service.base = 'http://127.0.0.1:%d' % port
        procs.wait_http(service.base + '/v1', service)
        yield consumers.connect(_Service(service.base)).baremetal
    finally:
        assert service.stop() == 0


@pytest.mark.long(30)
def test_a_compute_life_with_ironic_default_interfaces(bm):
    node = consumers.enroll(bm, 'compute-9', '52:54:00:c9:00:01', 'n9')
    assert bm.get_node(node.id).rescue_interface == 'fake'
    consumers.compute_sdk(bm, 'compute-9')


@pytest.mark.long(30)
def test_nova_rescue_and_console_with_ironic_default_interfaces(bm):
    node = consumers.enroll(bm, 'compute-8', '52:54:00:c8:00:01', 'n8')
    node = bm.get_node(node.id)
    assert (node.rescue_interface, node.console_interface) == ('fake',
                                                               'fake')
    instance = str(uuid.uuid4())
    bm.patch_node(node, [
        {'op': 'add', 'path': '/instance_uuid', 'value': instance},
        {'op': 'add', 'path': '/instance_info',
         'value': {'image_source': 'http://images/i.qcow2'}}])
    bm.set_node_provision_state(node, 'active', wait=True,
                                timeout=timeouts.HANG)

    # Nova's rescue: the instance's password, then wait for "rescue".
    rescued = bm.set_node_provision_state(
        node, 'rescue', rescue_password='n0va-pw', wait=True,
        timeout=timeouts.HANG)
    assert (rescued.provision_state, rescued.last_error) == ('rescue', None)
    bm.set_node_provision_state(node, 'unrescue')
    node, = bm.wait_for_nodes_provision_state([node.id], 'active',
                                              timeout=timeouts.HANG)
    assert node.instance_id == instance

    # Nova's serial console: enable, read the connection, disable.
    bm.enable_node_console(node)
    info = procs.wait_for(
        lambda: (lambda c: c if c['console_enabled'] else None)(
            bm.get_node_console(node)), what='console enabled')
    # The fake console has no connection to give (Ironic's gives {}).
    assert info['console_info'] == {}, info
    bm.disable_node_console(node)
    procs.wait_for(lambda: not bm.get_node_console(node)['console_enabled'],
                   what='console disabled')

    bm.set_node_provision_state(node, 'deleted', wait=True,
                                timeout=timeouts.HANG)
    bm.wait_for_nodes_provision_state([node.id], 'available',
                                      timeout=timeouts.HANG)
