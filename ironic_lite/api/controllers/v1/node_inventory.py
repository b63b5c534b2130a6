"""``GET /v1/nodes/<ident>/inventory`` (1.81): what inspection found.

Ironic's answer: ``{"inventory": ..., "plugin_data": ...}``, and its 404
when the node has never been inspected by an interface that stores an
inventory (``redfish`` here).
"""

import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite import objects


class NodeInventoryController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get(self):
        node = node_lookup.fetch_authorized('baremetal:node:inventory:get',
                                            self.node_ident)
        inventory = objects.NodeInventory.get_by_node_id(
            pecan.request.context, node.id)
        return {'inventory': inventory.inventory_data or {},
                'plugin_data': inventory.plugin_data or {}}


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 190

ROUTES = [
    routes.Route('GET', '/v1/nodes/{node_ident}/inventory',
                 NodeInventoryController.get,
                 since=mv.MINOR_81_NODE_INVENTORY,
                 doc="the node's inventory and plugin data from its last "
                     "inspection"),
]
