"""GET /v1/nodes and /v1/nodes/detail: paging, sorting, fields, filters."""

from urllib import parse as urlparse

from ironic_lite import objects
from tests.unit.api import utils


def _make(client, n, **extra):
    uuids = []
    for i in range(n):
        body = dict({'driver': 'fake-hardware', 'name': 'n%d' % i}, **extra)
        body['name'] = '%s-%d' % (extra.get('name', 'n'), i)
        resp = client.post_json('/v1/nodes', body)
        assert resp.status_int == 201, resp.text
        uuids.append(resp.json['uuid'])
    return uuids


def test_default_fields(client):
    _make(client, 1)
    item = client.get('/v1/nodes').json['nodes'][0]
    assert set(item) == {'uuid', 'name', 'instance_uuid', 'maintenance',
                         'power_state', 'provision_state', 'links'}
    assert 'name' not in client.get('/v1/nodes', version='1.4'
                                    ).json['nodes'][0]


def test_detail(client):
    _make(client, 1)
    item = client.get('/v1/nodes/detail').json['nodes'][0]
    assert item['driver'] == 'fake-hardware'
    assert 'ports' in item
    item = client.get('/v1/nodes?detail=True').json['nodes'][0]
    assert 'driver_info' in item
    resp = client.get('/v1/nodes?detail=True', version='1.42')
    assert resp.status_int == 400
    resp = client.get('/v1/nodes?detail=True&fields=uuid')
    assert resp.status_int == 400


def test_paging_with_next(client):
    uuids = _make(client, 3)
    resp = client.get('/v1/nodes?limit=2')
    body = resp.json
    assert [n['uuid'] for n in body['nodes']] == uuids[:2]
    # Ironic's format: sort_key, sort_dir, the returned fields (raw
    # commas), then limit and marker.
    assert body['next'] == (
        'http://localhost/v1/nodes?sort_key=id&sort_dir=asc&fields='
        'instance_uuid,maintenance,power_state,provision_state,uuid,name'
        '&limit=2&marker=%s' % uuids[1])
    url = urlparse.urlparse(body['next'])
    page2 = client.get('/v1/nodes?' + url.query).json
    assert [n['uuid'] for n in page2['nodes']] == uuids[2:]
    assert 'next' not in page2


def test_detail_next_link(client):
    uuids = _make(client, 2)
    body = client.get('/v1/nodes/detail?limit=1&maintenance=false').json
    # Ironic repeats maintenance only when true, and no fields for detail.
    assert body['next'] == ('http://localhost/v1/nodes/detail?sort_key=id&'
                            'sort_dir=asc&limit=1&marker=%s' % uuids[0])
    body = client.get('/v1/nodes?limit=1&associated=false&detail=true').json
    assert body['next'] == ('http://localhost/v1/nodes?sort_key=id&'
                            'sort_dir=asc&detail=True&limit=1&marker=%s'
                            % uuids[0])
    body = client.get('/v1/nodes?limit=1&fields=uuid,name&sort_dir=desc'
                      '&maintenance=0').json
    assert body['next'] == ('http://localhost/v1/nodes?sort_key=id&'
                            'sort_dir=desc&fields=uuid,name&limit=1&'
                            'marker=%s' % uuids[1])


def test_limit_and_sort_errors(client):
    assert client.get('/v1/nodes?limit=0').status_int == 400
    assert client.get('/v1/nodes?limit=x').status_int == 400
    assert client.get('/v1/nodes?sort_dir=up').status_int == 400
    resp = client.get('/v1/nodes?sort_key=extra')
    assert 'invalid field for sorting' in utils.faultstring(resp)
    assert client.get('/v1/nodes?sort_key=owner',
                      version='1.49').status_int == 406
    assert client.get('/v1/nodes?marker=nope').status_int == 400


def test_sort_desc(client):
    uuids = _make(client, 3)
    body = client.get('/v1/nodes?sort_key=name&sort_dir=desc').json
    assert [n['uuid'] for n in body['nodes']] == list(reversed(uuids))


