"""The redfish interfaces the REST API does not reach yet (boot mode,
secure boot and indicators come with the hardware management work, the
BIOS API with the BIOS records work, virtual media with the ramdisk
deploy), called directly against sushy-tools' emulator."""

import types

import pytest

# The emulator and the deploy ISO's server, as test_redfish.py runs them.
from tests.functional.test_redfish import emulator  # noqa: F401 (fixture)
from tests.functional.test_redfish import image_url  # noqa: F401 (fixture)
from tests import redfish_emulator as emulator_mod


@pytest.fixture
def task(emulator, conf_fixture):  # noqa: F811 (the fixture)
    conf_fixture.config(enabled_hardware_types=['fake-hardware', 'redfish'])
    conf_fixture.config(connection_attempts=1, group='redfish')
    from ironic_lite.drivers import factory
    node = types.SimpleNamespace(
        uuid='0c7e1f4a-7d0b-4c9e-9f57-3b1c0a6d2e11', driver='redfish',
        driver_info=emulator_mod.driver_info(emulator), properties={},
        driver_internal_info={}, instance_info={})
    return types.SimpleNamespace(node=node,
                                 driver=factory.get_hardware_type('redfish'))


def test_boot_mode(task):
    mgmt = task.driver.management
    mgmt.set_boot_mode(task, 'bios')
    assert mgmt.get_boot_mode(task) == 'bios'
    mgmt.set_boot_mode(task, 'uefi')
    assert mgmt.get_boot_mode(task) == 'uefi'


def test_secure_boot(task):
    mgmt = task.driver.management
    mgmt.set_secure_boot_state(task, True)
    assert mgmt.get_secure_boot_state(task) is True
    mgmt.set_secure_boot_state(task, False)
    assert mgmt.get_secure_boot_state(task) is False


def test_indicators(task):
    mgmt = task.driver.management
    supported = mgmt.get_supported_indicators(task)
    system_led = emulator_mod.SYSTEM_UUID
    assert supported['system'] == {system_led: {
        'readonly': False, 'states': ['BLINKING', 'OFF', 'ON']}}
    mgmt.set_indicator_state(task, 'system', system_led, 'BLINKING')
    assert mgmt.get_indicator_state(task, 'system', system_led) == 'BLINKING'
    mgmt.set_indicator_state(task, 'system', system_led, 'OFF')
    assert mgmt.get_indicator_state(task, 'system', system_led) == 'OFF'


def test_bios_read_apply_and_reset(task):
    bios = task.driver.bios
    settings = {s['name']: s for s in bios.get_bios_settings(task)}
    assert settings['ProcTurboMode']['value'] == 'Enabled'
    assert settings['ProcTurboMode']['attribute_type'] == 'Enumeration'
    bios.apply_configuration(task, [{'name': 'ProcTurboMode',
                                     'value': 'Disabled'}])
    assert task.driver.power.get_power_state(task) == 'power on'
    settings = {s['name']: s['value'] for s in bios.get_bios_settings(task)}
    assert settings['ProcTurboMode'] == 'Disabled'
    bios.factory_reset(task)
    settings = {s['name']: s['value'] for s in bios.get_bios_settings(task)}
    assert settings['ProcTurboMode'] == 'Enabled'


def _cds(task):
    import sushy

    from ironic_lite.drivers.redfish import utils
    from ironic_lite.drivers.redfish import vmedia
    return vmedia.devices(task, utils.get_system(task.node),
                          sushy.VIRTUAL_MEDIA_CD)


def test_virtual_media_boot(task, image_url):  # noqa: F811
    task.node.driver_info['deploy_iso'] = image_url
    boot = task.driver.boot
    boot.validate(task)
    boot.prepare_ramdisk(task, {})
    assert task.driver.management.get_boot_device(task)['boot_device'] == (
        'cdrom')
    assert [(cd.inserted, cd.image) for cd in _cds(task)] == [
        (True, image_url)]
    boot.clean_up_ramdisk(task)
    assert [cd.inserted for cd in _cds(task)] == [False]
    boot.prepare_instance(task)
    assert task.driver.management.get_boot_device(task) == {
        'boot_device': 'disk', 'persistent': True}
    boot.clean_up_instance(task)


def test_nmi_the_emulator_refuses_is_a_clear_error(task):
    from ironic_lite.common import exception
    with pytest.raises(exception.RedfishError) as err:
        task.driver.management.inject_nmi(task)
    assert err.value.code == 400
    assert 'Power state Nmi is not supported' in str(err.value)
