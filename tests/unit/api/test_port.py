"""Ports and port groups: CRUD, filters, sub-collections, errors."""

from ironic_lite import objects
from tests.unit.api import utils

MAC = '52:54:00:12:34:56'
MAC2 = '52:54:00:12:34:57'


def _port(client, node, address=MAC, **extra):
    return client.post_json('/v1/ports', dict(
        {'address': address, 'node_uuid': node['uuid']}, **extra))


def test_create_and_show(client, node):
    resp = _port(client, node, address=MAC.upper(), extra={'a': 1})
    assert resp.status_int == 201, resp.text
    port = resp.json
    assert resp.headers['Location'] == ('http://localhost/v1/ports/'
                                        + port['uuid'])
    assert port['address'] == MAC
    assert port['node_uuid'] == node['uuid']
    assert port['pxe_enabled'] is True and port['is_smartnic'] is False
    assert port['portgroup_uuid'] is None
    shown = client.get('/v1/ports/' + port['uuid']).json
    assert shown == port
    old = client.get('/v1/ports/' + port['uuid'], version='1.18').json
    assert 'pxe_enabled' not in old and 'internal_info' in old


def test_duplicate_mac_409_without_partial_write(client, node):
    assert _port(client, node).status_int == 201
    resp = _port(client, node)
    assert resp.status_int == 409
    assert utils.faultstring(resp) == (
        'A port with MAC address %s already exists.' % MAC)
    assert len(objects.Port.list(None)) == 1


def test_invalid_mac_and_missing_node_400(client, node):
    resp = _port(client, node, address='not-a-mac')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Expected a MAC address but received not-a-mac.')
    resp = client.post_json('/v1/ports', {
        'address': MAC, 'node_uuid': '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'})
    assert resp.status_int == 400
    assert 'could not be found' in utils.faultstring(resp)
    resp = client.post_json('/v1/ports', {'address': MAC})
    assert resp.status_int == 400
    resp = _port(client, node, bogus=1)
    assert resp.status_int == 400
    assert objects.Port.list(None) == []


def test_newer_port_field_406(client, node):
    resp = _port(client, node, is_smartnic=True)
    assert resp.status_int == 201
    resp = client.post_json('/v1/ports', {
        'address': MAC2, 'node_uuid': node['uuid'], 'is_smartnic': True},
        version='1.52')
    assert resp.status_int == 406


def test_list_filters_and_subcollection(client, node):
    other = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                           'name': 'other'}).json
    p1 = _port(client, node).json
    p2 = _port(client, other, address=MAC2).json
    ports = client.get('/v1/ports').json['ports']
    assert [set(p) for p in ports] == [{'uuid', 'address', 'links'}] * 2
    assert [p['uuid'] for p in client.get(
        '/v1/ports?node=other').json['ports']] == [p2['uuid']]
    assert [p['uuid'] for p in client.get(
        '/v1/ports?node_uuid=%s' % node['uuid']).json['ports']] == [
            p1['uuid']]
    assert [p['uuid'] for p in client.get(
        '/v1/ports?address=%s' % MAC2.upper()).json['ports']] == [
            p2['uuid']]
    sub = client.get('/v1/nodes/node-0/ports').json['ports']
    assert [p['uuid'] for p in sub] == [p1['uuid']]
    detail = client.get('/v1/nodes/node-0/ports/detail').json['ports']
    assert detail[0]['node_uuid'] == node['uuid']
    assert client.get('/v1/ports/detail').json['ports'][1]['address'] == MAC2
    assert client.get('/v1/nodes/node-0/ports/%s' % p1['uuid']
                      ).status_int == 403
    assert client.get('/v1/ports?limit=1').json['next'].startswith(
        'http://localhost/v1/ports?')
    assert client.get('/v1/ports?fields=address').json['ports'][0].keys(
    ) == {'address', 'links'}


