"""The API side of RPC 1.8 in controllers/v1/node_states.py: PUT
states/boot_mode and states/secure_boot (1.76) -- Ironic's shapes, order
of checks and messages -- and a pinned API's 409 for all of RPC 1.8 (the
indicators of test_management_indicators.py too)."""

import pytest

from tests.unit.api import utils


def _put(client, node, what, body, **kwargs):
    return client.put_json('/v1/nodes/%s/states/%s' % (node['uuid'], what),
                           body, **kwargs)


# -- boot mode and secure boot ---------------------------------------------

def test_set_boot_mode_then_read_it_in_states(client, node, rpcapi):
    resp = _put(client, node, 'boot_mode', {'target': 'uefi'})
    assert resp.status_int == 202, resp.text
    assert resp.body == b''
    assert resp.headers['Location'].endswith(
        '/v1/nodes/%s/states' % node['uuid'])
    assert rpcapi.calls[-1] == ('change_node_boot_mode', node['uuid'],
                                'uefi')
    states = client.get('/v1/nodes/%s/states' % node['uuid']).json
    assert (states['boot_mode'], states['secure_boot']) == ('uefi', None)
    assert client.get('/v1/nodes/%s' % node['uuid']).json[
        'boot_mode'] == 'uefi'
    _put(client, node, 'boot_mode', {'target': 'bios'})
    assert utils.stored_node(node['uuid']).boot_mode == 'bios'


@pytest.mark.parametrize('target, stored', [
    (True, True), (False, False), ('on', True), ('false', False),
    (1, True), ('0', False)])
def test_secure_boot_targets_are_ironic_booleans(client, node, rpcapi,
                                                 target, stored):
    resp = _put(client, node, 'secure_boot', {'target': target})
    assert resp.status_int == 202, resp.text
    assert rpcapi.calls[-1] == ('change_node_secure_boot', node['uuid'],
                                stored)
    assert utils.stored_node(node['uuid']).secure_boot is stored
    assert client.get('/v1/nodes/%s/states' % node['uuid']).json[
        'secure_boot'] is stored


@pytest.mark.parametrize('what, body, message', [
    ('boot_mode', {'target': 'efi'},
     'Invalid boot mode efi requested for node. Allowed boot modes are: '
     'bios, uefi'),
    ('boot_mode', {'target': None},
     'Invalid boot mode None requested for node. Allowed boot modes are: '
     'bios, uefi'),
    ('boot_mode', {'target': 1}, 'Expected string for target: 1'),
    ('boot_mode', {}, 'Missing mandatory parameter: target'),
    ('boot_mode', {'target': 'uefi', 'x': 1}, 'Unexpected arguments: x'),
    ('secure_boot', {'target': None},
     'Invalid secure_boot None requested for node. Allowed secure_boot '
     'states are: True, False) '),
    ('secure_boot', {}, 'Missing mandatory parameter: target'),
])
def test_bad_targets_are_refused_with_ironic_messages(client, node, rpcapi,
                                                      what, body, message):
    resp = _put(client, node, what, body)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == message
    assert not [c for c in rpcapi.calls if c[0].startswith('change_node')]
    stored = utils.stored_node(node['uuid'])
    assert (stored.boot_mode, stored.secure_boot) == (None, None)


def test_secure_boot_target_not_a_boolean(client, node):
    resp = _put(client, node, 'secure_boot', {'target': 'maybe'})
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp).startswith(
        "Invalid target: Unrecognized value 'maybe', acceptable values "
        "are:")


@pytest.mark.parametrize('what, body', [('boot_mode', {'target': 'uefi'}),
                                        ('secure_boot', {'target': True})])
def test_before_1_76_a_404_after_the_policy(client, node, what, body):
    resp = _put(client, node, what, body, version='1.75')
    assert resp.status_int == 404, resp.text
    assert utils.faultstring(resp) == (
        'This endpoint is supported starting with the API version 1.76')
    # Ironic routes the path at every version: the body is checked first.
    resp = _put(client, node, what, {}, version='1.70')
    assert resp.status_int == 400
    resp = _put(client, {'uuid': 'no-such-node'}, what, body,
                version='1.75')
    assert utils.faultstring(resp) == 'Node no-such-node could not be found.'


@pytest.mark.parametrize('state', ['deploying', 'cleaning', 'inspect wait',
                                   'verifying', 'adopting', 'rescuing'])
def test_a_transitioning_node_is_a_409(client, node, rpcapi, state):
    utils.set_node(node['uuid'], provision_state=state)
    for what, body in (('boot_mode', {'target': 'uefi'}),
                       ('secure_boot', {'target': True})):
        resp = _put(client, node, what, body)
        assert resp.status_int == 409, resp.text
        assert utils.faultstring(resp) == (
            'Node is in %s state. Since node is transitioning, the boot '
            'mode will not be set as this may interfere with ongoing '
            'changes and result in erroneous modification. Try again '
            'later.' % state)
    assert not [c for c in rpcapi.calls if c[0].startswith('change_node')]


@pytest.mark.parametrize('state', ['enroll', 'manageable', 'available',
                                   'active', 'deploy failed', 'error'])
def test_stable_and_failed_states_are_allowed(client, node, state):
    utils.set_node(node['uuid'], provision_state=state, maintenance=True)
    resp = _put(client, node, 'boot_mode', {'target': 'bios'})
    assert resp.status_int == 202, resp.text
    assert utils.stored_node(node['uuid']).boot_mode == 'bios'


def test_states_shows_boot_mode_from_1_75(client, node):
    url = '/v1/nodes/%s/states' % node['uuid']
    assert 'boot_mode' not in client.get(url, version='1.74').json
    shown = client.get(url, version='1.75').json
    assert shown['boot_mode'] is None and shown['secure_boot'] is None


# -- pinned to 4.0 ---------------------------------------------------------

def test_pinned_to_4_0_answers_409_and_does_nothing(client, node, rpcapi,
                                                    config_pin):
    config_pin('4.0')
    uuid = node['uuid']
    requests = [
        ('put', '/states/boot_mode', {'target': 'uefi'},
         'Changing the boot mode'),
        ('put', '/states/secure_boot', {'target': True},
         'Changing the secure boot state'),
        ('put', '/management/indicators/led@system', {'state': 'off'},
         'Setting an indicator'),
        ('get', '/management/indicators', None, 'Reading the indicators'),
        ('get', '/management/indicators/led@system', None,
         'Reading the indicators'),
    ]
    for method, path, body, what in requests:
        url = '/v1/nodes/%s%s' % (uuid, path)
        resp = (client.get(url) if method == 'get'
                else client.put_json(url, body, version='1.82'))
        assert resp.status_int == 409, (path, resp.text)
        assert utils.faultstring(resp).startswith(
            '%s is not available while this API is pinned to release 4.0 '
            '(RPC 1.8): nothing was changed.' % what)
    stored = utils.stored_node(uuid)
    assert (stored.boot_mode, stored.secure_boot) == (None, None)
    assert stored.driver_internal_info in (None, {})
    assert rpcapi.calls[-1][0] == 'create_node'
