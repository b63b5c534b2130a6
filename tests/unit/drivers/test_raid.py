"""RAID on the driver side (drivers/raid.py): the RAID schema's checks,
the logical disk properties, and fake-hardware's RAID steps."""

import types

import pytest

from ironic_lite.common import exception
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import raid


@pytest.mark.parametrize('config', [
    {'logical_disks': [{'size_gb': 0, 'raid_level': 'JBOD'}]},
    {'logical_disks': [{'size_gb': 'MAX', 'raid_level': '1+0',
                        'volume_name': 'v', 'disk_type': 'ssd',
                        'interface_type': 'sas', 'controller': 'c',
                        'physical_disks': ['a', 'b'],
                        'number_of_physical_disks': 2,
                        'share_physical_disks': True}]},
])
def test_valid_configs(config):
    raid.validate_configuration(config)


@pytest.mark.parametrize('config, message', [
    ({'logical_disks': [{'size_gb': 1.5, 'raid_level': '1'}]},
     "1.5 is not valid under any of the given schemas"),
    ({'logical_disks': [{'size_gb': 1, 'raid_level': '1',
                         'number_of_physical_disks': 0}]},
     '0 is less than the minimum of 1'),
    ({'logical_disks': [{'size_gb': 1, 'raid_level': '1',
                         'disk_type': 'tape'}]},
     "'tape' is not one of ['hdd', 'ssd']"),
    ({'logical_disks': {}}, "{} is not of type 'array'"),
])
def test_invalid_configs(config, message):
    with pytest.raises(exception.InvalidParameterValue) as err:
        raid.validate_configuration(config)
    assert str(err.value) == 'RAID config validation error: ' + message


def test_logical_disk_properties_are_described():
    props = raid.logical_disk_properties()
    assert set(props) == set(raid.LOGICAL_DISK_PROPERTIES)
    assert all(text.endswith(('Required.', 'Optional.'))
               for text in props.values())


def test_fake_raid_create_and_delete():
    node = types.SimpleNamespace(
        uuid='u', deploy_step=None, service_step=None, driver_internal_info={},
        properties={'cpus': 2}, raid_config={},
        target_raid_config={'logical_disks': [
            {'size_gb': 10, 'raid_level': '1', 'is_root_volume': True},
            {'size_gb': 20, 'raid_level': '0'}]})
    task = types.SimpleNamespace(node=node)
    fake = fake_hardware.FakeRAID()
    fake.create_configuration(task, create_root_volume=False)
    assert node.raid_config['logical_disks'] == [
        {'size_gb': 20, 'raid_level': '0'}]
    fake.create_configuration(task, create_nonroot_volumes=False,
                              delete_existing=False)
    assert [d['size_gb'] for d in node.raid_config['logical_disks']] == [
        20, 10]
    assert node.properties == {'cpus': 2, 'local_gb': 10}
    fake.delete_configuration(task)
    assert node.raid_config == {}
