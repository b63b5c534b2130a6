"""GET /v1/shards (and Ironic's 405 for a method it does not serve),
ports and port groups by shard, and the pinned (1.0) behaviour of all of
it."""

import pytest

from ironic_lite.api.controllers.v1 import shard as shard_api
from ironic_lite import conf
from tests.unit.api import utils

CONF = conf.CONF


def _node(client, name, shard=None):
    body = {'driver': 'fake-hardware', 'name': name}
    if shard is not None:
        body['shard'] = shard
    resp = client.post_json('/v1/nodes', body)
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


def _port(client, node_uuid, mac, pg=None):
    body = {'address': mac, 'node_uuid': node_uuid}
    if pg:
        body['portgroup_uuid'] = pg
    resp = client.post_json('/v1/ports', body)
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


def _portgroup(client, node_uuid, name):
    resp = client.post_json('/v1/portgroups', {'node_uuid': node_uuid,
                                               'name': name})
    assert resp.status_int == 201, resp.text
    return resp.json['uuid']


@pytest.fixture
def fleet(client):
    """Shard A: 3 nodes, shard B: 1, unsharded: 2; a port and a port group
    on the first node of each."""
    uuids = {}
    for name, shard in (('a1', 'A'), ('a2', 'A'), ('a3', 'A'), ('b1', 'B'),
                        ('u1', None), ('u2', None)):
        uuids[name] = _node(client, name, shard)
    pgs = {n: _portgroup(client, uuids[n], 'pg-' + n)
           for n in ('a1', 'b1', 'u1')}
    _port(client, uuids['a1'], '52:54:00:00:00:a1', pgs['a1'])
    _port(client, uuids['a2'], '52:54:00:00:00:a2')
    _port(client, uuids['b1'], '52:54:00:00:00:b1', pgs['b1'])
    _port(client, uuids['u1'], '52:54:00:00:00:01', pgs['u1'])
    return uuids


# -- /v1/shards ------------------------------------------------------------

def test_shards_counts_biggest_first(client, fleet):
    resp = client.get('/v1/shards')
    assert resp.status_int == 200
    assert resp.json == {'shards': [{'name': 'A', 'count': 3},
                                    {'name': 'None', 'count': 2},
                                    {'name': 'B', 'count': 1}]}


def test_shards_empty(client):
    assert client.get('/v1/shards').json == {'shards': []}


def test_walking_shards_finds_every_node_once(client, fleet):
    """A consumer querying each name /v1/shards gives gets the right
    nodes, the unsharded ones included."""
    seen = []
    for row in client.get('/v1/shards').json['shards']:
        nodes = client.get('/v1/nodes?shard=' + row['name']).json['nodes']
        assert len(nodes) == row['count'], row
        seen += [n['uuid'] for n in nodes]
    assert sorted(seen) == sorted(fleet.values())


def test_shards_read_only_and_no_sub_resources(client, fleet):
    for method in ('post_json', 'put_json', 'patch_json', 'delete'):
        args = ({},) if method != 'delete' else ()
        resp = getattr(client, method)('/v1/shards', *args)
        assert resp.status_int == 405, method
        assert resp.headers['Allow'] == 'GET'
        utils.fault(resp)
    resp = client.get('/v1/shards/A')
    assert resp.status_int == 404
    resp = client.get('/v1/shards?name=A')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        "Schema error: Additional properties are not allowed ('name' was "
        "unexpected)")


def test_shards_below_1_82(client, fleet):
    resp = client.get('/v1/shards', version='1.81')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'The API version does not allow shards'
    resp = client.post_json('/v1/shards', {}, version='1.81')
    assert resp.status_int == 405
    assert utils.faultstring(resp) == 'The API version does not allow shards'


# /v1/shards answers a method it does not serve as Ironic does: 405 with
# ``Allow: GET`` (from 1.82 and below it), naming the method from 1.82.
@pytest.mark.parametrize('method', ['post_json', 'put_json', 'patch_json',
                                    'delete'])
@pytest.mark.parametrize('version', ['1.81', '1.82', None])
def test_405_allows_get(client, method, version):
    args = ({},) if method != 'delete' else ()
    resp = getattr(client, method)('/v1/shards', *args, version=version)
    assert resp.status_int == 405
    assert resp.headers['Allow'] == 'GET'
    verb = method.split('_')[0].upper()
    if version == '1.81':
        assert utils.faultstring(resp) == (
            'The API version does not allow shards')
    else:
        assert utils.faultstring(resp) == (
            'The method %s is not allowed for this resource.' % verb)


# -- ports and port groups -------------------------------------------------

def _addresses(resp):
    assert resp.status_int == 200, resp.text
    return sorted(p['address'] for p in resp.json['ports'])


def _pg_names(resp):
    assert resp.status_int == 200, resp.text
    return sorted(p['name'] for p in resp.json['portgroups'])


