"""The client side of ``raid.RaidMixin``: RAID (RPC 1.9, release 5.0).

New methods, no older form: a client pinned below 1.9 refuses them (409
PinnedRelease, nothing sent), reads included -- an older conductor would
not know them.  A driver's method goes to a live conductor that has the
hardware type (``host_for_driver``).
"""

_V = '1.9'


class RaidCalls(object):
    """The RAID methods of ``rpcapi.ConductorAPI``."""

    def set_target_raid_config(self, context, node, target_raid_config):
        return self.call_new_method(
            context, _V, 'Setting the target RAID configuration',
            'set_target_raid_config', node=node, node_id=node.uuid,
            target_raid_config=target_raid_config)

    def get_raid_logical_disk_properties(self, context, driver_name):
        return self.call_new_method(
            context, _V, 'Listing RAID logical disk properties',
            'get_raid_logical_disk_properties',
            host=self.host_for_driver(context, driver_name),
            driver_name=driver_name)
