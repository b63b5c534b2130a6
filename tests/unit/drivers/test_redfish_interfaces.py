"""The redfish interfaces against a mocked sushy ComputerSystem."""

import types
from unittest import mock

import pytest
import sushy

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.drivers import factory
from ironic_lite.drivers.redfish import power as rf_power
from ironic_lite.drivers.redfish import utils

UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


class System(object):
    """What the interfaces read and call of a sushy ComputerSystem."""

    def __init__(self):
        self.power_state = sushy.SYSTEM_POWER_STATE_OFF
        self.resets = []
        self.boot = types.SimpleNamespace(
            target=sushy.BOOT_SOURCE_TARGET_HDD,
            enabled=sushy.BOOT_SOURCE_ENABLED_CONTINUOUS,
            mode=sushy.BOOT_SOURCE_MODE_UEFI)
        self.boot_calls = []
        self.refuse_continuous = False

    def reset_system(self, reset_type):
        self.resets.append(reset_type)
        self.power_state = (sushy.SYSTEM_POWER_STATE_OFF
                            if reset_type in (sushy.RESET_FORCE_OFF,
                                              sushy.RESET_GRACEFUL_SHUTDOWN)
                            else sushy.SYSTEM_POWER_STATE_ON)

    def set_system_boot_options(self, target=None, enabled=None, mode=None):
        if (self.refuse_continuous
                and enabled == sushy.BOOT_SOURCE_ENABLED_CONTINUOUS):
            raise sushy.exceptions.SushyError('continuous not supported')
        self.boot_calls.append((target, enabled, mode))
        if target:
            self.boot.target, self.boot.enabled = target, enabled
        if mode:
            self.boot.mode = mode


@pytest.fixture
def system(monkeypatch):
    system = System()
    monkeypatch.setattr(utils, 'get_system', lambda node: system)
    # A clock that moves only when the driver sleeps.
    now = [0.0]
    monkeypatch.setattr(rf_power, 'time', types.SimpleNamespace(
        monotonic=lambda: now[0],
        sleep=lambda seconds: now.__setitem__(0, now[0] + seconds)))
    return system


@pytest.fixture
def task(conf_fixture):
    conf_fixture.config(enabled_hardware_types=['fake-hardware', 'redfish'])
    node = types.SimpleNamespace(
        uuid=UUID, driver='redfish', properties={},
        driver_info={'redfish_address': 'http://bmc'},
        driver_internal_info={}, instance_info={})
    return types.SimpleNamespace(node=node,
                                 driver=factory.get_hardware_type('redfish'))


def test_power_on_off_reboot_and_soft_actions(task, system):
    power = task.driver.power
    assert power.get_power_state(task) == states.POWER_OFF
    power.set_power_state(task, states.POWER_ON)
    assert power.get_power_state(task) == states.POWER_ON
    power.reboot(task)
    power.set_power_state(task, states.SOFT_REBOOT)
    power.set_power_state(task, states.SOFT_POWER_OFF)
    assert system.resets == [sushy.RESET_ON, sushy.RESET_FORCE_OFF,
                             sushy.RESET_ON, sushy.RESET_GRACEFUL_RESTART,
                             sushy.RESET_GRACEFUL_SHUTDOWN]
    assert sorted(power.get_supported_power_states(task)) == sorted(
        states.POWER_STATES)


def test_power_state_never_reached_fails(task, system, conf_fixture):
    conf_fixture.config(power_state_change_timeout=2, group='conductor')
    system.reset_system = lambda reset_type: None   # the BMC ignores it
    with pytest.raises(exception.PowerStateFailure) as err:
        task.driver.power.set_power_state(task, states.POWER_ON)
    assert str(err.value) == 'Failed to set node power state to power on.'


