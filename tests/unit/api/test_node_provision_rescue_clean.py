"""The API side of RPC 1.6 in controllers/v1/node_provision.py: the
rescue, unrescue and clean verbs -- gates, Ironic's messages -- and a
pinned API's 409 for all of RPC 1.6 (the console of test_node_states.py
and the NMI of test_management.py too)."""

import pytest

from tests.unit.api import utils


def _provision(client, node, **body):
    return client.put_json('/v1/nodes/%s/states/provision' % node['uuid'],
                           body)


@pytest.fixture
def active(node):
    utils.set_node(node['uuid'], provision_state='active',
                   rescue_interface='fake')
    return node


def test_rescue_then_unrescue(client, active, rpcapi):
    resp = _provision(client, active, target='rescue',
                      rescue_password='pw')
    assert resp.status_int == 202, resp.text
    assert resp.headers['Location'].endswith('/states')
    assert rpcapi.calls[-1] == ('do_node_rescue', active['uuid'], 'pw')
    shown = client.get('/v1/nodes/%s' % active['uuid']).json
    assert shown['provision_state'] == 'rescue'
    assert shown['instance_info'] == {'rescue_password': '******',
                                      'hashed_rescue_password': '******'}
    resp = _provision(client, active, target='unrescue')
    assert resp.status_int == 202, resp.text
    assert utils.stored_node(active['uuid']).instance_info == {}


@pytest.mark.parametrize('password', [None, '', '   '])
def test_rescue_needs_a_password(client, active, rpcapi, password):
    body = {'target': 'rescue'}
    if password is not None:
        body['rescue_password'] = password
    resp = _provision(client, active, **body)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'A non-empty "rescue_password" is required when setting target '
        'provision state to rescue')
    assert not [c for c in rpcapi.calls if c[0] == 'do_node_rescue']


def test_rescue_password_goes_with_rescue_only(client, active):
    utils.set_node(active['uuid'], provision_state='rescue')
    resp = _provision(client, active, target='unrescue',
                      rescue_password='pw')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        '"rescue_password" is only valid when setting target provision '
        'state to rescue')


def test_rescue_verbs_from_1_38(client, active):
    for target in ('rescue', 'unrescue'):
        resp = client.put_json(
            '/v1/nodes/%s/states/provision' % active['uuid'],
            {'target': target}, version='1.37')
        assert resp.status_int == 406, target


def test_unrescue_of_an_active_node_is_refused(client, active):
    resp = _provision(client, active, target='unrescue')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'The requested action "unrescue" can not be performed on node "%s" '
        'while it is in state "active".' % active['uuid'])


def test_manual_clean(client, node, rpcapi):
    utils.set_node(node['uuid'], provision_state='manageable',
                   bios_interface='fake')
    steps = [{'interface': 'bios', 'step': 'factory_reset'},
             {'interface': 'bios', 'step': 'cache_bios_settings'}]
    resp = _provision(client, node, target='clean', clean_steps=steps,
                      disable_ramdisk=True)
    assert resp.status_int == 202, resp.text
    assert rpcapi.calls[-1] == ('do_node_clean', node['uuid'], steps, True)
    assert utils.stored_node(node['uuid']).provision_state == 'manageable'


@pytest.mark.parametrize('steps, message', [
    ([{'interface': 'inspect', 'step': 'update'}],
     "Invalid clean_steps: 'inspect' is not one of ['vendor', 'power', "
     "'management', 'firmware', 'deploy', 'bios', 'raid']"),
    ([{'interface': 'bios'}], "Invalid clean_steps: 'step' is a required "
                              "property"),
    ([{'interface': 'bios', 'step': ''}],
     "Invalid clean_steps: '' should be non-empty"),
    ([{'interface': 'bios', 'step': 'x', 'priority': 1}],
     "Invalid clean_steps: Additional properties are not allowed "
     "('priority' was unexpected)"),
    ([{'interface': 'bios', 'step': 'x', 'args': []}],
     "Invalid clean_steps: [] is not of type 'object'"),
    (['bios.x'], "Invalid clean_steps: 'bios.x' is not of type 'object'"),
])
def test_clean_steps_are_checked_before_the_conductor(client, node, rpcapi,
                                                      steps, message):
    utils.set_node(node['uuid'], provision_state='manageable')
    resp = _provision(client, node, target='clean', clean_steps=steps)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == message
    assert not [c for c in rpcapi.calls if c[0] == 'do_node_clean']


