"""The client side of ``traits.TraitsMixin``: a node's traits (RPC 1.2,
release 3.0; refused, 409 PinnedRelease, while pinned below)."""

from ironic_lite.conductor import rpc_errors


class TraitsCalls(object):
    """The trait methods of ``rpcapi.ConductorAPI``."""

    @rpc_errors.translated
    def add_node_traits(self, context, node, traits, replace=False):
        """Add ``traits`` to a node, or replace all of its traits."""
        return self.send(context, '1.2', 'add_node_traits', node=node,
                         what='This request', node_id=node.uuid,
                         traits=traits, replace=replace)

    @rpc_errors.translated
    def remove_node_traits(self, context, node, traits=None):
        """Remove ``traits`` from a node (all of them when None)."""
        return self.send(context, '1.2', 'remove_node_traits', node=node,
                         what='This request', node_id=node.uuid,
                         traits=traits)
