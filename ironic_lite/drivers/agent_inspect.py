"""The ``agent`` inspect interface: in-band inspection by the ramdisk's
agent (Ironic's ``AgentInspect``, with the boot managed by ironic-lite).

``inspect_hardware`` records the node's BMC addresses (its
``driver_info`` ``*_address`` values, resolved) for the lookup of
``POST /v1/continue_inspection``, has the boot interface prepare the
ramdisk (with ``ipa-inspection-callback-url`` when ``[conductor]api_url``
is set), powers the node on and returns ``inspect wait``.  The agent
then sends the inventory; ``continue_inspection`` runs the default hooks
(``inspection_hooks.py``) over it, removes the ramdisk's boot set-up and
powers the node off.  The conductor stores the data
(``conductor/inspection.py``).
"""

import socket
from urllib import parse

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.drivers import base
from ironic_lite.drivers import inspection_hooks
from ironic_lite.drivers import power_flow
from ironic_lite.drivers import ramdisk

LOG = logging.getLogger(__name__)

# Where the BMC addresses are kept for the lookup (Ironic's key).
LOOKUP_CACHE_FIELD = 'lookup_bmc_addresses'
CALLBACK_PATH = '/v1/continue_inspection'


def _resolved(name, address, node):
    """The IP addresses of one ``*_address`` value (a host, an IP or a
    URL), loopbacks left out."""
    if '//' in address:
        address = parse.urlparse(address).hostname or ''
    address = address.strip('[').strip(']')
    if not address:
        return set()
    try:
        infos = socket.getaddrinfo(address, None, proto=socket.SOL_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        LOG.warning('Failed to resolve the hostname (%s) in %s of node %s: '
                    '%s', address, name, node.uuid, exc)
        return set()
    found = {info[-1][0] for info in infos}
    found.add(address)
    return {a for a in found if not inspection_hooks.is_loopback(a)}


def bmc_addresses(node):
    """The node's BMC addresses, as Ironic's inspection lookup knows
    them."""
    result = set()
    for name, value in sorted((node.driver_info or {}).items()):
        if name.endswith('_address') and isinstance(value, str):
            result |= _resolved(name, value, node)
    return sorted(result)


def _set_lookup_addresses(node, addresses):
    info = dict(node.driver_internal_info or {})
    info.pop(LOOKUP_CACHE_FIELD, None)
    if addresses:
        info[LOOKUP_CACHE_FIELD] = addresses
    node.driver_internal_info = info


class AgentInspect(base.InspectInterface):
    """In-band inspection by the agent of the ramdisk."""

    name = 'agent'

    def validate(self, task):
        task.driver.boot.validate(task)

    def inspect_hardware(self, task):
        node = task.node
        _set_lookup_addresses(node, bmc_addresses(node))
        node.save()
        params = ramdisk.ramdisk_params()
        if 'ipa-api-url' in params:
            params['ipa-inspection-callback-url'] = (
                params['ipa-api-url'].rstrip('/') + CALLBACK_PATH)
        try:
            power_flow.power_off_unless_disabled(task)
            task.driver.boot.prepare_ramdisk(task, params)
            power_flow.power_on_or_reboot(task)
        except Exception as exc:
            LOG.exception('Unable to start managed inspection for node %s',
                          node.uuid)
            self._clean_up(task)
            raise exception.HardwareInspectionFailure(
                error='unable to start inspection: %s' % exc)
        LOG.info('Node %s boots the ramdisk for inspection; waiting for '
                 'its agent', node.uuid)
        return states.INSPECTWAIT

    def continue_inspection(self, task, inventory, plugin_data):
        """Run the hooks over the data, then take the ramdisk down."""
        try:
            inspection_hooks.run(task, inventory, plugin_data)
        except Exception as exc:
            self._clean_up(task)
            raise exception.HardwareInspectionFailure(
                error='failed to run inspection hooks: %s' % exc)
        self._clean_up(task)

    def abort(self, task):
        self._clean_up(task)

    @staticmethod
    def _clean_up(task):
        """Forget the lookup addresses, undo the ramdisk's boot set-up and
        power the node off (errors logged: the outcome stands)."""
        _set_lookup_addresses(task.node, None)
        for step in (task.driver.boot.clean_up_ramdisk,
                     power_flow.power_off_or_reboot):
            try:
                step(task)
            except Exception:
                LOG.exception('Inspection clean up failed for node %s',
                              task.node.uuid)
