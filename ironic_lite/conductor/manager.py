"""The conductor's RPC endpoint: the server side of ``rpcapi``.

Each method validates and changes the node under its lock synchronously --
so a refused request (400/403/409/503) has written nothing -- and hands any
long work to the worker pool; the lock passes to the worker.
"""

import oslo_messaging as messaging
from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import agent
from ironic_lite.conductor import allocations
from ironic_lite.conductor import base_manager
from ironic_lite.conductor import boot_mode
from ironic_lite.conductor import cleaning
from ironic_lite.conductor import console
from ironic_lite.conductor import deployments
from ironic_lite.conductor import hardware_calls
from ironic_lite.conductor import indicators
from ironic_lite.conductor import inspection
from ironic_lite.conductor import management
from ironic_lite.conductor import ports
from ironic_lite.conductor import power
from ironic_lite.conductor import raid
from ironic_lite.conductor import rescue
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import steps as conductor_steps
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils
from ironic_lite.conductor import vendor
from ironic_lite.conductor import verify
from ironic_lite.conductor import vif
from ironic_lite.conductor import volume
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import factory
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)

# Interfaces may change only in these states (or in maintenance).
_INTERFACE_UPDATE_STATES = (states.ENROLL, states.INSPECTING,
                            states.INSPECTWAIT, states.MANAGEABLE,
                            states.AVAILABLE)

# provisioning action -> (states it applies to, event, worker or None).
_PROVISION_ACTIONS = {
    'manage': {states.ENROLL: verify.do_node_verify},
    'provide': {states.MANAGEABLE: cleaning.do_node_clean},
    'inspect': {states.MANAGEABLE: inspection.inspect_hardware,
                states.INSPECTFAIL: inspection.inspect_hardware},
    'adopt': {states.MANAGEABLE: deployments.do_node_adopt,
              states.ADOPTFAIL: deployments.do_node_adopt},
}

_ABORTS = {
    states.CLEANWAIT: cleaning.abort_cleaning,
    states.INSPECTWAIT: inspection.abort_inspection,
}


def _validate_deploy(task, deploy_steps):
    """Ironic's checks of a deploy before its state changes: the power and
    deploy interfaces, the instance's traits, the deploy templates' and
    the user's steps (unknown steps are left to the worker, as Ironic
    leaves them until the agent's steps are known).

    :raises: InstanceDeployFailure (400), nothing written.
    """
    try:
        task.driver.power.validate(task)
        task.driver.deploy.validate(task)
        conductor_steps.check_instance_traits(task.node)
        conductor_steps.validate_templates_and_user_steps(
            task, deploy_steps, skip_missing=True)
    except exception.InvalidParameterValue as err:
        raise exception.InstanceDeployFailure(
            'Failed to validate deploy or power info for node %s: %s'
            % (task.node.uuid, err), code=err.code)


def _check_unchanged(node, expected):
    """NodeChanged unless ``node`` (read under its lock) still has the
    ``expected`` values (compare-and-swap of a PATCH)."""
    changed = sorted(name for name, value in (expected or {}).items()
                     if getattr(node, name) != value)
    if changed:
        raise exception.NodeChanged(node=node.uuid,
                                    fields=', '.join(changed))


def _checked_save(context, node_obj, delta, expected, current):
    """Save a copy of ``node_obj`` (its changes ``delta``) after checking
    them against ``current``, the node as read under its row lock;
    returns the copy saved.

    A copy: the transaction runs again from the start after a deadlock
    or a dropped connection, possibly after the node was saved and marked
    unchanged (its commit failed); saving the node itself again would
    then write nothing.
    """
    attempt = node_obj.obj_clone()
    if ('instance_uuid' in delta and attempt.instance_uuid
            and current.instance_uuid
            and current.instance_uuid != attempt.instance_uuid):
        raise exception.NodeAssociated(node=attempt.uuid,
                                       instance=current.instance_uuid)
    allocations.check_instance_removal(current, attempt, delta)
    _check_unchanged(current, expected)
    utils.check_update_flags(attempt, delta, current.provision_state)
    # The lock is the row's, not a field the caller may write.
    attempt.obj_reset_changes(['reservation'])
    attempt.save(context)
    return attempt


def _remove_traits(context, node, traits):
    for trait in traits:
        try:
            objects.Trait.destroy(context, node.id, trait)
        except exception.NodeTraitNotFound:
            raise exception.NodeTraitNotFound(node_id=node.uuid, trait=trait)