def test_clean_steps_have_the_size_limit_of_deploy_steps(client, node,
                                                         rpcapi):
    # Kept in driver_internal_info while cleaning runs: 40 KB of steps
    # would fill MariaDB's TEXT column and fail the node's every save.
    utils.set_node(node['uuid'], provision_state='manageable')
    steps = [{'interface': 'bios', 'step': 'apply_configuration',
              'args': {'settings': [{'name': 'x' * 1000}] * 40}}]
    resp = _provision(client, node, target='clean', clean_steps=steps)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp).startswith(
        'Invalid clean_steps: too large (')
    assert utils.faultstring(resp).endswith(
        ' bytes, at most 32768 as JSON in UTF-8)')
    assert not [c for c in rpcapi.calls if c[0] == 'do_node_clean']


def test_rescue_password_has_a_length_limit(client, active, rpcapi):
    resp = _provision(client, active, target='rescue',
                      rescue_password='p' * 256)
    assert resp.status_int == 400, resp.text
    assert 'rescue_password' in utils.faultstring(resp)
    assert 'p' * 256 not in utils.faultstring(resp)
    assert not [c for c in rpcapi.calls if c[0] == 'do_node_rescue']


def test_clean_from_1_15_and_disable_ramdisk_from_1_70(client, node):
    utils.set_node(node['uuid'], provision_state='manageable')
    url = '/v1/nodes/%s/states/provision' % node['uuid']
    steps = [{'interface': 'bios', 'step': 'factory_reset'}]
    resp = client.put_json(url, {'target': 'clean', 'clean_steps': steps},
                           version='1.14')
    assert resp.status_int == 406
    resp = client.put_json(url, {'target': 'clean', 'clean_steps': steps,
                                 'disable_ramdisk': True}, version='1.69')
    assert resp.status_int == 406


def test_clean_of_an_available_node_is_refused(client, node):
    utils.set_node(node['uuid'], provision_state='available')
    resp = _provision(client, node, target='clean', clean_steps=[
        {'interface': 'bios', 'step': 'factory_reset'}])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The requested action "clean" can not be performed on node "%s" '
        'while it is in state "available".' % node['uuid'])


def test_provide_a_retired_node(client, node):
    utils.set_node(node['uuid'], provision_state='manageable', retired=True)
    resp = _provision(client, node, target='provide')
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        "The providing operation can't be performed on node %s because it "
        "is retired." % node['uuid'])


def test_pinned_to_3_0_answers_409_and_does_nothing(client, node, rpcapi,
                                                    config_pin):
    config_pin('3.0')
    uuid = node['uuid']
    utils.set_node(uuid, provision_state='active', rescue_interface='fake',
                   console_interface='fake')
    requests = [
        ('/states/provision', {'target': 'rescue', 'rescue_password': 'pw'}),
        ('/states/console', {'enabled': True}),
        ('/management/inject_nmi', {}),
    ]
    for path, body in requests:
        resp = client.put_json('/v1/nodes/%s%s' % (uuid, path), body)
        assert resp.status_int == 409, (path, resp.text)
        assert 'pinned to release 3.0 (RPC 1.6): nothing was changed' in (
            utils.faultstring(resp))
    assert client.get('/v1/nodes/%s/states/console' % uuid).status_int == 409
    utils.set_node(uuid, provision_state='rescue')
    resp = _provision(client, node, target='unrescue')
    assert resp.status_int == 409, resp.text
    utils.set_node(uuid, provision_state='manageable')
    resp = _provision(client, node, target='clean', clean_steps=[
        {'interface': 'bios', 'step': 'factory_reset'}])
    assert resp.status_int == 409, resp.text
    stored = utils.stored_node(uuid)
    assert (stored.provision_state, stored.instance_info,
            stored.console_enabled) == ('manageable', {}, False)
    assert not [c for c in rpcapi.calls if c[0] in (
        'do_node_rescue', 'do_node_unrescue', 'do_node_clean',
        'set_console_mode', 'inject_nmi')]


def test_disable_ramdisk_goes_with_clean_only(client, node, rpcapi):
    utils.set_node(node['uuid'], provision_state='manageable')
    resp = _provision(client, node, target='provide', disable_ramdisk=True)
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp) == (
        'disable_ramdisk is supported only with manual cleaning or '
        'servicing')
    assert utils.stored_node(node['uuid']).provision_state == 'manageable'
    assert not [c for c in rpcapi.calls if c[0] == 'do_provisioning_action']
