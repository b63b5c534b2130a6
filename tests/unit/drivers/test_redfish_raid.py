"""The ``redfish`` RAID interface: enabled by default as Ironic's, and
named by Metal3's baremetal-operator on every Redfish node it enrolls;
its steps refuse clearly (ironic-lite configures no volume through the
BMC)."""

import types

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import base
from ironic_lite.drivers import factory
from ironic_lite.drivers import steps
from ironic_lite.drivers.redfish import raid

UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'


@pytest.fixture
def hw_type(conf_fixture):
    conf_fixture.config(enabled_hardware_types=['fake-hardware', 'redfish'])
    return factory.get_hardware_type('redfish')


def _task(hw_type, **fields):
    node = types.SimpleNamespace(
        uuid=UUID, driver='redfish', raid_interface='redfish',
        target_raid_config={}, raid_config={}, **fields)
    return types.SimpleNamespace(node=node, driver=hw_type)


def test_a_node_may_name_it_and_keeps_no_raid_by_default(hw_type):
    assert 'redfish' in factory.enabled_interfaces('raid')
    factory.check_supported(hw_type, 'raid', 'redfish')
    assert factory.default_interface(hw_type, 'raid') == 'no-raid'
    task = _task(hw_type)
    assert isinstance(hw_type.interface(task.node, 'raid'), raid.RedfishRAID)
    task.node.raid_interface = 'no-raid'
    assert isinstance(hw_type.interface(task.node, 'raid'),
                      base.NoInterface)


def test_it_is_refused_where_not_enabled(hw_type, conf_fixture):
    conf_fixture.config(enabled_raid_interfaces=['agent', 'no-raid'])
    with pytest.raises(exception.InvalidParameterValue) as err:
        factory.check_supported(hw_type, 'raid', 'redfish')
    assert "entrypoint: redfish." in str(err.value)


def test_steps_are_manual_only(hw_type):
    found = steps.clean_steps(hw_type.raid)
    assert sorted((s['step'], s['priority']) for s in found) == [
        ('create_configuration', 0), ('delete_configuration', 0)]
    assert sorted(s['step'] for s in base.get_deploy_steps(
        hw_type.raid)) == ['create_configuration', 'delete_configuration']


@pytest.mark.parametrize('step', ['create_configuration',
                                  'delete_configuration'])
def test_steps_refuse_clearly(hw_type, step):
    task = _task(hw_type)
    with pytest.raises(exception.UnsupportedDriverExtension) as err:
        getattr(hw_type.raid, step)(task)
    assert str(err.value) == (
        'Driver redfish does not support RAID configuration through '
        'Redfish (disabled or not implemented).')


def test_target_configuration_is_validated(hw_type):
    task = _task(hw_type)
    task.node.target_raid_config = {'logical_disks': [{'size_gb': 10}]}
    with pytest.raises(exception.InvalidParameterValue):
        hw_type.raid.validate(task)
    task.node.target_raid_config = {'logical_disks': [
        {'size_gb': 10, 'raid_level': '1'}]}
    hw_type.raid.validate(task)
