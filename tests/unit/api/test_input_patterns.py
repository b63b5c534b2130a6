"""Issue 21: the patterns that validate input match the whole value.

A Python ``$`` also matches before a final newline, so ``"node1\\n"``
passed as a logical name (and was stored).  Every pattern of the API is
anchored with ``\\Z`` (or its value is refused otherwise).
"""

import pytest

from tests.unit.api import utils


@pytest.mark.parametrize('name', ['node1\n', 'node1\r\n', '\nnode1'])
def test_node_name_with_a_newline_is_refused(client, name):
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': name})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "Cannot create node with invalid name '%s'" % name)
    assert client.get('/v1/nodes').json['nodes'] == []


def test_node_rename_with_a_newline_is_refused(client, node):
    resp = client.patch_json('/v1/nodes/' + node['uuid'], [
        {'op': 'replace', 'path': '/name', 'value': 'node1\n'}])
    assert resp.status_int == 400, resp.text
    assert 'Cannot change name to invalid name' in utils.faultstring(resp)
    assert client.get('/v1/nodes/' + node['uuid']).json['name'] == 'node-0'


def test_node_path_name_with_a_newline_is_not_the_node(client, node):
    resp = client.get('/v1/nodes/node-0%0A')
    assert resp.status_int == 400, resp.text


def test_portgroup_name_with_a_newline_is_refused(client, node):
    resp = client.post_json('/v1/portgroups', {'node_uuid': node['uuid'],
                                               'name': 'pg1\n'})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "Cannot create portgroup with invalid name 'pg1\n'")


def test_mac_with_a_newline_is_refused(client, node):
    resp = client.post_json('/v1/ports', {'node_uuid': node['uuid'],
                                          'address': '52:54:00:00:00:01\n'})
    assert resp.status_int == 400, resp.text
    assert client.get('/v1/ports').json['ports'] == []


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


def test_patch_list_index_with_a_newline_is_refused(client, node):
    url = '/v1/nodes/' + node['uuid']
    assert client.patch_json(url, [{'op': 'add', 'path': '/extra/l',
                                    'value': [1, 2]}]).status_int == 200
    resp = client.patch_json(url, [{'op': 'replace', 'path': '/extra/l/1\n',
                                    'value': 3}])
    assert resp.status_int == 400, resp.text
    assert 'is not a valid list index' in utils.faultstring(resp)
    assert client.get(url).json['extra'] == {'l': [1, 2]}
