"""The API side of RPC 1.9 in controllers/v1/node_states.py: PUT
/states/raid (1.12) -- shapes, codes, gates, Ironic's messages, and a
pinned API's 409 with nothing written.  The RAID logical disk properties
of a driver: test_driver.py; vendor passthru: test_vendor_passthru.py."""

import pytest

from tests.unit.api import utils

RAID = {'logical_disks': [{'size_gb': 100, 'raid_level': '1',
                           'is_root_volume': True}]}


def _raid_url(node):
    return '/v1/nodes/%s/states/raid' % node['uuid']


def test_set_then_clear_the_target_raid_config(client, node, rpcapi):
    resp = client.put_json(_raid_url(node), RAID)
    assert resp.status_int == 204, resp.text
    assert resp.body == b''
    assert rpcapi.calls[-1] == ('set_target_raid_config', node['uuid'],
                                RAID)
    shown = client.get('/v1/nodes/%s' % node['uuid']).json
    assert shown['target_raid_config'] == RAID
    assert client.get('/v1/nodes/%s/states' % node['uuid']).json[
        'target_raid_config'] == RAID
    resp = client.put_json(_raid_url(node), {})
    assert resp.status_int == 204, resp.text
    assert utils.stored_node(node['uuid']).target_raid_config == {}


@pytest.mark.parametrize('config, message', [
    ({}, None),
    ({'logical_disks': []},
     'RAID config validation error: [] should be non-empty'),
    ({'foo': 1}, 'RAID config validation error: '),
    ({'logical_disks': [{'size_gb': 10}]},
     "RAID config validation error: 'raid_level' is a required property"),
    ({'logical_disks': [{'size_gb': 10, 'raid_level': '7'}]},
     "RAID config validation error: '7' is not one of"),
    ({'logical_disks': [{'size_gb': 'big', 'raid_level': '1'}]},
     'RAID config validation error: '),
    ({'logical_disks': [{'size_gb': 'MAX', 'raid_level': '1',
                         'colour': 'red'}]},
     'RAID config validation error: Additional properties are not allowed '
     "('colour' was unexpected)"),
    ({'logical_disks': [{'size_gb': 'MAX', 'raid_level': '1',
                         'physical_disks': ['a']}]},
     "RAID config validation error: 'controller' is a dependency of "
     "'physical_disks'"),
    ({'logical_disks': [
        {'size_gb': 10, 'raid_level': '1', 'is_root_volume': True},
        {'size_gb': 10, 'raid_level': '0', 'is_root_volume': True}]},
     'Raid config cannot have more than one root volume. 2 root volumes '
     'were specified'),
])
def test_invalid_raid_configs_are_refused(client, node, config, message):
    utils.set_node(node['uuid'], target_raid_config=RAID)
    resp = client.put_json(_raid_url(node), config)
    if message is None:
        assert resp.status_int == 204
        return
    assert resp.status_int == 400, resp.text
    assert utils.faultstring(resp).startswith(message), resp.text
    assert utils.stored_node(node['uuid']).target_raid_config == RAID


def test_raid_config_body_must_be_an_object(client, node):
    resp = client.put_json(_raid_url(node), ['x'])
    assert resp.status_int == 400, resp.text
    assert utils.stored_node(node['uuid']).target_raid_config == {}


def test_no_raid_is_a_404_but_clearing_works(client, node):
    utils.set_node(node['uuid'], raid_interface='no-raid')
    resp = client.put_json(_raid_url(node), RAID)
    assert resp.status_int == 404, resp.text
    assert utils.faultstring(resp) == (
        'Driver fake-hardware does not support raid (disabled or not '
        'implemented).')
    assert client.put_json(_raid_url(node), {}).status_int == 204


def test_raid_gates_and_pin(make_client, client, node, config_pin):
    old = make_client('1.11')
    assert old.put_json(_raid_url(node), RAID).status_int == 406
    assert old.get('/v1/drivers/fake-hardware/raid/'
                   'logical_disk_properties').status_int == 406
    config_pin('4.0')
    resp = client.put_json(_raid_url(node), RAID)
    assert resp.status_int == 409, resp.text
    assert '1.9' in utils.faultstring(resp)
    assert utils.stored_node(node['uuid']).target_raid_config == {}
