"""The RPC 1.9 client methods (RAID and vendor passthru) of
``rpcapi.ConductorAPI``, which inherits them.

New methods, no older form: a client pinned below 1.9 refuses them (409
PinnedRelease, nothing sent), reads included -- an older conductor would
not know them.  A driver's methods go to a live conductor that has the
hardware type.
"""

import random

from ironic_lite.common import exception
from ironic_lite.conductor import hash_ring

VERSION = '1.9'


def host_for_driver(context, driver_name):
    """A live conductor that enables ``driver_name``, at random (Ironic's
    ``get_topic_for_driver``).

    :raises: DriverNotFound (404) when none does.
    """
    hosts = sorted({host for (driver, _group), ring in
                    hash_ring.RING_MANAGER.rings(context).items()
                    if driver == driver_name for host in ring.nodes})
    if not hosts:
        raise exception.DriverNotFound(driver_name=driver_name, code=404)
    return random.choice(hosts)


class RaidVendorAPI(object):
    """Mixed into ``ConductorAPI`` (``call_new_method``)."""

    def set_target_raid_config(self, context, node, target_raid_config):
        return self.call_new_method(
            context, VERSION, 'Setting the target RAID configuration',
            'set_target_raid_config', node=node, node_id=node.uuid,
            target_raid_config=target_raid_config)

    def get_raid_logical_disk_properties(self, context, driver_name):
        return self.call_new_method(
            context, VERSION, 'Listing RAID logical disk properties',
            'get_raid_logical_disk_properties',
            host=host_for_driver(context, driver_name),
            driver_name=driver_name)

    def vendor_passthru(self, context, node, driver_method, http_method,
                        info):
        """{'return', 'async', 'attach'} of a node's vendor method."""
        return self.call_new_method(
            context, VERSION, 'Vendor passthru', 'vendor_passthru',
            node=node, node_id=node.uuid, driver_method=driver_method,
            http_method=http_method, info=info)

    def driver_vendor_passthru(self, context, driver_name, driver_method,
                               http_method, info):
        return self.call_new_method(
            context, VERSION, 'Vendor passthru', 'driver_vendor_passthru',
            host=host_for_driver(context, driver_name),
            driver_name=driver_name, driver_method=driver_method,
            http_method=http_method, info=info)

    def get_node_vendor_passthru_methods(self, context, node):
        return self.call_new_method(
            context, VERSION, 'Vendor passthru',
            'get_node_vendor_passthru_methods', node=node,
            node_id=node.uuid)

    def get_driver_vendor_passthru_methods(self, context, driver_name):
        return self.call_new_method(
            context, VERSION, 'Vendor passthru',
            'get_driver_vendor_passthru_methods',
            host=host_for_driver(context, driver_name),
            driver_name=driver_name)
