"""The client side of ``vif.VifMixin``: a node's VIFs (RPC 1.2, release
3.0; refused, 409 PinnedRelease, while pinned below)."""

from ironic_lite.conductor import rpc_errors


class VifCalls(object):
    """The VIF methods of ``rpcapi.ConductorAPI``."""

    def _vif_call(self, context, node, method, **kwargs):
        return self.send(context, '1.2', method, node=node,
                         what='This request', node_id=node.uuid, **kwargs)

    @rpc_errors.translated
    def vif_attach(self, context, node, vif_info):
        return self._vif_call(context, node, 'vif_attach', vif_info=vif_info)

    @rpc_errors.translated
    def vif_detach(self, context, node, vif_id):
        return self._vif_call(context, node, 'vif_detach', vif_id=vif_id)

    @rpc_errors.translated
    def vif_list(self, context, node):
        """[{'id': vif_id}] of the VIFs attached to a node."""
        return self._vif_call(context, node, 'vif_list')
