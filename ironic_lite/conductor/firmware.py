"""Caching a node's firmware components (release 6.0, API 1.86), as
Ironic's ``node_cache_firmware_components``.

The node's firmware interface reports its components
(``get_firmware_components(task)``: dicts with ``component``,
``current_version`` and the optional ``vendor``, ``model`` and
``serial_number``); the conductor stores them in one transaction
(``FirmwareComponentList.sync``: a new component keeps its first version
as ``initial_version``, a changed one records ``last_version_flashed``).
This runs where Ironic caches them: when a node is verified (``manage``)
and inspected, and after the firmware interface's ``update`` step, in
whichever flow runs it (cleaning, deploying; any step flow calls
``after_step``).  A node whose firmware interface is ``no-firmware``
stores nothing.  The API reads the rows; nothing here goes over RPC.
"""

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.drivers import firmware as drivers_firmware
from ironic_lite import objects

LOG = logging.getLogger(__name__)

# The firmware interface's steps after which the components are read
# again.
CACHING_STEPS = frozenset(('update',))


def _firmware_interface(task):
    iface = task.driver.interface(task.node, 'firmware')
    return iface if hasattr(iface, 'get_firmware_components') else None


def _checked(components):
    """The components as rows (one per name, the last reported wins):
    a name and a version (strings, or None for the version) each."""
    rows = {}
    for reported in components or []:
        name = (reported.get('component') if isinstance(reported, dict)
                else None)
        if not isinstance(name, str) or not name:
            raise exception.InvalidParameterValue(
                err='The firmware interface reported a component without '
                    'a name: %r' % (reported,))
        row = {}
        for key in drivers_firmware.REPORTED_KEYS:
            value = reported.get(key)
            row[key] = None if value is None else str(value)
        rows[name] = row
    return list(rows.values())


def cache_firmware_components(task):
    """Store what the node's firmware interface reports (a node with
    ``no-firmware``: nothing).  Errors go up."""
    iface = _firmware_interface(task)
    if iface is None:
        return
    node = task.node
    components = _checked(iface.get_firmware_components(task))
    # Under the task's lock (fenced): a task that lost it writes nothing.
    created, updated, unchanged = task.fenced(
        lambda: objects.FirmwareComponentList.sync(task.context, node.id,
                                                   components))
    LOG.debug('Firmware components of node %s cached: %d new, %d changed, '
              '%d unchanged', node.uuid, len(created), len(updated),
              len(unchanged))


def cache_firmware_components_quietly(task):
    """``cache_firmware_components`` that never fails (verification,
    inspection): a failure is logged, the stored components stay as they
    were.  A node whose BMC reports no component gets one warning line,
    as in Ironic."""
    try:
        cache_firmware_components(task)
    except exception.NodeLockLost:
        raise
    except exception.UnsupportedDriverExtension:
        LOG.warning('Firmware Components are not supported for node %s, '
                    'skipping', task.node.uuid)
    except Exception:
        LOG.exception('Caching of firmware components failed on node %s',
                      task.node.uuid)


def after_step(task, step):
    """Store the components again after a firmware step that flashed."""
    if (step.get('interface') == 'firmware'
            and step.get('step') in CACHING_STEPS):
        cache_firmware_components(task)
