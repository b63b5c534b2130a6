"""The ``fake-hardware`` type: every action succeeds, after [fake] delays.

The "hardware" power state is the node's own ``power_state``.
"""

import time

from oslo_log import log as logging

from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.drivers import base
from ironic_lite.drivers import storage

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def _sleep(seconds):
    if seconds:
        time.sleep(seconds)


class FakePower(base.PowerInterface):
    def get_power_state(self, task):
        return task.node.power_state or states.POWER_OFF

    def set_power_state(self, task, power_state, timeout=None):
        _sleep(CONF.fake.power_delay)
        task.node.power_state = states.power_target(power_state)

    def reboot(self, task, timeout=None):
        _sleep(CONF.fake.power_delay)
        task.node.power_state = states.POWER_ON


class FakeDeploy(base.DeployInterface):
    def deploy(self, task):
        _sleep(CONF.fake.deploy_delay)
        task.driver.power.set_power_state(task, states.POWER_ON)

    def tear_down(self, task):
        task.driver.power.set_power_state(task, states.POWER_OFF)


class FakeManagement(base.ManagementInterface):
    """Boot devices as Ironic's fake management (pxe, disk); the device
    set is remembered in the node's driver_internal_info (saved by the
    caller) so that it reads back."""

    _KEY = 'fake_boot_device'

    def get_supported_boot_devices(self, task):
        return ['pxe', 'disk']

    def set_boot_device(self, task, device, persistent=False):
        info = dict(task.node.driver_internal_info or {})
        info[self._KEY] = {'boot_device': device, 'persistent': persistent}
        task.node.driver_internal_info = info

    def get_boot_device(self, task):
        stored = (task.node.driver_internal_info or {}).get(self._KEY)
        return dict(stored or {'boot_device': 'pxe', 'persistent': False})


class FakeInspect(base.InspectInterface):
    def inspect_hardware(self, task):
        _sleep(CONF.fake.deploy_delay)
        return states.MANAGEABLE


class FakeBoot(base.BootInterface):
    pass


class FakeClean(base.CleanInterface):
    def clean(self, task):
        _sleep(CONF.fake.clean_delay)


class FakeHardware(base.HardwareType):
    """Ironic's ``fake-hardware``, with its interface names and defaults."""

    name = 'fake-hardware'
    supported = {
        'bios': ['no-bios', 'fake'],
        'boot': ['fake'],
        'console': ['no-console', 'fake'],
        'deploy': ['fake'],
        'inspect': ['fake', 'no-inspect'],
        'management': ['fake'],
        'network': ['flat', 'noop'],
        'power': ['fake'],
        'raid': ['no-raid', 'fake'],
        'rescue': ['no-rescue', 'fake'],
        # Ironic's fake, noop, cinder and external ('noop' the default).
        'storage': ['noop', 'fake', 'cinder', 'external'],
        'vendor': ['no-vendor', 'fake'],
    }

    def __init__(self):
        super().__init__()
        self.power = FakePower()
        self.deploy = FakeDeploy()
        self.management = FakeManagement()
        self.inspect = FakeInspect()
        self.boot = FakeBoot()
        self.clean = FakeClean()
        self.storage = storage.NodeStorage()
