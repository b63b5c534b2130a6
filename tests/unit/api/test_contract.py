"""The request contract: each behaviour Ironic has, with Ironic's answer
(status, envelope via utils.fault, message).

Messages are those of Ironic's ironic/common/args.py (``Unexpected
arguments: x``, ``Expected UUID for marker: x``, ``Missing mandatory
parameter: target``), of its JSON schema validation (``Schema error: ...``)
and of its JSON depth middleware.
"""

import json

import pytest

from ironic_lite.api import query
from ironic_lite.api import route_table
from ironic_lite.api import routes
from ironic_lite.api.schemas import node as node_schema
from tests.unit.api import utils


def _text(resp, status):
    assert resp.status_int == status, resp.text
    return utils.faultstring(resp)


# -- query parameters ----------------------------------------------------

@pytest.mark.parametrize('url,message', [
    ('/v1/nodes?shrad=rack-1', 'Unexpected arguments: shrad'),
    ('/v1/nodes/detail?shrad=rack-1', 'Unexpected arguments: shrad'),
    ('/v1/ports?shrad=1', 'Unexpected arguments: shrad'),
    ('/v1/ports/detail?a=1&b=2', 'Unexpected arguments: a, b'),
    ('/v1/portgroups?shrad=1', "Schema error: Additional properties are not "
                               "allowed ('shrad' was unexpected)"),
    ('/v1/chassis?shrad=1', "Schema error: Additional properties are not "
                            "allowed ('shrad' was unexpected)"),
    ('/v1/conductors?shrad=1', "Schema error: Additional properties are "
                               "not allowed ('shrad' was unexpected)"),
    ('/v1/shards?shrad=1', "Schema error: Additional properties are not "
                           "allowed ('shrad' was unexpected)"),
    ('/v1/nodes/node-0?detail=True', 'Unexpected arguments: detail'),
])
def test_unknown_query_parameter_400(client, node, url, message):
    assert _text(client.get(url), 400) == message


def test_every_collection_refuses_unknown_parameters(client, node):
    """Every GET route of the contract with declared parameters."""
    for route in route_table.ROUTES:
        if route.method != 'GET' or route.query is None:
            continue
        path = route.path.replace('{node_ident}', 'node-0')
        if '{' in path:
            continue
        resp = client.get(path + '?shrad=x')
        assert resp.status_int == 400, path
        assert 'shrad' in utils.faultstring(resp), path


def test_repeated_list_parameter_is_the_union(client):
    for name, shard in (('a', 'A'), ('b', 'B'), ('c', None)):
        body = {'driver': 'fake-hardware', 'name': name}
        if shard:
            body['shard'] = shard
        assert client.post_json('/v1/nodes', body).status_int == 201

    def names(query):
        resp = client.get('/v1/nodes?' + query)
        assert resp.status_int == 200, resp.text
        return sorted(n['name'] for n in resp.json['nodes'])
    assert names('shard=A&shard=B') == names('shard=A,B') == ['a', 'b']
    assert names('shard=A&shard=None') == ['a', 'c']
    resp = client.get('/v1/nodes?fields=uuid&fields=name')
    assert set(resp.json['nodes'][0]) == {'uuid', 'name', 'links'}


def test_repeated_single_value_parameter_400(client):
    assert _text(client.get('/v1/nodes?limit=1&limit=2'), 400) == (
        'The query parameter limit was given more than once; it takes one '
        'value.')


@pytest.mark.parametrize('url,name', [
    ('/v1/nodes?marker=abc', 'marker'),
    ('/v1/nodes?chassis_uuid=abc', 'chassis_uuid'),
    ('/v1/nodes?instance_uuid=abc', 'instance_uuid'),
    ('/v1/ports?node_uuid=abc', 'node_uuid'),
    ('/v1/ports?marker=abc', 'marker'),
    ('/v1/portgroups?marker=abc', 'marker'),
    ('/v1/chassis?marker=abc', 'marker'),
])
def test_malformed_uuid_names_the_parameter(client, url, name):
    assert _text(client.get(url), 400) == 'Expected UUID for %s: abc' % name


def test_ports_shard_with_node_refused(client, node):
    for q in ('shard=A&node=node-0', 'shard=A&node_uuid=' + node['uuid']):
        assert _text(client.get('/v1/ports?' + q), 403) == (
            'Operation not permitted.')
    assert _text(client.get('/v1/portgroups?shard=A&node=node-0'), 400) == (
        'Filtering by node, address, or shard simultaneously is not '
        'supported.')


# -- bodies ----------------------------------------------------------------

