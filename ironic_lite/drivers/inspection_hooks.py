"""What the ``agent`` inspect interface does with the data the ramdisk
sends (``POST /v1/continue_inspection``): Ironic 39's default hooks,
``ramdisk-error,validate-interfaces,ports,architecture``, in that order,
with their default options (``[inspector]add_ports = pxe``,
``keep_ports = all``, ``update_pxe_enabled = True``).

* ``ramdisk-error``: an ``error`` in the plugin data fails inspection.
* ``validate-interfaces``: the inventory's interfaces with a name and a
  valid MAC address (``all_interfaces``); of those, the ones to make
  ports of (``valid_interfaces``): not the loopback, and only the one the
  node booted from when the inventory names it (``boot.pxe_interface``).
  Both, and the MACs of the valid ones (``macs``), go to the plugin data.
* ``ports``: a port for each valid interface (``pxe_enabled`` when it is
  the boot interface; its DHCP ``client_id`` as ``extra['client-id']``),
  unless one has its MAC; then every port of the node gets
  ``pxe_enabled`` from the inventory and its client id.
* ``architecture``: ``properties['cpu_arch']`` from the inventory.

Ironic's other options and optional hooks are not implemented
(doc/source/api/differences.rst).
"""

import ipaddress

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import utils
from ironic_lite import objects

LOG = logging.getLogger(__name__)


def is_loopback(address):
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def pxe_mac(inventory):
    """The MAC address the node booted from, if the inventory says
    (pxelinux's ``01-aa-bb-...`` form too)."""
    mac = (inventory.get('boot') or {}).get('pxe_interface')
    if isinstance(mac, str) and '-' in mac:
        mac = mac.split('-', 1)[1].replace('-', ':')
    return mac.lower() if isinstance(mac, str) else None


def ramdisk_error(task, inventory, plugin_data):
    if plugin_data.get('error'):
        raise exception.HardwareInspectionFailure(
            error='Ramdisk reported error: %s' % plugin_data['error'])


def _all_interfaces(node, inventory):
    """{name: interface} of the interfaces with a name and a valid MAC."""
    boot_mac = pxe_mac(inventory)
    result = {}
    for iface in inventory.get('interfaces') or ():
        if not isinstance(iface, dict) or not iface.get('name'):
            LOG.error('Malformed interface record for node %s: %s',
                      node.uuid, iface)
            continue
        try:
            mac = utils.validate_and_normalize_mac(iface.get('mac_address'))
        except exception.InvalidMAC:
            LOG.warning('MAC address of interface %s of node %s is not '
                        'valid, skipping', iface.get('name'), node.uuid)
            continue
        ipv6 = iface.get('ipv6_address')
        if isinstance(ipv6, str) and '%' in ipv6:
            ipv6 = ipv6.split('%')[0]
        result[iface['name']] = dict(iface, mac_address=mac,
                                     ipv6_address=ipv6,
                                     pxe_enabled=(mac == boot_mac))
    return result


def validate_interfaces(task, inventory, plugin_data):
    node = task.node
    every = _all_interfaces(node, inventory)
    if not every:
        raise exception.InvalidNodeInventory(
            node=node.uuid, reason='no valid network interfaces')
    boot_mac = pxe_mac(inventory)
    valid = {}
    for name, iface in every.items():
        ip = iface.get('ipv4_address') or iface.get('ipv6_address')
        if name == 'lo' or (ip and is_loopback(ip)):
            continue
        if boot_mac and not iface['pxe_enabled']:
            continue
        valid[name] = dict(iface)
    if not valid:
        raise exception.InvalidNodeInventory(
            node=node.uuid, reason='no network interfaces match the '
                                   'configuration (add_ports set to "pxe")')
    plugin_data['all_interfaces'] = every
    plugin_data['valid_interfaces'] = valid
    plugin_data['macs'] = [iface['mac_address'] for iface in valid.values()]


def _new_ports(task, interfaces):
    """Ports for the valid interfaces whose MAC no port has (one on
    another node is logged, as Ironic's MACAlreadyExists)."""
    new = []
    for iface in interfaces.values():
        mac = iface['mac_address']
        if objects.Port.list(task.context, filters={'address': mac}):
            LOG.info('Port already exists for MAC address %s for node %s',
                     mac, task.node.uuid)
            continue
        extra = ({'client-id': iface['client_id']}
                 if iface.get('client_id') else {})
        new.append(objects.Port(task.context, node_id=task.node.id,
                                address=mac,
                                pxe_enabled=iface['pxe_enabled'],
                                extra=extra))
    return new


