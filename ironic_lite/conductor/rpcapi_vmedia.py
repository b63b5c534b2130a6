"""The client side of ``vmedia.VmediaMixin``: a node's virtual media
(RPC 1.13; refused, 409 PinnedRelease, nothing sent, while pinned
below: a conductor of an older release does not know the methods).
"""

_V = '1.13'


class VmediaCalls(object):
    """The virtual media methods of ``rpcapi.ConductorAPI``."""

    def get_virtual_media(self, context, node):
        """The node's virtual media devices, as its BMC reports them."""
        return self.call_node_method(context, node, _V, 'get_virtual_media',
                                     'Reading the virtual media')

    def attach_virtual_media(self, context, node, device_type, image_url,
                             image_download_source='local'):
        """Attach an image as ``device_type``, in a worker; returns once
        the node is locked for it."""
        return self.call_node_method(
            context, node, _V, 'attach_virtual_media',
            'Attaching virtual media', device_type=device_type,
            image_url=image_url,
            image_download_source=image_download_source)

    def detach_virtual_media(self, context, node, device_types=None):
        """Detach ``device_types`` (all when None), in a worker."""
        return self.call_node_method(context, node, _V,
                                     'detach_virtual_media',
                                     'Detaching virtual media',
                                     device_types=device_types)
