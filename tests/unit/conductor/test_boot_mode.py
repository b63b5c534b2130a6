"""Boot mode and secure boot through the real RPC client and conductor on
the fake transport (conductor/boot_mode.py, RPC 1.8): changed in a
worker, cached on the node by verify and by the power sync."""

import pytest

from ironic_lite.common import exception
from ironic_lite.conductor import power
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import fake_management
from ironic_lite import objects
from tests.unit.conductor import conftest


def _stored(context, node):
    return objects.Node.get_by_uuid(context, node.uuid)


def test_change_boot_mode_and_secure_boot(rpc_api, context, make_node,
                                          wait_node):
    node = make_node(last_error='an older failure')
    rpc_api.change_node_boot_mode(context, node, 'uefi')
    node = wait_node(node.uuid, boot_mode='uefi', last_error=None)
    assert node.driver_internal_info == {
        fake_management.BOOT_MODE_KEY: 'uefi'}
    rpc_api.change_node_secure_boot(context, node, True)
    node = wait_node(node.uuid, secure_boot=True)
    assert node.boot_mode == 'uefi'
    rpc_api.change_node_boot_mode(context, node, 'bios')
    rpc_api.change_node_secure_boot(context, wait_node(
        node.uuid, boot_mode='bios'), False)
    node = wait_node(node.uuid, secure_boot=False)
    assert node.driver_internal_info[fake_management.SECURE_BOOT_KEY] is \
        False


def test_a_failing_change_is_the_last_error(rpc_api, context, make_node,
                                            wait_node, monkeypatch):
    def broken(self, task, mode):
        raise exception.InvalidParameterValue(err='the BMC said no')
    monkeypatch.setattr(fake_hardware.FakeManagement, 'set_boot_mode',
                        broken)
    node = make_node()
    rpc_api.change_node_boot_mode(context, node, 'uefi')
    node = wait_node(node.uuid, last_error="Failed to change boot mode to "
                                           "'uefi': the BMC said no")
    assert node.boot_mode is None


def test_unsupported_secure_boot_is_the_last_error(rpc_api, context,
                                                   make_node, wait_node,
                                                   monkeypatch):
    from ironic_lite.drivers import base
    monkeypatch.setattr(fake_hardware.FakeManagement,
                        'set_secure_boot_state',
                        base.ManagementInterface.set_secure_boot_state)
    node = make_node()
    rpc_api.change_node_secure_boot(context, node, True)
    node = wait_node(node.uuid, last_error=(
        "Failed to change secure_boot state to 'True': Driver "
        "fake-hardware does not support set_secure_boot_state (disabled "
        "or not implemented)."))
    assert node.secure_boot is None


def test_nothing_set_when_the_hardware_has_it(rpc_api, context, make_node,
                                              wait_node, monkeypatch):
    def must_not_run(self, task, mode):
        raise AssertionError('set although already set')
    monkeypatch.setattr(fake_hardware.FakeManagement, 'set_boot_mode',
                        must_not_run)
    node = make_node(driver_internal_info={
        fake_management.BOOT_MODE_KEY: 'bios'})
    rpc_api.change_node_boot_mode(context, node, 'bios')
    # The node learns what the hardware has (the cache), with no error.
    node = wait_node(node.uuid, boot_mode='bios')
    assert node.last_error is None


@pytest.mark.parametrize('state', ['deploying', 'clean wait', 'adopting'])
def test_a_transitioning_node_is_refused_under_the_lock(rpc_api, context,
                                                        make_node, state):
    node = make_node(provision_state=state, last_error='kept')
    for call, target in ((rpc_api.change_node_boot_mode, 'uefi'),
                         (rpc_api.change_node_secure_boot, True)):
        with pytest.raises(exception.NodeTransitioning) as err:
            call(context, node, target)
        assert err.value.code == 409
        assert 'Node is in %s state.' % state in str(err.value)
    stored = _stored(context, node)
    assert (stored.boot_mode, stored.secure_boot, stored.last_error,
            stored.reservation) == (None, None, 'kept', None)


def test_verify_caches_the_boot_mode(rpc_api, context, make_node,
                                     wait_node):
    node = make_node(driver_internal_info={
        fake_management.BOOT_MODE_KEY: 'bios',
        fake_management.SECURE_BOOT_KEY: False})
    rpc_api.do_provisioning_action(context, node, 'manage')
    node = wait_node(node.uuid, 'manageable', target_provision_state=None)
    assert (node.boot_mode, node.secure_boot) == ('bios', False)


def test_power_sync_caches_the_boot_mode(conductor, context, make_node):
    node = make_node(provision_state='manageable', power_state='power off',
                     boot_mode='bios', driver_internal_info={
                         fake_management.BOOT_MODE_KEY: 'uefi',
                         fake_management.SECURE_BOOT_KEY: True})
    power.sync_power_states(context, conftest.HOST)
    stored = _stored(context, node)
    assert (stored.boot_mode, stored.secure_boot) == ('uefi', True)
    # Unknown to the hardware: unknown on the node, as Ironic's cache.
    stored.driver_internal_info = {}
    stored.save()
    power.sync_power_states(context, conftest.HOST)
    stored = _stored(context, node)
    assert (stored.boot_mode, stored.secure_boot) == (None, None)


def test_a_failing_read_leaves_the_cache_alone(conductor, context,
                                               make_node, monkeypatch):
    def broken(self, task):
        raise RuntimeError('BMC unreachable')
    monkeypatch.setattr(fake_hardware.FakeManagement,
                        'get_secure_boot_state', broken)
    node = make_node(provision_state='manageable', power_state='power off',
                     boot_mode='bios', secure_boot=False)
    power.sync_power_states(context, conftest.HOST)
    stored = _stored(context, node)
    assert (stored.boot_mode, stored.secure_boot) == ('bios', False)
