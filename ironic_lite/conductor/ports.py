"""RPC 1.3: ports and port groups written under their node's lock (as
Ironic's conductor does), so a port is never created on a node being
deleted or changed by another conductor operation."""

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


def _locked(context, obj, purpose):
    return task_manager.acquire(context, obj.node_id, load_driver=False,
                                purpose=purpose)


class PortsMixin(object):
    """The port and port group methods of ``ConductorManager``."""

    @messaging.expected_exceptions(*_EXPECTED)
    def create_port(self, context, port_obj):
        with _locked(context, port_obj, 'port create'):
            port_obj.create(context)
        return port_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def update_port(self, context, port_obj):
        with _locked(context, port_obj, 'port update'):
            port_obj.save(context)
        return port_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_port(self, context, port):
        with _locked(context, port, 'port deletion'):
            port.destroy(context)

    @messaging.expected_exceptions(*_EXPECTED)
    def create_portgroup(self, context, portgroup_obj):
        with _locked(context, portgroup_obj, 'port group create'):
            portgroup_obj.create(context)
        return portgroup_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def update_portgroup(self, context, portgroup_obj):
        with _locked(context, portgroup_obj, 'port group update'):
            portgroup_obj.save(context)
        return portgroup_obj

    @messaging.expected_exceptions(*_EXPECTED)
    def destroy_portgroup(self, context, portgroup):
        with _locked(context, portgroup, 'port group deletion'):
            portgroup.destroy(context)