def test_ports_by_shard(client, fleet):
    assert _addresses(client.get('/v1/ports?shard=A')) == [
        '52:54:00:00:00:a1', '52:54:00:00:00:a2']
    assert _addresses(client.get('/v1/ports/detail?shard=B,None')) == [
        '52:54:00:00:00:01', '52:54:00:00:00:b1']
    assert _addresses(client.get('/v1/ports?shard=nope')) == []
    resp = client.get('/v1/ports?shard=')
    assert resp.status_int == 400


def test_ports_shard_refused_with_node_or_portgroup(client, fleet):
    """As Ironic: node (node_uuid), portgroup and shard are alternatives
    on a port list: any two together are 403 "Operation not permitted."
    (also under /v1/nodes/<n>/ports).  address and shard both apply."""
    a1, b1 = fleet['a1'], fleet['b1']
    for url in ('/v1/ports?shard=A&node=' + a1,
                '/v1/ports?shard=B&node_uuid=' + b1,
                '/v1/ports?shard=A&portgroup=pg-a1',
                '/v1/nodes/a1/ports?shard=None',
                '/v1/ports?shard=A&portgroup=pg-a1&node=' + a1):
        resp = client.get(url)
        assert resp.status_int == 403, url
        assert utils.faultstring(resp) == 'Operation not permitted.'
    assert _addresses(client.get(
        '/v1/ports?shard=A&address=52:54:00:00:00:a2')) == [
        '52:54:00:00:00:a2']


def test_portgroups_by_shard(client, fleet):
    assert _pg_names(client.get('/v1/portgroups?shard=A')) == ['pg-a1']
    assert _pg_names(client.get('/v1/portgroups/detail?shard=None,B')) == [
        'pg-b1', 'pg-u1']
    # As Ironic: node, address and shard are alternatives (400).
    for url in ('/v1/portgroups?shard=A&node=b1',
                '/v1/portgroups?shard=A&address=52:54:00:00:00:01',
                '/v1/nodes/b1/portgroups?shard=B'):
        resp = client.get(url)
        assert resp.status_int == 400, url
        assert utils.faultstring(resp) == (
            'Filtering by node, address, or shard simultaneously is not '
            'supported.')


def test_port_and_portgroup_shard_need_1_82(client, fleet):
    for url in ('/v1/ports?shard=A', '/v1/portgroups?shard=A'):
        resp = client.get(url, version='1.81')
        assert resp.status_int == 406, url
        assert utils.faultstring(resp).endswith('should be 1.82')


def test_port_next_link_keeps_the_shard(client, fleet):
    body = client.get('/v1/ports?shard=A&limit=1').json
    assert 'shard=A&' in body['next']
    page2 = client.get(body['next'].replace('http://localhost', '')).json
    assert [p['address'] for p in body['ports'] + page2['ports']] != []
    assert sorted(p['address'] for p in body['ports'] + page2['ports']) == [
        '52:54:00:00:00:a1', '52:54:00:00:00:a2']


def test_next_params_quote_odd_names():
    assert shard_api.next_params({'shard': 'a b&c,None'}) == [
        ('shard', 'a%20b%26c,None')]


# -- pinned to release 1.0 -------------------------------------------------

def test_pinned_to_1_0_serves_1_81_and_writes_no_shard(client, fleet):
    CONF.set_override('pin_release_version', '1.0')
    resp = client.get('/v1/nodes', version='latest')
    assert resp.headers['X-OpenStack-Ironic-API-Maximum-Version'] == '1.81'
    assert resp.headers['X-OpenStack-Ironic-API-Version'] == '1.81'
    for call in (lambda: client.get('/v1/shards'),
                 lambda: client.get('/v1/nodes?shard=A'),
                 lambda: client.post_json('/v1/nodes', {
                     'driver': 'fake-hardware', 'shard': 'C'}),
                 lambda: client.patch_json('/v1/nodes/u1', [
                     {'op': 'add', 'path': '/shard', 'value': 'C'}])):
        resp = call()
        assert resp.status_int == 406
        assert 'minor version is not supported' in utils.faultstring(resp)
    # The newest version the pinned service offers cannot write one either.
    resp = client.patch_json('/v1/nodes/u1', [
        {'op': 'add', 'path': '/shard', 'value': 'C'}], version='latest')
    assert resp.status_int == 406
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'shard': 'C'}, version='latest')
    assert resp.status_int == 406
    assert client.get('/v1/shards', version='latest').status_int == 404
    assert 'shards' not in client.get('/v1', version='latest').json
    CONF.clear_override('pin_release_version')
    assert client.get('/v1/nodes/u1').json['shard'] is None
    assert {r['name'] for r in client.get('/v1/shards').json['shards']} == {
        'A', 'B', 'None'}
