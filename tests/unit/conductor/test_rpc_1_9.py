"""RPC 1.9 through the real conductor on the fake transport: the target
RAID configuration and its application by manual cleaning, the logical
disk properties, vendor passthru of nodes and drivers, and a pinned
client's refusal."""

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import vendor
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import fake_hardware
from ironic_lite import objects
from tests.unit.conductor import test_rpc_versions

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


def test_node_vendor_methods_and_calls(rpc_api, context, make_node):
    node = make_node()
    methods = rpc_api.get_node_vendor_passthru_methods(context, node)
    assert methods['first_method'] == {
        'http_methods': ['POST'], 'async': True, 'attach': False,
        'description': 'Test if the value of bar is baz',
        'require_exclusive_lock': True}
    assert rpc_api.vendor_passthru(
        context, node, 'third_method_sync', 'post', {'bar': 'meow'}) == {
            'return': True, 'async': False, 'attach': False}
    for method in ('first_method', 'fourth_method_shared_lock'):
        assert rpc_api.vendor_passthru(
            context, node, method, 'POST', {'bar': 'x'}) == {
                'return': None, 'async': True, 'attach': False}
    with pytest.raises(exception.MissingParameterValue):
        rpc_api.vendor_passthru(context, node, 'second_method', 'POST', {})
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.vendor_passthru(context, node, 'second_method', 'GET',
                                {'bar': 'x'})
    assert str(err.value) == ('The method second_method does not support '
                              'HTTP GET')


def test_shared_lock_method_runs_on_a_locked_node(rpc_api, context,
                                                  make_node, config):
    config.set_override('node_locked_retry_attempts', 1, group='conductor')
    node = make_node(reservation='other-host')
    assert rpc_api.vendor_passthru(
        context, node, 'fourth_method_shared_lock', 'POST',
        {'bar': 'woof'})['async'] is True
    with pytest.raises(exception.NodeLocked):
        rpc_api.vendor_passthru(context, node, 'first_method', 'POST',
                                {'bar': 'baz'})


class _DriverVendor(fake_hardware.FakeVendor):
    @drivers_base.driver_passthru(['GET', 'POST'], async_call=False,
                                  description='echo')
    def echo(self, context, http_method, text=''):
        return {'http_method': http_method, 'text': text}

    @drivers_base.driver_passthru(['POST'], async_call=False)
    def broken(self, context, http_method):
        raise ValueError('driver bug')


def test_driver_vendor_methods(rpc_api, context, conductor, monkeypatch):
    assert rpc_api.get_driver_vendor_passthru_methods(
        context, 'fake-hardware') == {}
    monkeypatch.setattr(vendor, '_driver_vendor',
                        lambda name: _DriverVendor())
    assert rpc_api.get_driver_vendor_passthru_methods(
        context, 'fake-hardware')['echo'] == {
            'http_methods': ['GET', 'POST'], 'async': False,
            'attach': False, 'description': 'echo'}
    assert rpc_api.driver_vendor_passthru(
        context, 'fake-hardware', 'echo', 'get', {'text': 'hi'}) == {
            'return': {'http_method': 'GET', 'text': 'hi'}, 'async': False,
            'attach': False}
    with pytest.raises(exception.InvalidParameterValue):
        rpc_api.driver_vendor_passthru(context, 'fake-hardware', 'echo',
                                       'PUT', {})
    # A driver's own error is a 400 naming the method, never a 5xx.
    with pytest.raises(exception.InvalidParameterValue) as err:
        rpc_api.driver_vendor_passthru(context, 'fake-hardware', 'broken',
                                       'POST', {})
    assert str(err.value) == ('Vendor passthru method broken failed: '
                              'driver bug')


def test_pinned_to_4_0_refuses_every_1_9_method(config, conductor, context,
                                                make_node, monkeypatch):
    config.set_override('pin_release_version', '4.0')
    try:
        pinned = rpcapi.ConductorAPI()
        calls = test_rpc_versions._spy(pinned, monkeypatch)
        node = make_node()
        for method, args in (
                ('set_target_raid_config', (node, RAID)),
                ('get_raid_logical_disk_properties', ('fake-hardware',)),
                ('vendor_passthru', (node, 'first_method', 'POST', {})),
                ('driver_vendor_passthru',
                 ('fake-hardware', 'x', 'POST', {})),
                ('get_node_vendor_passthru_methods', (node,)),
                ('get_driver_vendor_passthru_methods', ('fake-hardware',))):
            with pytest.raises(exception.PinnedRelease) as err:
                getattr(pinned, method)(context, *args)
            assert err.value.code == 409
            assert '1.9' in str(err.value)
        assert calls == []
        assert _stored(context, node).target_raid_config == {}
    finally:
        config.clear_override('pin_release_version')