@pytest.mark.parametrize('method', ['post', 'put', 'patch'])
def test_body_that_is_not_json_415(client, node, method):
    url = {'post': '/v1/nodes', 'put': '/v1/nodes/node-0/maintenance',
           'patch': '/v1/nodes/node-0'}[method]
    resp = getattr(client, method)(url, '{"driver": "fake-hardware"}',
                                   headers={'Content-Type': 'text/plain'})
    assert _text(resp, 415) == (
        'The request media type text/plain is not supported by this '
        'server.')
    # Nothing was created or changed.
    nodes = client.get('/v1/nodes/detail').json['nodes']
    assert len(nodes) == 1 and nodes[0]['maintenance'] is False


def test_json_with_charset_accepted(client):
    resp = client.post('/v1/nodes', '{"driver": "fake-hardware"}', headers={
        'Content-Type': 'application/json; charset=UTF-8'})
    assert resp.status_int == 201, resp.text


@pytest.mark.parametrize('body,message', [
    (None, "Schema error for node: None is not of type 'object'"),
    ([1], "Schema error for node: [1] is not of type 'object'"),
    ({'driver': 'fake-hardware', 'extra': 'x'},
     "Schema error for node: 'x' is not of type 'object', 'null'"),
    ({'driver': 'fake-hardware', 'owner': 'o' * 256},
     "Schema error for node: 'ooooooooooooooooooooooooooooooooooooo...' is "
     "too long: owner is at most 255 characters"),
    ({'driver': 'fake-hardware', 'resource_class': 'r' * 81},
     "Schema error for node: 'rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr...' is "
     "too long: resource_class is at most 80 characters"),
])
def test_wrong_body_shape_schema_message(client, body, message):
    assert _text(client.post_json('/v1/nodes', body), 400) == message
    assert client.get('/v1/nodes').json['nodes'] == []


def test_portgroup_mode_longer_than_its_column(client, node):
    resp = client.post_json('/v1/portgroups', {'node_uuid': node['uuid'],
                                               'mode': 'm' * 256})
    assert 'mode is at most 255 characters' in _text(resp, 400)


def test_json_nested_too_deep_400(client):
    resp = client.post('/v1/nodes', '[' * 2000 + ']' * 2000,
                       headers={'Content-Type': 'application/json'})
    assert _text(resp, 400) == (
        'Request body JSON is nested too deeply. Please contact the service '
        'administrator.')


@pytest.mark.parametrize('raw', [
    '{"driver": "fake-hardware", "extra": {"a": NaN}}',
    '{"driver": "fake-hardware", "extra": {"a": Infinity}}',
    '{"driver": "fake-hardware", "extra": {"a": -Infinity}}',
])
def test_nan_and_infinity_are_not_json(client, raw):
    resp = client.post('/v1/nodes', raw,
                       headers={'Content-Type': 'application/json'})
    assert 'is not valid JSON' in _text(resp, 400)
    assert client.get('/v1/nodes').json['nodes'] == []


@pytest.mark.parametrize('raw,where', [
    ('{"driver": "fake-hardware", "name": "\\ud800"}', 'name'),
    ('{"driver": "fake-hardware", "owner": "a\\u0000b"}', 'owner'),
    ('{"driver": "fake-hardware", "extra": {"k\\u0000": 1}}', 'extra'),
])
def test_nul_and_lone_surrogates_refused(client, raw, where):
    resp = client.post('/v1/nodes', raw,
                       headers={'Content-Type': 'application/json'})
    assert _text(resp, 400).startswith('Invalid value for %s: ' % where)


@pytest.mark.parametrize('url', [
    '/v1/nodes/a%00b', '/v1/nodes?driver=a%00b', '/v1/ports?portgroup=%ff',
    '/v1/nodes?name%00=1'])
def test_nul_and_bad_percent_encoding_in_urls(client, url):
    _text(client.get(url), 400)


def test_odd_portgroup_idents_are_names_not_ids(client):
    resp = client.get('/v1/portgroups/99999999999999999999')
    assert _text(resp, 404) == (
        'Portgroup 99999999999999999999 could not be found.')
    resp = client.get('/v1/ports?portgroup=%c2%b2')
    assert _text(resp, 400) == (
        'Expected a logical name or UUID but received \u00b2.')


# -- handler arguments (Ironic's args.validate wording) ---------------------

