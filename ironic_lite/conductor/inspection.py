"""Inspection: manageable -> inspecting -> manageable.

An inspect interface that reads the hardware out of band (``redfish``)
leaves what it found in ``task.inspection_data``: the inventory and
plugin data, stored as the node's inventory (API 1.81), and the MAC
addresses of its enabled interfaces, each made a port unless one
exists (Ironic's redfish inspection does so).
"""

from oslo_log import log as logging
from oslo_utils import timeutils

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import objects

LOG = logging.getLogger(__name__)


def inspect_hardware(task):
    """Worker: run the inspect interface and record when it ran."""
    node = task.node
    node.inspection_started_at = timeutils.utcnow()
    node.inspection_finished_at = None
    node.save()
    task.driver.power.validate(task)
    new_state = task.driver.inspect.inspect_hardware(task)
    if new_state == states.MANAGEABLE:
        _store(task, getattr(task, 'inspection_data', None))
        node.inspection_finished_at = timeutils.utcnow()
        task.process_event('done')
        LOG.info('Successfully inspected node %s', node.uuid)
    elif new_state == states.INSPECTWAIT:
        task.process_event('wait')
    else:
        raise exception.IronicException(
            'During inspection, driver returned unexpected state %s'
            % new_state)


def _store(task, data):
    """The inventory and the new ports, written under the node's lock."""
    if not data:
        return
    node = task.node
    new_macs = [mac for mac in data.get('macs') or ()
                if not _port_exists(task, mac)]

    def write():
        objects.NodeInventory(
            task.context, node_id=node.id,
            inventory_data=data.get('inventory') or {},
            plugin_data=data.get('plugin_data') or {}).create()
        for mac in new_macs:
            objects.Port(task.context, node_id=node.id, address=mac,
                         pxe_enabled=True).create()
    task.fenced(write)
    for mac in new_macs:
        LOG.info('Port created for MAC address %s on node %s', mac,
                 node.uuid)


def _port_exists(task, mac):
    """Whether a port has ``mac`` (on this node, or on another one: then
    it is not created, as Ironic's inspection warns and goes on)."""
    ports = objects.Port.list(task.context, filters={'address': mac})
    if ports and ports[0].node_id != task.node.id:
        LOG.warning('Port %s found on node %s already exists on node id '
                    '%s: not created', mac, task.node.uuid,
                    ports[0].node_id)
    return bool(ports)


def abort_inspection(task):
    """inspect wait -> inspect failed, on the operator's request."""
    task.process_event('abort',
                       last_error='Inspection was aborted by request.')
