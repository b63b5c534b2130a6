"""The node fields of release 6.0's firmware work: firmware_interface
(1.86), disable_power_off (1.95) and health (1.109, read only); the
drivers' firmware interfaces (1.86); power off refused for a node that
must stay on."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils

N = '/v1/nodes/node-0'


def test_fields_shown_from_their_versions(make_client, node):
    utils.set_node(node['uuid'], health='Warning')
    for version, shown in (('1.85', set()),
                           ('1.86', {'firmware_interface'}),
                           ('1.95', {'firmware_interface',
                                     'disable_power_off'}),
                           ('1.109', {'firmware_interface',
                                      'disable_power_off', 'health'})):
        body = make_client(version).get(N).json
        assert {'firmware_interface', 'disable_power_off',
                'health'} & set(body) == shown, version
    body = make_client('1.109').get(N).json
    assert body['disable_power_off'] is False
    assert body['health'] == 'Warning'


def test_fields_selectable_from_their_versions(make_client, node):
    client = make_client('1.109')
    assert client.get(
        N + '?fields=health,disable_power_off,firmware_interface').json[
        'health'] is None
    listed = client.get('/v1/nodes?fields=uuid,health').json['nodes'][0]
    assert set(listed) == {'uuid', 'health', 'links'}
    for version, field in (('1.85', 'firmware_interface'),
                           ('1.94', 'disable_power_off'),
                           ('1.108', 'health')):
        resp = make_client(version).get(N + '?fields=' + field)
        assert resp.status_int == 406, (version, field)


def test_firmware_interface_set_at_create_and_patch(client, conf_fixture):
    conf_fixture.config(enabled_firmware_interfaces=['no-firmware', 'fake'])
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'node-0',
                                          'firmware_interface': 'fake'})
    assert resp.status_int == 201, resp.text
    assert resp.json['firmware_interface'] == 'fake'
    resp = client.patch_json(N, [{'op': 'replace',
                                  'path': '/firmware_interface',
                                  'value': 'no-firmware'}])
    assert resp.status_int == 200, resp.text
    assert utils.stored_node(
        resp.json['uuid']).firmware_interface == 'no-firmware'


@pytest.mark.parametrize('version, field, value', [
    ('1.85', 'firmware_interface', 'no-firmware'),
    ('1.94', 'disable_power_off', True),
])
def test_fields_refused_before_their_versions(make_client, database,
                                              version, field, value):
    client = make_client(version)
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          field: value})
    assert resp.status_int == 406, resp.text
    client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                   'name': 'node-0'})
    resp = client.patch_json(N, [{'op': 'replace', 'path': '/' + field,
                                  'value': value}])
    assert resp.status_int == 406, resp.text


def test_health_is_read_only(client, node):
    resp = client.patch_json(N, [{'op': 'replace', 'path': '/health',
                                  'value': 'OK'}])
    assert resp.status_int == 400
    assert 'Cannot patch /health' in utils.faultstring(resp)


def test_disable_power_off_refuses_power_off(client, node, rpcapi):
    resp = client.patch_json(N, [{'op': 'replace',
                                  'path': '/disable_power_off',
                                  'value': 'true'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['disable_power_off'] is True
    for target in ('power off', 'soft power off'):
        calls = len(rpcapi.calls)
        resp = client.put_json(N + '/states/power', {'target': target})
        assert resp.status_int == 409, target
        assert utils.faultstring(resp) == (
            'Failed to set node power state to %s.' % target)
        assert len(rpcapi.calls) == calls  # nothing sent
    for target in ('power on', 'rebooting'):
        resp = client.put_json(N + '/states/power', {'target': target})
        assert resp.status_int == 202, target


def test_disable_power_off_null_is_false(client, database):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'disable_power_off': None})
    assert resp.status_int == 201, resp.text
    assert utils.stored_node(resp.json['uuid']).disable_power_off is False


def test_driver_firmware_interfaces_from_1_86(make_client, database,
                                              conf_fixture):
    objects.Conductor.register(None, 'cond-a', ['fake-hardware'], '')
    conf_fixture.config(enabled_firmware_interfaces=['no-firmware', 'fake'])
    old = make_client('1.85').get('/v1/drivers/fake-hardware').json
    assert 'default_firmware_interface' not in old
    assert 'enabled_firmware_interfaces' not in old
    new = make_client('1.86').get('/v1/drivers/fake-hardware').json
    assert new['default_firmware_interface'] == 'fake'
    assert new['enabled_firmware_interfaces'] == ['fake', 'no-firmware']
