"""The driver interfaces' base classes (drivers/base.py): the management
interface refuses each release 5.0 method as Ironic's does, the
passthru marks of a vendor interface, and a hardware type's properties
collected from its default interfaces."""

import types

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import base
from ironic_lite.drivers import fake_hardware


class _Minimal(base.ManagementInterface):
    """A management interface with only the boot device methods."""

    def get_supported_boot_devices(self, task):
        return ['pxe']

    def set_boot_device(self, task, device, persistent=False):
        pass

    def get_boot_device(self, task):
        return {'boot_device': 'pxe', 'persistent': False}


def _task(**node):
    node.setdefault('driver', 'fake-hardware')
    node.setdefault('uuid', '1be26c0b-03f2-4d2e-ae87-c02d7f33c123')
    node.setdefault('driver_internal_info', {})
    return types.SimpleNamespace(node=types.SimpleNamespace(**node))


@pytest.mark.parametrize('method, args', [
    ('get_supported_boot_modes', ()),
    ('set_boot_mode', ('uefi',)),
    ('get_boot_mode', ()),
    ('get_secure_boot_state', ()),
    ('set_secure_boot_state', (True,)),
    ('get_supported_indicators', ()),
    ('set_indicator_state', ('system', 'led', 'on')),
    ('get_indicator_state', ('system', 'led')),
])
def test_the_base_class_refuses_each_method(method, args):
    with pytest.raises(exception.UnsupportedDriverExtension) as err:
        getattr(_Minimal(), method)(_task(driver='some-type'), *args)
    assert str(err.value) == ('Driver some-type does not support %s '
                              '(disabled or not implemented).' % method)
    assert err.value.code == 400


def test_vendor_routes_and_metadata():
    vendor = fake_hardware.FakeVendor()
    routes = vendor.vendor_routes
    assert routes['third_method_sync']['async'] is False
    assert routes['third_method_sync']['func'] == vendor.third_method_sync
    assert vendor.driver_routes == {}
    listed = base.passthru_metadata(routes)
    assert listed['log_passthrough'] == {
        'http_methods': ['POST'], 'async': True, 'attach': False,
        'description': 'Test pass-through to wait.',
        'require_exclusive_lock': True}


class _Power(fake_hardware.FakePower):
    properties = {'address': 'Where the BMC is. Required.'}


class _Type(fake_hardware.FakeHardware):
    properties = {'type_key': 'Read by the type itself. Optional.'}

    def __init__(self):
        super().__init__()
        self.power = _Power()


def test_properties_come_from_the_default_interfaces(conf_fixture):
    assert _Type().get_properties() == {
        'type_key': 'Read by the type itself. Optional.',
        'address': 'Where the BMC is. Required.',
        'B1': 'B1 description. Required.',
        'B2': 'B2 description. Required.'}
    conf_fixture.config(default_vendor_interface='no-vendor')
    assert 'B1' not in _Type().get_properties()
