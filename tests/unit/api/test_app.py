"""ironic_lite.api.app: pecan's application, as ironic-lite builds it."""

import gc
import json
from unittest import mock

import pecan.core
import pecan.routing
import webob

from ironic_lite.api import app
from ironic_lite.api import json_out


def test_the_root_route_table_is_called_without_inspecting_it(client):
    """Application.route hands the path to the root's _route itself:
    pecan's lookup would inspect _route's signature on every request."""
    with mock.patch.object(pecan.routing, 'getargspec',
                           side_effect=AssertionError('inspected')):
        assert client.get('/v1/nodes').status_int == 200
        assert client.get('/').status_int == 200
        assert client.get('/v1/no-such-thing').status_int == 404


def test_the_root_handlers_are_called_without_inspecting_them(client):
    """Application.invoke_controller calls the root's marked handlers
    itself: pecan's would read their signature (a new namedtuple class)
    on every request.  The answers keep pecan's rendering: a JSON body
    with its content type, and no body nor content type for a 202."""
    with mock.patch.object(pecan.core, 'getargspec',
                           side_effect=AssertionError('inspected')):
        listed = client.get('/v1/nodes')
        assert listed.status_int == 200
        assert listed.content_type == 'application/json'
        assert listed.json == {'nodes': []}
        assert client.get('/').json['versions'][0]['id'] == 'v1'
        created = client.post_json('/v1/nodes', {'driver': 'fake-hardware'})
        assert created.status_int == 201
        node = created.json['uuid']
        powered = client.put_json('/v1/nodes/%s/states/power' % node,
                                  {'target': 'power on'})
        assert powered.status_int == 202
        assert powered.body == b''
        assert 'Content-Type' not in powered.headers
        assert client.delete('/v1/nodes/' + node).status_int == 204


def test_an_unmarked_handler_is_left_to_pecan():
    """A controller without ``renders`` goes through pecan's own call."""

    class Root(object):
        @pecan.expose('json')
        def index(self):
            return {'plain': True}

    import webtest
    client = webtest.TestApp(app.Application(Root()))
    assert client.get('/').json == {'plain': True}


def test_json_bytes_falls_back_for_what_orjson_cannot_write():
    """orjson writes the bodies; an integer beyond 64 bits (a user's
    ``extra`` may hold one) goes to pecan's renderer, as before."""
    body = {'extra': {'name': 'caf\u00e9', 'n': 2 ** 63 - 1}, 'x': None}
    assert json.loads(json_out.json_bytes(body, lambda: 'unused')) == body
    huge = {'extra': {'n': 2 ** 70}}
    out = json_out.json_bytes(huge, lambda: json.dumps(huge))
    assert isinstance(out, bytes) and json.loads(out) == huge


def _responses():
    return sum(1 for o in gc.get_objects() if isinstance(o, webob.Response))


def test_a_response_is_freed_once_sent_without_the_collector(client):
    """No reference cycle keeps a response (and its body) alive after
    it was sent: with the collector off, none is left behind -- pecan's
    ``pecan.locals`` in the environ had kept every one until a full
    collection."""
    client.post_json('/v1/nodes', {'driver': 'fake-hardware'})
    gc.collect()
    gc.disable()
    try:
        before = _responses()
        for _ in range(5):
            assert client.get('/v1/nodes/detail').status_int == 200
            assert client.get('/v1/nodes/none-such').status_int == 404
        assert _responses() == before
    finally:
        gc.enable()