def _changed_ports(task, every):
    """The node's ports whose pxe_enabled or client id the inventory
    changes (Ironic's update_ports with keep_ports = all)."""
    by_mac = {iface['mac_address']: iface for iface in every.values()}
    changed = []
    for port in objects.Port.list_by_node_id(task.context, task.node.id):
        iface = by_mac.get(port.address) or {}
        pxe = bool(iface.get('pxe_enabled'))
        client_id = iface.get('client_id')
        if pxe != port.pxe_enabled:
            port.pxe_enabled = pxe
        if client_id and client_id != (port.extra or {}).get('client-id'):
            port.extra = dict(port.extra or {}, **{'client-id': client_id})
        if port.obj_what_changed():
            changed.append(port)
    return changed


def ports(task, inventory, plugin_data):
    """Create and update the ports, under the node's lock (fenced)."""
    new = _new_ports(task, plugin_data['valid_interfaces'])

    def write():
        for port in new:
            port.create()
        for port in _changed_ports(task, plugin_data['all_interfaces']):
            port.save()
    task.fenced(write)
    for port in new:
        LOG.info('Port created for MAC address %s for node %s%s',
                 port.address, task.node.uuid,
                 ' (PXE booting)' if port.pxe_enabled else '')


def architecture(task, inventory, plugin_data):
    node = task.node
    try:
        cpu_arch = inventory['cpu']['architecture']
        if not isinstance(cpu_arch, str):
            raise TypeError(cpu_arch)
    except (KeyError, TypeError):
        raise exception.InvalidNodeInventory(
            node=node.uuid,
            reason='Inventory has malformed or missing CPU architecture '
                   'information: %s for node %s.'
                   % (inventory.get('cpu'), node.uuid))
    LOG.info('Discovered CPU architecture: %s for node: %s', cpu_arch,
             node.uuid)
    node.properties = dict(node.properties or {}, cpu_arch=cpu_arch)
    node.save()


# Ironic's default hooks, in its order: (name, preprocess, main).
DEFAULT_HOOKS = (('ramdisk-error', ramdisk_error, None),
                 ('validate-interfaces', validate_interfaces, None),
                 ('ports', None, ports),
                 ('architecture', None, architecture))


def _preprocess(task, inventory, plugin_data):
    """Every hook's preprocessing, its failures gathered (Ironic's
    message, one line per failure)."""
    failures = []
    for name, hook, _main in DEFAULT_HOOKS:
        if hook is None:
            continue
        try:
            hook(task, inventory, plugin_data)
        except exception.HardwareInspectionFailure as exc:
            LOG.error('Preprocess hook: %s failed for node %s with error: '
                      '%s', name, task.node.uuid, exc)
            failures.append('Error in preprocess hook %s: %s' % (name, exc))
        except Exception as exc:
            LOG.exception('Preprocess hook: %s failed for node %s', name,
                          task.node.uuid)
            failures.append('Unexpected exception %s during preprocess '
                            'hook %s: %s' % (type(exc).__name__, name, exc))
    if failures:
        raise exception.HardwareInspectionFailure(
            error='The following failures happened while running '
                  'preprocess hooks for node %s:\n%s'
                  % (task.node.uuid, '\n'.join(failures)))


def run(task, inventory, plugin_data):
    """Run the default hooks on the data (``plugin_data`` is updated):
    every preprocessing step, then the main steps; a failure is a
    HardwareInspectionFailure worded as Ironic's."""
    _preprocess(task, inventory, plugin_data)
    for _name, _pre, hook in DEFAULT_HOOKS:
        if hook is None:
            continue
        try:
            hook(task, inventory, plugin_data)
        except exception.HardwareInspectionFailure:
            raise
        except Exception as exc:
            LOG.exception('Unexpected exception while running inspection '
                          'hooks for node %s', task.node.uuid)
            raise exception.HardwareInspectionFailure(
                error='Unexpected exception %s during processing for node: '
                      '%s. Error: %s' % (type(exc).__name__, task.node.uuid,
                                         exc)) from exc
