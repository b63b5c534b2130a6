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

# Errors the writes may raise, answered to the API as they are.
_EXPECTED = (exception.NodeLocked, exception.NodeNotFound,
             exception.InvalidParameterValue, exception.MACAlreadyExists,
             exception.PortAlreadyExists, exception.PortNotFound,
             exception.PortgroupAlreadyExists,
             exception.PortgroupDuplicateName,
             exception.PortgroupMACAlreadyExists,
             exception.PortgroupNotEmpty, exception.PortgroupNotFound,
             exception.ObjectVersionTooNew)


def _write(context, obj, purpose, write):
    return task_manager.write_unless_locked(context, obj.node_id, write,
                                            purpose)


def _on_a_copy(context, obj, action):
    """The write ``obj.<action>(context)`` (create or save), made on a
    copy of ``obj`` at each attempt; returns the copy written.

    The transaction runs again from the start after a deadlock or a
    dropped connection, possibly after the object was written and marked
    unchanged (its commit is what failed).  Writing the object itself
    again would then write nothing of what the API sent -- a fresh UUID,
    no address: the acknowledged port lost.  Each attempt starts from
    the object as received."""
    def write():
        attempt = obj.obj_clone()
        getattr(attempt, action)(context)
        return attempt
    return write


class PortsMixin(object):
    """The port and port group methods of ``ConductorManager``."""

    @messaging.expected_exceptions(*_EXPECTED)
    def create_port(self, context, port_obj):
        return _write(context, port_obj, 'port create',
                      _on_a_copy(context, port_obj, 'create'))

    @messaging.expected_exceptions(*_EXPECTED)
    def update_port(self, context, port_obj):
        return _write(context, port_obj, 'port update',
                      _on_a_copy(context, port_obj, 'save'))

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_port(self, context, port):
        _write(context, port, 'port deletion',
               lambda: port.destroy(context))

    @messaging.expected_exceptions(*_EXPECTED)
    def create_portgroup(self, context, portgroup_obj):
        return _write(context, portgroup_obj, 'port group create',
                      _on_a_copy(context, portgroup_obj, 'create'))

    @messaging.expected_exceptions(*_EXPECTED)
    def update_portgroup(self, context, portgroup_obj):
        return _write(context, portgroup_obj, 'port group update',
                      _on_a_copy(context, portgroup_obj, 'save'))

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_portgroup(self, context, portgroup):
        _write(context, portgroup, 'port group deletion',
               lambda: portgroup.destroy(context))
