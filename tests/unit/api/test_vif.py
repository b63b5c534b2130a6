"""/v1/nodes/<n>/vifs (1.28)."""

from tests.unit.api import utils

VIFS = '/v1/nodes/node-0/vifs'


def _port(client, node, mac, **extra):
    body = dict({'node_uuid': node['uuid'], 'address': mac}, **extra)
    resp = client.post_json('/v1/ports', body)
    assert resp.status_int == 201, resp.text
    return resp.json


def test_attach_list_detach_on_flat(client, node):
    port = _port(client, node, '52:54:00:00:00:01')
    resp = client.post_json(VIFS, {'id': 'vif-1'})
    assert resp.status_int == 204, resp.text
    assert client.get(VIFS).json == {'vifs': [{'id': 'vif-1'}]}
    shown = client.get('/v1/ports/' + port['uuid']).json
    assert shown['internal_info'] == {'tenant_vif_port_id': 'vif-1'}
    resp = client.post_json(VIFS, {'id': 'vif-1'})
    assert resp.status_int == 409
    assert 'already attached' in utils.faultstring(resp)
    resp = client.post_json(VIFS, {'id': 'vif-2'})
    assert resp.status_int == 400
    assert 'not enough free physical ports' in utils.faultstring(resp)
    assert client.delete(VIFS + '/vif-1').status_int == 204
    assert client.get(VIFS).json == {'vifs': []}
    assert client.delete(VIFS + '/vif-1').status_int == 400


def test_noop_accepts_and_lists_nothing(client, node):
    client.patch_json('/v1/nodes/node-0', [
        {'op': 'replace', 'path': '/network_interface', 'value': 'noop'}])
    assert client.post_json(VIFS, {'id': 'vif-n'}).status_int == 204
    assert client.get(VIFS).json == {'vifs': []}


def test_bad_bodies_and_versions(client, make_client, node):
    for body in ({}, {'id': 1}, [], {'id': 'bad id!'},
                 {'id': 'v', 'port_uuid': 'a', 'portgroup_uuid': 'b'}):
        assert client.post_json(VIFS, body).status_int == 400, body
    assert make_client('1.27').get(VIFS).status_int == 404
    assert client.get('/v1/nodes/nope/vifs').status_int == 404


def test_pinned_api_refuses_every_vif_call(client, node, config_pin):
    config_pin('bellows')
    for resp in (client.get(VIFS), client.post_json(VIFS, {'id': 'v'}),
                 client.delete(VIFS + '/v')):
        assert resp.status_int == 409
        assert 'pinned to release bellows' in utils.faultstring(resp)
