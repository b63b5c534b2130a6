"""A conductor RPC client that does the work in-process, on the objects.

It follows the contract of ``ConductorAPI`` (same methods, same errors)
closely enough for API tests; it does not try to be a conductor.
"""

from ironic_lite.common import exception
from ironic_lite.conductor import utils as conductor_utils
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

    def update_node(self, context, node_obj, reset_interfaces=None,
                    expected=None):
        self.calls.append(('update_node', node_obj.uuid))
        self.last_reset_interfaces = reset_interfaces
        current = self._locked_check(node_obj)
        changed = [k for k, v in (expected or {}).items()
                   if getattr(current, k) != v]
        if changed:
            raise exception.NodeChanged(node=node_obj.uuid,
                                        fields=', '.join(changed))
        # The conductor's own rules, as it applies them.
        delta = node_obj.obj_what_changed()
        conductor_utils.check_update_flags(node_obj, delta,
                                           current.provision_state)
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
        current.power_state = POWER_RESULT.get(new_state,
                                               current.power_state)
        current.save()

    def do_provisioning_action(self, context, node, action):
        self.calls.append(('do_provisioning_action', node.uuid, action))
        current = self._locked_check(node)
        current.provision_state = PROVISION_RESULT.get(
            action, current.provision_state)
        current.save()

    def do_node_deploy(self, context, node, rebuild=False, configdrive=None,
                       deploy_steps=None):
        if deploy_steps:
            self.check_can_send('1.7', 'Deploying with deploy_steps')
        self.calls.append(('do_node_deploy', node.uuid, rebuild))
        self.last_deploy_steps = deploy_steps
        current = self._locked_check(node)
        current.provision_state = 'active'
        current.save()

    def do_node_tear_down(self, context, node):
        self.calls.append(('do_node_tear_down', node.uuid))
        current = self._locked_check(node)
        current.provision_state = 'available'
        current.save()

    # -- RPC 1.2: the conductor's own code on an in-process task ----------

    def _task(self, node, lock=True):
        import types
        from ironic_lite.drivers import factory
        current = self._locked_check(node) if lock else node
        # The fake's lock is never taken over: its task's fenced writes
        # are plain writes.
        return types.SimpleNamespace(
            context=None, node=current,
            driver=factory.get_hardware_type(current.driver),
            fenced=lambda write: write())

    def _pinned_check(self):
        from ironic_lite.common import release_mappings
        from ironic_lite import conf
        pin = conf.CONF.pin_release_version
        if pin and release_mappings.get_release(pin)['rpc'] < '1.2':
            raise exception.PinnedRelease(what='This request',
                                          version='1.2', pin=pin)

    def add_node_traits(self, context, node, traits, replace=False):
        self._pinned_check()
        self.calls.append(('add_node_traits', node.uuid, traits, replace))
        self._locked_check(node)
        if replace:
            objects.TraitList.create(context, node.id, traits)
        else:
            for trait in traits:
                objects.Trait(node_id=node.id, trait=trait).create()

    def remove_node_traits(self, context, node, traits=None):
        self._pinned_check()
        self.calls.append(('remove_node_traits', node.uuid, traits))
        self._locked_check(node)
        if traits is None:
            objects.TraitList.destroy(context, node.id)
        for trait in traits or ():
            try:
                objects.Trait.destroy(context, node.id, trait)
            except exception.NodeTraitNotFound:
                raise exception.NodeTraitNotFound(node_id=node.uuid,
                                                  trait=trait)

    def vif_attach(self, context, node, vif_info):
        from ironic_lite.conductor import vif
        self._pinned_check()
        self.calls.append(('vif_attach', node.uuid, vif_info))
        vif.vif_attach(self._task(node), vif_info)

    def vif_detach(self, context, node, vif_id):
        from ironic_lite.conductor import vif
        self._pinned_check()
        self.calls.append(('vif_detach', node.uuid, vif_id))
        vif.vif_detach(self._task(node), vif_id)

    def vif_list(self, context, node):
        from ironic_lite.conductor import vif
        self._pinned_check()
        return vif.vif_list(self._task(node, lock=False))

    def validate_driver_interfaces(self, context, node):
        from ironic_lite.conductor import management
        self._pinned_check()
        return management.validate_driver_interfaces(
            self._task(node, lock=False))

    def set_boot_device(self, context, node, device, persistent=False):
        from ironic_lite.conductor import management
        self._pinned_check()
        task = self._task(node)
        management.set_boot_device(task, device, persistent)
        task.node.save()

    def get_boot_device(self, context, node):
        from ironic_lite.conductor import management
        self._pinned_check()
        return management.get_boot_device(self._task(node, lock=False))

    def get_supported_boot_devices(self, context, node):
        from ironic_lite.conductor import management
        self._pinned_check()
        return management.get_supported_boot_devices(
            self._task(node, lock=False))

    # -- release 4.0: deploy templates and deploy steps (RPC 1.7) ---------

    def check_can_send(self, version, what):
        """As ConductorAPI.check_can_send: 409 while pinned below
        ``version``."""
        from ironic_lite.common import release_mappings
        from ironic_lite import conf
        from oslo_utils import versionutils
        pin = conf.CONF.pin_release_version
        if pin and not versionutils.is_compatible(
                version, release_mappings.get_release(pin)['rpc']):
            raise exception.PinnedRelease(what=what, version=version,
                                          pin=pin)
