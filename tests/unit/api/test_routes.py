"""The route table is the router: what it serves, and nothing else.

Every request pecan routes goes through the root controller's ``_route``,
which serves only what it finds in the table (``api/route_table.py``);
these tests check that the table and the handlers agree, that a path or
method outside the table is refused (404/405) and never served
unchecked, and that the handlers get the values typed.
"""

import inspect
import os
import re

import pytest
import webob.exc

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import route_table
from ironic_lite.api import routes
from ironic_lite.common import exception
from tests.unit.api import utils

API = os.path.join(os.path.dirname(routes.__file__))
ALL = route_table.ROUTES


def _filled(route):
    """The route's path with each placeholder replaced by a value."""
    return re.sub(r'\{[a-z_]+\}', 'x', route.path)


@pytest.mark.parametrize('route', ALL, ids=lambda r: '%s %s' % (
    r.method, r.path))
def test_each_route_is_reached_and_reaches_its_handler(route):
    """A request on the route's path finds that route (no other entry
    shadows it), and its handler takes what the route hands it: the
    captured segments, each query parameter by name, and ``body``."""
    assert route_table.find(route.method, _filled(route)) is route
    captured = ['x'] * route.path.count('{')
    args = [captured[i] for i in route.handler_args]
    if route.owner is not None:
        owner = inspect.signature(route.owner.__init__)
        owner.bind(None, **{n: 'x' for _i, n in route.owner_args})
        args.insert(0, None)
    kwargs = {name: None for name in route.query or ()}
    if route.body:
        kwargs['body'] = {}
    inspect.signature(route.handler).bind(*args, **kwargs)


def test_only_the_root_controller_is_exposed_to_pecan():
    """pecan can reach nothing but the root's ``_route`` and the two
    methods it returns, which serve the table's routes only: a handler
    outside the table can not be reached."""
    exposed = []
    for folder, _dirs, files in os.walk(API):
        for name in files:
            if name.endswith('.py'):
                with open(os.path.join(folder, name)) as f:
                    if 'pecan.expose' in f.read():
                        exposed.append(name)
    assert exposed == ['root.py']


def test_paths_are_unique_per_method():
    seen = set()
    for route in ALL:
        key = (route.method, route.path)
        assert key not in seen, key
        seen.add(key)


@pytest.mark.parametrize('path', ['/v1/nothing', '/v1/nodes/x/y/z',
                                  '/v1/nodes/ports', '/v1/nodes/vifs/x',
                                  '/v1/shards/A', '/v1/v1/nodes',
                                  '/v1/ports/x/ports'])
def test_a_path_without_a_route_is_404(client, path):
    resp = client.get(path)
    assert resp.status_int == 404, resp.text
    utils.fault(resp)


def test_a_method_without_a_route_is_405_with_allow(client):
    resp = client.post('/v1/nodes/node-0/states')
    assert resp.status_int == 405
    assert utils.faultstring(resp) == (
        'The method POST is not allowed for this resource.')
    assert resp.headers['Allow'] == 'GET'
    # A literal segment and a capture: the methods of both.
    resp = client.post('/v1/nodes/detail')
    assert resp.headers['Allow'] == 'DELETE, GET, PATCH'
    # HEAD is not GET (as before the table).
    assert client.head('/v1/nodes').status_int == 405


def test_put_on_a_state_ironic_does_not_have_is_405(client, node):
    """Ironic (pecan) finds no PUT handler below /states: 405, before
    any policy; the states that exist are still served."""
    resp = client.put_json('/v1/nodes/node-0/states/target_raid_config',
                           {'target': {'raid': 'config'}})
    assert resp.status_int == 405, resp.text
    assert utils.faultstring(resp) == (
        'The method PUT is not allowed for this resource.')
    # Another method there: a 405 that names the one the path has.
    resp = client.get('/v1/nodes/node-0/states/target_raid_config')
    assert resp.status_int == 405
    assert resp.headers['Allow'] == 'PUT'
    assert client.put_json('/v1/nodes/node-0/states/power',
                           {'target': 'power on'}).status_int == 202


def test_a_route_removed_from_the_table_is_404_not_served(
        client, node, monkeypatch):
    """The fail-open case of issue 21: without its entry, GET
    /v1/nodes/<n>/validate is no longer served (with any query)."""
    resp = client.get('/v1/nodes/node-0/validate?anything=1')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Unexpected arguments: anything'
    kept = [r for r in ALL if (r.method, r.path) != (
        'GET', '/v1/nodes/{node_ident}/validate')]
    assert len(kept) == len(ALL) - 1
    monkeypatch.setattr(route_table, 'ROUTER', routes.Router(kept))
    for query in ('', '?anything=1'):
        resp = client.get('/v1/nodes/node-0/validate' + query)
        assert resp.status_int == 404, resp.text
    assert client.get('/v1/nodes/node-0').status_int == 200


def _handler(ident, **query):
    return ident, query


