"""The client side of ``rescue.RescueMixin``: rescue and unrescue (RPC
1.6).  New methods, no older form: a client pinned below 1.6 refuses them
(409 PinnedRelease, nothing sent)."""

_V = '1.6'


class RescueCalls(object):
    """The rescue methods of ``rpcapi.ConductorAPI``."""

    def do_node_rescue(self, context, node, rescue_password):
        """active (rescue, rescue failed, unrescue failed) -> rescuing ->
        rescue."""
        return self.call_node_method(context, node, _V, 'do_node_rescue',
                                     'Rescuing a node',
                                     rescue_password=rescue_password)

    def do_node_unrescue(self, context, node):
        """rescue (rescue failed, unrescue failed) -> unrescuing ->
        active."""
        return self.call_node_method(context, node, _V,
                                     'do_node_unrescue', 'Unrescuing a node')
