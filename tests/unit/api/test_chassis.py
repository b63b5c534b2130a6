"""/v1/chassis: CRUD with its nodes."""

from tests.unit.api import utils


def test_chassis_crud(client):
    resp = client.post_json('/v1/chassis', {'description': 'rack 1',
                                            'extra': {'row': 3}})
    assert resp.status_int == 201
    chassis = resp.json
    assert resp.headers['Location'].endswith('/v1/chassis/' + chassis['uuid'])
    assert chassis['nodes'][0]['href'].endswith('/nodes')
    items = client.get('/v1/chassis').json['chassis']
    assert items == [{'uuid': chassis['uuid'], 'description': 'rack 1',
                      'links': chassis['links']}]
    url = '/v1/chassis/' + chassis['uuid']
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/description',
                                    'value': 'rack 2'}])
    assert resp.json['description'] == 'rack 2'
    assert client.get('/v1/chassis/detail').json['chassis'][0][
        'extra'] == {'row': 3}
    assert client.delete(url).status_int == 204
    assert client.get(url).status_int == 404


def test_chassis_errors(client):
    assert client.post_json('/v1/chassis', {'foo': 1}).status_int == 400
    assert client.post_json('/v1/chassis', {'description': 'x' * 256}
                            ).status_int == 400
    assert client.get('/v1/chassis/not-a-uuid').status_int == 400


def test_chassis_nodes_and_not_empty(client):
    chassis = client.post_json('/v1/chassis', {}).json['uuid']
    node = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'chassis_uuid': chassis}).json
    assert node['chassis_uuid'] == chassis
    nodes = client.get('/v1/chassis/%s/nodes' % chassis).json['nodes']
    assert [n['uuid'] for n in nodes] == [node['uuid']]
    assert client.get('/v1/nodes?chassis_uuid=%s' % chassis).json[
        'nodes'][0]['uuid'] == node['uuid']
    assert client.get('/v1/chassis/%s/nodes/%s' % (chassis, node['uuid'])
                      ).status_int == 403
    resp = client.delete('/v1/chassis/' + chassis)
    assert resp.status_int == 400
    assert 'contains nodes' in utils.faultstring(resp)
