"""Ironic's ``baremetal:node:get:*`` rules: a caller outside the owner
project (a lessee) sees last_error, reservation, driver_internal_info and
driver_info redacted, on every node body: one node, a list, a detailed
list, ``?fields=``, a PATCH's answer; the owner and the system readers see
them."""

import pytest

from ironic_lite import objects
from tests.unit.api import utils

USERS = {
    'admin': '',                        # system admin
    'sysreader': ':reader',             # system reader
    'owner': ':reader:proj-owner',
    'ownermember': ':member:proj-owner',
    'lessee': ':reader:proj-lessee',
    'lesseeadmin': ':admin:proj-lessee',
}
_auth = utils.basic_auth

REDACTED = {
    'last_error': '** Value Redacted - Requires baremetal:node:get:'
                  'last_error permission. **',
    'reservation': '** Redacted - requires baremetal:node:get:reservation '
                   'permission. **',
    'driver_internal_info': {'content': '** Redacted - Requires baremetal:'
                             'node:get:driver_internal_info permission. **'},
    'driver_info': {'content': '** Redacted - requires baremetal:node:get:'
                    'driver_info permission. **'},
}
RAW = {
    'last_error': 'BMC bmc-17.rack4.internal refused the request',
    'reservation': 'conductor-3.internal',
    'driver_internal_info': {'clean_steps': None, 'agent_url': 'http://x'},
    'driver_info': {'redfish_address': 'https://10.0.0.17',
                    'redfish_username': 'root'},
}


def _node(client, name='leased', **stored):
    resp = client.post_json('/v1/nodes', {
        'driver': 'fake-hardware', 'name': name, 'owner': 'proj-owner',
        'lessee': 'proj-lessee'}, headers=_auth('admin'))
    assert resp.status_int == 201, resp.text
    node = objects.Node.get_by_uuid(None, resp.json['uuid'])
    for field, value in dict(RAW, **stored).items():
        setattr(node, field, value)
    node.save()
    return node.uuid


def _get(client, user, path):
    resp = client.get(path, headers=_auth(user))
    assert resp.status_int == 200, resp.text
    return resp.json


@pytest.mark.parametrize('user', ['lessee', 'lesseeadmin'])
def test_a_lessee_sees_the_fields_redacted(basic, user):
    uuid = _node(basic)
    body = _get(basic, user, '/v1/nodes/' + uuid)
    for field, text in REDACTED.items():
        assert body[field] == text, field
    assert body['owner'] == 'proj-owner'
    [listed] = _get(basic, user, '/v1/nodes/detail')['nodes']
    for field, text in REDACTED.items():
        assert listed[field] == text, field
    fields = ','.join(['uuid'] + sorted(REDACTED))
    [listed] = _get(basic, user, '/v1/nodes?fields=' + fields)['nodes']
    assert {f: listed[f] for f in REDACTED} == REDACTED
    body = _get(basic, user, '/v1/nodes/%s?fields=last_error' % uuid)
    assert body == {'last_error': REDACTED['last_error'],
                    'links': body['links']}


def test_a_lessee_sees_an_empty_field_redacted_as_well(basic):
    """As Ironic: the text replaces the value whatever it is."""
    uuid = _node(basic, last_error=None, reservation=None)
    body = _get(basic, 'lessee', '/v1/nodes/' + uuid)
    assert body['last_error'] == REDACTED['last_error']
    assert body['reservation'] == REDACTED['reservation']


def test_the_owner_and_the_system_see_the_fields(basic):
    uuid = _node(basic)
    for user in ('owner', 'ownermember', 'sysreader', 'admin'):
        body = _get(basic, user, '/v1/nodes/' + uuid)
        for field in ('last_error', 'reservation'):
            assert body[field] == RAW[field], (user, field)
        assert body['driver_info']['redfish_address'] == 'https://10.0.0.17'
        assert body['driver_internal_info']['agent_url'] == 'http://x'
        [listed] = _get(basic, user, '/v1/nodes/detail')['nodes']
        assert listed['last_error'] == RAW['last_error'], user


def test_a_list_redacts_node_by_node(basic):
    """The lessee of one node and the owner of another: each node as its
    own rules say."""
    leased = _node(basic, 'leased')
    resp = basic.post_json('/v1/nodes', {
        'driver': 'fake-hardware', 'name': 'own', 'owner': 'proj-lessee'},
        headers=_auth('admin'))
    own = objects.Node.get_by_uuid(None, resp.json['uuid'])
    own.last_error = 'mine'
    own.save()
    nodes = {n['uuid']: n for n in
             _get(basic, 'lessee', '/v1/nodes/detail')['nodes']}
    assert nodes[leased]['last_error'] == REDACTED['last_error']
    assert nodes[own.uuid]['last_error'] == 'mine'
    assert nodes[own.uuid]['driver_info'] == {}


def test_a_patch_answer_is_redacted_too(basic):
    uuid = _node(basic, reservation=None)    # not locked: the patch saves
    resp = basic.patch_json('/v1/nodes/' + uuid, [
        {'op': 'add', 'path': '/instance_info/x', 'value': 1}],
        headers=_auth('lesseeadmin'))
    assert resp.status_int == 200, resp.text
    for field, text in REDACTED.items():
        assert resp.json[field] == text, field
    # Nothing stored changed but the patched field.
    node = objects.Node.get_by_uuid(None, uuid)
    assert node.last_error == RAW['last_error']
    assert node.driver_info == RAW['driver_info']


def test_a_patch_reveals_no_redacted_value(basic):
    """A lessee admin may write instance_info, yet not copy the BMC's
    address into it."""
    uuid = _node(basic, reservation=None)
    resp = basic.patch_json('/v1/nodes/' + uuid, [
        {'op': 'copy', 'from': '/driver_info/redfish_address',
         'path': '/instance_info/x'}], headers=_auth('lesseeadmin'))
    assert resp.status_int == 400, resp.text
    assert 'not shown' in utils.faultstring(resp)
    assert 'x' not in objects.Node.get_by_uuid(None, uuid).instance_info
    # The owner may (its GET shows the address).
    resp = basic.patch_json('/v1/nodes/' + uuid, [
        {'op': 'copy', 'from': '/driver_info/redfish_address',
         'path': '/instance_info/x'}], headers=_auth('ownermember'))
    assert resp.status_int == 200, resp.text
