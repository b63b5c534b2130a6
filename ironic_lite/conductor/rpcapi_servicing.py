"""The client side of ``servicing.ServicingMixin``: servicing an active
node (RPC 1.12, API 1.87).  A new method, no older form: a client pinned
below 1.12 refuses it (409 PinnedRelease, nothing sent)."""

SERVICE_RPC_VERSION = '1.12'


class ServicingCalls(object):
    """The servicing method of ``rpcapi.ConductorAPI``."""

    def do_node_service(self, context, node, service_steps,
                        disable_ramdisk=None):
        """active -> servicing -> active, running ``service_steps``."""
        return self.call_node_method(context, node, SERVICE_RPC_VERSION,
                                     'do_node_service', 'Servicing',
                                     service_steps=service_steps,
                                     disable_ramdisk=disable_ramdisk)
