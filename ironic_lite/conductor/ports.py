"""RPC 1.3: ports and port groups written as under their node's lock (as
Ironic's conductor does), so a port is never created on a node being
deleted or changed by another conductor operation.

Each write is one transaction that checks no task holds the node's lock
and keeps one from taking it until the write commits
(``task_manager.write_unless_locked``): one commit, where taking and
releasing the lock around the write made three."""

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.conductor import task_manager
from ironic_lite import objects

# Errors the writes may raise, answered to the API as they are.
_EXPECTED = (exception.NodeLocked, exception.NodeNotFound,
             exception.Conflict, exception.InvalidParameterValue,
             exception.MACAlreadyExists,
             exception.PortAlreadyExists, exception.PortDuplicateName,
             exception.PortNotFound,
             exception.PortgroupAlreadyExists,
             exception.PortgroupDuplicateName,
             exception.PortgroupMACAlreadyExists,
             exception.PortgroupNotEmpty, exception.PortgroupNotFound,
             exception.ObjectVersionTooNew)


def _write(context, obj, purpose, action, check=None, after=None):
    """``obj.<action>(context)`` (create, save or destroy) as under the
    node's lock (``task_manager.write_unless_locked``), after ``check``
    (context) if given and before ``after`` (context, the object as it
    was before the write) if given, in the same transaction; returns the
    object written.

    The transaction runs again from the start after a deadlock or a
    dropped connection, possibly after the object was written and marked
    unchanged (its commit is what failed).  Writing the object itself
    again would then write nothing of what the API sent -- a fresh UUID,
    no address: the acknowledged port lost.  So each attempt works on a
    copy of the object as received."""
    def write():
        attempt = obj.obj_clone()
        if check is not None:
            check(context)
        before = attempt.obj_clone() if after is not None else None
        getattr(attempt, action)(context)
        if after is not None:
            after(context, before)
        return attempt
    return task_manager.write_unless_locked(context, obj.node_id, write,
                                            purpose)


class PortsMixin(object):
    """The port and port group methods of ``ConductorManager``."""

    @messaging.expected_exceptions(*_EXPECTED)
    def create_port(self, context, port_obj):
        return _write(context, port_obj, 'port create', 'create',
                      port_obj.check_physnet)

    @messaging.expected_exceptions(*_EXPECTED)
    def update_port(self, context, port_obj):
        return _write(context, port_obj, 'port update', 'save',
                      port_obj.check_physnet)

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_port(self, context, port):
        _write(context, port, 'port deletion', 'destroy')

    @messaging.expected_exceptions(*_EXPECTED)
    def create_portgroup(self, context, portgroup_obj):
        return _write(context, portgroup_obj, 'port group create', 'create')

    @messaging.expected_exceptions(*_EXPECTED)
    def update_portgroup(self, context, portgroup_obj):
        return _write(context, portgroup_obj, 'port group update', 'save',
                      after=objects.Port.follow_portgroup_network)

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_portgroup(self, context, portgroup):
        _write(context, portgroup, 'port group deletion', 'destroy')