@pytest.mark.parametrize('gate,status,error', [
    (routes.NOT_FOUND, 404, webob.exc.HTTPNotFound),
    (routes.Gate(405), 405, webob.exc.HTTPMethodNotAllowed),
    (routes.Gate(406), 406, exception.NotAcceptable),
])
def test_an_older_request_gets_the_routes_gate(gate, status, error):
    """How traits below 1.37 can be declared: GET 406, PUT 405."""
    router = routes.Router([routes.Route(
        'GET', '/v1/x/{ident}', _handler, since=37, older=gate)])
    with pytest.raises(error):
        router.match('GET', ['v1', 'x', 'a'], 36)
    route, captured = router.match('GET', ['v1', 'x', 'a'], 37)
    assert captured == ['a'] and route.call(captured, {}) == ('a', {})


def test_a_literal_segment_wins_then_a_capture_is_tried():
    router = routes.Router([
        routes.Route('GET', '/v1/x/detail', _handler),
        routes.Route('PATCH', '/v1/x/{ident}', _handler)])
    assert router.match('GET', ['v1', 'x', 'detail'], 1)[1] == []
    assert router.match('PATCH', ['v1', 'x', 'detail'], 1)[1] == ['detail']
    with pytest.raises(webob.exc.HTTPMethodNotAllowed) as exc:
        router.match('POST', ['v1', 'x', 'detail'], 1)
    assert list(exc.value.allow) == ['GET', 'PATCH']


class _Request(object):
    def __init__(self, query_string):
        self.query_string, self.environ = query_string, {}


def test_the_handler_gets_typed_values():
    route = routes.Route('GET', '/v1/x/{ident}', _handler, query=(
        q.Param('limit', q.INT), q.Param('detail', q.BOOL),
        q.Param('fields', q.LIST), q.Param('marker', q.UUID),
        q.Param('name')))
    uuid = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'
    values = route.checked_values(_Request(
        'limit=5&detail=yes&fields=a,b&fields=c&marker=%s&name=n' % uuid),
        mv.MINOR_MAX_VERSION)
    assert values == {'limit': 5, 'detail': True,
                      'fields': ['a', 'b', 'c'], 'marker': uuid,
                      'name': 'n'}
    assert route.call(['i'], values) == ('i', values)


def test_v1_is_optional_and_an_identifier_may_end_in_json(client, node):
    """As Ironic (and as before the table): ``/nodes`` is ``/v1/nodes``,
    and below 1.91 ``/v1/nodes/<ident>.json`` names ``<ident>``."""
    assert client.get('/nodes').json == client.get('/v1/nodes').json
    resp = client.get('/v1/nodes/node-0.json', version='1.90')
    assert resp.status_int == 200 and resp.json['uuid'] == node['uuid']
    resp = client.get('/v1/nodes/%s.json' % node['uuid'], version='1.90')
    assert resp.status_int == 200


def test_from_1_91_json_is_part_of_the_name(client, node):
    """1.91: ``/v1/nodes/test.json`` is the node named "test.json"."""
    resp = client.get('/v1/nodes/node-0.json', version='1.91')
    assert resp.status_int == 404
    resp = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                          'name': 'node-0.json'})
    assert resp.status_int == 201, resp.text
    named = resp.json['uuid']
    assert client.get('/v1/nodes/node-0.json').json['uuid'] == named
    # Below 1.91 the same path still names node-0.
    assert client.get('/v1/nodes/node-0.json', version='1.90').json[
        'uuid'] == node['uuid']
    resp = client.post_json('/v1/portgroups', {
        'node_uuid': node['uuid'], 'name': 'pg.json',
        'address': '52:54:00:00:00:01'})
    assert resp.status_int == 201, resp.text
    assert client.get('/v1/portgroups/pg.json').status_int == 200
    assert client.get('/v1/portgroups/pg.json',
                      version='1.90').status_int == 404


def test_below_1_91_an_allocation_and_a_template_may_end_in_json(client):
    """As Ironic's _get_with_suffix (Tempest's *WithJsonExtSupport): the
    name without ".json" first, then the name as given."""
    alloc = client.post_json('/v1/allocations',
                             {'resource_class': 'gold'}).json
    template = client.post_json('/v1/deploy_templates', {
        'name': 'CUSTOM_JSON_T', 'steps': [
            {'interface': 'deploy', 'step': 'deploy', 'args': {},
             'priority': 0}]}).json
    for path, uuid in (('/v1/allocations/%s', alloc['uuid']),
                       ('/v1/deploy_templates/%s', template['uuid']),
                       ('/v1/deploy_templates/%s', 'CUSTOM_JSON_T')):
        resp = client.get(path % uuid + '.json', version='1.90')
        assert resp.status_int == 200, resp.text
        assert resp.json['uuid'] in (alloc['uuid'], template['uuid'])
        assert client.get(path % uuid + '.json', version='1.91',
                          expect_errors=True).status_int in (400, 404)
    resp = client.delete('/v1/allocations/%s.json' % alloc['uuid'],
                         version='1.90')
    assert resp.status_int == 204, resp.text
    assert client.get('/v1/allocations/' + alloc['uuid'],
                      expect_errors=True).status_int == 404
