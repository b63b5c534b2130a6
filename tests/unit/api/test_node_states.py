"""controllers/v1/node_states.py: GET states by microversion, PUT power
and provision and the maintenance verbs answered as Ironic answers them
(202 with no body, bare 406 gates), and the console (RPC 1.6)."""

from tests.unit.api import utils


def test_states_boot_mode_from_1_75(client, node):
    body = client.get('/v1/nodes/node-0/states', version='1.75').json
    assert body['boot_mode'] is None and body['secure_boot'] is None
    body = client.get('/v1/nodes/node-0/states', version='1.74').json
    assert 'boot_mode' not in body and 'secure_boot' not in body
    assert 'raid_config' in body
    body = client.get('/v1/nodes/node-0/states', version='1.11').json
    assert 'raid_config' not in body
    assert 'links' not in body


def test_accepted_answers_have_no_body_nor_content_type(client, node):
    # Like Ironic: python-ironicclient decodes a body said to be JSON and
    # logs "Could not decode response body as JSON" for an empty one.
    for method, url, body in (
            ('put_json', '/v1/nodes/node-0/states/power',
             {'target': 'power on'}),
            ('put_json', '/v1/nodes/node-0/states/provision',
             {'target': 'manage'}),
            ('put_json', '/v1/nodes/node-0/maintenance', {'reason': 'x'}),
            ('delete', '/v1/nodes/node-0/maintenance', None)):
        args = (body,) if body is not None else ()
        resp = getattr(client, method)(url, *args)
        assert resp.status_int == 202, (url, resp.text)
        assert resp.body == b'', url
        assert 'Content-Type' not in resp.headers, (url, resp.headers)
    # An error still is a JSON document.
    resp = client.put_json('/v1/nodes/node-0/states/power',
                           {'target': 'explode'})
    assert resp.status_int == 400
    assert resp.headers['Content-Type'].startswith('application/json')


def test_power_soft_gate_is_bare_406(client, node):
    url = '/v1/nodes/node-0/states/power'
    for body in ({'target': 'soft power off'},
                 {'target': 'power on', 'timeout': 10}):
        resp = client.put_json(url, body, version='1.26')
        assert resp.status_int == 406, body
        assert utils.faultstring(resp) == 'Request not acceptable.'
    resp = client.put_json(url, {'target': 'power on', 'timeout': 0})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'timeout has to be positive integer'


def test_console(client, node, rpcapi):
    url = '/v1/nodes/%s/states/console' % node['uuid']
    assert client.get(url).json == {'console_enabled': False,
                                    'console_info': None}
    resp = client.put_json(url, {})
    assert resp.status_int == 400
    assert utils.faultstring(resp) == 'Missing mandatory parameter: enabled'
    resp = client.put_json(url, {'enabled': 'maybe'})
    assert resp.status_int == 400
    assert utils.faultstring(resp).startswith('Invalid enabled: ')
    utils.set_node(node['uuid'], console_interface='fake')
    resp = client.put_json(url, {'enabled': 'true'})
    assert resp.status_int == 202, resp.text
    assert resp.body == b''
    assert rpcapi.calls[-1] == ('set_console_mode', node['uuid'], True)
    assert client.get(url).json == {'console_enabled': True,
                                    'console_info': {}}
    assert client.get('/v1/nodes/%s/states' % node['uuid']).json[
        'console_enabled'] is True


def test_console_with_the_node_last(client, node):
    """Ironic's pecan routing also serves the console's state at
    /v1/nodes/states/console/<node>, where Tempest's client reads it."""
    url = '/v1/nodes/states/console/%s' % node['uuid']
    assert client.get(url).json == {'console_enabled': False,
                                    'console_info': None}
    resp = client.get('/v1/nodes/states/console/%s' % (
        '9f1f2e5a-0c1c-4f5e-9d6f-000000000000'))
    assert resp.status_int == 404
    assert 'could not be found' in utils.faultstring(resp)
