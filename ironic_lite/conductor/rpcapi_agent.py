"""The client side of ``agent.AgentMixin``: the ramdisk's agent (RPC 1.10,
release 5.0).

They have no older form: pinned below 1.10 the API refuses them (409
PinnedRelease, nothing sent); the agent retries its lookup and
heartbeats, and they go through once the pin is removed.
"""

_V = '1.10'
# continue_inspection (in-band inspection, API 1.84).
_V_INSPECTION = '1.11'


class AgentCalls(object):
    """The agent methods of ``rpcapi.ConductorAPI``."""

    def get_node_with_token(self, context, node):
        """The node with a new agent token (``******`` if it has one)."""
        return self.call_node_method(context, node, _V,
                                     'get_node_with_token',
                                     'The agent lookup')

    def heartbeat(self, context, node, callback_url, agent_version=None,
                  agent_token=None, agent_verify_ca=None, agent_status=None,
                  agent_status_message=None):
        """A heartbeat of the ramdisk's agent."""
        return self.call_node_method(
            context, node, _V, 'heartbeat', 'The agent heartbeat',
            callback_url=callback_url, agent_version=agent_version,
            agent_token=agent_token, agent_verify_ca=agent_verify_ca,
            agent_status=agent_status,
            agent_status_message=agent_status_message)

    def continue_inspection(self, context, node, inventory,
                            plugin_data=None):
        """The inventory (and plugin data) the agent of a node in
        ``inspect wait`` sends: its inspection goes on."""
        return self.call_node_method(
            context, node, _V_INSPECTION, 'continue_inspection',
            'The inspection data of the ramdisk', inventory=inventory,
            plugin_data=plugin_data)