class ConductorManager(ports.PortsMixin, volume.VolumeMixin,
                       allocations.AllocationsMixin,
                       rescue.RescueMixin, cleaning.CleanMixin,
                       console.ConsoleMixin, boot_mode.BootModeMixin,
                       indicators.IndicatorsMixin, agent.AgentMixin,
                       raid.RaidMixin, vendor.VendorMixin,
                       base_manager.BaseConductorManager):
    """Ironic's conductor RPC API (see ``rpcapi.ConductorAPI``)."""

    target = messaging.Target(version=rpcapi.RPC_API_VERSION)

    # -- node records -----------------------------------------------------

    @messaging.expected_exceptions(exception.DriverNotFound,
                                   exception.InvalidParameterValue,
                                   exception.DuplicateName,
                                   exception.NodeAlreadyExists,
                                   exception.InstanceAssociated)
    def create_node(self, context, node_obj):
        """Create a node whose hardware type this conductor has enabled.

        Unset ``<type>_interface`` fields get the hardware type's defaults.
        """
        LOG.debug('RPC create_node called for node %s', node_obj.uuid)
        hw_type = factory.get_hardware_type(node_obj.driver)
        factory.check_and_update_node_interfaces(node_obj, hw_type)
        node_obj.create(context)
        return node_obj

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.DriverNotFound,
                                   exception.InvalidParameterValue,
                                   exception.InvalidState,
                                   exception.NodeAssociated,
                                   exception.DuplicateName,
                                   exception.InstanceAssociated,
                                   exception.NodeChanged,
                                   exception.ObjectVersionTooNew)
    def update_node(self, context, node_obj, reset_interfaces=None,
                    expected=None):
        """Save the changed fields of a node under its lock.

        :param reset_interfaces: (RPC 1.1) with a driver change, reset every
            interface not set in this update to the new type's default.  A
            1.0 client does not send it: then only the interfaces the new
            type does not support are reset, as in release 1.0.
        :param expected: (RPC 1.3) {field: value} the node had when the
            caller computed the change: if another write changed any of
            them since, nothing is saved (NodeChanged, 409).  Older clients
            do not send it: the last write wins, as in release 2.0.
        """
        delta = node_obj.obj_what_changed()
        LOG.debug('RPC update_node called for node %s (%s)', node_obj.uuid,
                  ', '.join(sorted(delta)))
        if 'maintenance' in delta and not node_obj.maintenance:
            node_obj.maintenance_reason = None
            node_obj.fault = None
        self._check_interface_update(node_obj, delta, reset_interfaces)
        # No driver call: the checks and the write need the lock only for
        # as long as they take.  One transaction holding the node's row
        # lock while no task holds the node's lock gives the same
        # guarantee as taking, writing and releasing the lock, in one
        # commit instead of three (write_unless_locked).
        saved = task_manager.write_unless_locked(
            context, node_obj.id,
            lambda: _checked_save(
                context, node_obj, delta, expected,
                objects.Node.get_by_id(context, node_obj.id)),
            'node update')
        # Answer with the node as it is now that the lock is released.
        saved.reservation = None
        saved.obj_reset_changes(['reservation'])
        return saved

    def _check_interface_update(self, node_obj, delta,
                                reset_interfaces=None):
        changed = [i for i in drivers_base.ALL_INTERFACES
                   if '%s_interface' % i in delta]
        if not changed and 'driver' not in delta:
            return
        if changed and not (node_obj.provision_state
                            in _INTERFACE_UPDATE_STATES
                            or node_obj.maintenance):
            raise exception.InvalidState(
                'Node %(node)s can not have %(field)s updated unless it is '
                'in one of allowed (%(allowed)s) states or in maintenance '
                'mode.' % {'node': node_obj.uuid,
                           'field': '%s_interface' % changed[0],
                           'allowed': ', '.join(_INTERFACE_UPDATE_STATES)})
        hw_type = factory.get_hardware_type(node_obj.driver)
        if 'driver' in delta:
            # Interfaces of the old type that the new one lacks are reset
            # to the new type's defaults.
            for iface in drivers_base.ALL_INTERFACES:
                field = '%s_interface' % iface
                if field in delta or not node_obj.obj_attr_is_set(field):
                    continue
                if reset_interfaces or not hw_type.supports(
                        iface, getattr(node_obj, field)):
                    setattr(node_obj, field, None)
        factory.check_and_update_node_interfaces(node_obj, hw_type)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeAssociated,
                                   exception.InvalidState,
                                   exception.NodeProtected)
    def destroy_node(self, context, node_id):
        """Delete a node (with its ports and port groups)."""
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='node deletion') as task:
            node = task.node
            if not node.maintenance and node.instance_uuid is not None:
                raise exception.NodeAssociated(node=node.uuid,
                                               instance=node.instance_uuid)
            if node.protected:
                raise exception.NodeProtected(node=node.uuid)
            allowed = states.DELETE_ALLOWED_STATES
            if CONF.conductor.allow_deleting_available_nodes:
                allowed += (states.AVAILABLE,)
            if not node.maintenance and node.provision_state not in allowed:
                raise exception.InvalidState(
                    'Can not delete node "%(node)s" while it is in '
                    'provision state "%(state)s". Valid provision states '
                    'to perform deletion are: "%(valid)s", or set the node '
                    'into maintenance mode'
                    % {'node': node.uuid, 'state': node.provision_state,
                       'valid': allowed})
            node.destroy()
            LOG.info('Successfully deleted node %s.', node.uuid)

    # -- power ------------------------------------------------------------

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.NoFreeConductorWorker,
                                   exception.NodeLocked)
    def change_node_power_state(self, context, node_id, new_state,
                                timeout=None):
        """Start a power action; returns once it is handed to a worker."""
        LOG.debug('RPC change_node_power_state called for node %s: %s',
                  node_id, new_state)
        with task_manager.acquire(context, node_id,
                                  purpose='changing node power state') as task:
            task.driver.power.validate(task)
            supported = task.driver.power.get_supported_power_states(task)
            if new_state not in supported:
                raise exception.InvalidParameterValue(
                    err='The driver %(driver)s does not support the power '
                        'state, %(state)s' % {'driver': task.node.driver,
                                              'state': new_state})
            task.spawn_after(self._pool, power.node_power_action, task,
                             new_state, timeout=timeout)
            task.set_spawn_error_hook(power.power_state_error_handler, task,
                                      task.node.power_state)
            task.node.target_power_state = states.power_target(new_state)
            task.node.last_error = None
            task.node.save()

    # -- provisioning -----------------------------------------------------

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.InvalidParameterValue,
                                   exception.InvalidStateRequested,
                                   exception.NodeInMaintenance,
                                   exception.NodeIsRetired)
    def do_provisioning_action(self, context, node_id, action):
        """manage, provide, inspect, adopt or abort a node."""
        LOG.debug('RPC do_provisioning_action %s called for node %s',
                  action, node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='provision action %s'
                                  % action) as task:
            node = task.node
            worker = _PROVISION_ACTIONS.get(action, {}).get(
                node.provision_state)
            if action == 'abort':
                abort = _ABORTS.get(node.provision_state)
                if abort is None:
                    raise exception.InvalidStateRequested(
                        action=action, node=node.uuid,
                        state=node.provision_state)
                return abort(task)
            if action == 'provide' and node.retired and worker is not None:
                raise exception.NodeIsRetired(op='providing', node=node.uuid)
            if worker is not None:
                task.set_spawn_error_hook(utils.fail_node, task)
                return task.process_event(
                    action, pool=self._pool, call_args=(worker, task))
            if action not in ('manage',):
                # Every other verb needs a worker or its own RPC method.
                raise exception.InvalidStateRequested(
                    action=action, node=node.uuid,
                    state=node.provision_state)
            task.process_event(action)

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.NodeInMaintenance,
                                   exception.InstanceDeployFailure,
                                   exception.InvalidStateRequested,
                                   exception.NodeProtected,
                                   exception.InvalidParameterValue)
    def do_node_deploy(self, context, node_id, rebuild=False,
                       configdrive=None, deploy_steps=None):
        """available (or active, deploy failed, error for a rebuild) ->
        deploying -> active.

        :param deploy_steps: the user's deploy steps (RPC 1.7); an older
            caller sends none, and the deploy runs the interfaces' and the
            instance's deploy templates' steps.
        """
        LOG.debug('RPC do_node_deploy called for node %s', node_id)
        event = 'rebuild' if rebuild else 'deploy'
        with task_manager.acquire(context, node_id,
                                  purpose='node deployment') as task:
            node = task.node
            if node.maintenance:
                raise exception.NodeInMaintenance(op='provisioning',
                                                  node=node.uuid)
            if rebuild and node.protected:
                raise exception.NodeProtected(node=node.uuid)
            if not states.is_actionable(node.provision_state, event):
                raise exception.InvalidStateRequested(
                    action=event, node=node.uuid,
                    state=node.provision_state)
            _validate_deploy(task, deploy_steps)
            if task.driver.storage is not None:
                # The volumes the deploy attaches (a 400, nothing done).
                task.driver.storage.validate(task)
            if configdrive:
                info = dict(node.instance_info or {})
                info['configdrive'] = configdrive
                node.instance_info = info
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event(
                event, pool=self._pool,
                call_args=(deployments.do_node_deploy, task,
                           self.conductor.id if self.conductor else None,
                           deploy_steps))

    @messaging.expected_exceptions(exception.NoFreeConductorWorker,
                                   exception.NodeLocked,
                                   exception.InstanceDeployFailure,
                                   exception.InvalidStateRequested,
                                   exception.NodeProtected)
    def do_node_tear_down(self, context, node_id):
        """active (deploy failed, error, ...) -> deleting -> cleaning ->
        available."""
        LOG.debug('RPC do_node_tear_down called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='node tear down') as task:
            if task.node.protected:
                raise exception.NodeProtected(node=task.node.uuid)
            try:
                task.driver.power.validate(task)
            except exception.InvalidParameterValue as err:
                raise exception.InstanceDeployFailure(
                    reason='Failed to validate power driver interface. Can '
                           'not delete instance. Error: %s' % err)
            task.set_spawn_error_hook(utils.fail_node, task)
            task.process_event(
                'delete', pool=self._pool,
                call_args=(deployments.do_node_tear_down, task))

    # -- RPC 1.2: traits, VIFs, validation, boot device -------------------

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.InvalidState)
    def add_node_traits(self, context, node_id, traits, replace=False):
        """Add traits to a node, or (``replace``) set exactly these."""
        pin = release_pin.effective()
        if pin and 'Trait' not in release_mappings.get_release(pin)[
                'objects']:
            # Only an API unpinned before this conductor sends this.
            raise exception.InvalidState(
                'This conductor is pinned to release %s, which has no node '
                'traits: nothing was changed. Unpin every conductor before '
                'any API (rolling upgrade steps 6.1-6.2).' % pin)
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='add node traits') as task:
            node_id = task.node.id
            if replace:
                task.fenced(lambda: objects.TraitList.create(
                    context, node_id, traits))
                return
            task.fenced(lambda: [
                objects.Trait(context, node_id=node_id, trait=t).create()
                for t in traits])

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.NodeTraitNotFound)
    def remove_node_traits(self, context, node_id, traits=None):
        """Remove the given traits of a node (every one when None)."""
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='remove node traits') as task:
            node = task.node
            if traits is None:
                task.fenced(lambda: objects.TraitList.destroy(context,
                                                              node.id))
                return
            task.fenced(lambda: _remove_traits(context, node, traits))

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.VifAlreadyAttached,
                                   exception.NoFreePhysicalPorts)
    def vif_attach(self, context, node_id, vif_info):
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='attach vif') as task:
            vif.vif_attach(task, vif_info)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.VifNotAttached)
    def vif_detach(self, context, node_id, vif_id):
        with task_manager.acquire(context, node_id, load_driver=False,
                                  purpose='detach vif') as task:
            vif.vif_detach(task, vif_id)

    @messaging.expected_exceptions(exception.NodeNotFound)
    def vif_list(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  load_driver=False,
                                  purpose='list vifs') as task:
            return vif.vif_list(task)

    @messaging.expected_exceptions(exception.NodeNotFound,
                                   exception.DriverNotFound)
    @hardware_calls.bounded
    def validate_driver_interfaces(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='driver interface validation'
                                  ) as task:
            return management.validate_driver_interfaces(task)

    @messaging.expected_exceptions(exception.NodeLocked,
                                   exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.UnsupportedDriverExtension,
                                   exception.DriverOperationError)
    @hardware_calls.bounded
    def set_boot_device(self, context, node_id, device, persistent=False):
        with task_manager.acquire(context, node_id,
                                  purpose='setting boot device') as task:
            management.set_boot_device(task, device, persistent)
            task.node.save()

    @messaging.expected_exceptions(exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.UnsupportedDriverExtension,
                                   exception.DriverOperationError)
    @hardware_calls.bounded
    def get_boot_device(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='getting boot device') as task:
            return management.get_boot_device(task)

    @messaging.expected_exceptions(exception.NodeNotFound,
                                   exception.InvalidParameterValue,
                                   exception.UnsupportedDriverExtension,
                                   exception.DriverOperationError)
    @hardware_calls.bounded
    def get_supported_boot_devices(self, context, node_id):
        with task_manager.acquire(context, node_id, shared=True,
                                  purpose='getting supported boot devices'
                                  ) as task:
            return management.get_supported_boot_devices(task)
