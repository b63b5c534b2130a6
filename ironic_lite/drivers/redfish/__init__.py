"""The ``redfish`` hardware type: a BMC speaking DMTF Redfish, through
sushy (Ironic's ``ironic/drivers/redfish.py``)."""

from ironic_lite.drivers import base
from ironic_lite.drivers import storage
from ironic_lite.drivers.redfish import bios
from ironic_lite.drivers.redfish import boot
from ironic_lite.drivers.redfish import inspect
from ironic_lite.drivers.redfish import management
from ironic_lite.drivers.redfish import power


class RedfishHardware(base.HardwareType):
    """Ironic's ``redfish`` type, with the interfaces ironic-lite has.

    Ironic's first supported implementation is its default: bios
    ``redfish``, inspect ``redfish``, deploy ``ramdisk``.  The ``ramdisk``
    deploy interface comes with the agent work of this release; until it
    is wired here the type names it and a node's deploy calls get
    Ironic's "does not support deploy" (a ``NoInterface``).
    """

    name = 'redfish'
    supported = {
        'bios': ['redfish', 'no-bios'],
        'boot': ['redfish-virtual-media'],
        'console': ['no-console'],
        'deploy': ['ramdisk'],
        'inspect': ['redfish', 'no-inspect'],
        'management': ['redfish'],
        'network': ['flat', 'noop'],
        'power': ['redfish'],
        'raid': ['no-raid'],
        'rescue': ['no-rescue'],
        'storage': ['noop', 'cinder', 'external'],
        'vendor': ['no-vendor'],
    }
    # GET /v1/drivers/redfish/properties: the driver_info keys of every
    # interface (each interface's ``properties``).
    properties = dict(power.RedfishPower.properties,
                      **boot.RedfishVirtualMediaBoot.properties)

    def __init__(self):
        super().__init__()
        self.power = power.RedfishPower()
        self.management = management.RedfishManagement()
        self.inspect = inspect.RedfishInspect()
        self.boot = boot.RedfishVirtualMediaBoot()
        self.bios = bios.RedfishBIOS()
        self.storage = storage.NodeStorage()
        # Until the ramdisk deploy interface is wired in: validation and
        # every deploy call say "Driver redfish does not support deploy".
        self.deploy = base.NoInterface('deploy')
