"""The ``service`` verb (API 1.87) with its ``service_steps`` and
``disable_ramdisk`` (1.108), ``abort`` and ``unhold`` in the servicing
states, and ``abort`` from ``wait call-back`` (1.110): Ironic's gates,
order of checks and messages; what reaches the conductor."""

import pytest

from tests.unit.api import utils

URL = '/v1/nodes/%s/states/provision'
STEPS = [{'interface': 'vendor', 'step': 'log_passthrough'}]


def _sent(rpcapi, method):
    return [c for c in rpcapi.calls if c[0] == method]


def test_service_from_active_goes_to_the_conductor(client, node, rpcapi):
    utils.set_node(node['uuid'], provision_state='active')
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': STEPS},
                           version='1.87')
    assert resp.status_int == 202, resp.text
    assert resp.headers['Location'].endswith(
        '/v1/nodes/%s/states' % node['uuid'])
    assert _sent(rpcapi, 'do_node_service') == [
        ('do_node_service', node['uuid'], STEPS, None)]


@pytest.mark.parametrize('state', ['service failed', 'service hold'])
def test_service_again_from_failed_and_hold(client, node, rpcapi, state):
    utils.set_node(node['uuid'], provision_state=state)
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': STEPS},
                           version='1.87')
    assert resp.status_int == 202, resp.text
    assert len(_sent(rpcapi, 'do_node_service')) == 1


def test_service_below_1_87_is_a_bare_406(client, node, rpcapi):
    utils.set_node(node['uuid'], provision_state='active')
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': STEPS},
                           version='1.86')
    assert resp.status_int == 406
    assert utils.faultstring(resp) == 'Request not acceptable.'
    assert not _sent(rpcapi, 'do_node_service')


def test_service_below_1_87_outside_active_is_the_state_s_400(client, node):
    """Ironic checks the state before the verb's version."""
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': STEPS},
                           version='1.80')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The requested action "service" can not be performed on node "%s" '
        'while it is in state "enroll".' % node['uuid'])


@pytest.mark.parametrize('state', ['available', 'manageable', 'enroll',
                                   'servicing', 'service wait'])
def test_service_outside_its_states_is_400(client, node, rpcapi, state):
    utils.set_node(node['uuid'], provision_state=state)
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': STEPS},
                           version='1.87')
    assert resp.status_int == 400
    assert 'can not be performed on node' in utils.faultstring(resp)
    assert not _sent(rpcapi, 'do_node_service')


@pytest.mark.parametrize('body', [{}, {'service_steps': []},
                                  {'service_steps': None}])
def test_service_steps_are_required(client, node, rpcapi, body):
    utils.set_node(node['uuid'], provision_state='active')
    resp = client.put_json(URL % node['uuid'], dict(body, target='service'),
                           version='1.87')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        '"service_steps" is required when setting target provision state '
        'to service')
    assert not _sent(rpcapi, 'do_node_service')


@pytest.mark.parametrize('steps,message', [
    ([{'interface': 'vendor'}], "'step' is a required property"),
    ([{'interface': 'nope', 'step': 'x'}], "'nope' is not one of"),
    ([{'interface': 'vendor', 'step': 'x', 'extra': 1}],
     'Additional properties are not allowed'),
    ([{'interface': 'vendor', 'step': 'x', 'args': []}],
     "[] is not of type 'object'"),
])
def test_malformed_service_steps_are_400(client, node, rpcapi, steps,
                                         message):
    utils.set_node(node['uuid'], provision_state='active')
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': steps},
                           version='1.87')
    assert resp.status_int == 400
    assert utils.faultstring(resp).startswith('Invalid service_steps: ')
    assert message in utils.faultstring(resp)
    assert not _sent(rpcapi, 'do_node_service')


def test_service_steps_with_another_verb_is_400(client, node, rpcapi):
    utils.set_node(node['uuid'], provision_state='manageable')
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'provide', 'service_steps': STEPS},
                           version='1.87')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        '"service_steps" is only valid when setting target provision state '
        'to service')
    assert not rpcapi.calls[1:]


@pytest.mark.parametrize('version,status', [('1.87', 406), ('1.107', 406),
                                            ('1.108', 202)])
def test_disable_ramdisk_with_service_from_1_108(client, node, rpcapi,
                                                 version, status):
    utils.set_node(node['uuid'], provision_state='active')
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': STEPS,
                            'disable_ramdisk': True}, version=version)
    assert resp.status_int == status, resp.text
    expected = ([('do_node_service', node['uuid'], STEPS, True)]
                if status == 202 else [])
    assert _sent(rpcapi, 'do_node_service') == expected


def test_disable_ramdisk_with_another_verb_is_400(client, node):
    utils.set_node(node['uuid'], provision_state='active')
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'deleted', 'disable_ramdisk': True},
                           version='1.108')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'disable_ramdisk is supported only with manual cleaning or '
        'servicing')


@pytest.mark.parametrize('state', ['service wait', 'service hold',
                                   'service failed'])
def test_abort_from_the_servicing_states(client, node, rpcapi, state):
    utils.set_node(node['uuid'], provision_state=state)
    resp = client.put_json(URL % node['uuid'], {'target': 'abort'},
                           version='1.87')
    assert resp.status_int == 202, resp.text
    assert ('do_provisioning_action', node['uuid'], 'abort') in rpcapi.calls


def test_unhold_from_service_hold(client, node, rpcapi):
    utils.set_node(node['uuid'], provision_state='service hold')
    resp = client.put_json(URL % node['uuid'], {'target': 'unhold'},
                           version='1.87')
    assert resp.status_int == 202, resp.text
    assert ('do_provisioning_action', node['uuid'], 'unhold') in rpcapi.calls


@pytest.mark.parametrize('version,status', [('1.13', 406), ('1.109', 406),
                                            ('1.110', 202)])
def test_abort_from_wait_call_back_from_1_110(client, node, rpcapi, version,
                                              status):
    utils.set_node(node['uuid'], provision_state='wait call-back')
    resp = client.put_json(URL % node['uuid'], {'target': 'abort'},
                           version=version)
    assert resp.status_int == status, resp.text
    sent = ('do_provisioning_action', node['uuid'], 'abort') in rpcapi.calls
    assert sent is (status == 202)


@pytest.mark.parametrize('state', ['servicing', 'active'])
def test_abort_outside_its_states_is_400(client, node, state):
    utils.set_node(node['uuid'], provision_state=state)
    resp = client.put_json(URL % node['uuid'], {'target': 'abort'},
                           version='1.110')
    assert resp.status_int == 400


def test_service_steps_need_their_policy(client, node, rpcapi, monkeypatch):
    from ironic_lite.common import policy
    checked = []
    original = policy.authorize

    def authorize(rule, target, ctx, *args, **kwargs):
        checked.append(rule)
        return original(rule, target, ctx, *args, **kwargs)
    monkeypatch.setattr(policy, 'authorize', authorize)
    utils.set_node(node['uuid'], provision_state='active')
    resp = client.put_json(URL % node['uuid'],
                           {'target': 'service', 'service_steps': STEPS},
                           version='1.87')
    assert resp.status_int == 202
    assert 'baremetal:node:set_provision_state:service_steps' in checked
