"""The client side of ``indicators.IndicatorsMixin``: a node's indicators
(RPC 1.8, release 5.0; refused, 409 PinnedRelease, while pinned below).
"""

_V = '1.8'


class IndicatorsCalls(object):
    """The indicator methods of ``rpcapi.ConductorAPI``."""

    def get_supported_indicators(self, context, node, component=None):
        """{component: {indicator: {'readonly': bool, 'states': [...]}}}"""
        return self.call_node_method(context, node, _V,
                                     'get_supported_indicators',
                                     'Reading the indicators',
                                     component=component)

    def get_indicator_state(self, context, node, component, indicator):
        return self.call_node_method(context, node, _V,
                                     'get_indicator_state',
                                     'Reading the indicators',
                                     component=component,
                                     indicator=indicator)

    def set_indicator_state(self, context, node, component, indicator,
                            state):
        return self.call_node_method(context, node, _V,
                                     'set_indicator_state',
                                     'Setting an indicator',
                                     component=component,
                                     indicator=indicator, state=state)
