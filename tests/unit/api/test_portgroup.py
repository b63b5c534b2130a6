"""Port groups: CRUD, version gates, uniqueness, their ports."""

from ironic_lite import objects
from tests.unit.api import utils

MAC = '52:54:00:aa:bb:cc'


def _pg(client, node, **extra):
    return client.post_json('/v1/portgroups',
                            dict({'node_uuid': node['uuid']}, **extra))


def test_create_defaults(client, node):
    resp = _pg(client, node, name='bond0', address=MAC)
    assert resp.status_int == 201, resp.text
    pg = resp.json
    assert pg['mode'] == 'active-backup'
    assert pg['standalone_ports_supported'] is True
    assert pg['properties'] == {}
    assert pg['ports'][0]['href'].endswith('/v1/portgroups/%s/ports'
                                           % pg['uuid'])
    assert client.get('/v1/portgroups/bond0').json['uuid'] == pg['uuid']


def test_mode_from_config(client, node):
    from ironic_lite import conf
    conf.CONF.set_override('default_portgroup_mode', '802.3ad', 'api')
    try:
        assert _pg(client, node).json['mode'] == '802.3ad'
    finally:
        conf.CONF.clear_override('default_portgroup_mode', 'api')


def test_hidden_before_1_23(client, node):
    assert client.get('/v1/portgroups', version='1.22').status_int == 404
    assert client.get('/v1/nodes/node-0/portgroups',
                      version='1.23').status_int == 404
    assert _pg(client, node, mode='balance-rr').status_int == 201
    resp = client.post_json('/v1/portgroups', {'node_uuid': node['uuid'],
                                               'mode': 'x'}, version='1.25')
    assert resp.status_int == 406


def test_duplicates_409(client, node):
    assert _pg(client, node, name='bond0', address=MAC).status_int == 201
    resp = _pg(client, node, name='bond0')
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A portgroup with name bond0 already exists.')
    resp = _pg(client, node, address=MAC)
    assert resp.status_int == 409
    assert len(objects.Portgroup.list(None)) == 1


def test_invalid_input_400(client, node):
    resp = _pg(client, node, name='bad name')
    assert "invalid name 'bad name'" in utils.faultstring(resp)
    assert _pg(client, node, address='xx').status_int == 400
    resp = client.post_json('/v1/portgroups', {
        'node_uuid': '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'})
    assert resp.status_int == 400


def test_ports_of_portgroup(client, node):
    pg = _pg(client, node, name='bond0').json
    port = client.post_json('/v1/ports', {
        'address': MAC, 'node_uuid': node['uuid'],
        'portgroup_uuid': pg['uuid']}).json
    assert port['portgroup_uuid'] == pg['uuid']
    listed = client.get('/v1/portgroups/bond0/ports').json['ports']
    assert [p['uuid'] for p in listed] == [port['uuid']]
    assert [p['uuid'] for p in client.get(
        '/v1/ports?portgroup=bond0').json['ports']] == [port['uuid']]
    assert client.get('/v1/portgroups/bond0/ports',
                      version='1.23').status_int == 404
    resp = client.delete('/v1/portgroups/bond0')
    assert resp.status_int == 400
    assert 'contains ports' in utils.faultstring(resp)
    client.delete('/v1/ports/' + port['uuid'])
    assert client.delete('/v1/portgroups/bond0').status_int == 204


def test_port_in_other_nodes_portgroup_400(client, node):
    other = client.post_json('/v1/nodes', {'driver': 'fake-hardware'}).json
    pg = _pg(client, other).json
    resp = client.post_json('/v1/ports', {
        'address': MAC, 'node_uuid': node['uuid'],
        'portgroup_uuid': pg['uuid']})
    assert resp.status_int == 400
    assert 'different node' in utils.faultstring(resp)


def test_list_patch_and_node_subcollection(client, node):
    pg = _pg(client, node, name='bond0').json
    items = client.get('/v1/portgroups').json['portgroups']
    assert set(items[0]) == {'uuid', 'address', 'name', 'links'}
    assert client.get('/v1/nodes/node-0/portgroups').json[
        'portgroups'][0]['uuid'] == pg['uuid']
    resp = client.patch_json('/v1/portgroups/bond0', [
        {'op': 'replace', 'path': '/name', 'value': 'bond1'},
        {'op': 'add', 'path': '/properties/miimon', 'value': 100}])
    assert resp.status_int == 200, resp.text
    assert resp.json['name'] == 'bond1'
    assert resp.json['properties'] == {'miimon': 100}
    resp = client.patch_json('/v1/portgroups/bond1', [
        {'op': 'replace', 'path': '/internal_info', 'value': {}}])
    assert resp.status_int == 400
    assert client.get('/v1/portgroups/bond0').status_int == 404


# -- input patterns match the whole value (issue 21): ``\Z``, never a
# ``$`` that also matches before a final newline ----------------------

def test_portgroup_name_with_a_newline_is_refused(client, node):
    resp = client.post_json('/v1/portgroups', {'node_uuid': node['uuid'],
                                               'name': 'pg1\n'})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "Cannot create portgroup with invalid name 'pg1\n'")
