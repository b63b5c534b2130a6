"""The default inspection hooks of the agent inspect interface
(drivers/inspection_hooks.py), on their own: which interfaces are kept,
and Ironic's failures and their words."""

import types

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import agent_inspect
from ironic_lite.drivers import inspection_hooks

NODE = types.SimpleNamespace(uuid='1be26c0b-03f2-4d2d-ae87-c02d7f33c123',
                             driver_info={})
TASK = types.SimpleNamespace(node=NODE)


def _iface(name, mac, **extra):
    return dict(extra, name=name, mac_address=mac)


def test_only_the_boot_interface_when_the_inventory_names_it():
    inventory = {'interfaces': [
        _iface('eth0', '52:54:00:00:00:01'),
        _iface('eth1', '52-54-00-00-00-02'),
        _iface('lo', '00:00:00:00:00:00', ipv4_address='127.0.0.1'),
        _iface('', '52:54:00:00:00:03'),
        _iface('eth4', 'garbage')],
        'boot': {'pxe_interface': '01-52-54-00-00-00-02'}}
    data = {}
    inspection_hooks.validate_interfaces(TASK, inventory, data)
    assert sorted(data['all_interfaces']) == ['eth0', 'eth1', 'lo']
    assert data['macs'] == ['52:54:00:00:00:02']
    assert data['all_interfaces']['eth1']['pxe_enabled'] is True


def test_every_interface_but_loopbacks_without_a_boot_interface():
    inventory = {'interfaces': [
        _iface('eth0', '52:54:00:00:00:01'),
        _iface('eth1', '52:54:00:00:00:02', ipv6_address='::1%eth1')]}
    data = {}
    inspection_hooks.validate_interfaces(TASK, inventory, data)
    assert data['macs'] == ['52:54:00:00:00:01']


@pytest.mark.parametrize('inventory,reason', [
    ({'interfaces': [_iface('eth0', 'nope')]}, 'no valid network interfaces'),
    ({'interfaces': [_iface('lo', '00:00:00:00:00:00')]},
     'no network interfaces match the configuration (add_ports set to '
     '"pxe")'),
])
def test_no_interface_to_keep(inventory, reason):
    with pytest.raises(exception.InvalidNodeInventory) as err:
        inspection_hooks.validate_interfaces(TASK, inventory, {})
    assert str(err.value) == 'Inventory for node %s is invalid: %s' % (
        NODE.uuid, reason)


def test_a_missing_architecture_is_an_invalid_inventory():
    with pytest.raises(exception.InvalidNodeInventory) as err:
        inspection_hooks.architecture(TASK, {'cpu': {}}, {})
    assert str(err.value) == (
        'Inventory for node {0} is invalid: Inventory has malformed or '
        'missing CPU architecture information: {{}} for node {0}.'.format(
            NODE.uuid))


def test_preprocessing_failures_are_gathered_in_one_message():
    with pytest.raises(exception.HardwareInspectionFailure) as err:
        inspection_hooks.run(TASK, {'interfaces': []}, {'error': 'boom'})
    assert str(err.value) == (
        'Failed to inspect hardware. Reason: The following failures happened '
        'while running preprocess hooks for node %s:\n'
        'Error in preprocess hook ramdisk-error: Failed to inspect hardware. '
        'Reason: Ramdisk reported error: boom\n'
        'Unexpected exception InvalidNodeInventory during preprocess hook '
        'validate-interfaces: Inventory for node %s is invalid: no valid '
        'network interfaces' % (NODE.uuid, NODE.uuid))


def test_bmc_addresses_are_resolved_and_loopbacks_left_out():
    node = types.SimpleNamespace(uuid=NODE.uuid, driver_info={
        'redfish_address': 'https://192.0.2.9:8000/redfish',
        'other_address': '[2001:db8::5]',
        'local_address': '127.0.0.1',
        'redfish_username': 'admin'})
    assert agent_inspect.bmc_addresses(node) == ['192.0.2.9', '2001:db8::5']
