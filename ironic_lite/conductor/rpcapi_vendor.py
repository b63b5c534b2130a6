"""The client side of ``vendor.VendorMixin``: vendor passthru (RPC 1.9,
release 5.0).

New methods, no older form: a client pinned below 1.9 refuses them (409
PinnedRelease, nothing sent), reads included -- an older conductor would
not know them.  A driver's methods go to a live conductor that has the
hardware type (``host_for_driver``).
"""

_V = '1.9'


class VendorCalls(object):
    """The vendor passthru methods of ``rpcapi.ConductorAPI``."""

    def vendor_passthru(self, context, node, driver_method, http_method,
                        info):
        """{'return', 'async', 'attach'} of a node's vendor method."""
        return self.call_new_method(
            context, _V, 'Vendor passthru', 'vendor_passthru',
            node=node, node_id=node.uuid, driver_method=driver_method,
            http_method=http_method, info=info)

    def driver_vendor_passthru(self, context, driver_name, driver_method,
                               http_method, info):
        return self.call_new_method(
            context, _V, 'Vendor passthru', 'driver_vendor_passthru',
            host=self.host_for_driver(context, driver_name),
            driver_name=driver_name, driver_method=driver_method,
            http_method=http_method, info=info)

    def get_node_vendor_passthru_methods(self, context, node):
        return self.call_new_method(
            context, _V, 'Vendor passthru',
            'get_node_vendor_passthru_methods', node=node,
            node_id=node.uuid)

    def get_driver_vendor_passthru_methods(self, context, driver_name):
        return self.call_new_method(
            context, _V, 'Vendor passthru',
            'get_driver_vendor_passthru_methods',
            host=self.host_for_driver(context, driver_name),
            driver_name=driver_name)
