"""The client side of ``provisioning.ProvisioningMixin``: provisioning
actions, deploy and tear down (RPC 1.0; deploy steps at 1.7)."""

from ironic_lite.conductor import rpc_errors


class ProvisioningCalls(object):
    """The provisioning methods of ``rpcapi.ConductorAPI``."""

    @rpc_errors.translated
    def do_provisioning_action(self, context, node, action):
        """Start manage, provide, inspect or abort on a node."""
        return self.send(context, '1.0', 'do_provisioning_action',
                         node=node, node_id=node.uuid, action=action)

    @rpc_errors.translated
    def do_node_deploy(self, context, node, rebuild=False, configdrive=None,
                       deploy_steps=None):
        """Start deploying (or rebuilding) a node.

        :param deploy_steps: the user's deploy steps, sent at 1.7.  Pinned
            below 1.7 a deploy without them is the 1.0 call; one with them
            is refused (409, nothing done) rather than run without them.
        """
        kwargs = {'node_id': node.uuid, 'rebuild': rebuild,
                  'configdrive': configdrive}
        version = '1.0'
        if deploy_steps:
            self.check_can_send('1.7', 'Deploying with deploy_steps')
            version = '1.7'
            kwargs['deploy_steps'] = deploy_steps
        return self.send(context, version, 'do_node_deploy', node=node,
                         **kwargs)

    @rpc_errors.translated
    def do_node_tear_down(self, context, node):
        return self.send(context, '1.0', 'do_node_tear_down', node=node,
                         node_id=node.uuid)
