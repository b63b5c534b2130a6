"""Port groups at 1.102-1.111 (Ironic 39): physical_network, which the
group's ports follow, category, dynamic_portgroup (read-only)."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils

MAC = '52:54:00:aa:bb:cc'
MAC2 = '52:54:00:aa:bb:cd'


def _pg(client, node, version=None, **fields):
    return client.post_json('/v1/portgroups', dict(
        {'node_uuid': node['uuid']}, **fields), version=version)


@pytest.mark.parametrize('field,value,since,limit', [
    ('physical_network', 'physnet1', 102, 64),
    ('category', 'storage', 103, 80)])
def test_field_from_its_version(client, node, field, value, since, limit):
    before, at = '1.%d' % (since - 1), '1.%d' % since
    resp = _pg(client, node, version=before, **{field: value})
    assert resp.status_int == 406, resp.text
    assert objects.Portgroup.list(None) == []
    pg = _pg(client, node, version=at, name='bond0', **{field: value}).json
    assert pg[field] == value
    assert field not in client.get('/v1/portgroups/bond0',
                                   version=before).json
    assert client.get('/v1/portgroups/bond0?fields=' + field,
                      version=before).status_int == 406
    assert client.get('/v1/portgroups?fields=' + field, version=at).json[
        'portgroups'][0][field] == value
    assert field not in client.get('/v1/portgroups?detail=True',
                                   version=before).json['portgroups'][0]
    resp = client.patch_json('/v1/portgroups/bond0', [
        {'op': 'replace', 'path': '/' + field, 'value': 'x'}],
        version=before)
    assert resp.status_int == 406
    resp = client.patch_json('/v1/portgroups/bond0', [
        {'op': 'replace', 'path': '/' + field, 'value': 'y' * (limit + 1)}])
    assert resp.status_int == 400
    assert 'at most %d characters' % limit in utils.faultstring(resp)
    assert getattr(objects.Portgroup.get_by_uuid(None, pg['uuid']),
                   field) == value


def test_dynamic_portgroup_is_read_only(client, node):
    pg = _pg(client, node, name='bond0').json
    assert pg['dynamic_portgroup'] is False
    assert 'dynamic_portgroup' not in client.get(
        '/v1/portgroups/bond0', version='1.110').json
    assert client.get('/v1/portgroups/bond0?fields=dynamic_portgroup',
                      version='1.110').status_int == 406
    resp = _pg(client, node, dynamic_portgroup=True)
    assert resp.status_int == 400
    assert 'Additional properties are not allowed' in utils.faultstring(resp)
    resp = client.patch_json('/v1/portgroups/bond0', [
        {'op': 'replace', 'path': '/dynamic_portgroup', 'value': True}])
    assert resp.status_int == 400
    assert utils.faultstring(resp).startswith(
        'Cannot patch /dynamic_portgroup.')
    assert objects.Portgroup.get_by_uuid(
        None, pg['uuid']).dynamic_portgroup is False


def _port(client, node, address, **fields):
    resp = client.post_json('/v1/ports', dict(
        {'address': address, 'node_uuid': node['uuid']}, **fields))
    assert resp.status_int == 201, resp.text
    return resp.json


def test_ports_follow_their_group_s_physical_network(client, node):
    pg = _pg(client, node, name='bond0').json
    ports = [_port(client, node, mac, portgroup_uuid=pg['uuid'],
                   physical_network='old') for mac in (MAC, MAC2)]
    alone = _port(client, node, '52:54:00:aa:bb:ce',
                  physical_network='old')
    resp = client.patch_json('/v1/portgroups/bond0', [
        {'op': 'replace', 'path': '/physical_network', 'value': 'new'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['physical_network'] == 'new'
    assert [objects.Port.get_by_uuid(None, p['uuid']).physical_network
            for p in ports] == ['new', 'new']
    assert objects.Port.get_by_uuid(
        None, alone['uuid']).physical_network == 'old'
    resp = client.patch_json('/v1/portgroups/' + pg['uuid'], [
        {'op': 'remove', 'path': '/physical_network'}])
    assert resp.json['physical_network'] is None
    assert [objects.Port.get_by_uuid(None, p['uuid']).physical_network
            for p in ports] == [None, None]


def test_a_port_joins_an_empty_group_on_its_network(client, node):
    pg = _pg(client, node, physical_network='physnet1').json
    resp = client.post_json('/v1/ports', {
        'address': MAC, 'node_uuid': node['uuid'],
        'portgroup_uuid': pg['uuid'], 'physical_network': 'physnet2'})
    assert resp.status_int == 409
    assert 'which has ports in physical network physnet1' in (
        utils.faultstring(resp))
    assert objects.Port.list(None) == []
    port = _port(client, node, MAC, portgroup_uuid=pg['uuid'],
                 physical_network='physnet1')
    assert port['portgroup_uuid'] == pg['uuid']


def test_conductor_groups_and_shard_filters_keep_their_versions(client,
                                                                node):
    """1.99 and 1.106 only record what was served: ?conductor_groups= at
    every version, a port group list's ?shard= from 1.82."""
    _pg(client, node, name='bond0')
    resp = client.get('/v1/portgroups?conductor_groups=', version='1.23')
    assert [p['name'] for p in resp.json['portgroups']] == ['bond0']
    assert client.get('/v1/ports?conductor_groups=x',
                      version='1.1').json['ports'] == []
    assert client.get('/v1/portgroups?shard=s1',
                      version='1.82').json['portgroups'] == []
    assert client.get('/v1/portgroups?shard=s1',
                      version='1.81').status_int == 406
