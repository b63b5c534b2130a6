"""The API side of RPC 1.8 in controllers/v1/management.py:
management/indicators -- Ironic's shapes, order of checks and messages (a
pinned API's 409: test_node_states_boot_mode.py)."""

import pytest

from tests.unit.api import utils


def _indicators(node_ident):
    return '/v1/nodes/%s/management/indicators' % node_ident


def test_list_indicators_as_ironic(client, node):
    resp = client.get(_indicators('node-0'))
    assert resp.status_int == 200, resp.text
    base = 'http://localhost/%snodes/node-0/management/indicators/%s'
    assert resp.json == {'indicators': [
        {'name': 'led-0@chassis', 'component': 'chassis', 'readonly': True,
         'states': ['off', 'on'],
         'links': [{'href': base % ('v1/', 'led-0@chassis'), 'rel': 'self'},
                   {'href': base % ('', 'led-0@chassis'),
                    'rel': 'bookmark'}]},
        {'name': 'led@system', 'component': 'system', 'readonly': False,
         'states': ['blinking', 'off', 'on'],
         'links': [{'href': base % ('v1/', 'led@system'), 'rel': 'self'},
                   {'href': base % ('', 'led@system'),
                    'rel': 'bookmark'}]},
    ]}
    # Ironic serves them at every version.
    assert client.get(_indicators(node['uuid']),
                      version='1.1').status_int == 200


def test_set_an_indicator_and_read_it_back(client, node, rpcapi):
    url = _indicators(node['uuid']) + '/led@system'
    assert client.get(url).json == {'state': 'on'}
    resp = client.put_json(url, {'state': 'BLINKING'})
    assert resp.status_int == 204, resp.text
    assert resp.body == b''
    assert rpcapi.calls[-1] == ('set_indicator_state', node['uuid'],
                                'system', 'led', 'BLINKING')
    assert client.get(url).json == {'state': 'blinking'}
    assert client.get(_indicators(node['uuid']) + '/led-0@chassis').json \
        == {'state': 'on'}


@pytest.mark.parametrize('method, path, body, message', [
    ('get', '/system', None, 'Malformed indicator name "system"'),
    ('put', '/led', {'state': 'on'}, 'Malformed indicator name "led"'),
    ('get', '/led@disk', None, 'Invalid component disk specified.'),
    ('get', '/nope@system', None, 'Invalid indicator nope specified.'),
    ('put', '/led-0@chassis', {'state': 'off'},
     'Indicator led-0 of component chassis is read-only.'),
    ('put', '/led@system', {'state': 'purple'},
     'Invalid state purple of indicator led, supported states are: '
     'blinking, off, on'),
    ('put', '/led@system', {}, 'Missing mandatory parameter: state'),
    ('put', '/led@system', {'state': 1}, 'Expected string for state: 1'),
    ('put', '/led@system', {'state': 'on', 'x': 1},
     'Unexpected arguments: x'),
])
def test_bad_indicator_requests(client, node, method, path, body, message):
    url = _indicators(node['uuid']) + path
    resp = (client.get(url) if method == 'get'
            else client.put_json(url, body))
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == message
    assert 'fake_indicators' not in (
        utils.stored_node(node['uuid']).driver_internal_info or {})
