"""The client side of ``management.ManagementMixin``: driver interface
validation and boot devices (RPC 1.2, release 3.0; refused, 409
PinnedRelease, while pinned below).  These wait for a BMC: the API bounds
how many wait at once (``hardware_gate.py``)."""

from ironic_lite.conductor import rpc_errors


class ManagementCalls(object):
    """The management methods of ``rpcapi.ConductorAPI``."""

    def _management_call(self, context, node, method, **kwargs):
        return self.send(context, '1.2', method, node=node,
                         what='This request', node_id=node.uuid, **kwargs)

    @rpc_errors.translated
    def validate_driver_interfaces(self, context, node):
        """{interface: {'result': bool[, 'reason': str]}}."""
        return self._management_call(context, node,
                                     'validate_driver_interfaces')

    @rpc_errors.translated
    def set_boot_device(self, context, node, device, persistent=False):
        return self._management_call(context, node, 'set_boot_device',
                                     device=device, persistent=persistent)

    @rpc_errors.translated
    def get_boot_device(self, context, node):
        """{'boot_device': name or None, 'persistent': bool or None}."""
        return self._management_call(context, node, 'get_boot_device')

    @rpc_errors.translated
    def get_supported_boot_devices(self, context, node):
        return self._management_call(context, node,
                                     'get_supported_boot_devices')
