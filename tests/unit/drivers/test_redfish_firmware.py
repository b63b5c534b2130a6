"""The redfish firmware interface (release 6.0, API 1.86) and the
system's health (API 1.109), against a mocked sushy client."""

import types

import pytest
import sushy

from ironic_lite.common import exception
from ironic_lite.drivers import factory
from ironic_lite.drivers.redfish import utils

UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


class Monitor(object):
    def __init__(self, waits):
        self.waits = waits

    def wait(self, timeout_sec):
        self.waits.append(timeout_sec)


class UpdateService(object):
    def __init__(self):
        self.updates, self.waits = [], []

    def simple_update(self, image_uri):
        self.updates.append(image_uri)
        return Monitor(self.waits)


@pytest.fixture
def bmc(monkeypatch):
    manager = types.SimpleNamespace(firmware_version='1.00',
                                    model='Joo Janta 200')
    system = types.SimpleNamespace(
        bios_version='U30 v2.54', managers=[manager],
        status=types.SimpleNamespace(health=sushy.Health.WARNING))
    service = UpdateService()
    client = types.SimpleNamespace(get_update_service=lambda: service)
    monkeypatch.setattr(utils, 'get_system', lambda node: system)
    monkeypatch.setattr(utils, 'call',
                        lambda node, func, *args: func(client, *args))
    return types.SimpleNamespace(system=system, manager=manager,
                                 service=service)


@pytest.fixture
def task(conf_fixture):
    conf_fixture.config(enabled_hardware_types=['fake-hardware', 'redfish'])
    node = types.SimpleNamespace(
        uuid=UUID, driver='redfish', properties={},
        driver_info={'redfish_address': 'http://bmc'},
        driver_internal_info={}, instance_info={}, disable_power_off=False)
    return types.SimpleNamespace(node=node,
                                 driver=factory.get_hardware_type('redfish'))


def test_components_are_the_bios_and_the_bmc(task, bmc):
    assert task.driver.firmware.get_firmware_components(task) == [
        {'component': 'bios', 'current_version': 'U30 v2.54',
         'vendor': None, 'model': None, 'serial_number': None},
        {'component': 'bmc', 'current_version': '1.00', 'vendor': None,
         'model': 'Joo Janta 200', 'serial_number': None}]


def test_no_component_is_unsupported(task, bmc):
    bmc.system.bios_version = None
    bmc.system.managers = []
    with pytest.raises(exception.UnsupportedDriverExtension):
        task.driver.firmware.get_firmware_components(task)


def test_update_waits_for_each_image_and_reboots_after_the_bios(
        task, bmc, conf_fixture, monkeypatch):
    conf_fixture.config(firmware_update_bmc_timeout=11,
                        firmware_update_reboot_delay=22, group='redfish')
    reboots = []
    monkeypatch.setattr(task.driver.power, 'reboot',
                        lambda task, timeout=None: reboots.append(task))
    task.driver.firmware.update(task, [
        {'component': 'bmc', 'url': 'http://img/bmc.bin'},
        {'component': 'bios', 'url': 'http://img/bios.bin'},
        {'component': 'nic:NIC.1', 'url': 'http://img/nic.bin', 'wait': 5}])
    assert bmc.service.updates == ['http://img/bmc.bin',
                                   'http://img/bios.bin',
                                   'http://img/nic.bin']
    assert bmc.service.waits == [11, 22, 5]
    assert reboots == [task]


def test_update_checks_its_settings_first(task, bmc):
    with pytest.raises(exception.InvalidParameterValue) as err:
        task.driver.firmware.update(task, [{'component': 'bios'}])
    assert 'Invalid firmware update' in str(err.value)
    assert bmc.service.updates == []


def test_update_is_a_clean_and_deploy_step(task):
    from ironic_lite.drivers import base
    from ironic_lite.drivers import steps
    clean = steps.clean_steps(task.driver.firmware)
    assert [(s['interface'], s['step'], s['priority']) for s in clean] == [
        ('firmware', 'update', 0)]
    assert clean[0]['argsinfo']['settings']['required'] is True
    assert [s['step'] for s in base.get_deploy_steps(
        task.driver.firmware)] == ['update']


@pytest.mark.parametrize('health, expected', [
    (sushy.Health.OK, 'OK'), (sushy.Health.WARNING, 'Warning'),
    (sushy.Health.CRITICAL, 'Critical'), (None, None)])
def test_health_of_the_system(task, bmc, health, expected):
    bmc.system.status.health = health
    assert task.driver.management.get_node_health(task) == expected


def test_health_without_status(task, bmc):
    bmc.system.status = None
    assert task.driver.management.get_node_health(task) is None


def test_reboot_of_a_node_that_must_stay_on(task, bmc, monkeypatch):
    from ironic_lite.drivers.redfish import power as rf_power
    calls = []
    monkeypatch.setattr(rf_power, '_reset',
                        lambda task, system, state, timeout:
                        calls.append(state))
    monkeypatch.setattr(rf_power.management, 'restore_boot_device',
                        lambda task, system: None)
    bmc.system.power_state = sushy.SYSTEM_POWER_STATE_ON
    task.node.disable_power_off = True
    task.driver.power.reboot(task)
    assert calls == ['rebooting']
    task.node.disable_power_off = False
    calls.clear()
    task.driver.power.reboot(task)
    assert calls == ['power off', 'power on']
