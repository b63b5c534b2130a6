"""RPC 1.4: volume connectors and targets written as under their node's
lock, with Ironic's state rules (its conductor's
``update_volume_connector``, ``destroy_volume_connector`` and the target
methods): an update needs the node powered off; a deletion needs it
powered off or in a state a node may be deleted in (manageable, enroll,
adopt failed).  A create has no state rule, as in Ironic (whose API
creates them directly); ironic-lite makes it under the node's lock too,
so that a connector is never added to a node being deleted."""

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import task_manager
from ironic_lite import objects

_EXPECTED = (exception.NodeLocked, exception.NodeNotFound,
             exception.InvalidParameterValue,
             exception.InvalidStateRequested,
             exception.VolumeConnectorNotFound,
             exception.VolumeConnectorAlreadyExists,
             exception.VolumeConnectorTypeAndIdAlreadyExists,
             exception.VolumeTargetNotFound,
             exception.VolumeTargetAlreadyExists,
             exception.VolumeTargetBootIndexAlreadyExists,
             exception.ObjectVersionTooNew)


def _needs_power_off(action):
    def check(node):
        if node.power_state != states.POWER_OFF:
            raise exception.InvalidStateRequested(
                action=action, node=node.uuid, state=node.power_state)
    return check


def _deletable(action):
    def check(node):
        if (node.provision_state not in states.DELETE_ALLOWED_STATES
                and node.power_state != states.POWER_OFF):
            raise exception.InvalidStateRequested(
                action=action, node=node.uuid, state=node.power_state)
    return check


def _write(context, obj, purpose, action, check=None):
    """``obj.<action>(context)`` as under the node's lock (see
    ``ports._write``), after ``check(node)`` in the same transaction; a
    copy of ``obj`` is written at each attempt.  Returns the copy."""
    def write():
        if check is not None:
            check(objects.Node.get_by_id(context, obj.node_id))
        attempt = obj.obj_clone()
        getattr(attempt, action)(context)
        return attempt
    return task_manager.write_unless_locked(context, obj.node_id, write,
                                            purpose)


# action -> (the object's method, the state rule or None, the purpose)
_ACTIONS = {
    'create': ('create', None, 'create'),
    'update': ('save', _needs_power_off, 'update'),
    'destroy': ('destroy', _deletable, 'deletion'),
}


def write(context, obj, noun, action):
    """create, update or destroy a volume ``noun`` ('volume connector',
    'volume target') under its node's lock, with Ironic's state rule."""
    method, rule, purpose = _ACTIONS[action]
    what = '%s %s' % (noun, purpose)
    return _write(context, obj, what, method,
                  rule(what) if rule is not None else None)


class VolumeMixin(object):
    """The volume methods of ``ConductorManager``."""

    @messaging.expected_exceptions(*_EXPECTED)
    def create_volume_connector(self, context, connector):
        return write(context, connector, 'volume connector', 'create')

    @messaging.expected_exceptions(*_EXPECTED)
    def update_volume_connector(self, context, connector):
        return write(context, connector, 'volume connector', 'update')

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_volume_connector(self, context, connector):
        write(context, connector, 'volume connector', 'destroy')

    @messaging.expected_exceptions(*_EXPECTED)
    def create_volume_target(self, context, target):
        return write(context, target, 'volume target', 'create')

    @messaging.expected_exceptions(*_EXPECTED)
    def update_volume_target(self, context, target):
        return write(context, target, 'volume target', 'update')

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_volume_target(self, context, target):
        write(context, target, 'volume target', 'destroy')