def test_fields(client):
    _make(client, 1)
    item = client.get('/v1/nodes?fields=uuid,driver').json['nodes'][0]
    assert set(item) == {'uuid', 'driver', 'links'}
    assert client.get('/v1/nodes?fields=uuid', version='1.7'
                      ).status_int == 406
    assert client.get('/v1/nodes?fields=nope').status_int == 400


def test_filters(client):
    a = _make(client, 2, name='a')
    b = _make(client, 1, name='b', resource_class='gold', owner='p1',
              description='in rack 7')
    client.put_json('/v1/nodes/%s/maintenance' % a[0], {})

    def uuids(query, version=None):
        resp = client.get('/v1/nodes?' + query, version=version)
        assert resp.status_int == 200, resp.text
        return sorted(n['uuid'] for n in resp.json['nodes'])

    assert uuids('maintenance=true') == [a[0]]
    assert uuids('maintenance=false') == sorted([a[1], b[0]])
    assert uuids('resource_class=gold') == b
    assert uuids('owner=p1') == b
    assert uuids('description_contains=rack') == b
    assert uuids('driver=fake-hardware') == sorted(a + b)
    assert uuids('provision_state=enroll') == sorted(a + b)
    assert uuids('provision_state=active') == []
    assert uuids('associated=false') == sorted(a + b)
    assert uuids('conductor_group=') == sorted(a + b)
    assert uuids('retired=false') == sorted(a + b)


def test_filter_errors_and_gates(client):
    assert client.get('/v1/nodes?provision_state=flying').status_int == 400
    assert client.get('/v1/nodes?fault=bad').status_int == 400
    assert client.get('/v1/nodes?maintenance=maybe').status_int == 400
    gates = {'driver=x': '1.15',
             'resource_class=x': '1.20', 'conductor_group=x': '1.45',
             'conductor=x': '1.48', 'owner=x': '1.49',
             'lessee=x': '1.64', 'fault=power%20failure': '1.41'}
    for query, version in gates.items():
        resp = client.get('/v1/nodes?' + query, version=version)
        assert resp.status_int == 406, query
        assert utils.faultstring(resp) == (
            'Request not acceptable. The minimal required API version '
            'should be 1.%d' % (int(version.split('.')[1]) + 1))
    # provision_state (1.9) and fields (1.8) gates have Ironic's bare text.
    for query, version in (('provision_state=enroll', '1.8'),
                           ('fields=uuid', '1.7')):
        resp = client.get('/v1/nodes?' + query, version=version)
        assert resp.status_int == 406, query
        assert utils.faultstring(resp) == 'Request not acceptable.'
    # Ironic does not version-gate these filters.
    for query, version in (('retired=true', '1.60'),
                           ('description_contains=x', '1.50'),
                           ('project=x', '1.64')):
        assert client.get('/v1/nodes?' + query,
                          version=version).status_int == 200, query
    # Unknown fields: Ironic's node message names the first one.
    resp = client.get('/v1/nodes?fields=uuid,bogus,links')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Field bogus is not a valid field.'


def test_conductor_field_and_filter(client, database):
    objects.Conductor.register(None, 'cond-1', ['fake-hardware'], '')
    uuid = _make(client, 1)[0]
    assert client.get('/v1/nodes/' + uuid).json['conductor'] == 'cond-1'
    assert [n['uuid'] for n in client.get(
        '/v1/nodes?conductor=cond-1').json['nodes']] == [uuid]
    assert client.get('/v1/nodes?conductor=other').json['nodes'] == []
    assert 'conductor' not in client.get('/v1/nodes/' + uuid,
                                         version='1.48').json


def test_instance_uuid_filter_has_no_next(client):
    uuid = _make(client, 1)[0]
    inst = '9b1f9c0e-43c9-4d9e-9a43-38e0f7bc9c10'
    client.patch_json('/v1/nodes/' + uuid, [
        {'op': 'add', 'path': '/instance_uuid', 'value': inst}])
    body = client.get('/v1/nodes?instance_uuid=%s&limit=1' % inst).json
    assert [n['uuid'] for n in body['nodes']] == [uuid]
    assert 'next' not in body