def test_boot_device_persistent_falls_back_to_one_time(task, system):
    mgmt = task.driver.management
    system.refuse_continuous = True
    mgmt.set_boot_device(task, 'pxe', persistent=True)
    assert task.node.driver_internal_info['redfish_boot_device'] == 'pxe'
    assert mgmt.get_boot_device(task) == {'boot_device': 'pxe',
                                          'persistent': False}
    # Set again before each power on.
    system.boot_calls.clear()
    task.driver.power.set_power_state(task, states.POWER_ON)
    assert system.boot_calls == [(sushy.BOOT_SOURCE_TARGET_PXE,
                                  sushy.BOOT_SOURCE_ENABLED_ONCE, None)]
    with pytest.raises(exception.InvalidParameterValue):
        mgmt.set_boot_device(task, 'floppy')


def test_boot_mode(task, system):
    mgmt = task.driver.management
    assert mgmt.get_boot_mode(task) == 'uefi'
    assert sorted(mgmt.get_supported_boot_modes(task)) == ['bios', 'uefi']
    mgmt.set_boot_mode(task, 'bios')
    assert mgmt.get_boot_mode(task) == 'bios'


def test_bios_settings_with_registry(task, monkeypatch):
    entry = types.SimpleNamespace(
        name='ProcTurboMode', attribute_type='Enumeration', read_only=False,
        allowable_values=[{'ValueName': 'Enabled'}, {'ValueName': 'Off'}],
        lower_bound=None)
    bios = mock.Mock(attributes={'ProcTurboMode': 'Enabled', 'Other': 3})
    bios.get_attribute_registry.return_value = types.SimpleNamespace(
        registry_entries=types.SimpleNamespace(attributes=[entry]))
    monkeypatch.setattr(utils, 'get_system',
                        lambda node: types.SimpleNamespace(bios=bios))
    assert task.driver.bios.get_bios_settings(task) == [
        {'name': 'Other', 'value': 3},
        {'name': 'ProcTurboMode', 'value': 'Enabled',
         'attribute_type': 'Enumeration', 'read_only': False,
         'allowable_values': ['Enabled', 'Off']}]


def test_bios_unsupported(task, monkeypatch):
    class NoBios(object):
        @property
        def bios(self):
            raise sushy.exceptions.MissingAttributeError(attribute='Bios',
                                                         resource='/x')
    monkeypatch.setattr(utils, 'get_system', lambda node: NoBios())
    with pytest.raises(exception.UnsupportedDriverExtension):
        task.driver.bios.get_bios_settings(task)


def test_bios_steps_are_clean_deploy_and_service_steps(task):
    from ironic_lite.drivers import base
    from ironic_lite.drivers import steps
    clean = {s['step'] for s in steps.clean_steps(task.driver.bios)}
    deploy = {s['step'] for s in base.get_deploy_steps(task.driver.bios)}
    service = steps.service_steps(task.driver.bios)
    assert clean == deploy == {'apply_configuration', 'factory_reset'}
    # As Ironic's: service steps (API 1.87) that need no ramdisk.
    assert {s['step'] for s in service} == clean
    assert not any(s['requires_ramdisk'] for s in service)


def test_virtual_media_needs_an_http_url(task):
    boot = task.driver.boot
    with pytest.raises(exception.MissingParameterValue):
        boot.validate(task)
    task.node.driver_info['deploy_ramdisk'] = 'glance-image-uuid'
    with pytest.raises(exception.InvalidParameterValue) as err:
        boot.validate(task)
    assert 'http(s) URL' in str(err.value)
    task.node.driver_info['deploy_iso'] = 'https://images/deploy.iso'
    boot.validate(task)


def test_hardware_type_interfaces_and_properties(task):
    hw = task.driver
    assert hw.default_interface('bios') == 'redfish'
    assert hw.default_interface('deploy') == 'ramdisk'
    assert hw.default_interface('boot') == 'redfish-virtual-media'
    assert {'redfish_address', 'redfish_password', 'redfish_username',
            'redfish_system_id', 'redfish_verify_ca', 'redfish_auth_type',
            'deploy_iso', 'deploy_ramdisk'} <= set(hw.get_properties())
