"""The ``unhold`` verb (API 1.85): a bare 406 below 1.85 (also while
pinned to a release that serves less), a 400 outside ``clean hold`` and
``deploy hold``, sent to the conductor from both hold states; ``abort``
from both."""

import pytest

from tests.unit.api import utils

URL = '/v1/nodes/%s/states/provision'


def test_unhold_below_1_85_is_a_bare_406(client, node):
    utils.set_node(node['uuid'], provision_state='clean hold')
    resp = client.put_json(URL % node['uuid'], {'target': 'unhold'},
                           version='1.84')
    assert resp.status_int == 406
    assert utils.faultstring(resp) == 'Request not acceptable.'


def test_unhold_while_pinned_to_5_0_is_406_nothing_sent(
        client, node, config_pin, rpcapi):
    utils.set_node(node['uuid'], provision_state='deploy hold')
    config_pin('5.0')
    resp = client.put_json(URL % node['uuid'], {'target': 'unhold'},
                           version='1.85')
    assert resp.status_int == 406
    assert not [c for c in rpcapi.calls
                if c[0] == 'do_provisioning_action']


@pytest.mark.parametrize('state', ['clean hold', 'deploy hold'])
@pytest.mark.parametrize('target', ['unhold', 'abort'])
def test_unhold_and_abort_from_a_hold_go_to_the_conductor(
        client, node, rpcapi, state, target):
    utils.set_node(node['uuid'], provision_state=state)
    resp = client.put_json(URL % node['uuid'], {'target': target},
                           version='1.85')
    assert resp.status_int == 202, resp.text
    assert ('do_provisioning_action', node['uuid'], target) in rpcapi.calls


@pytest.mark.parametrize('state', ['manageable', 'clean wait', 'active'])
def test_unhold_outside_a_hold_is_400(client, node, rpcapi, state):
    utils.set_node(node['uuid'], provision_state=state)
    resp = client.put_json(URL % node['uuid'], {'target': 'unhold'},
                           version='1.85')
    assert resp.status_int == 400
    assert utils.faultstring(resp) == (
        'The requested action "unhold" can not be performed on node "%s" '
        'while it is in state "%s".' % (node['uuid'], state))
    assert not [c for c in rpcapi.calls
                if c[0] == 'do_provisioning_action']
