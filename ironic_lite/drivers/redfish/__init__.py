"""The ``redfish`` hardware type: a BMC speaking DMTF Redfish, through
sushy (Ironic's ``ironic/drivers/redfish.py``)."""

from oslo_log import log as logging

from ironic_lite.drivers import base
from ironic_lite.drivers import ramdisk
from ironic_lite.drivers import storage
from ironic_lite.drivers.redfish import bios
from ironic_lite.drivers.redfish import boot
from ironic_lite.drivers.redfish import firmware
from ironic_lite.drivers.redfish import inspect
from ironic_lite.drivers.redfish import management
from ironic_lite.drivers.redfish import power
from ironic_lite.drivers.redfish import raid

LOG = logging.getLogger(__name__)


class RedfishClean(base.CleanInterface):
    """Automated cleaning of a redfish node: nothing to run.

    Ironic's automated cleaning of a redfish node erases its disks through
    the agent's ramdisk (the deploy interface's ``erase_devices`` step);
    ironic-lite's cleaning boots no ramdisk, and the redfish interfaces
    have no clean step of a non-zero priority, so cleaning ends at once
    (:doc:`/api/differences`).  Manual cleaning runs the steps asked for.
    """

    def clean(self, task):
        LOG.info('Node %s: the redfish type has no automated clean step; '
                 'cleaning is done', task.node.uuid)


class RedfishHardware(base.HardwareType):
    """Ironic's ``redfish`` type, with the interfaces ironic-lite has.

    Ironic's first supported implementation is its default: bios
    ``redfish``, inspect ``redfish``, deploy ``ramdisk`` (the generic
    deploy that boots the deploy ramdisk through the boot interface --
    here virtual media -- and waits for the agent's heartbeat).
    """

    name = 'redfish'
    supported = {
        'bios': ['redfish', 'no-bios'],
        'boot': ['redfish-virtual-media'],
        'console': ['no-console'],
        'deploy': ['ramdisk'],
        'firmware': ['redfish', 'no-firmware'],
        'inspect': ['redfish', 'agent', 'no-inspect'],
        'management': ['redfish'],
        'network': ['flat', 'noop'],
        'power': ['redfish'],
        # Ironic lists redfish first; ironic-lite keeps no-raid the
        # default (its redfish RAID configures nothing).
        'raid': ['no-raid', 'redfish'],
        'rescue': ['no-rescue'],
        'storage': ['noop', 'cinder', 'external'],
        'vendor': ['no-vendor'],
    }
    interfaces_since = {('inspect', 'agent'): '6.0',
                        ('raid', 'redfish'): '6.0'}
    # GET /v1/drivers/redfish/properties: the union of the default
    # interfaces' ``properties`` (HardwareType.get_properties).

    def __init__(self):
        super().__init__()
        self.power = power.RedfishPower()
        self.management = management.RedfishManagement()
        self.inspect = inspect.RedfishInspect()
        self.boot = boot.RedfishVirtualMediaBoot()
        self.bios = bios.RedfishBIOS()
        self.firmware = firmware.RedfishFirmware()
        self.raid = raid.RedfishRAID()
        self.storage = storage.NodeStorage()
        self.deploy = ramdisk.RamdiskDeploy()
        self.clean = RedfishClean()
