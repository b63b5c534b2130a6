"""Ports at 1.88-1.111 (Ironic 39): name, description, vendor, category,
available_for_dynamic_portgroup, node_ident, the OVN vtep switches."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils

MAC = '52:54:00:12:34:56'
MAC2 = '52:54:00:12:34:57'
VTEP = {'port_id': 'p1', 'vtep-logical-switch': 'ls1',
        'vtep-physical-switch': 'ps1'}


def _port(client, node, address=MAC, version=None, **fields):
    return client.post_json('/v1/ports', dict(
        {'address': address, 'node_uuid': node['uuid']}, **fields),
        version=version)


# (field, a value, its microversion, the longest value stored)
FIELDS = [('name', 'eth0', 88, 255), ('description', 'uplink', 97, 255),
          ('vendor', 'acme', 100, 32), ('category', 'storage', 101, 80)]


@pytest.mark.parametrize('field,value,since,limit', FIELDS)
def test_text_field_from_its_version(client, node, field, value, since,
                                     limit):
    before, at = '1.%d' % (since - 1), '1.%d' % since
    resp = _port(client, node, version=before, **{field: value})
    assert resp.status_int == 406, resp.text
    assert objects.Port.list(None) == []
    port = _port(client, node, version=at, **{field: value}).json
    assert port[field] == value
    url = '/v1/ports/' + port['uuid']
    assert field not in client.get(url, version=before).json
    assert client.get(url, version=at).json[field] == value
    assert client.get(url + '?fields=' + field, version=before
                      ).status_int == 406
    assert client.get(url + '?fields=' + field, version=at).json == {
        field: value, 'links': port['links']}
    assert client.get('/v1/ports?sort_key=' + field,
                      version=before).status_int == 406
    assert client.get('/v1/ports?sort_key=%s&fields=%s' % (field, field),
                      version=at).json['ports'][0][field] == value
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/' + field,
                                    'value': 'x'}], version=before)
    assert resp.status_int == 406
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/' + field,
                                    'value': 'y' * (limit + 1)}])
    assert resp.status_int == 400
    assert 'at most %d characters' % limit in utils.faultstring(resp)
    resp = client.patch_json(url, [{'op': 'remove', 'path': '/' + field}])
    assert resp.status_int == 200, resp.text
    assert resp.json[field] is None


def test_name_unique_and_a_lookup_key(client, node):
    port = _port(client, node, name='eth0').json
    assert client.get('/v1/ports/eth0').json['uuid'] == port['uuid']
    # As Ironic: a name finds its port at every version.
    assert client.get('/v1/ports/eth0', version='1.1').json[
        'uuid'] == port['uuid']
    resp = _port(client, node, address=MAC2, name='eth0')
    assert resp.status_int == 409
    assert utils.faultstring(resp) == 'A port with name eth0 already exists.'
    assert len(objects.Port.list(None)) == 1
    other = _port(client, node, address=MAC2, name='eth1').json
    resp = client.patch_json('/v1/ports/eth1', [
        {'op': 'replace', 'path': '/name', 'value': 'eth0'}])
    assert resp.status_int == 409
    assert utils.faultstring(resp) == 'A port with name eth0 already exists.'
    assert objects.Port.get_by_uuid(None, other['uuid']).name == 'eth1'
    # Byte for byte: another case is another name.
    assert client.get('/v1/ports/ETH0').status_int == 404
    resp = client.patch_json('/v1/ports/eth1', [
        {'op': 'replace', 'path': '/name', 'value': 'eth2'}])
    assert resp.json['name'] == 'eth2'
    assert client.delete('/v1/ports/eth2').status_int == 400  # UUID only
    assert client.get('/v1/ports/eth2').status_int == 200


def test_description_contains(client, node):
    _port(client, node, description='rack 4 uplink')
    _port(client, node, address=MAC2, description='100% storage')
    found = client.get('/v1/ports?description_contains=uplink'
                       '&fields=description').json['ports']
    assert [p['description'] for p in found] == ['rack 4 uplink']
    found = client.get('/v1/ports?description_contains=100%25&fields=address'
                       ).json['ports']
    assert [p['address'] for p in found] == [MAC2]
    # A % is itself, not a wildcard; Ironic takes the filter at every
    # version.
    assert client.get('/v1/ports?description_contains=%25%25',
                      version='1.1').json['ports'] == []


def test_available_for_dynamic_portgroup(client, node):
    port = _port(client, node).json
    assert port['available_for_dynamic_portgroup'] is True
    url = '/v1/ports/' + port['uuid']
    assert 'available_for_dynamic_portgroup' not in client.get(
        url, version='1.110').json
    resp = _port(client, node, address=MAC2, version='1.110',
                 available_for_dynamic_portgroup=False)
    assert resp.status_int == 406
    # Ironic's schema: a boolean, not a boolean string nor null.
    for value in ('false', None):
        resp = _port(client, node, address=MAC2,
                     available_for_dynamic_portgroup=value)
        assert resp.status_int == 400, value
    other = _port(client, node, address=MAC2,
                  available_for_dynamic_portgroup=False).json
    assert other['available_for_dynamic_portgroup'] is False
    resp = client.patch_json('/v1/ports/' + other['uuid'], [
        {'op': 'remove', 'path': '/available_for_dynamic_portgroup'}])
    assert resp.json['available_for_dynamic_portgroup'] is True
    resp = client.patch_json(url, [
        {'op': 'replace', 'path': '/available_for_dynamic_portgroup',
         'value': False}])
    assert resp.json['available_for_dynamic_portgroup'] is False
    resp = client.patch_json(url, [
        {'op': 'replace', 'path': '/available_for_dynamic_portgroup',
         'value': True}], version='1.110')
    assert resp.status_int == 406
    assert objects.Port.get_by_uuid(
        None, port['uuid']).available_for_dynamic_portgroup is False


def test_node_ident_from_1_94(client, node):
    body = {'address': MAC, 'node_ident': node['name']}
    resp = client.post_json('/v1/ports', body, version='1.93')
    assert resp.status_int == 406
    resp = client.post_json('/v1/ports', body, version='1.94')
    assert resp.status_int == 201, resp.text
    assert resp.json['node_uuid'] == node['uuid']
    resp = client.post_json('/v1/ports', {'address': MAC2,
                                          'node_ident': node['uuid']})
    assert resp.json['node_uuid'] == node['uuid']
    assert len(objects.Port.list(None)) == 2


def test_node_ident_refusals(client, node):
    mac = '52:54:00:12:34:58'
    both = {'address': mac, 'node_ident': node['name'],
            'node_uuid': node['uuid']}
    resp = client.post_json('/v1/ports', both)
    assert resp.status_int == 400
    assert 'is valid under each of' in utils.faultstring(resp)
    resp = client.post_json('/v1/ports', {'address': mac})
    assert resp.status_int == 400
    assert 'is not valid under any of the given schemas' in (
        utils.faultstring(resp))
    resp = client.post_json('/v1/ports', {'address': mac,
                                          'node_ident': 'missing'})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Node missing could not be found.'
    resp = client.post_json('/v1/ports', {'address': mac,
                                          'node_ident': 'bad name'})
    utils.refused_400(resp, 'Expected a logical name or UUID but '
                            'received bad name.')
    # Not a field of a port: a patch gives both, which the schema refuses.
    port = _port(client, node).json
    resp = client.patch_json('/v1/ports/' + port['uuid'], [
        {'op': 'add', 'path': '/node_ident', 'value': node['name']}])
    assert resp.status_int == 400
    assert [p.address for p in objects.Port.list(None)] == [MAC]


@pytest.mark.parametrize('version,status', [
    ('1.89', 406), ('1.90', 201), ('1.104', 201), ('1.105', 406)])
def test_ovn_vtep_created_at_1_90_to_1_104(client, node, version, status):
    resp = _port(client, node, version=version, local_link_connection=VTEP)
    assert resp.status_int == status, resp.text
    if status == 201:
        assert resp.json['local_link_connection'] == VTEP
    else:
        assert objects.Port.list(None) == []


def test_ovn_vtep_shown_at_1_90_to_1_104(client, node):
    port = _port(client, node, version='1.90',
                 local_link_connection=VTEP).json
    plain = _port(client, node, address=MAC2,
                  local_link_connection={'port_id': 'p2',
                                         'switch_id': '0a:1b:2c:3d:4e:5f'}
                  ).json
    for version, shown in (('1.89', {}), ('1.90', VTEP), ('1.104', VTEP),
                           ('1.105', {}), ('1.111', {})):
        body = client.get('/v1/ports/' + port['uuid'], version=version).json
        assert body['local_link_connection'] == shown, version
        listed = client.get('/v1/ports?detail=True',
                            version=version).json['ports']
        assert [p['local_link_connection'] for p in listed] == [
            shown, plain['local_link_connection']], version
    # Stored as written: a client at 1.90-1.104 sees it again.
    assert objects.Port.get_by_uuid(
        None, port['uuid']).local_link_connection == VTEP


def test_ovn_vtep_switches_go_together(client, node):
    llc = {'port_id': 'p1', 'vtep-logical-switch': 'ls1'}
    resp = _port(client, node, version='1.90', local_link_connection=llc)
    utils.refused_400(
        resp, "Schema error for port: 'vtep-physical-switch' is a "
              "dependency of 'vtep-logical-switch'")
    assert objects.Port.list(None) == []


def test_physical_network_of_a_port_in_a_group_from_1_102(client, node):
    pg = client.post_json('/v1/portgroups', {'node_uuid': node['uuid'],
                                             'name': 'bond0'}).json
    port = _port(client, node, portgroup_uuid=pg['uuid']).json
    url = '/v1/ports/' + port['uuid']
    patch = [{'op': 'replace', 'path': '/physical_network', 'value': 'p1'}]
    resp = client.patch_json(url, patch, version='1.102')
    utils.refused_400(resp, 'physical_network cannot be changed '
                            'while the port belongs to a portgroup.')
    assert objects.Port.get_by_uuid(None, port['uuid']).physical_network \
        is None
    # Before 1.102 the group has no network of its own: its lone port may.
    resp = client.patch_json(url, patch, version='1.101')
    assert resp.status_int == 200, resp.text
    assert resp.json['physical_network'] == 'p1'
    # Leaving the group and changing the network at once is allowed.
    resp = client.patch_json(url, [
        {'op': 'replace', 'path': '/portgroup_uuid', 'value': None},
        {'op': 'replace', 'path': '/physical_network', 'value': 'p2'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['physical_network'] == 'p2'
