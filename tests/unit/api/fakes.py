"""A conductor RPC client that does the work in-process, on the objects.

It follows the contract of ``ConductorAPI`` (same methods, same errors)
closely enough for API tests; it does not try to be a conductor.
"""

from ironic_lite.common import exception
from ironic_lite import objects

POWER_RESULT = {'power on': 'power on', 'power off': 'power off',
                'rebooting': 'power on', 'soft power off': 'power off',
                'soft rebooting': 'power on'}
PROVISION_RESULT = {'manage': 'manageable', 'provide': 'available',
                    'inspect': 'manageable', 'abort': 'manageable'}


class FakeConductorAPI(object):
    def __init__(self):
        self.calls = []

    def _locked_check(self, node):
        current = objects.Node.get_by_uuid(None, node.uuid)
        if current.reservation:
            raise exception.NodeLocked(node=node.uuid,
                                       host=current.reservation)
        return current

    def create_node(self, context, node_obj):
        self.calls.append(('create_node', node_obj.uuid))
        if node_obj.driver != 'fake-hardware':
            raise exception.NoValidHost(
                reason='No conductor service registered which supports '
                       'driver %s for conductor group "".' % node_obj.driver)
        node_obj.create()
        return node_obj

    def update_node(self, context, node_obj, reset_interfaces=None):
        self.calls.append(('update_node', node_obj.uuid))
        self.last_reset_interfaces = reset_interfaces
        self._locked_check(node_obj)
        node_obj.save()
        return node_obj

    def destroy_node(self, context, node):
        self.calls.append(('destroy_node', node.uuid))
        self._locked_check(node)
        if node.instance_uuid:
            raise exception.NodeAssociated(node=node.uuid,
                                           instance=node.instance_uuid)
        node.destroy()

    def change_node_power_state(self, context, node, new_state,
                                timeout=None):
        self.calls.append(('change_node_power_state', node.uuid, new_state,
                           timeout))
        current = self._locked_check(node)
        current.power_state = POWER_RESULT[new_state]
        current.save()

    def do_provisioning_action(self, context, node, action):
        self.calls.append(('do_provisioning_action', node.uuid, action))
        current = self._locked_check(node)
        current.provision_state = PROVISION_RESULT[action]
        current.save()

    def do_node_deploy(self, context, node, rebuild=False, configdrive=None):
        self.calls.append(('do_node_deploy', node.uuid, rebuild))
        current = self._locked_check(node)
        current.provision_state = 'active'
        current.save()

    def do_node_tear_down(self, context, node):
        self.calls.append(('do_node_tear_down', node.uuid))
        current = self._locked_check(node)
        current.provision_state = 'available'
        current.save()
