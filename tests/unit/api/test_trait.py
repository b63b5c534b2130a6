"""/v1/nodes/<n>/traits (1.37) and traits in the node body."""

import pytest

from tests.unit.api import utils

URL = '/v1/nodes/node-0/traits'


def test_set_add_list_remove(client, node, rpcapi):
    resp = client.put_json(URL, {'traits': ['CUSTOM_B', 'HW_CPU_X86_AVX2',
                                            'CUSTOM_B']})
    assert resp.status_int == 204 and resp.body == b''
    resp = client.put(URL + '/CUSTOM_A')
    assert resp.status_int == 204
    assert resp.headers['Location'].endswith(
        '/v1/nodes/%s/traits/CUSTOM_A' % node['uuid'])
    assert client.get(URL).json == {
        'traits': ['CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_AVX2']}
    assert client.get('/v1/nodes/node-0').json['traits'] == [
        'CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_AVX2']
    listed = client.get('/v1/nodes?fields=traits').json['nodes'][0]
    assert listed['traits'] == ['CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_AVX2']
    detail = client.get('/v1/nodes/detail').json['nodes'][0]
    assert detail['traits'] == ['CUSTOM_A', 'CUSTOM_B', 'HW_CPU_X86_AVX2']
    assert client.delete(URL + '/CUSTOM_B').status_int == 204
    resp = client.delete(URL + '/CUSTOM_B')
    assert resp.status_int == 404
    assert "doesn't have a trait 'CUSTOM_B'" in utils.faultstring(resp)
    assert client.delete(URL).status_int == 204
    assert client.get(URL).json == {'traits': []}


def test_bad_traits_are_400_and_write_nothing(client, node, rpcapi):
    client.put_json(URL, {'traits': ['CUSTOM_KEEP']})
    for body in ({'traits': ['lower_case']}, {'traits': ['CUSTOM_']},
                 {'traits': ['CUSTOM_' + 'A' * 250]}, {'traits': 'CUSTOM_A'},
                 {'traits': ['CUSTOM_A'], 'other': 1}, {}, [1]):
        resp = client.put_json(URL, body)
        assert resp.status_int == 400, body
    resp = client.put(URL + '/NOT_A_TRAIT')
    assert resp.status_int == 400
    assert 'NOT_A_TRAIT' in utils.faultstring(resp)
    resp = client.put_json(URL, {'traits': ['CUSTOM_%d' % i
                                            for i in range(51)]})
    assert resp.status_int == 400
    assert 'maximum number of traits' in utils.faultstring(resp)
    assert client.get(URL).json == {'traits': ['CUSTOM_KEEP']}


def test_gated_at_1_37(make_client, node):
    old = make_client('1.36')
    assert 'traits' not in old.get('/v1/nodes/node-0').json
    assert old.get('/v1/nodes/node-0?fields=traits').status_int == 406


@pytest.mark.parametrize('version', ['1.1', '1.36'])
def test_below_1_37_the_path_is_ironics_node_path(make_client, rpcapi,
                                                  node, version):
    """Ironic serves .../traits below 1.37 as if it did not exist
    (NodesController._lookup): GET is the node with ?fields=traits (406),
    PUT has no handler (405, Allow: the node methods), DELETE is the
    NotFound of NodesController.delete."""
    old = make_client(version)
    ident = node['uuid']
    url = '/v1/nodes/%s/traits' % ident
    resp = old.get(url)
    assert resp.status_int == 406, resp.text
    assert utils.faultstring(resp) == 'Request not acceptable.'
    for path in (url, url + '/CUSTOM_A'):
        resp = old.put_json(path, {'traits': ['CUSTOM_A']}) \
            if path == url else old.put(path)
        assert resp.status_int == 405, resp.text
        assert resp.headers['Allow'] == 'DELETE, GET, PATCH, POST'
        assert utils.faultstring(resp) == (
            'The method PUT is not allowed for this resource.')
        resp = old.delete(path)
        assert resp.status_int == 404, resp.text
        assert utils.faultstring(resp) == 'Resource could not be found.'
    assert [c for c in rpcapi.calls if 'trait' in c[0]] == []
    assert old.get('/v1/nodes/' + ident).status_int == 200


def test_below_1_37_get_looks_the_node_up_first(make_client):
    """As Ironic's get_one: the node's 404 before the field's 406."""
    resp = make_client('1.36').get('/v1/nodes/nope/traits')
    assert resp.status_int == 404, resp.text
    assert utils.faultstring(resp) == 'Node nope could not be found.'


def test_missing_node_is_404(client):
    assert client.get('/v1/nodes/nope/traits').status_int == 404
    assert client.put('/v1/nodes/nope/traits/CUSTOM_A').status_int == 404


def test_pinned_api_refuses_writes_reads_work(client, node, config_pin):
    config_pin('2.0')
    resp = client.put(URL + '/CUSTOM_A')
    assert resp.status_int == 409
    assert 'step 6.3' in utils.faultstring(resp)
    assert client.get(URL).json == {'traits': []}
    assert client.get('/v1/nodes/node-0').json['traits'] == []


# -- input patterns match the whole value (issue 21): ``\Z``, never a
# ``$`` that also matches before a final newline ----------------------

def test_trait_with_a_newline_is_refused(client, node):
    url = '/v1/nodes/%s/traits' % node['uuid']
    assert client.put(url + '/CUSTOM_A%0A').status_int == 400
    assert client.put(url + '/HW_CPU_X86_AVX%0A').status_int == 400
    resp = client.put_json(url, {'traits': ['CUSTOM_A\n']})
    assert resp.status_int == 400, resp.text
    assert client.get(url).json == {'traits': []}
    # The message shows Ironic's pattern.
    resp = client.put(url + '/CUSTOM_a')
    assert utils.faultstring(resp).endswith(
        "Possible root cause: 'CUSTOM_a' does not match "
        "'^CUSTOM_[A-Z0-9_]+$'")
