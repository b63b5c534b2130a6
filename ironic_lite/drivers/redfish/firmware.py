"""The ``redfish`` firmware interface (release 6.0, API 1.86).

``get_firmware_components`` reads what Ironic's reads: the system's
``BiosVersion`` (component ``bios``) and its first manager's
``FirmwareVersion`` and ``Model`` (component ``bmc``).  Ironic also lists
the network adapters' firmware (``nic:<id>``); ironic-lite does not
(:doc:`/api/differences`).

The ``update`` step (clean and deploy step, priority 0) asks the BMC's
UpdateService for a SimpleUpdate of each component's image, in the
order given, and waits for the BMC's task to end (at most the setting's
``wait`` seconds, else ``[redfish]firmware_update_bmc_timeout`` for the
BMC and ``firmware_update_reboot_delay`` for the others); after a
BIOS image it reboots the node so that the new BIOS runs.  Unlike
Ironic's, which returns to the conductor and polls the BMC between
``clean wait`` periods, the step holds its worker until the BMC is done.
The conductor then stores the components again (``conductor/firmware.py``).
"""

from oslo_log import log as logging
import sushy

from ironic_lite.common import exception
from ironic_lite import conf
from ironic_lite.drivers import base
from ironic_lite.drivers import firmware
from ironic_lite.drivers import steps
from ironic_lite.drivers.redfish import utils

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def _manager(task, system):
    """The system's first manager (its BMC), or None."""
    try:
        managers = system.managers
    except sushy.exceptions.MissingAttributeError:
        return None
    return managers[0] if managers else None


def _wait(setting):
    if setting.get('wait'):
        return setting['wait']
    if setting['component'] == firmware.BMC:
        return CONF.redfish.firmware_update_bmc_timeout
    return CONF.redfish.firmware_update_reboot_delay


class RedfishFirmware(base.FirmwareInterface):
    name = 'redfish'
    properties = utils.COMMON_PROPERTIES

    def validate(self, task):
        utils.parse_driver_info(task.node)

    def get_firmware_components(self, task):
        system = utils.get_system(task.node)
        found = []
        with utils.sushy_errors(task.node):
            if system.bios_version:
                found.append({'component': firmware.BIOS,
                              'current_version': system.bios_version,
                              'vendor': None, 'model': None,
                              'serial_number': None})
            manager = _manager(task, system)
            if manager is not None and manager.firmware_version:
                found.append({'component': firmware.BMC,
                              'current_version': manager.firmware_version,
                              'vendor': None, 'model': manager.model,
                              'serial_number': None})
        if not found:
            raise exception.UnsupportedDriverExtension(
                driver=task.node.driver, extension='firmware components')
        return found

    @steps.clean_step(priority=0, argsinfo=firmware.UPDATE_ARGSINFO,
                      requires_ramdisk=False)
    @base.deploy_step(priority=0, argsinfo=firmware.UPDATE_ARGSINFO)
    def update(self, task, settings):
        firmware.validate_update_settings(settings)
        node = task.node
        service = utils.call(node, lambda client:
                             client.get_update_service())
        for setting in settings:
            LOG.info('Updating the %s firmware of node %s from %s',
                     setting['component'], node.uuid, setting['url'])
            with utils.sushy_errors(node):
                monitor = service.simple_update(setting['url'])
                if monitor is not None:
                    monitor.wait(_wait(setting))
            if setting['component'] == firmware.BIOS:
                LOG.info('Rebooting node %s to run its new BIOS',
                         node.uuid)
                task.driver.power.reboot(task)
