"""fake-hardware's management interface (drivers/fake_management.py): the
boot mode, secure boot and indicators it keeps, as Ironic's."""

import types

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import fake_management


def _task(**node):
    node.setdefault('driver', 'fake-hardware')
    node.setdefault('uuid', '1be26c0b-03f2-4d2e-ae87-c02d7f33c123')
    node.setdefault('driver_internal_info', {})
    return types.SimpleNamespace(node=types.SimpleNamespace(**node))


def test_fake_boot_mode_and_secure_boot_read_back():
    management, task = fake_hardware.FakeManagement(), _task()
    assert management.get_supported_boot_modes(task) == ['bios', 'uefi']
    assert management.get_boot_mode(task) is None
    assert management.get_secure_boot_state(task) is None
    management.set_boot_mode(task, 'bios')
    management.set_secure_boot_state(task, False)
    assert management.get_boot_mode(task) == 'bios'
    assert management.get_secure_boot_state(task) is False
    assert task.node.driver_internal_info == {
        fake_management.BOOT_MODE_KEY: 'bios',
        fake_management.SECURE_BOOT_KEY: False}


def test_fake_refuses_an_unknown_boot_mode():
    management, task = fake_hardware.FakeManagement(), _task()
    with pytest.raises(exception.InvalidParameterValue) as err:
        management.set_boot_mode(task, 'efi')
    assert str(err.value) == (
        'Unsupported boot mode efi specified for node %s. Supported boot '
        'modes are: bios, uefi' % task.node.uuid)
    with pytest.raises(exception.InvalidParameterValue):
        management.set_secure_boot_state(task, 'yes')
    assert task.node.driver_internal_info == {}


def test_fake_indicators_are_ironics():
    management, task = fake_hardware.FakeManagement(), _task()
    assert management.get_supported_indicators(task) == {
        'chassis': {'led-0': {'readonly': True, 'states': ['off', 'on']}},
        'system': {'led': {'readonly': False,
                           'states': ['blinking', 'off', 'on']}}}
    assert list(management.get_supported_indicators(task, 'system')) == [
        'system']
    # What is returned is a copy: the driver's table stays as it is.
    management.get_supported_indicators(task)['system']['led'][
        'states'].clear()
    assert management.get_indicator_state(task, 'system', 'led') == 'on'
    management.set_indicator_state(task, 'system', 'led', 'OFF')
    assert management.get_indicator_state(task, 'system', 'led') == 'off'
    assert management.get_indicator_state(task, 'chassis', 'led-0') == 'on'
    assert fake_management.INDICATORS['system']['led']['states'] == [
        'blinking', 'off', 'on']
