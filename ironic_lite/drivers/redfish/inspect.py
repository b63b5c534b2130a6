"""The ``redfish`` inspect interface: out-of-band inspection.

Reads the ComputerSystem's processors, memory, storage and ethernet
interfaces; sets the node's ``cpus``, ``cpu_arch``, ``memory_mb`` and
``local_gb`` properties (and its boot mode capability when it has none),
and leaves the inventory (Ironic's shape, as ironic-python-agent reports
it) and the MAC addresses of the enabled interfaces in
``task.inspection_data`` for the conductor, which stores the inventory
and creates the ports (``conductor/inspection.py``).
"""

from oslo_log import log as logging
from oslo_utils import netutils
import sushy

from ironic_lite.common import exception
from ironic_lite.common import messages
from ironic_lite.common import states
from ironic_lite.drivers import base
from ironic_lite.drivers.redfish import management
from ironic_lite.drivers.redfish import utils

LOG = logging.getLogger(__name__)

PROCESSOR_INSTRUCTION_SET_MAP = {
    sushy.InstructionSet.ARM_A32: 'arm',
    sushy.InstructionSet.ARM_A64: 'aarch64',
    sushy.InstructionSet.IA_64: 'ia64',
    sushy.InstructionSet.MIPS32: 'mips',
    sushy.InstructionSet.MIPS64: 'mips64',
    sushy.InstructionSet.X86: 'i686',
    sushy.InstructionSet.X86_64: 'x86_64',
}

ESSENTIAL_PROPERTIES = ('memory_mb', 'local_gb', 'cpu_arch')
# Disks smaller than this are not candidates for the root disk (Ironic's
# 4 GiB); local_gb is the size of the smallest one above it, less 1 GiB.
_MIN_DISK = 4 * 1024 ** 3


def _optional(read, default=None):
    """``read()``, or ``default`` when the BMC lacks the resource."""
    try:
        return read()
    except sushy.exceptions.SushyError:
        return default


def _cpu(system):
    cpu = {'count': 0, 'architecture': ''}
    processors = _optional(lambda: system.processors)
    if not processors:
        return cpu
    summary = _optional(lambda: processors.summary)
    if summary and summary[0]:
        cpu['count'] = summary[0]
    members = _optional(processors.get_members, [])
    if members:
        first = members[0]
        cpu['architecture'] = PROCESSOR_INSTRUCTION_SET_MAP.get(
            first.instruction_set) or ''
        if first.model:
            cpu['model_name'] = str(first.model)
        if not cpu['count']:
            cpu['count'] = len(members)
    return cpu


def _disks(system):
    disks = []
    simple = _optional(lambda: system.simple_storage)
    for storage in (_optional(simple.get_members, []) if simple else []):
        for device in storage.devices or []:
            disks.append({'name': device.name,
                          'size': device.capacity_bytes or 0})
    return disks


def _local_gb(disks):
    sizes = sorted(d['size'] for d in disks if d['size'] >= _MIN_DISK)
    return max(0, int(sizes[0] / 1024 ** 3 - 1)) if sizes else 0


def _interfaces(task, system):
    found = []
    nics = _optional(lambda: system.ethernet_interfaces)
    for eth in (_optional(nics.get_members, []) if nics else []):
        if not netutils.is_valid_mac(eth.mac_address or ''):
            LOG.warning("Ignoring NIC address '%s' for interface %s on "
                        'node %s because it is not a valid MAC',
                        messages.safe(eth.mac_address, limit=64),
                        messages.safe(eth.identity, limit=255),
                        task.node.uuid)
            continue
        interface = {'mac_address': eth.mac_address.lower(),
                     'name': eth.identity}
        if eth.speed_mbps:
            interface['speed_mbps'] = int(eth.speed_mbps)
        enabled = (eth.status is None or eth.status.state in
                   (None, sushy.STATE_ENABLED))
        found.append((interface, enabled))
    return found


def _inventory(task, system):
    inventory = {'cpu': _cpu(system), 'disks': _disks(system)}
    memory = _optional(lambda: system.memory_summary)
    if memory and memory.size_gib:
        inventory['memory'] = {'physical_mb': int(memory.size_gib * 1024)}
    interfaces = _interfaces(task, system)
    inventory['interfaces'] = [i for i, _enabled in interfaces]
    vendor = {key: str(value) for key, value in (
        ('product_name', system.model),
        ('serial_number', system.serial_number),
        ('manufacturer', system.manufacturer),
        ('system_uuid', system.uuid)) if value}
    if vendor:
        inventory['system_vendor'] = vendor
    boot_mode = management.BOOT_MODE_MAP.get(
        _optional(lambda: system.boot.mode))
    if boot_mode:
        inventory['boot'] = {'current_boot_mode': boot_mode}
    macs = [i['mac_address'] for i, enabled in interfaces if enabled]
    return inventory, macs


def _with_capability(capabilities, key, value):
    """``capabilities`` ('k:v,k2:v2') with ``key`` set unless present."""
    pairs = [c for c in (capabilities or '').split(',') if c]
    if any(p.split(':', 1)[0] == key for p in pairs):
        return capabilities
    return ','.join(pairs + ['%s:%s' % (key, value)])


class RedfishInspect(base.InspectInterface):
    properties = utils.COMMON_PROPERTIES

    def validate(self, task):
        utils.parse_driver_info(task.node)

    def inspect_hardware(self, task):
        node = task.node
        system = utils.get_system(node)
        with utils.sushy_errors(node):
            inventory, macs = _inventory(task, system)
        props = dict(node.properties or {})
        if inventory['cpu']['count']:
            props['cpus'] = inventory['cpu']['count']
        if inventory['cpu']['architecture']:
            props['cpu_arch'] = inventory['cpu']['architecture']
        if 'memory' in inventory:
            props['memory_mb'] = inventory['memory']['physical_mb']
        props['local_gb'] = _local_gb(inventory['disks'])
        if not props['local_gb']:
            LOG.warning('Could not provide a valid storage size configured '
                        'for node %s. Assuming this is a disk-less node',
                        node.uuid)
        if 'boot' in inventory:
            props['capabilities'] = _with_capability(
                props.get('capabilities'), 'boot_mode',
                inventory['boot']['current_boot_mode'])
        missing = [key for key in ESSENTIAL_PROPERTIES if key not in props]
        if missing:
            raise exception.HardwareInspectionFailure(
                error='Failed to discover the following properties: %s on '
                      'node %s' % (', '.join(missing), node.uuid))
        node.properties = props
        task.inspection_data = {'inventory': inventory, 'plugin_data': {},
                                'macs': macs}
        return states.MANAGEABLE
