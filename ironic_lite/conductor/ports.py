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
from ironic_lite.objects import child_writes

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
    and before ``after`` in the same transaction (``child_writes``);
    returns the object written."""
    written = child_writes.created_in_one_statement(context, obj, action,
                                                    check, after)
    if written is not None:
        return written
    return task_manager.write_unless_locked(
        context, obj.node_id,
        child_writes.attempt(context, obj, action, check, after), purpose)


class PortsMixin(object):
    """The port and port group methods of ``ConductorManager``."""

    @messaging.expected_exceptions(*_EXPECTED)
    def create_port(self, context, port_obj):
        check = (port_obj.check_physnet if port_obj.physnet_check_needed()
                 else None)
        return _write(context, port_obj, 'port create', 'create', check)

    @messaging.expected_exceptions(*_EXPECTED)
    def update_port(self, context, port_obj):
        return _write(context, port_obj, 'port update', 'save',
                      port_obj.check_physnet)

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_port(self, context, port):
        _write(context, port, 'port deletion', 'destroy')

    # The API writes a port group's creation itself (as Ironic's does);
    # the API of an earlier release, during an upgrade, sends it here.
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
