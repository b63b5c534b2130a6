"""The conductor's RPC endpoint: the server side of ``rpcapi``.

One idiom for every RPC method: the endpoints of a feature live in its
module, ``conductor/<feature>.py``, as ``<Feature>Mixin`` (beside the
feature's flow functions, or beside the flows they start: provisioning.py
starts verify.py, cleaning.py, inspection.py and deployments.py), and
``ConductorManager`` below composes the mixins.  This module keeps only the
node records (create, update, delete), the composition and the RPC
Target.  The client side mirrors it: ``rpcapi_<feature>.py``,
``<Feature>Calls``, composed by ``rpcapi.ConductorAPI``.

Each method validates and changes the node under its lock synchronously --
so a refused request (400/403/409/503) has written nothing -- and hands any
long work to the worker pool; the lock passes to the worker.
"""

import oslo_messaging as messaging
from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import agent
from ironic_lite.conductor import allocations
from ironic_lite.conductor import base_manager
from ironic_lite.conductor import boot_mode
from ironic_lite.conductor import cleaning
from ironic_lite.conductor import console
from ironic_lite.conductor import indicators
from ironic_lite.conductor import management
from ironic_lite.conductor import ports
from ironic_lite.conductor import power
from ironic_lite.conductor import provisioning
from ironic_lite.conductor import raid
from ironic_lite.conductor import rescue
from ironic_lite.conductor import rpcapi
from ironic_lite.conductor import servicing
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import traits
from ironic_lite.conductor import utils
from ironic_lite.conductor import vendor
from ironic_lite.conductor import vif
from ironic_lite.conductor import vmedia
from ironic_lite.conductor import volume
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import factory
from ironic_lite import objects  # noqa: F401 (registers the objects)

CONF = conf.CONF
LOG = logging.getLogger(__name__)

# Interfaces may change only in these states (or in maintenance).
_INTERFACE_UPDATE_STATES = (states.ENROLL, states.INSPECTING,
                            states.INSPECTWAIT, states.MANAGEABLE,
                            states.AVAILABLE)


def _check_unchanged(node, expected):
    """NodeChanged unless ``node`` (read under its lock) still has the
    ``expected`` values (compare-and-swap of a PATCH)."""
    changed = sorted(name for name, value in (expected or {}).items()
                     if getattr(node, name) != value)
    if changed:
        raise exception.NodeChanged(node=node.uuid,
                                    fields=', '.join(changed))


def _checked_save(context, node_obj, delta, expected):
    """Save a copy of ``node_obj`` (its changes ``delta``) after checking
    them against the node as read under its row lock, while no task holds
    the node's lock (``Node.save_unless_locked``); returns the copy saved.

    A copy: a save that found the node locked is tried again from the
    start, with the changes as the caller made them.
    """
    attempt = node_obj.obj_clone()
    # The lock is the row's, not a field the caller may write.
    attempt.obj_reset_changes(['reservation'])
    # Before the save computes what it writes (check() cannot add to it).
    utils.clear_flag_reasons(attempt, delta)

    def check(current):
        if ('instance_uuid' in delta and attempt.instance_uuid
                and current.instance_uuid
                and current.instance_uuid != attempt.instance_uuid):
            raise exception.NodeAssociated(node=attempt.uuid,
                                           instance=current.instance_uuid)
        allocations.check_instance_removal(current, attempt, delta)
        _check_unchanged(current, expected)
        utils.check_update_flags(attempt, delta, current.provision_state)

    attempt.save_unless_locked(context, check,
                               as_read=_as_read(node_obj, attempt, delta,
                                                expected))
    return attempt


def _as_read(node_obj, attempt, delta, expected):
    """The columns whose values the caller's update was computed from --
    each changed field's ``expected`` value, and the provision state the
    checks below depend on -- when the checks pass on them: the save may
    then be one statement made only if the row still has them
    (``Node.save_unless_locked``), for a node read once per update (by
    the API).  None when it may not: no ``expected`` (an older API), a
    change of the instance (its checks read the allocation), a change
    without an expected value, a checks' refusal on the values read
    (the save then reads the row and refuses, or not, on what it finds),
    or nothing that differs from what was read (``Node.values_as_read``)."""
    if 'instance_uuid' in delta:
        return None
    as_read = attempt.values_as_read(expected, delta)
    if as_read is None:
        return None
    try:
        utils.check_update_flags(attempt, delta, node_obj.provision_state)
    except (exception.InvalidState, exception.InvalidParameterValue):
        return None
    return as_read


class ConductorManager(power.PowerMixin, provisioning.ProvisioningMixin,
                       traits.TraitsMixin, vif.VifMixin,
                       management.ManagementMixin, ports.PortsMixin,
                       volume.VolumeMixin, allocations.AllocationsMixin,
                       rescue.RescueMixin, cleaning.CleaningMixin,
                       console.ConsoleMixin, boot_mode.BootModeMixin,
                       indicators.IndicatorsMixin, raid.RaidMixin,
                       vendor.VendorMixin, agent.AgentMixin,
                       servicing.ServicingMixin,
                       vmedia.VmediaMixin,
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
        saved = task_manager.retry_while_locked(
            node_obj.id,
            lambda: _checked_save(context, node_obj, delta, expected),
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