@pytest.mark.parametrize('path,body,message', [
    ('states/power', {'target': ['x']}, "Expected string for target: ['x']"),
    ('states/power', {}, 'Missing mandatory parameter: target'),
    ('states/power', {'target': 'power on', 'foo': 1},
     'Unexpected arguments: foo'),
    ('states/provision', {'target': {}}, 'Expected string for target: {}'),
    ('maintenance', {'reason': {'a': 1}},
     "Expected types string, None for reason: {'a': 1}"),
    ('maintenance', {'reason': 'r' * 1000000},
     'Invalid reason: reason is too large: at most 65535 bytes (as JSON in '
     'UTF-8)'),
])
def test_wrong_types_in_action_bodies(client, node, rpcapi, path, body,
                                      message):
    resp = client.put_json('/v1/nodes/node-0/' + path, body)
    assert _text(resp, 400) == message
    assert [c for c in rpcapi.calls if c[0] != 'create_node'] == []


# -- patches ---------------------------------------------------------------

@pytest.mark.parametrize('op,message', [
    ({'op': 'move', 'from': 'x', 'path': '/extra/a'},
     "Schema error for patch: 'x' does not match '^/'"),
    ({'op': 'copy', 'from': 123, 'path': '/extra/a'},
     "Schema error for patch: 123 is not of type 'string'"),
    ({'op': 'add', 'path': '/extra/a'},
     "Schema error for patch: 'value' is a required property"),
    ({'op': 'replace', 'path': '/extra', 'value': {}, 'x': 1},
     "Schema error for patch: Additional properties are not allowed ('x' "
     "was unexpected)"),
])
def test_bad_patch_operations(client, node, op, message):
    assert _text(client.patch_json('/v1/nodes/node-0', [op]), 400) == message


@pytest.mark.parametrize('field', node_schema.READ_ONLY)
def test_read_only_node_fields_cannot_be_patched(client, node, field):
    resp = client.patch_json('/v1/nodes/node-0', [
        {'op': 'replace', 'path': '/' + field, 'value': 'x'}])
    assert _text(resp, 400).startswith(
        'Cannot patch /%s. Only the following can be updated: ' % field)


# -- versions and methods --------------------------------------------------

def test_v1_without_version_header_is_1_1(make_client):
    resp = make_client(None).get('/v1')
    assert resp.status_int == 200
    assert resp.headers['X-OpenStack-Ironic-API-Version'] == '1.1'
    body = resp.json
    assert body['media_types'] == {
        'base': 'application/json',
        'type': 'application/vnd.openstack.ironic.v1+json'}
    # At 1.1: chassis, nodes and ports only.
    assert {'chassis', 'nodes', 'ports'} <= set(body)
    for newer in ('portgroups', 'conductors', 'shards'):
        assert newer not in body
    assert body['nodes'] == [
        {'href': 'http://localhost/v1/nodes/', 'rel': 'self'},
        {'href': 'http://localhost/nodes/', 'rel': 'bookmark'}]


def test_root_answers_any_method_with_the_version_document(client):
    """As Ironic's RootController.index (exposed for every method)."""
    for method in ('put', 'post', 'delete'):
        resp = getattr(client, method)('/')
        assert resp.status_int == 200, method
        assert resp.json['name'] == 'OpenStack Ironic API'
        assert resp.json['description'] == (
            'Ironic is an OpenStack project which enables the provision and '
            'management of baremetal machines.')


def test_unsupported_methods_405(client, node):
    for method, url in (('delete', '/v1/nodes'), ('put', '/v1/nodes'),
                        ('post', '/v1/nodes/node-0'),
                        ('delete', '/v1/ports')):
        resp = getattr(client, method)(url)
        assert _text(resp, 405) == (
            'The method %s is not allowed for this resource.'
            % method.upper())
        assert resp.headers['Allow']


# -- the contract itself ---------------------------------------------------

def test_schema_maxlength_comes_from_the_model():
    from ironic_lite.objects import base
    limits = base.column_limits('nodes')
    props = node_schema.CREATE['properties']
    for name in ('owner', 'lessee', 'resource_class', 'name', 'shard'):
        assert props[name]['maxLength'] == limits[name][1], name
    assert props['extra']['maxBytes'] == limits['extra'][1]


def test_check_query_is_independent_of_order():
    route = routes.Route(
        'GET', '/v1/x', test_schema_maxlength_comes_from_the_model,
        query=(query.Param('a', query.LIST),))
    assert query.check_query(route, [('a', '1'), ('a', '2')], 82) == {
        'a': ['1', '2']}


def test_body_json_valid_when_document_given_as_text(client):
    resp = client.post('/v1/chassis', json.dumps({'description': 'x'}),
                       headers={'Content-Type': 'application/json'})
    assert resp.status_int == 201
