"""The client side of ``volume.VolumeMixin``: volume connectors and
targets (RPC 1.4, release 4.0).

Written by the conductor that owns the node, under its lock.  New
methods: pinned below 1.4 the request is refused (409, nothing done).
"""

from ironic_lite.conductor import rpc_errors

_V = '1.4'


class VolumeCalls(object):
    """The volume methods of ``rpcapi.ConductorAPI``."""

    @rpc_errors.translated
    def create_volume_connector(self, context, connector, node):
        return self.send(context, _V, 'create_volume_connector', node=node,
                         what='Creating a volume connector',
                         connector=connector)

    @rpc_errors.translated
    def update_volume_connector(self, context, connector, node):
        return self.send(context, _V, 'update_volume_connector', node=node,
                         what='Updating a volume connector',
                         connector=connector)

    @rpc_errors.translated
    def destroy_volume_connector(self, context, connector, node):
        return self.send(context, _V, 'destroy_volume_connector',
                         node=node, what='Deleting a volume connector',
                         connector=connector)

    @rpc_errors.translated
    def create_volume_target(self, context, target, node):
        return self.send(context, _V, 'create_volume_target', node=node,
                         what='Creating a volume target', target=target)

    @rpc_errors.translated
    def update_volume_target(self, context, target, node):
        return self.send(context, _V, 'update_volume_target', node=node,
                         what='Updating a volume target', target=target)

    @rpc_errors.translated
    def destroy_volume_target(self, context, target, node):
        return self.send(context, _V, 'destroy_volume_target', node=node,
                         what='Deleting a volume target', target=target)
