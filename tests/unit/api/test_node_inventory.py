"""GET /v1/nodes/<n>/inventory (API 1.81), in-process."""

import pytest

from ironic_lite.common import exception
from ironic_lite import objects
from tests.unit.api import utils

INVENTORY = {'cpu': {'count': 2, 'architecture': 'x86_64'},
             'interfaces': [{'mac_address': '00:5c:52:31:3a:9c'}]}


def _store(node_uuid, inventory, plugin_data=None):
    node = objects.Node.get_by_uuid(None, node_uuid)
    objects.NodeInventory(None, node_id=node.id, inventory_data=inventory,
                          plugin_data=plugin_data or {}).create()
    return node.id


def test_show(client, node):
    node_id = _store(node['uuid'], INVENTORY, {'parsed_lldp': {}})
    resp = client.get('/v1/nodes/%s/inventory' % node['uuid'])
    assert resp.status_int == 200
    assert resp.json == {'inventory': INVENTORY,
                         'plugin_data': {'parsed_lldp': {}}}
    # By name too; a new inspection replaces it.
    _store(node['uuid'], {'cpu': {'count': 4}})
    resp = client.get('/v1/nodes/node-0/inventory')
    assert resp.json['inventory'] == {'cpu': {'count': 4}}
    assert objects.NodeInventory.get_by_node_id(None, node_id).plugin_data \
        == {}


def test_none_stored_is_ironics_404(client, node):
    resp = client.get('/v1/nodes/%s/inventory' % node['uuid'],
                      expect_errors=True)
    assert resp.status_int == 404
    node_id = objects.Node.get_by_uuid(None, node['uuid']).id
    assert utils.faultstring(resp) == (
        'Node inventory record for node %s could not be found.' % node_id)


def test_before_1_81_it_is_not_there(client, node):
    _store(node['uuid'], INVENTORY)
    resp = client.get('/v1/nodes/%s/inventory' % node['uuid'],
                      headers={'X-OpenStack-Ironic-API-Version': '1.80'},
                      expect_errors=True)
    assert resp.status_int == 404


def test_unknown_node(client):
    resp = client.get('/v1/nodes/nope/inventory', expect_errors=True)
    assert resp.status_int == 404
    assert utils.faultstring(resp) == 'Node nope could not be found.'


def test_node_delete_deletes_it(client, node):
    node_id = _store(node['uuid'], INVENTORY)
    assert client.delete('/v1/nodes/%s' % node['uuid']).status_int == 204
    with pytest.raises(exception.NodeInventoryNotFound):
        objects.NodeInventory.get_by_node_id(None, node_id)


def test_readable_while_pinned_to_4_0(client, node, config_pin):
    _store(node['uuid'], INVENTORY)
    config_pin('4.0')
    resp = client.get('/v1/nodes/%s/inventory' % node['uuid'])
    assert resp.status_int == 200
    assert resp.json['inventory'] == INVENTORY
