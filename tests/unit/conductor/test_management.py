"""Driver interface validation and boot devices through the real RPC
client and conductor on the fake transport (conductor/management.py, RPC
1.2)."""

import pytest

from ironic_lite.common import exception
from ironic_lite import objects


def test_validate_driver_interfaces(rpc_api, context, make_node):
    node = make_node(bios_interface='no-bios')
    result = rpc_api.validate_driver_interfaces(context, node)
    assert set(result) == {'bios', 'boot', 'console', 'deploy', 'firmware',
                           'inspect',
                           'management', 'network', 'power', 'raid',
                           'rescue', 'storage'}
    assert result['power'] == {'result': True}
    assert result['deploy'] == {'result': True}
    assert result['bios']['result'] is False
    assert 'does not support bios' in result['bios']['reason']


def test_boot_device_round_trip(rpc_api, context, make_node):
    node = make_node()
    assert rpc_api.get_supported_boot_devices(context, node) == ['pxe',
                                                                 'disk']
    assert rpc_api.get_boot_device(context, node) == {
        'boot_device': 'pxe', 'persistent': False}
    rpc_api.set_boot_device(context, node, 'disk', persistent=True)
    assert rpc_api.get_boot_device(context, node) == {
        'boot_device': 'disk', 'persistent': True}
    with pytest.raises(exception.InvalidParameterValue):
        rpc_api.set_boot_device(context, node, 'floppy')
    assert objects.Node.get_by_uuid(context, node.uuid).reservation is None
