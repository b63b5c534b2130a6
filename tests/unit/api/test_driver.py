"""/v1/drivers: the hardware types of the alive conductors, their
properties and RAID logical disk properties (RPC 1.9)."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils


@pytest.fixture
def conductors(database):
    objects.Conductor.register(None, 'cond-b', ['fake-hardware'], '')
    objects.Conductor.register(None, 'cond-a', ['fake-hardware'], '')
    gone = objects.Conductor.register(None, 'cond-gone', ['other'], '')
    gone.unregister()


@pytest.fixture
def conductor(database):
    objects.Conductor.register(None, 'cond-a', ['fake-hardware'], '')


def test_list_names_hosts_and_type(client, conductors):
    body = client.get('/v1/drivers').json
    assert [d['name'] for d in body['drivers']] == ['fake-hardware']
    driver = body['drivers'][0]
    assert driver['hosts'] == ['cond-a', 'cond-b']
    assert driver['type'] == 'dynamic'
    assert driver['links'][0]['href'].endswith('/v1/drivers/fake-hardware')
    assert driver['properties'][0]['href'].endswith(
        '/v1/drivers/fake-hardware/properties')
    assert 'default_power_interface' not in driver


def test_list_detail_and_type_filter(client, conductors):
    driver = client.get('/v1/drivers?detail=True').json['drivers'][0]
    assert driver['default_power_interface'] == 'fake'
    assert driver['enabled_network_interfaces'] == ['flat', 'noop']
    assert driver['default_bios_interface'] == 'no-bios'
    assert client.get('/v1/drivers?type=classic').json == {'drivers': []}
    assert len(client.get('/v1/drivers?type=dynamic').json['drivers']) == 1
    resp = client.get('/v1/drivers?type=other')
    assert resp.status_int == 400
    assert '"type" filter' in utils.faultstring(resp)


def test_version_gates(make_client, conductors):
    old = make_client('1.29')
    assert old.get('/v1/drivers?detail=True').status_int == 406
    assert old.get('/v1/drivers?type=dynamic').status_int == 406
    driver = old.get('/v1/drivers').json['drivers'][0]
    assert 'type' not in driver and 'properties' in driver
    assert 'properties' not in make_client('1.13').get(
        '/v1/drivers').json['drivers'][0]
    shown = make_client('1.37').get('/v1/drivers/fake-hardware').json
    assert 'default_storage_interface' in shown
    assert 'default_rescue_interface' not in shown
    assert 'default_bios_interface' not in shown
    assert make_client('1.76').get(
        '/v1/drivers?fields=name').status_int == 406


def test_show_fields_and_properties(client, conductors):
    shown = client.get('/v1/drivers/fake-hardware').json
    assert shown['hosts'] == ['cond-a', 'cond-b']
    assert shown['default_deploy_interface'] == 'fake'
    assert set(client.get('/v1/drivers/fake-hardware?fields=name,hosts')
               .json) == {'name', 'hosts', 'links'}
    assert client.get('/v1/drivers/fake-hardware/properties').json == {
        'B1': 'B1 description. Required.',
        'B2': 'B2 description. Required.'}
    for url in ('/v1/drivers/other', '/v1/drivers/other/properties'):
        resp = client.get(url)
        assert resp.status_int == 404, url
        assert 'other' in utils.faultstring(resp)
    resp = client.get('/v1/drivers?detail=True&fields=name')
    assert resp.status_int == 400


def test_detail_shows_the_configured_defaults(client, conductors,
                                              conf_fixture):
    conf_fixture.config(default_network_interface='noop')
    driver = client.get('/v1/drivers/fake-hardware').json
    assert driver['default_network_interface'] == 'noop'
    assert driver['default_console_interface'] == 'no-console'
    assert driver['enabled_network_interfaces'] == ['flat', 'noop']


def test_logical_disk_properties(client, conductor):
    resp = client.get('/v1/drivers/fake-hardware/raid/'
                      'logical_disk_properties')
    assert resp.status_int == 200, resp.text
    assert set(resp.json) == {
        'raid_level', 'size_gb', 'volume_name', 'is_root_volume',
        'share_physical_disks', 'disk_type', 'interface_type',
        'number_of_physical_disks', 'controller', 'physical_disks'}
    assert resp.json['size_gb'].endswith('Required.')
    resp = client.get('/v1/drivers/nope/raid/logical_disk_properties')
    assert resp.status_int == 404, resp.text


def test_driver_properties_of_the_default_interfaces(client, conductor,
                                                     conf_fixture):
    url = '/v1/drivers/fake-hardware/properties'
    assert client.get(url).json == {'B1': 'B1 description. Required.',
                                    'B2': 'B2 description. Required.'}
    conf_fixture.config(default_vendor_interface='no-vendor')
    assert client.get(url).json == {}
