"""The client side of ``boot_mode.BootModeMixin``: boot mode and secure
boot (RPC 1.8, release 5.0).  Each goes through ``call_node_method``, so
that a service pinned below 1.8 refuses them (409 PinnedRelease, nothing
sent: a conductor of release 4.0 does not know them) and the transport's
and the conductor's errors are turned into the API's as for every other
call.
"""

_V = '1.8'


class BootModeCalls(object):
    """The boot mode methods of ``rpcapi.ConductorAPI``."""

    def change_node_boot_mode(self, context, node, new_state):
        """Set the node's boot mode (``bios``/``uefi``) in a worker;
        returns once the node is locked for it."""
        return self.call_node_method(context, node, _V,
                                     'change_node_boot_mode',
                                     'Changing the boot mode',
                                     new_state=new_state)

    def change_node_secure_boot(self, context, node, new_state):
        """Turn secure boot on (True) or off (False), in a worker."""
        return self.call_node_method(context, node, _V,
                                     'change_node_secure_boot',
                                     'Changing the secure boot state',
                                     new_state=new_state)
