"""The client side of ``cleaning.CleaningMixin``: manual cleaning (RPC
1.6).  A new method, no older form: a client pinned below 1.6 refuses it
(409 PinnedRelease, nothing sent)."""


class CleaningCalls(object):
    """The cleaning method of ``rpcapi.ConductorAPI``."""

    def do_node_clean(self, context, node, clean_steps,
                      disable_ramdisk=None):
        """manageable -> cleaning -> manageable, running ``clean_steps``."""
        return self.call_node_method(context, node, '1.6', 'do_node_clean',
                                     'Manual cleaning',
                                     clean_steps=clean_steps,
                                     disable_ramdisk=disable_ramdisk)
