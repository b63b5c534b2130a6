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


_GERUNDS = {'create': 'Creating', 'update': 'Updating',
            'destroy': 'Deleting'}


class FakeConductorAPI(object):
    def __init__(self):
        self.calls = []
        self.published = {}

    def _locked_check(self, node):
        current = objects.Node.get_by_uuid(None, node.uuid)
        if current.reservation:
            raise exception.NodeLocked(node=node.uuid,
                                       host=current.reservation)
        return current

    def create_node(self, context, node_obj):
        self.calls.append(('create_node', node_obj.uuid))
        self.get_conductor_for(context, node_obj)
        node_obj.create()
        return node_obj

    def published_by(self, context, host):
        # {host: factory.published_interfaces(...)}: none unless a test
        # publishes some (the creations then go through create_node).
        return self.published.get(host)

    def get_conductor_for(self, context, node):
        if node.driver != 'fake-hardware':
            raise exception.NoValidHost(
                reason='No conductor service registered which supports '
                       'driver %s for conductor group "".' % node.driver)
        return 'fake-host'

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
        if (action == 'provide' and current.retired
                and current.provision_state == 'manageable'):
            raise exception.NodeIsRetired(op='providing', node=node.uuid)
        current.provision_state = PROVISION_RESULT.get(
            action, current.provision_state)
        if action == 'manage' and current.power_state is None:
            current.power_state = 'power off'   # read by the verify step
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
        current.instance_uuid = None   # with its allocation, if any
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

    # -- RPC 1.6: rescue, manual cleaning, NMI, console -------------------
    # Done at once, with the conductor's own checks and step code.

    def _pinned_1_6(self, what):
        self.check_can_send('1.6', what)

    def do_node_rescue(self, context, node, rescue_password):
        from ironic_lite.conductor import rescue
        self._pinned_1_6('Rescuing a node')
        self.calls.append(('do_node_rescue', node.uuid, rescue_password))
        task = self._task(node)
        try:
            task.driver.interface(task.node, 'rescue').validate(task)
        except exception.UnsupportedDriverExtension as err:
            raise exception.InstanceRescueFailure(
                instance=task.node.instance_uuid, node=node.uuid,
                reason='Validation failed: %s' % err)
        info = dict(task.node.instance_info or {})
        info.update(rescue_password=rescue_password,
                    hashed_rescue_password=rescue._hash(rescue_password))
        task.node.instance_info = info
        task.node.provision_state = 'rescue'
        task.node.save()

    def do_node_unrescue(self, context, node):
        from ironic_lite.conductor import rescue
        self._pinned_1_6('Unrescuing a node')
        self.calls.append(('do_node_unrescue', node.uuid))
        task = self._task(node)
        rescue.remove_rescue_password(task.node)
        task.node.provision_state = 'active'
        task.node.save()

    def do_node_clean(self, context, node, clean_steps,
                      disable_ramdisk=None):
        from ironic_lite.conductor import steps
        from ironic_lite.drivers import steps as driver_steps
        self._pinned_1_6('Manual cleaning')
        self.calls.append(('do_node_clean', node.uuid, clean_steps,
                           disable_ramdisk))
        task = self._task(node)
        try:
            for step in steps.validate_user_clean_steps(task, clean_steps):
                driver_steps.execute_step(
                    task.driver.interface(task.node, step['interface']),
                    task, step)
        except exception.InvalidParameterValue as err:
            task.node.provision_state = 'clean failed'
            task.node.last_error = 'Cannot clean node %s: %s' % (node.uuid,
                                                                 err)
        else:
            task.node.provision_state = 'manageable'
        task.node.save()

    # -- RPC 1.12: servicing (API 1.87) ------------------------------------

    def do_node_service(self, context, node, service_steps,
                        disable_ramdisk=None):
        """Recorded, refused while pinned below 1.12; the node stays
        active (the conductor's flow is tested in tests/unit/conductor)."""
        self.check_can_send('1.12', 'Servicing')
        self.calls.append(('do_node_service', node.uuid, service_steps,
                           disable_ramdisk))

    def inject_nmi(self, context, node):
        self._pinned_1_6('Injecting an NMI')
        self.calls.append(('inject_nmi', node.uuid))
        task = self._task(node)
        task.driver.interface(task.node, 'management').inject_nmi(task)

    def get_console_information(self, context, node):
        self._pinned_1_6('The console')
        task = self._task(node, lock=False)
        if not task.node.console_enabled:
            raise exception.NodeConsoleNotEnabled(node=node.uuid)
        console = task.driver.interface(task.node, 'console')
        console.validate(task)
        return console.get_console(task)

    def set_console_mode(self, context, node, enabled):
        self._pinned_1_6('The console')
        self.calls.append(('set_console_mode', node.uuid, enabled))
        task = self._task(node)
        task.driver.interface(task.node, 'console').validate(task)
        task.node.console_enabled = bool(enabled)
        task.node.save()

    # -- allocations (RPC 1.5): the conductor's own flow, in-process -------

    def check_can_send(self, version, what):
        from oslo_utils import versionutils
        from ironic_lite.common import release_mappings
        from ironic_lite import conf
        pin = conf.CONF.pin_release_version
        release = release_mappings.get_release(pin)
        if release and versionutils.convert_version_to_tuple(
                release['rpc']) < versionutils.convert_version_to_tuple(
                    version):
            raise exception.PinnedRelease(what=what, version=version,
                                          pin=pin)

    def can_send_version(self, version):
        """The fake speaks RPC up to 1.2 to the writers that ask (ports
        and port groups, ``writer.DIRECT``): it has no port methods of
        RPC 1.3, so the API writes them directly, as a client pinned to
        release 2.0 does.  Their conductor path is
        tests/unit/conductor/test_rpc_errors_over_api.py's."""
        from oslo_utils import versionutils
        return versionutils.convert_version_to_tuple(version) < (1, 3)

    def create_allocation(self, context, allocation, node=None):
        """Stored, then processed at once (the conductor's worker runs
        later: a test sees ``allocating`` only there)."""
        from ironic_lite.conductor import allocations
        self.check_can_send('1.5', 'Creating an allocation')
        self.calls.append(('create_allocation', allocation.uuid,
                           node.uuid if node is not None else None))
        allocation.node_id = None
        allocation.state = allocations.ALLOCATING
        allocation.create(context)
        if node is not None:
            allocations.backfill(context, allocation, node.id)
        else:
            allocations.do_allocate(context, allocation.obj_clone())
            allocation.refresh()
        return allocation

    def destroy_allocation(self, context, allocation):
        from ironic_lite.conductor import allocations
        self.check_can_send('1.5', 'Deleting an allocation')
        self.calls.append(('destroy_allocation', allocation.uuid))
        if allocation.node_id:
            node = objects.Node.get_by_id(context, allocation.node_id)
            self._locked_check(node)
            allocations.check_deallocation(node, allocation)
        allocation.destroy()

    # -- RPC 1.4: volume connectors and targets, by the conductor's code --

    def _volume_write(self, context, obj, noun, action):
        from ironic_lite.common import release_mappings
        from ironic_lite.conductor import volume
        from ironic_lite import conf
        pin = conf.CONF.pin_release_version
        if pin and release_mappings.get_release(pin)['rpc'] < '1.4':
            raise exception.PinnedRelease(
                what='%s a %s' % (_GERUNDS[action], noun), version='1.4',
                pin=pin)
        self.calls.append(('%s_%s' % (action, noun.replace(' ', '_')),
                           obj.uuid))
        return volume.write(context, obj, noun, action)

    def create_volume_connector(self, context, connector, node):
        return self._volume_write(context, connector, 'volume connector',
                                  'create')

    def update_volume_connector(self, context, connector, node):
        return self._volume_write(context, connector, 'volume connector',
                                  'update')

    def destroy_volume_connector(self, context, connector, node):
        self._volume_write(context, connector, 'volume connector',
                           'destroy')

    def create_volume_target(self, context, target, node):
        return self._volume_write(context, target, 'volume target',
                                  'create')

    def update_volume_target(self, context, target, node):
        return self._volume_write(context, target, 'volume target',
                                  'update')

    def destroy_volume_target(self, context, target, node):
        self._volume_write(context, target, 'volume target', 'destroy')

    # -- RPC 1.8: boot mode, secure boot, indicators (release 5.0) --------
    # Done at once, with the conductor's own checks and worker code.

    def _call_1_8(self, what):
        self.check_can_send('1.8', what)

    def _change_boot_setting(self, node, field, target, what):
        from ironic_lite.conductor import boot_mode
        self._call_1_8(what)
        self.calls.append(('change_node_%s' % field, node.uuid, target))
        task = self._task(node)
        boot_mode.check_stable(task.node)
        task.node.last_error = None
        boot_mode.change_setting(task, field, target)
        task.node.save()

    def change_node_boot_mode(self, context, node, new_state):
        self._change_boot_setting(node, 'boot_mode', new_state,
                                  'Changing the boot mode')

    def change_node_secure_boot(self, context, node, new_state):
        self._change_boot_setting(node, 'secure_boot', new_state,
                                  'Changing the secure boot state')

    def get_supported_indicators(self, context, node, component=None):
        self._call_1_8('Reading the indicators')
        task = self._task(node, lock=False)
        return task.driver.interface(task.node, 'management') \
            .get_supported_indicators(task, component=component)

    def get_indicator_state(self, context, node, component, indicator):
        self._call_1_8('Reading the indicators')
        task = self._task(node, lock=False)
        return task.driver.interface(task.node, 'management') \
            .get_indicator_state(task, component, indicator)

    def set_indicator_state(self, context, node, component, indicator,
                            state):
        self._call_1_8('Setting an indicator')
        self.calls.append(('set_indicator_state', node.uuid, component,
                           indicator, state))
        task = self._task(node)
        task.driver.interface(task.node, 'management').set_indicator_state(
            task, component, indicator, state)
        task.node.save()
    # -- RPC 1.10: the ramdisk's agent, with the conductor's own checks ---

    def get_node_with_token(self, context, node):
        from ironic_lite.conductor import agent
        self.check_can_send('1.10', 'The agent lookup')
        self.calls.append(('get_node_with_token', node.uuid))
        current = objects.Node.get_by_uuid(None, node.uuid)
        if agent.token_present(current):
            current.driver_internal_info = dict(
                current.driver_internal_info,
                agent_secret_token=agent.MASKED_TOKEN)
            return current
        current = self._locked_check(node)
        current.driver_internal_info = dict(
            current.driver_internal_info or {},
            agent_secret_token='token-of-' + node.uuid)
        current.save()
        return objects.Node.get_by_uuid(None, node.uuid)

    def heartbeat(self, context, node, callback_url, agent_version=None,
                  agent_token=None, agent_verify_ca=None, agent_status=None,
                  agent_status_message=None):
        """The token checked, the heartbeat recorded; a deploy waiting
        for it ends at once."""
        from ironic_lite.conductor import agent
        self.check_can_send('1.10', 'The agent heartbeat')
        self.calls.append(('heartbeat', node.uuid, callback_url,
                           agent_version, agent_status))
        current = self._locked_check(node)
        if not agent.token_valid(current, agent_token):
            raise exception.InvalidParameterValue(
                'Invalid or missing agent token received.')
        agent._record(current, callback_url, agent_version, agent_status,
                      agent_status_message)
        if current.provision_state == 'wait call-back':
            current.provision_state = 'active'
        current.save()

    # -- RPC 1.11: the agent's inspection data ------------------------------

    def continue_inspection(self, context, node, inventory,
                            plugin_data=None):
        """Refused (bare NotFound) unless the node waits in ``inspect
        wait``; then stored and the inspection done at once."""
        self.check_can_send('1.11', 'The inspection data of the ramdisk')
        self.calls.append(('continue_inspection', node.uuid, inventory,
                           plugin_data))
        current = self._locked_check(node)
        if current.provision_state != 'inspect wait':
            raise exception.NotFound()
        objects.NodeInventory(None, node_id=current.id,
                              inventory_data=inventory,
                              plugin_data=plugin_data or {}).create()
        current.provision_state = 'manageable'
        current.save()

    # -- RPC 1.13: virtual media, the conductor's own worker code, at once

    def get_virtual_media(self, context, node):
        self.check_can_send('1.13', 'Reading the virtual media')
        task = self._task(node, lock=False)
        return task.driver.interface(task.node, 'management') \
            .get_virtual_media(task)

    def attach_virtual_media(self, context, node, device_type, image_url,
                             image_download_source='local'):
        from ironic_lite.conductor import vmedia
        self.check_can_send('1.13', 'Attaching virtual media')
        self.calls.append(('attach_virtual_media', node.uuid, device_type,
                           image_url, image_download_source))
        task = self._task(node)
        task.driver.interface(task.node, 'management').validate(task)
        task.node.last_error = None
        vmedia.attach(task, device_type, image_url)

    def detach_virtual_media(self, context, node, device_types=None):
        from ironic_lite.conductor import vmedia
        self.check_can_send('1.13', 'Detaching virtual media')
        self.calls.append(('detach_virtual_media', node.uuid, device_types))
        task = self._task(node)
        task.driver.interface(task.node, 'management').validate(task)
        task.node.last_error = None
        vmedia.detach(task, device_types)

    # -- RPC 1.9: RAID and vendor passthru, the conductor's own code on an
    # in-process task (an asynchronous vendor method runs at once) --------

    @staticmethod
    def _driver_check(driver_name):
        from ironic_lite.drivers import factory
        if driver_name not in factory.HARDWARE_TYPES:
            raise exception.DriverNotFound(driver_name=driver_name, code=404)

    def set_target_raid_config(self, context, node, target_raid_config):
        from ironic_lite.conductor import raid
        self.check_can_send('1.9', 'Setting the target RAID configuration')
        self.calls.append(('set_target_raid_config', node.uuid,
                           target_raid_config))
        task = self._task(node)
        raid.set_target_raid_config(task, target_raid_config)
        task.node.save()

    def get_raid_logical_disk_properties(self, context, driver_name):
        from ironic_lite.conductor import raid
        self._driver_check(driver_name)
        self.check_can_send('1.9', 'Listing RAID logical disk properties')
        return raid.logical_disk_properties(driver_name)

    def vendor_passthru(self, context, node, driver_method, http_method,
                        info):
        from ironic_lite.conductor import vendor
        self.check_can_send('1.9', 'Vendor passthru')
        self.calls.append(('vendor_passthru', node.uuid, driver_method,
                           http_method, info))
        task = self._task(node, lock=False)
        iface, meta = vendor.node_route(task, driver_method,
                                        http_method.upper())
        if meta['require_exclusive_lock']:
            self._locked_check(node)
        task.spawn_after = lambda pool, func, *a, **kw: func(*a, **kw)
        return vendor.call_node_method(None, task, iface, meta,
                                       http_method.upper(), info)

    def driver_vendor_passthru(self, context, driver_name, driver_method,
                               http_method, info):
        import types
        from ironic_lite.conductor import vendor
        self._driver_check(driver_name)
        self.check_can_send('1.9', 'Vendor passthru')
        self.calls.append(('driver_vendor_passthru', driver_name,
                           driver_method, http_method, info))
        slot = types.SimpleNamespace(
            submit=lambda func, *a, **kw: func(*a, **kw))
        pool = types.SimpleNamespace(claim=lambda: slot)
        return vendor.call_driver_method(pool, context, driver_name,
                                         driver_method, http_method.upper(),
                                         info)

    def get_node_vendor_passthru_methods(self, context, node):
        from ironic_lite.conductor import vendor
        self.check_can_send('1.9', 'Vendor passthru')
        return vendor.node_methods(self._task(node, lock=False))

    def get_driver_vendor_passthru_methods(self, context, driver_name):
        from ironic_lite.conductor import vendor
        self._driver_check(driver_name)
        self.check_can_send('1.9', 'Vendor passthru')
        return vendor.driver_methods(driver_name)
