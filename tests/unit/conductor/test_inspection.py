"""What an out-of-band inspection leaves: the inventory (replacing the
previous one) and one port per new MAC address, none for a MAC that a
port of this or another node has."""

import datetime

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import inspection
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import task_manager
from ironic_lite import objects


def _store(context, node, macs, inventory):
    with task_manager.acquire(context, node.uuid,
                              purpose='test inspection') as task:
        inspection._store(task, {'inventory': inventory, 'plugin_data': {},
                                 'macs': macs})


def test_inventory_and_ports(context, conductor, make_node):
    node = make_node(provision_state='manageable')
    other = make_node(provision_state='manageable')
    objects.Port(context, node_id=other.id,
                 address='52:54:00:00:00:02').create()
    macs = ['52:54:00:00:00:01', '52:54:00:00:00:02']
    _store(context, node, macs, {'cpu': {'count': 1}})
    _store(context, node, macs, {'cpu': {'count': 2}})
    ports = objects.Port.list_by_node_id(context, node.id)
    assert [(p.address, p.pxe_enabled) for p in ports] == [
        ('52:54:00:00:00:01', True)]
    stored = objects.NodeInventory.get_by_node_id(context, node.id)
    assert stored.inventory_data == {'cpu': {'count': 2}}
    assert stored.plugin_data == {}


# -- in-band inspection: the agent inspect interface and RPC 1.11 -------------

INVENTORY = {
    'interfaces': [
        {'name': 'eth0', 'mac_address': '52:54:00:00:00:0A',
         'ipv4_address': '192.0.2.20', 'client_id': 'cid-0'},
        {'name': 'eth1', 'mac_address': '52:54:00:00:00:0b'},
        {'name': 'lo', 'mac_address': '00:00:00:00:00:00',
         'ipv4_address': '127.0.0.1'},
    ],
    'boot': {'pxe_interface': '01-52-54-00-00-00-0a'},
    'cpu': {'architecture': 'x86_64'},
    'bmc_address': '192.0.2.5',
}


def _agent_inspecting(context, rpc_api, make_node, wait_node):
    """A fake-hardware node inspected by the agent interface, waiting for
    its data, with an older port of eth1 (PXE enabled)."""
    node = make_node(provision_state='manageable', inspect_interface='agent',
                     power_state='power off',
                     driver_info={'fake_address': '192.0.2.5'})
    objects.Port(context, node_id=node.id, address='52:54:00:00:00:0b',
                 pxe_enabled=True).create()
    rpc_api.do_provisioning_action(context, node, 'inspect')
    return wait_node(node.uuid, 'inspect wait')


def test_agent_inspection_processes_and_stores_the_data(
        context, rpc_api, make_node, wait_node):
    node = _agent_inspecting(context, rpc_api, make_node, wait_node)
    assert node.power_state == 'power on'
    assert node.driver_internal_info['lookup_bmc_addresses'] == [
        '192.0.2.5']
    rpc_api.continue_inspection(context, node, INVENTORY,
                                plugin_data={'logs': 'xyz', 'k': 'v'})
    node = wait_node(node.uuid, 'manageable')
    assert node.power_state == 'power off'
    assert node.properties['cpu_arch'] == 'x86_64'
    assert 'lookup_bmc_addresses' not in node.driver_internal_info
    assert node.inspection_finished_at is not None
    # The default hooks: a port for the boot interface only (add_ports
    # = pxe), the existing one no longer PXE-enabled.
    ports = {p.address: (p.pxe_enabled, p.extra)
             for p in objects.Port.list_by_node_id(context, node.id)}
    assert ports == {'52:54:00:00:00:0a': (True, {'client-id': 'cid-0'}),
                     '52:54:00:00:00:0b': (False, {})}
    stored = objects.NodeInventory.get_by_node_id(context, node.id)
    assert stored.inventory_data == INVENTORY
    assert stored.plugin_data['k'] == 'v'
    assert 'logs' not in stored.plugin_data
    assert stored.plugin_data['macs'] == ['52:54:00:00:00:0a']


def test_a_ramdisk_error_fails_inspection(context, rpc_api, make_node,
                                          wait_node):
    node = _agent_inspecting(context, rpc_api, make_node, wait_node)
    rpc_api.continue_inspection(context, node, INVENTORY,
                                plugin_data={'error': 'disk on fire'})
    node = wait_node(node.uuid, 'inspect failed')
    assert node.last_error == (
        'Failed to finish inspection: Failed to inspect hardware. Reason: '
        'failed to run inspection hooks: Failed to inspect hardware. '
        'Reason: The following failures happened while running '
        'preprocess hooks for node %s:\nError in preprocess hook '
        'ramdisk-error: Failed to inspect hardware. Reason: Ramdisk '
        'reported error: disk on fire' % node.uuid)
    assert node.power_state == 'power off'
    assert objects.Port.list_by_node_id(context, node.id)[0].pxe_enabled


def test_data_for_a_node_not_waiting_is_refused(context, rpc_api,
                                                make_node):
    node = make_node(provision_state='manageable')
    with pytest.raises(exception.NotFound):
        rpc_api.continue_inspection(context, node, INVENTORY)


def test_abort_takes_the_ramdisk_down(context, rpc_api, make_node,
                                      wait_node):
    node = _agent_inspecting(context, rpc_api, make_node, wait_node)
    rpc_api.do_provisioning_action(context, node, 'abort')
    node = wait_node(node.uuid, 'inspect failed')
    assert node.power_state == 'power off'
    assert 'lookup_bmc_addresses' not in node.driver_internal_info


def test_inspect_wait_timeout_fails_the_inspection(
        context, config, conductor, rpc_api, make_node, wait_node):
    node = _agent_inspecting(context, rpc_api, make_node, wait_node)
    host = conductor.manager.host
    config.set_override('inspect_wait_timeout', 60, group='conductor')
    assert inspection.check_inspect_wait_timeouts(context, host) == []
    node.provision_updated_at = (datetime.datetime.utcnow()
                                 - datetime.timedelta(seconds=120))
    node.save()
    config.set_override('inspect_wait_timeout', 0, group='conductor')
    assert inspection.check_inspect_wait_timeouts(context, host) == []
    config.set_override('inspect_wait_timeout', 60, group='conductor')
    assert inspection.check_inspect_wait_timeouts(context, host) == [
        node.uuid]
    node = objects.Node.get_by_uuid(context, node.uuid)
    assert node.provision_state == 'inspect failed'
    assert node.last_error == inspection.TIMEOUT_ERROR
    assert node.power_state == 'power off'
    config.set_override('check_provision_state_interval', 10,
                        group='conductor')
    names = [f.__name__ for f, _ in conductor.manager._periodic_tasks()]
    assert '_check_inspect_wait_timeouts' in names


def test_pinned_to_5_0_the_inspection_data_is_refused(
        config, conductor, context, make_node):
    config.set_override('pin_release_version', '5.0')
    node = make_node(provision_state='inspect wait')
    with pytest.raises(exception.PinnedRelease) as err:
        rpcapi.ConductorAPI().continue_inspection(context, node, INVENTORY)
    assert '1.11' in str(err.value)
    assert objects.Node.get_by_uuid(
        context, node.uuid).provision_state == 'inspect wait'
