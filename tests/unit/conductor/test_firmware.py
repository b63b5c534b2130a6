"""Firmware components cached by the conductor (release 6.0, API 1.86):
when a node is verified and after the firmware interface's update step
(cleaning or deploying); the fake interface's update."""

import logging

import pytest

from ironic_lite.conductor import firmware
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import fake_firmware
from ironic_lite import objects


def _components(context, node):
    return {c.component: c for c in
            objects.FirmwareComponentList.get_by_node_id(context, node.id)}


def _update(*settings):
    return {'interface': 'firmware', 'step': 'update',
            'args': {'settings': list(settings)}}


@pytest.fixture
def manageable(make_node):
    return make_node(provision_state='manageable', firmware_interface='fake')


def test_manage_caches_the_fake_components(rpc_api, context, make_node,
                                           wait_node):
    node = make_node(firmware_interface='fake')
    rpc_api.do_provisioning_action(context, node, 'manage')
    wait_node(node.uuid, 'manageable', target_provision_state=None)
    stored = _components(context, node)
    assert sorted(stored) == ['bios', 'bmc']
    bmc = stored['bmc']
    assert (bmc.initial_version, bmc.current_version,
            bmc.last_version_flashed) == ('2.10.0', '2.10.0', None)
    assert (bmc.vendor, bmc.model, bmc.serial_number) == (
        'Fake Vendor', 'Fake BMC', 'FAKEBMC0001')


def test_manage_without_firmware_interface_caches_nothing(
        rpc_api, context, make_node, wait_node, caplog):
    node = make_node(firmware_interface='no-firmware')
    caplog.set_level(logging.DEBUG, 'ironic_lite.conductor.firmware')
    rpc_api.do_provisioning_action(context, node, 'manage')
    wait_node(node.uuid, 'manageable', target_provision_state=None)
    assert _components(context, node) == {}
    # As Ironic: one warning line, no traceback.
    records = [r for r in caplog.records
               if r.name == 'ironic_lite.conductor.firmware'
               and r.levelno >= logging.WARNING]
    assert [(r.levelno, r.exc_info) for r in records] == [
        (logging.WARNING, None)]


def test_clean_update_records_the_flashed_versions(rpc_api, context,
                                                   manageable, wait_node):
    # Cached first (as verification does).
    with task_manager.acquire(context, manageable.id) as task:
        firmware.cache_firmware_components(task)
    rpc_api.do_node_clean(context, manageable, [_update(
        {'component': 'bios', 'url': 'http://img/bios-1.2.0.bin'})])
    wait_node(manageable.uuid, 'manageable', target_provision_state=None)
    stored = _components(context, manageable)
    assert (stored['bios'].initial_version, stored['bios'].current_version,
            stored['bios'].last_version_flashed) == ('1.0.0', '1.2.0',
                                                     '1.2.0')
    assert stored['bmc'].last_version_flashed is None
    rpc_api.do_node_clean(context, manageable, [_update(
        {'component': 'bmc', 'url': 'http://img/bmc.bin', 'wait': 30})])
    wait_node(manageable.uuid, 'manageable', target_provision_state=None)
    bmc = _components(context, manageable)['bmc']
    assert (bmc.initial_version, bmc.current_version,
            bmc.last_version_flashed) == ('2.10.0', '2.10.1', '2.10.1')


@pytest.mark.parametrize('settings', [
    [],
    [{'component': 'bios'}],
    [{'component': 'disk', 'url': 'http://img/x.bin'}],
    [{'component': 'bios', 'url': 'http://img/x.bin', 'other': 1}],
])
def test_bad_settings_fail_the_clean_and_flash_nothing(
        rpc_api, context, manageable, wait_node, settings):
    rpc_api.do_node_clean(context, manageable, [_update(*settings)])
    node = wait_node(manageable.uuid, 'clean failed')
    assert 'Invalid firmware update' in node.last_error
    assert _components(context, manageable) == {}


def test_a_deploy_step_caches_the_components(context, rpc_api, make_node,
                                             wait_node):
    node = make_node(provision_state='available', firmware_interface='fake')
    rpc_api.do_node_deploy(context, node, deploy_steps=[dict(_update(
        {'component': 'bmc', 'url': 'http://img/bmc-3.0.bin'}),
        priority=150)])
    wait_node(node.uuid, 'active', target_provision_state=None)
    assert _components(context, node)['bmc'].current_version == '3.0'


def test_unsupported_components_are_one_warning(context, manageable,
                                                monkeypatch, caplog):
    from ironic_lite.common import exception

    def unsupported(self, task):
        raise exception.UnsupportedDriverExtension(
            driver='fake-hardware', extension='firmware components')
    monkeypatch.setattr(fake_firmware.FakeFirmware,
                        'get_firmware_components', unsupported)
    caplog.set_level(logging.DEBUG, 'ironic_lite.conductor.firmware')
    with task_manager.acquire(context, manageable.id) as task:
        firmware.cache_firmware_components_quietly(task)
    records = [r for r in caplog.records
               if r.name == 'ironic_lite.conductor.firmware'
               and r.levelno >= logging.WARNING]
    assert [(r.levelno, r.exc_info) for r in records] == [
        (logging.WARNING, None)]


def test_a_component_without_a_name_is_refused(context, manageable,
                                               monkeypatch):
    monkeypatch.setattr(fake_firmware.FakeFirmware,
                        'get_firmware_components',
                        lambda self, task: [{'current_version': '1'}])
    with task_manager.acquire(context, manageable.id) as task:
        with pytest.raises(Exception, match='without a name'):
            firmware.cache_firmware_components(task)
        firmware.cache_firmware_components_quietly(task)  # logged
    assert _components(context, manageable) == {}


def test_nothing_is_written_while_pinned_to_5_0(config, context,
                                                manageable):
    config.set_override('pin_release_version', '5.0')
    with task_manager.acquire(context, manageable.id) as task:
        firmware.cache_firmware_components(task)
    assert _components(context, manageable) == {}


@pytest.mark.parametrize('current, url, expected', [
    ('1.0.0', 'http://img/bios-1.2.3.bin', '1.2.3'),
    ('1.0.0', 'http://img/v2/bios.bin', '1.0.1'),
    ('7', 'http://img/fw.bin', '8'),
    ('A1', 'http://img/fw.bin', 'A1.1'),
])
def test_fake_next_version(current, url, expected):
    assert fake_firmware.next_version(current, url) == expected
