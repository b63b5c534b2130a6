"""POST /v1/continue_inspection (1.84,
api/controllers/v1/continue_inspection.py): the lookup by MAC, BMC
address or UUID, the versions it answers at, the answers per version,
the same bare 404 for every failed lookup, and a pinned API's 409."""

import pytest

from ironic_lite import conf
from tests.unit.api import utils

MAC = '52:54:00:12:34:56'
OTHER_MAC = '52:54:00:65:43:21'
PATH = '/v1/continue_inspection'


def _data(*macs, **inventory):
    inventory['interfaces'] = [{'name': 'eth%d' % i, 'mac_address': mac}
                               for i, mac in enumerate(macs)]
    return {'inventory': inventory, 'extra': 'plugin data'}


def _post(client, body, version=None, query=''):
    return client.post_json(PATH + query, body, version=version)


@pytest.fixture
def waiting(client, node):
    """node-0 in inspect wait, with a port of MAC and a BMC address the
    agent inspect interface recorded."""
    resp = client.post_json('/v1/ports', {'node_uuid': node['uuid'],
                                          'address': MAC})
    assert resp.status_int == 201, resp.text
    utils.set_node(node['uuid'], provision_state='inspect wait',
                   target_provision_state='manageable',
                   driver_internal_info={
                       'lookup_bmc_addresses': ['192.0.2.5']})
    return node


def test_by_mac_at_1_84_answers_the_lookup(client, waiting, rpcapi):
    resp = _post(client, _data(MAC.upper()), version='1.84')
    assert resp.status_int == 202, resp.text
    body = resp.json
    assert sorted(body) == ['config', 'node']
    assert body['node']['uuid'] == waiting['uuid']
    assert body['config']['agent_token'] == 'token-of-' + waiting['uuid']
    call = rpcapi.calls[-1]
    assert call[:2] == ('continue_inspection', waiting['uuid'])
    assert call[2]['interfaces'][0]['mac_address'] == MAC.upper()
    assert call[3] == {'extra': 'plugin data'}
    # The fake conductor finished it: the data is the node's inventory.
    inventory = client.get('/v1/nodes/node-0/inventory').json
    assert inventory['plugin_data'] == {'extra': 'plugin data'}


def test_at_1_1_answers_the_uuid_only(client, waiting):
    resp = _post(client, _data(MAC), version='1.1')
    assert resp.status_int == 202, resp.text
    assert resp.json == {'uuid': waiting['uuid']}


@pytest.mark.parametrize('version', ['1.2', '1.83'])
def test_between_1_2_and_1_83_a_404(client, waiting, version):
    resp = _post(client, _data(MAC), version=version)
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'API version 1.84 or newer is required'
    resp = _post(client, _data(MAC), version='1.1',
                 query='?node_uuid=' + waiting['uuid'])
    assert resp.status_int == 404


def test_by_bmc_address_or_uuid(client, waiting):
    resp = _post(client, _data(OTHER_MAC, bmc_address='192.0.2.5'),
                 version='1.84')
    assert resp.status_int == 202, resp.text
    assert resp.json['node']['uuid'] == waiting['uuid']
    utils.set_node(waiting['uuid'], provision_state='inspect wait')
    resp = _post(client, _data(OTHER_MAC), version='1.84',
                 query='?node_uuid=' + waiting['uuid'])
    assert resp.status_int == 202, resp.text


def test_every_failed_lookup_is_the_same_bare_404(client, waiting, node):
    cases = [
        # no node has these addresses
        _data(OTHER_MAC, bmc_address='192.0.2.99'),
    ]
    for body in cases:
        resp = _post(client, body, version='1.84')
        assert resp.status_int == 404, resp.text
    # The MAC's node and the BMC's node disagree.
    other = client.post_json('/v1/nodes', {'driver': 'fake-hardware',
                                           'name': 'node-1'}).json
    utils.set_node(other['uuid'], provision_state='inspect wait',
                   driver_internal_info={
                       'lookup_bmc_addresses': ['192.0.2.7']})
    resp = _post(client, _data(MAC, bmc_address='192.0.2.7'),
                 version='1.84')
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'Resource could not be found.'
    # A node not waiting for inspection data.
    utils.set_node(waiting['uuid'], provision_state='manageable')
    assert _post(client, _data(MAC), version='1.84').status_int == 404
    # An unknown UUID.
    resp = _post(client, _data(OTHER_MAC), version='1.84',
                 query='?node_uuid=6d5c1a8e-3f2b-4c7d-9e0a-1b2c3d4e5f60')
    assert resp.status_int == 404


def test_the_inventory_is_checked(client, waiting):
    for body in ({}, {'inventory': {}}, {'inventory': {'interfaces': []}},
                 {'inventory': {'interfaces': [{'name': 'eth0'}]}}):
        resp = _post(client, body, version='1.84')
        assert resp.status_int == 400, body
        assert utils.faultstring(resp).startswith('Schema error for data: ')
    resp = _post(client, _data('not-a-mac'), version='1.84')
    utils.refused_400(resp, 'No lookup information provided')


def test_public_and_refused_while_pinned(client, waiting, tmp_path):
    utils.use_http_basic(tmp_path, {'admin': ''})
    conf.CONF.set_override('pin_release_version', '5.0')
    # No credentials needed; the pinned API serves at most 1.82, whose
    # answer is the 404 asking for 1.84; at 1.1 the conductor call needs
    # RPC 1.11: 409, nothing sent.
    resp = _post(client, _data(MAC), version='1.1')
    assert resp.status_int == 409, resp.text
    assert 'The inspection data of the ramdisk' in utils.faultstring(resp)
    assert utils.stored_node(waiting['uuid']).provision_state == (
        'inspect wait')


def test_v1_links_to_it_from_1_84_only(client):
    """As Ironic, which hides the 1.1 form from GET /v1."""
    assert 'continue_inspection' in client.get('/v1', version='1.84').json
    for version in ('1.83', '1.1'):
        assert 'continue_inspection' not in client.get(
            '/v1', version=version).json
