"""The target RAID configuration through the real RPC client and
conductor on the fake transport (conductor/raid.py, RPC 1.9): set and
cleared, applied by manual cleaning, and the logical disk properties."""

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects


RAID = {'logical_disks': [
    {'size_gb': 100, 'raid_level': '1', 'is_root_volume': True},
    {'size_gb': 'MAX', 'raid_level': '5'}]}


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


def test_set_and_clear_target_raid_config(rpc_api, context, make_node):
    node = make_node()
    rpc_api.set_target_raid_config(context, node, RAID)
    assert _stored(context, node).target_raid_config == RAID
    rpc_api.set_target_raid_config(context, node, {})
    assert _stored(context, node).target_raid_config == {}


def test_invalid_config_writes_nothing(rpc_api, context, make_node):
    node = make_node()
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.set_target_raid_config(
            context, node, {'logical_disks': [{'raid_level': '1'}]})
    assert str(err.value) == ("RAID config validation error: 'size_gb' is "
                              "a required property")
    assert _stored(context, node).target_raid_config == {}


def test_no_raid_refuses_a_config(rpc_api, context, make_node):
    node = make_node(raid_interface='no-raid')
    with pytest.raises(exception.UnsupportedDriverExtension):
        rpc_api.set_target_raid_config(context, node, RAID)
    rpc_api.set_target_raid_config(context, node, {})


def test_locked_node_is_refused(rpc_api, context, make_node, config):
    config.set_override('node_locked_retry_attempts', 1, group='conductor')
    node = make_node(reservation='other-host')
    with pytest.raises(exception.NodeLocked):
        rpc_api.set_target_raid_config(context, node, RAID)


def test_manual_clean_creates_then_deletes_the_config(rpc_api, context,
                                                      make_node, wait_node):
    node = make_node(provision_state='manageable', properties={})
    rpc_api.set_target_raid_config(context, node, RAID)
    rpc_api.do_node_clean(context, node, [
        {'interface': 'raid', 'step': 'create_configuration',
         'args': {'create_nonroot_volumes': False}}])
    done = wait_node(node.uuid, 'manageable', target_provision_state=None)
    assert done.raid_config['logical_disks'] == RAID['logical_disks'][:1]
    assert 'last_updated' in done.raid_config
    assert done.properties['local_gb'] == 100
    assert done.driver_internal_info[fake_hardware.EXECUTED_STEPS_KEY] == [
        'raid.create_configuration']
    rpc_api.do_node_clean(context, done, [
        {'interface': 'raid', 'step': 'delete_configuration'}])
    done = wait_node(node.uuid, 'manageable', target_provision_state=None)
    assert done.raid_config == {}
    assert done.target_raid_config == RAID


def test_logical_disk_properties(rpc_api, context, conductor):
    props = rpc_api.get_raid_logical_disk_properties(context,
                                                     'fake-hardware')
    assert props['raid_level'].startswith('The RAID level')
    assert len(props) == 10
    with pytest.raises(exception.DriverNotFound) as err:
        rpc_api.get_raid_logical_disk_properties(context, 'nope')
    assert err.value.code == 404
