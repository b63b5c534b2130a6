"""The client side of ``console.ConsoleMixin``: the serial console and
NMI (RPC 1.6).  New methods, no older form: a client pinned below 1.6
refuses them (409 PinnedRelease, nothing sent)."""

_V = '1.6'


class ConsoleCalls(object):
    """The console methods of ``rpcapi.ConductorAPI``."""

    def inject_nmi(self, context, node):
        return self.call_node_method(context, node, _V, 'inject_nmi',
                                     'Injecting an NMI')

    def get_console_information(self, context, node):
        """The console's connection information (NodeConsoleNotEnabled
        when it is disabled)."""
        return self.call_node_method(context, node, _V,
                                     'get_console_information',
                                     'The console')

    def set_console_mode(self, context, node, enabled):
        return self.call_node_method(context, node, _V,
                                     'set_console_mode', 'The console',
                                     enabled=enabled)
