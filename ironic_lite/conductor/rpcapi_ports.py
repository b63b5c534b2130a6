"""The client side of ``ports.PortsMixin``: ports and port groups (RPC
1.3), written under their node's lock.

``node`` is the port's (port group's) node: the call goes to the
conductor that owns it.  A port group's creation is the API's own write
(as in Ironic): the server's ``create_portgroup`` stays for the APIs of
earlier releases.  A client pinned below 1.3 does not call these
(``can_send_version('1.3')``): the API then writes ports directly, as
release 2.0 did.
"""

from ironic_lite.conductor import rpc_errors

_V = '1.3'


class PortsCalls(object):
    """The port and port group methods of ``rpcapi.ConductorAPI``."""

    @rpc_errors.translated
    def create_port(self, context, port_obj, node):
        return self.send(context, _V, 'create_port', node=node,
                         port_obj=port_obj)

    @rpc_errors.translated
    def update_port(self, context, port_obj, node):
        return self.send(context, _V, 'update_port', node=node,
                         port_obj=port_obj)

    @rpc_errors.translated
    def destroy_port(self, context, port, node):
        return self.send(context, _V, 'destroy_port', node=node, port=port)

    @rpc_errors.translated
    def update_portgroup(self, context, portgroup_obj, node):
        return self.send(context, _V, 'update_portgroup', node=node,
                         portgroup_obj=portgroup_obj)

    @rpc_errors.translated
    def destroy_portgroup(self, context, portgroup, node):
        return self.send(context, _V, 'destroy_portgroup', node=node,
                         portgroup=portgroup)
