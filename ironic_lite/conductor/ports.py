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


class PortsMixin(object):
    """The port and port group methods of ``ConductorManager``."""

    @messaging.expected_exceptions(*_EXPECTED)
    def create_port(self, context, port_obj):
        _write(context, port_obj, 'port create',
               lambda: port_obj.create(context))
        return port_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def update_port(self, context, port_obj):
        _write(context, port_obj, 'port update',
               lambda: port_obj.save(context))
        return port_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_port(self, context, port):
        _write(context, port, 'port deletion',
               lambda: port.destroy(context))

    @messaging.expected_exceptions(*_EXPECTED)
    def create_portgroup(self, context, portgroup_obj):
        _write(context, portgroup_obj, 'port group create',
               lambda: portgroup_obj.create(context))
        return portgroup_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def update_portgroup(self, context, portgroup_obj):
        _write(context, portgroup_obj, 'port group update',
               lambda: portgroup_obj.save(context))
        return portgroup_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_portgroup(self, context, portgroup):
        _write(context, portgroup, 'port group deletion',
               lambda: portgroup.destroy(context))