def test_patch_and_delete(client, node):
    port = _port(client, node).json
    url = '/v1/ports/' + port['uuid']
    resp = client.patch_json(url, [
        {'op': 'replace', 'path': '/address', 'value': MAC2},
        {'op': 'add', 'path': '/extra/k', 'value': 'v'}])
    assert resp.status_int == 200, resp.text
    assert resp.json['address'] == MAC2 and resp.json['extra'] == {'k': 'v'}
    for path in ('/uuid', '/internal_info', '/created_at'):
        resp = client.patch_json(url, [{'op': 'replace', 'path': path,
                                        'value': {}}])
        assert resp.status_int == 400, path
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/address',
                                    'value': 'zz'}])
    assert resp.status_int == 400
    assert client.delete(url).status_int == 204
    assert client.get(url).status_int == 404
    # A name, as Ironic looks ports up (test_utils_uuid_messages.py).
    assert client.get('/v1/ports/not-a-uuid').status_int == 404


def test_patch_duplicate_mac_409(client, node):
    _port(client, node)
    other = _port(client, node, address=MAC2).json
    resp = client.patch_json('/v1/ports/' + other['uuid'], [
        {'op': 'replace', 'path': '/address', 'value': MAC}])
    assert resp.status_int == 409
    assert objects.Port.get_by_uuid(None, other['uuid']).address == MAC2


def test_node_delete_removes_ports(client, node):
    port = _port(client, node).json
    client.delete('/v1/nodes/node-0')
    assert client.get('/v1/ports/' + port['uuid']).status_int == 404


def test_a_port_write_reads_its_node_once(client, node, monkeypatch):
    """The node of a new port is looked up once per request: for the
    policy target, the conductor's topic and the body's node_uuid alike."""
    reads = []
    for name in ('get_by_id', 'get_by_uuid', 'get_by_name'):
        original = getattr(objects.Node, name)

        def counted(cls, ctx, ident, _original=original, _name=name):
            reads.append(_name)
            return _original(ctx, ident)
        monkeypatch.setattr(objects.Node, name, classmethod(counted))
    resp = _port(client, node)
    assert resp.status_int == 201, resp.text
    assert resp.json['node_uuid'] == node['uuid']
    assert reads == ['get_by_uuid']
    reads.clear()
    resp = client.post_json('/v1/portgroups', {
        'address': MAC2, 'node_uuid': node['uuid'], 'name': 'pg0'})
    assert resp.status_int == 201, resp.text
    assert resp.json['node_uuid'] == node['uuid']
    assert reads == ['get_by_uuid']


def test_child_next_links_like_ironic(client, node):
    for i in range(2):
        assert client.post_json('/v1/ports', {
            'address': '52:54:00:00:00:0%d' % i,
            'node_uuid': node['uuid']}).status_int == 201
    ports = client.get('/v1/ports').json['ports']
    body = client.get('/v1/ports?limit=1&node=node-0').json
    assert body['next'] == (
        'http://localhost/v1/ports?sort_key=id&sort_dir=asc&'
        'fields=uuid,address&limit=1&marker=%s' % ports[0]['uuid'])
    body = client.get('/v1/ports/detail?limit=1').json
    assert body['next'] == (
        'http://localhost/v1/ports/detail?sort_key=id&sort_dir=asc&'
        'limit=1&marker=%s' % ports[0]['uuid'])
    body = client.get('/v1/ports?limit=1&detail=True').json
    assert body['next'] == (
        'http://localhost/v1/ports?sort_key=id&sort_dir=asc&detail=True&'
        'limit=1&marker=%s' % ports[0]['uuid'])


# -- input patterns match the whole value (issue 21): ``\Z``, never a
# ``$`` that also matches before a final newline ----------------------

def test_mac_with_a_newline_is_refused(client, node):
    resp = client.post_json('/v1/ports', {'node_uuid': node['uuid'],
                                          'address': '52:54:00:00:00:01\n'})
    assert resp.status_int == 400, resp.text
    assert client.get('/v1/ports').json['ports'] == []
