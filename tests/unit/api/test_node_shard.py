"""node.shard (1.82): create, show, patch, the checks of a shard value,
and the list filters ?shard= and ?sharded=."""

import pytest

from tests.unit.api import utils

OLD = '1.81'


def _create(client, name, shard=None, version=None):
    fields = {} if shard is None else {'shard': shard}
    return utils.create_named_node(client, name, version, **fields)


_names = utils.node_names


@pytest.fixture
def fleet(client):
    """a1, a2 in shard "A"; a3 in "a" (case matters); u1 unsharded."""
    for name, shard in (('a1', 'A'), ('a2', 'A'), ('a3', 'a'),
                        ('u1', None)):
        _create(client, name, shard)


# -- create / show ---------------------------------------------------------

def test_create_with_shard_and_show(client):
    node = _create(client, 'n1', 'rack-12')
    assert node['shard'] == 'rack-12'
    assert client.get('/v1/nodes/n1').json['shard'] == 'rack-12'
    shown = client.get('/v1/nodes/n1?fields=shard,name').json
    assert shown == {'shard': 'rack-12', 'name': 'n1',
                     'links': shown['links']}
    assert _create(client, 'n2')['shard'] is None


def test_shard_hidden_and_refused_below_1_82(client):
    _create(client, 'n1', 'A')
    assert 'shard' not in client.get('/v1/nodes/n1', version=OLD).json
    detail = client.get('/v1/nodes/detail', version=OLD).json['nodes']
    assert 'shard' not in detail[0]
    assert client.get('/v1/nodes/detail').json['nodes'][0]['shard'] == 'A'
    resp = client.get('/v1/nodes/n1?fields=shard', version=OLD)
    assert resp.status_int == 406
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'shard': 'A'}, version=OLD)
    assert resp.status_int == 406
    assert utils.faultstring(resp).endswith('should be 1.82')
    for op in ({'op': 'add', 'path': '/shard', 'value': 'B'},
               {'op': 'remove', 'path': '/shard'}):
        resp = client.patch_json('/v1/nodes/n1', [op], version=OLD)
        assert resp.status_int == 406, op
    assert client.get('/v1/nodes/n1').json['shard'] == 'A'
    assert client.get('/v1/nodes?sort_key=shard',
                      version=OLD).status_int == 406


@pytest.mark.parametrize('value,text', [
    ('', 'can not be an empty string'),
    ('x' * 256, 'shard is at most 255 characters'),
    ('a,b', 'contains a comma'),
    ('none', 'select unsharded nodes'),
    ('None', 'select unsharded nodes'),
    ('null', 'select unsharded nodes'),
])
def test_bad_shard_value_400_on_create_and_patch(client, value, text):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'shard': value})
    assert resp.status_int == 400
    assert text in utils.faultstring(resp)
    _create(client, 'n1', 'A')
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/extra/x', 'value': 1},
        {'op': 'replace', 'path': '/shard', 'value': value}])
    assert resp.status_int == 400
    assert text in utils.faultstring(resp)
    # No partial write: neither the shard nor the extra changed.
    shown = client.get('/v1/nodes/n1').json
    assert (shown['shard'], shown['extra']) == ('A', {})
    assert [n['name'] for n in client.get('/v1/nodes').json['nodes']] == [
        'n1']


def test_shard_value_not_a_string_400(client):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'shard': 5})
    assert resp.status_int == 400
    assert 'shard' in utils.faultstring(resp) or '5' in utils.faultstring(
        resp)
    _create(client, 'n1')
    for value in (5, ['a'], {'a': 1}, True):
        resp = client.patch_json('/v1/nodes/n1', [
            {'op': 'add', 'path': '/shard', 'value': value}])
        assert resp.status_int == 400, value
        assert 'The shard must be a string or null' in utils.faultstring(
            resp)


def test_longest_and_odd_but_valid_shards(client):
    assert _create(client, 'n1', 'x' * 255)['shard'] == 'x' * 255
    assert _create(client, 'n2', 'NONE')['shard'] == 'NONE'
    assert _create(client, 'n3', 'Rack 7/β')['shard'] == 'Rack 7/β'


