"""What inspection found on a node (release 5.0, API 1.81), as Ironic's
NodeInventory: the inventory (ironic-python-agent's shape) and the
inspection plugins' data.  Written by the conductor only, never sent over
RPC (``DB_ONLY``): an API pinned to 4.0 reads it, a 4.0 service never
does.
"""

from oslo_versionedobjects import base as ovo_base

from ironic_lite.db import inventory as db_inventory
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class NodeInventory(ovo_base.ComparableVersionedObject, base.IronicObject):
    # Version 1.0: initial version (release 5.0)
    VERSION = '1.0'
    DB_ONLY = True

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'node_id': fields.IntegerField(nullable=True),
        'inventory_data': fields.FlexibleDictField(nullable=True),
        'plugin_data': fields.FlexibleDictField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'node_id',
                'inventory_data', 'plugin_data'),
    }

    def create(self, context=None):
        """Store it as its node's inventory (replacing an older one)."""
        values = self.do_version_changes_for_db()
        row = db_inventory.create_node_inventory(values)
        self._from_db_object(context or self._context, self, row)

    @classmethod
    def get_by_node_id(cls, context, node_id):
        """NodeInventoryNotFound when the node has none."""
        row = db_inventory.get_node_inventory_by_node_id(node_id)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def destroy(cls, context, node_id):
        db_inventory.destroy_node_inventory_by_node_id(node_id)
