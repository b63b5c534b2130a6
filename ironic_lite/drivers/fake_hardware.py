"""The ``fake-hardware`` type: every action succeeds, after [fake] delays.

The "hardware" power state is the node's own ``power_state``.
"""

import time

from oslo_log import log as logging

from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.drivers import base

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
    name = 'fake'

    @base.deploy_step(priority=100)
    def deploy(self, task):
        record_deploy_step(task, self.interface_type, 'deploy')
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
        'storage': ['noop'],
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
        # Release 4.0: the interfaces with deploy steps.
        self.bios = FakeBIOS()
        self.raid = FakeRAID()


# -- deploy steps (release 4.0) ---------------------------------------------
#
# Ironic's fake-hardware offers one deploy step, the core ``deploy.deploy``
# (priority 100).  ironic-lite's also offers the steps below (priority 0:
# run only when a deploy template or the user's deploy_steps ask for them),
# so that templates can be tried without hardware -- on a node whose
# bios_interface / raid_interface is ``fake`` (``no-bios`` / ``no-raid``
# have none).  Each fake step appends {interface, step, priority} to the
# node's ``driver_internal_info['fake_deploy_steps']``: the steps run by
# the last deploy, in order (cleared at the next deploy and at tear down).

FAKE_STEPS_KEY = 'fake_deploy_steps'


def record_deploy_step(task, interface, step):
    node = task.node
    current = node.deploy_step or {}
    info = dict(node.driver_internal_info or {})
    info[FAKE_STEPS_KEY] = list(info.get(FAKE_STEPS_KEY) or []) + [
        {'interface': interface, 'step': step,
         'priority': current.get('priority')}]
    node.driver_internal_info = info


class FakeBIOS(base.BaseInterface):
    interface_type = 'bios'
    name = 'fake'

    @base.deploy_step(priority=0, argsinfo={
        'settings': {'description': ('List of BIOS settings, each item needs '
                                     'to contain a dictionary with name/value '
                                     'pairs'),
                     'required': True}})
    def apply_configuration(self, task, settings):
        record_deploy_step(task, self.interface_type, 'apply_configuration')

    @base.deploy_step(priority=0)
    def factory_reset(self, task):
        record_deploy_step(task, self.interface_type, 'factory_reset')


class FakeRAID(base.BaseInterface):
    interface_type = 'raid'
    name = 'fake'

    @base.deploy_step(priority=0)
    def create_configuration(self, task):
        record_deploy_step(task, self.interface_type, 'create_configuration')

    @base.deploy_step(priority=0)
    def delete_configuration(self, task):
        record_deploy_step(task, self.interface_type, 'delete_configuration')