def test_patch_sets_changes_and_removes_shard(client, rpcapi):
    _create(client, 'n1')
    for ops, expected in (
            ([{'op': 'add', 'path': '/shard', 'value': 'A'}], 'A'),
            ([{'op': 'replace', 'path': '/shard', 'value': 'B'}], 'B'),
            ([{'op': 'remove', 'path': '/shard'}], None),
            ([{'op': 'add', 'path': '/shard', 'value': 'C'}], 'C'),
            ([{'op': 'add', 'path': '/shard', 'value': None}], None)):
        resp = client.patch_json('/v1/nodes/n1', ops)
        assert resp.status_int == 200, resp.text
        assert resp.json['shard'] == expected
        assert client.get('/v1/nodes/n1').json['shard'] == expected
    assert rpcapi.calls[-1][0] == 'update_node'


# -- list filters ----------------------------------------------------------

def test_list_by_shard_exact_and_case_sensitive(client, fleet):
    assert _names(client.get('/v1/nodes?shard=A')) == ['a1', 'a2']
    assert _names(client.get('/v1/nodes?shard=a')) == ['a3']
    assert _names(client.get('/v1/nodes?shard=A,a')) == ['a1', 'a2', 'a3']
    assert _names(client.get('/v1/nodes/detail?shard=a')) == ['a3']
    assert _names(client.get('/v1/nodes?shard=unknown')) == []
    assert _names(client.get('/v1/nodes?shard=A,unknown')) == ['a1', 'a2']


@pytest.mark.parametrize('spelling', ['none', 'None', 'null'])
def test_list_unsharded_spellings(client, fleet, spelling):
    assert _names(client.get('/v1/nodes?shard=' + spelling)) == ['u1']
    assert _names(client.get('/v1/nodes?shard=a,' + spelling)) == [
        'a3', 'u1']


def test_list_sharded_boolean(client, fleet):
    assert _names(client.get('/v1/nodes?sharded=true')) == [
        'a1', 'a2', 'a3']
    assert _names(client.get('/v1/nodes?sharded=False')) == ['u1']
    assert _names(client.get('/v1/nodes?sharded=true&shard=A,None')) == [
        'a1', 'a2']
    resp = client.get('/v1/nodes?sharded=maybe')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Invalid value for sharded: maybe. It must be a boolean.')


@pytest.mark.parametrize('query', ['shard=', 'shard=A,,B', 'shard=A,',
                                   'shard=' + 'x' * 256])
def test_list_bad_shard_query_400(client, fleet, query):
    resp = client.get('/v1/nodes?' + query)
    assert resp.status_int == 400
    assert 'Invalid value for shard' in utils.faultstring(resp)


def test_list_filters_need_1_82(client, fleet):
    for query in ('shard=A', 'sharded=true'):
        resp = client.get('/v1/nodes?' + query, version=OLD)
        assert resp.status_int == 406, query
        assert utils.faultstring(resp) == (
            'Request not acceptable. The minimal required API version '
            'should be 1.82')


def test_list_fields_and_sort_by_shard(client, fleet):
    body = client.get('/v1/nodes?fields=name,shard&shard=A').json
    assert sorted((n['name'], n['shard']) for n in body['nodes']) == [
        ('a1', 'A'), ('a2', 'A')]
    body = client.get('/v1/nodes?sort_key=shard&sharded=true').json
    assert [n['name'] for n in body['nodes']][-1] == 'a3'


def test_next_link_keeps_the_shard_filter(client, fleet):
    body = client.get('/v1/nodes?shard=A,None&limit=2').json
    assert len(body['nodes']) == 2
    assert 'shard=A,None&' in body['next']
    page2 = client.get(body['next'].replace('http://localhost', '')).json
    names = [n['name'] for n in body['nodes'] + page2['nodes']]
    assert sorted(names) == ['a1', 'a2', 'u1']


def test_patch_passes_reset_interfaces_to_the_conductor(client, rpcapi):
    _create(client, 'n1')
    resp = client.patch_json('/v1/nodes/n1?reset_interfaces=true', [
        {'op': 'replace', 'path': '/driver', 'value': 'fake-hardware'},
        {'op': 'add', 'path': '/extra/x', 'value': 1}])
    assert resp.status_int == 200, resp.text
    assert rpcapi.last_reset_interfaces is True
    resp = client.patch_json('/v1/nodes/n1', [
        {'op': 'add', 'path': '/extra/y', 'value': 1}])
    assert resp.status_int == 200
    assert rpcapi.last_reset_interfaces is None
