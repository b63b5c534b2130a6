"""Cleaning with a runbook (``"runbook"`` of PUT .../states/provision,
API 1.92; its traits from 1.112): the API resolves it to the clean steps
it sends, after Ironic's checks (runbook_use.py)."""

import pytest

from tests.unit.api import utils

STEPS = [{'interface': 'bios', 'step': 'factory_reset', 'args': {},
          'order': 1},
         {'interface': 'bios', 'step': 'cache_bios_settings',
          'args': {'x': 1}, 'order': 2}]
SENT = [{'interface': 'bios', 'step': 'factory_reset', 'args': {}},
        {'interface': 'bios', 'step': 'cache_bios_settings',
         'args': {'x': 1}}]


@pytest.fixture
def manageable(client, node):
    utils.set_node(node['uuid'], provision_state='manageable',
                   bios_interface='fake')
    resp = client.post_json('/v1/runbooks', {
        'name': 'CUSTOM_RB', 'steps': STEPS, 'disable_ramdisk': True})
    assert resp.status_int == 201, resp.text
    return node


def _traits(client, node, traits):
    resp = client.put_json('/v1/nodes/%s/traits' % node['uuid'],
                           {'traits': traits})
    assert resp.status_int == 204, resp.text


def _clean(client, node, version=None, **body):
    return client.put_json('/v1/nodes/%s/states/provision' % node['uuid'],
                           dict(body, target='clean'), version=version)


def _cleans(rpcapi):
    return [c for c in rpcapi.calls if c[0] == 'do_node_clean']


def test_below_1_112_the_node_has_a_trait_named_as_the_runbook(
        client, manageable, rpcapi):
    resp = _clean(client, manageable, version='1.92', runbook='CUSTOM_RB')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'This runbook has not been approved for use on this node %s. '
        'Please ask an administrator to add it to your node traits.'
        % manageable['uuid'])
    assert _cleans(rpcapi) == []
    _traits(client, manageable, ['CUSTOM_RB'])
    resp = _clean(client, manageable, version='1.92', runbook='CUSTOM_RB')
    assert resp.status_int == 202, resp.text
    # The runbook's steps in its order, and its disable_ramdisk.
    assert _cleans(rpcapi) == [('do_node_clean', manageable['uuid'], SENT,
                                True)]


def test_from_1_112_the_node_has_one_of_the_runbooks_traits(
        client, manageable, rpcapi):
    _traits(client, manageable, ['CUSTOM_RB', 'CUSTOM_GPU'])
    runbook = client.get('/v1/runbooks/CUSTOM_RB').json
    resp = _clean(client, manageable, runbook=runbook['uuid'])
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'Runbook %s has no traits configured. Please ask an administrator '
        'to add traits to the runbook.' % runbook['uuid'])
    client.put_json('/v1/runbooks/CUSTOM_RB/traits',
                    {'traits': ['CUSTOM_NVME', 'CUSTOM_SSD']})
    resp = _clean(client, manageable, runbook='CUSTOM_RB')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        "This runbook has not been approved for use on this node %s. The "
        "node does not have any of the runbook's traits ['CUSTOM_NVME', "
        "'CUSTOM_SSD']. Please ask an administrator to add a matching "
        "trait to your node." % manageable['uuid'])
    assert _cleans(rpcapi) == []
    client.put('/v1/runbooks/CUSTOM_RB/traits/CUSTOM_GPU')
    resp = _clean(client, manageable, runbook='CUSTOM_RB')
    assert resp.status_int == 202, resp.text
    assert _cleans(rpcapi)[-1][2] == SENT


def test_runbook_before_1_92_is_406(client, manageable, rpcapi):
    _traits(client, manageable, ['CUSTOM_RB'])
    resp = _clean(client, manageable, version='1.91', runbook='CUSTOM_RB')
    assert resp.status_int == 406
    assert _cleans(rpcapi) == []


@pytest.mark.parametrize('body,status,message', [
    ({'runbook': 'CUSTOM_NONE'}, 404,
     'Runbook CUSTOM_NONE could not be found.'),
    ({'runbook': 'CUSTOM_RB',
      'clean_steps': [{'interface': 'bios', 'step': 'factory_reset'}]},
     400, 'Please provide either "clean_steps" or a runbook, but not '
          'both.'),
    ({'runbook': 'bad name'}, 400,
     'Expected a logical name or UUID but received bad name.'),
])
def test_refused(client, manageable, rpcapi, body, status, message):
    _traits(client, manageable, ['CUSTOM_RB'])
    resp = _clean(client, manageable, version='1.92', **body)
    assert resp.status_int == status, resp.text
    assert utils.faultstring(resp) == message
    assert _cleans(rpcapi) == []


def test_a_verb_without_steps_gets_the_runbooks_disable_ramdisk(
        client, manageable, rpcapi):
    _traits(client, manageable, ['CUSTOM_RB'])
    resp = client.put_json(
        '/v1/nodes/%s/states/provision' % manageable['uuid'],
        {'target': 'provide', 'runbook': 'CUSTOM_RB'}, version='1.92')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'disable_ramdisk is supported only with manual cleaning or '
        'servicing')
