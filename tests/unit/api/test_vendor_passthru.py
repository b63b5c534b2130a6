"""The API side of RPC 1.9 in controllers/v1/vendor_passthru.py: vendor
passthru of nodes and drivers -- shapes, codes, gates, Ironic's messages,
and a pinned API's 409 with nothing written."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils


@pytest.fixture
def conductor(database):
    objects.Conductor.register(None, 'cond-a', ['fake-hardware'], '')


def _vp(node, method=None):
    url = '/v1/nodes/%s/vendor_passthru' % node['uuid']
    return url + ('?method=%s' % method if method else '')


def test_node_methods(client, node):
    body = client.get(_vp(node) + '/methods').json
    assert set(body) == {'first_method', 'second_method',
                         'third_method_sync', 'fourth_method_shared_lock',
                         'log_passthrough'}
    assert body['third_method_sync'] == {
        'http_methods': ['POST'], 'async': False, 'attach': False,
        'description': 'Test if the value of bar is meow',
        'require_exclusive_lock': True}
    assert body['fourth_method_shared_lock']['require_exclusive_lock'] is (
        False)
    utils.set_node(node['uuid'], vendor_interface='no-vendor')
    assert client.get(_vp(node) + '/methods').json == {}


def test_sync_and_async_calls(client, node, rpcapi):
    resp = client.post_json(_vp(node, 'third_method_sync'), {'bar': 'meow'})
    assert resp.status_int == 200, resp.text
    assert resp.json is True
    resp = client.post_json(_vp(node, 'third_method_sync'), {'bar': 'moo'})
    assert resp.json is False
    resp = client.post_json(_vp(node, 'second_method'), {'bar': 'kazoo'})
    assert resp.status_int == 202, resp.text
    assert resp.body == b''
    assert rpcapi.calls[-1] == ('vendor_passthru', node['uuid'],
                                'second_method', 'POST', {'bar': 'kazoo'})
    resp = client.post_json(_vp(node, 'fourth_method_shared_lock'),
                            {'bar': 'woof'})
    assert resp.status_int == 202, resp.text


@pytest.mark.parametrize('verb, method, body, message', [
    ('post', None, {}, 'Method not specified'),
    ('post', 'nope', {}, 'No handler for method nope'),
    ('put', 'first_method', {'bar': 'baz'},
     'The method first_method does not support HTTP PUT'),
    ('post', 'first_method', {},
     "Parameter 'bar' not passed to method 'first_method'."),
    ('post', 'third_method_sync', {'bar': 'x', 'extra': 1},
     'Invalid arguments for vendor method third_method_sync'),
])
def test_call_errors(client, node, verb, method, body, message):
    resp = getattr(client, verb + '_json')(_vp(node, method), body)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp).startswith(message), resp.text


def test_no_vendor_has_no_methods(client, node):
    utils.set_node(node['uuid'], vendor_interface='no-vendor')
    resp = client.post_json(_vp(node, 'first_method'), {'bar': 'baz'})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == 'No handler for method first_method'


def test_vendor_passthru_pinned(client, node, config_pin, rpcapi):
    config_pin('4.0')
    resp = client.post_json(_vp(node, 'first_method'), {'bar': 'baz'})
    assert resp.status_int == 409, resp.text
    assert client.get(_vp(node) + '/methods').status_int == 409
    assert not [c for c in rpcapi.calls if c[0] == 'vendor_passthru']


def test_driver_passthru(client, conductor):
    url = '/v1/drivers/fake-hardware/vendor_passthru'
    assert client.get(url + '/methods').json == {}
    resp = client.post_json(url + '?method=nope', {})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == 'No handler for method nope'
    resp = client.post_json(url, {})
    assert utils.faultstring(resp) == 'Method not specified'
    resp = client.get('/v1/drivers/other/vendor_passthru/methods')
    assert resp.status_int == 404, resp.text


def test_method_named_in_the_path(client, node, conductor):
    """python-ironicclient's form: .../vendor_passthru/<method>."""
    resp = client.post_json(_vp(node) + '/third_method_sync',
                            {'bar': 'meow'})
    assert resp.status_int == 200, resp.text
    assert resp.json is True
    resp = client.post_json(
        '/v1/drivers/fake-hardware/vendor_passthru/nope', {})
    assert utils.faultstring(resp) == 'No handler for method nope'


@pytest.mark.parametrize('body', [{'task': 1}, {'self': 1, 'bar': 'x'}])
def test_bodies_the_method_cannot_take_are_a_400(client, node, body):
    resp = client.post_json(_vp(node, 'first_method'), body)
    assert resp.status_int == 400, resp.text
    assert 'first_method' in utils.faultstring(resp)
