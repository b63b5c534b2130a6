"""The client side of ``power.PowerMixin``: power actions (RPC 1.0)."""

from ironic_lite.conductor import rpc_errors


class PowerCalls(object):
    """The power methods of ``rpcapi.ConductorAPI``."""

    @rpc_errors.translated
    def change_node_power_state(self, context, node, new_state,
                                timeout=None):
        """Start a power action; returns once the node is locked for it."""
        return self.send(context, '1.0', 'change_node_power_state',
                         node=node, node_id=node.uuid, new_state=new_state,
                         timeout=timeout)
