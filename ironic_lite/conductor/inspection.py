"""Inspection: manageable -> inspecting -> manageable.

An inspect interface that reads the hardware out of band (``redfish``)
leaves what it found in ``task.inspection_data``: the inventory and
plugin data, stored as the node's inventory (API 1.81), and the MAC
addresses of its enabled interfaces, each made a port unless one
exists (Ironic's redfish inspection does so).

An in-band one (``agent``) boots the ramdisk and leaves the node in
``inspect wait``; the agent's data (``POST /v1/continue_inspection``,
RPC 1.11) resumes it: ``continue_inspection`` has the interface process
the data (its hooks create the ports) and stores it.

Either way the inspection rules (API 1.96, ``inspection_rules.py``) are
applied to the node with the data found: after the agent's data is
processed and before it is stored, after the out-of-band data and ports
are stored (Ironic's order for each).
"""

from oslo_log import log as logging
from oslo_utils import timeutils

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import firmware
from ironic_lite.conductor import inspection_rules
from ironic_lite.conductor import task_manager
from ironic_lite import objects

CONF = conf.CONF

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
        data = getattr(task, 'inspection_data', None)
        _store(task, data)
        if data:
            # As Ironic's redfish inspection: the rules once the data
            # and the ports are stored.
            inspection_rules.apply_rules(task, data.get('inventory') or {},
                                         data.get('plugin_data') or {})
        # As Ironic's inspection (release 6.0).
        firmware.cache_firmware_components_quietly(task)
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


def continue_inspection(task, inventory, plugin_data):
    """Worker (``inspecting``, resumed from ``inspect wait``): process the
    agent's data, store it, and finish: ``manageable``.  A failure is
    Ironic's "Failed to finish inspection: ..." in ``inspect failed``."""
    node = task.node
    plugin_data = dict(plugin_data or {})
    try:
        task.driver.inspect.continue_inspection(task, inventory, plugin_data)
        # The rules may change the plugin data before it is stored.
        inspection_rules.apply_rules(task, inventory, plugin_data)
        # Logs can be huge; Ironic stores them apart (here: not at all).
        plugin_data.pop('logs', None)
        task.fenced(lambda: objects.NodeInventory(
            task.context, node_id=node.id, inventory_data=inventory,
            plugin_data=plugin_data).create())
    except exception.NodeLockLost:
        raise
    except Exception as exc:
        LOG.exception('Error when processing inspection data for node %s',
                      node.uuid)
        raise _Finished('Failed to finish inspection: %s' % exc)
    node.inspection_finished_at = timeutils.utcnow()
    task.process_event('done')
    LOG.info('Successfully inspected node %s', node.uuid)


class _Finished(exception.IronicException):
    """An inspection that failed once the data came: its last_error as
    it is (not wrapped again by the failure hook)."""

    @property
    def last_error(self):
        return str(self)


def abort_inspection(task):
    """inspect wait -> inspect failed, on the operator's request; an
    in-band inspection takes its ramdisk down."""
    abort = getattr(task.driver.inspect, 'abort', None)
    if abort is not None:
        abort(task)
    task.process_event('abort',
                       last_error='Inspection was aborted by request.')


# -- the inspect wait timeout (periodic) -----------------------------------

TIMEOUT_ERROR = ('Timeout reached while inspecting the node. Please check '
                 'if the ramdisk responsible for the inspection is running '
                 'on the node.')


def _fail_timed_out(task):
    node = task.node
    if node.provision_state != states.INSPECTWAIT or node.maintenance:
        return False    # its data came, or it changed, meanwhile
    abort = getattr(task.driver.inspect, 'abort', None)
    if abort is not None:
        abort(task)
    LOG.error('Inspection for node %s failed. %s', node.uuid, TIMEOUT_ERROR)
    task.process_event('fail', last_error=TIMEOUT_ERROR)
    return True


def check_inspect_wait_timeouts(context, host):
    """Fail the inspections this host owns that waited in ``inspect
    wait`` (not in maintenance) for ``[conductor]inspect_wait_timeout``
    seconds, as Ironic's ``_check_inspect_wait_timeouts``: ``inspect
    failed``, the ramdisk taken down.  Returns the UUIDs failed."""
    return task_manager.fail_timed_out_waits(
        context, host, states.INSPECTWAIT,
        CONF.conductor.inspect_wait_timeout, 'inspect wait timeout',
        _fail_timed_out)
