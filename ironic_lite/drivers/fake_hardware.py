"""The ``fake-hardware`` type: every action succeeds, after [fake] delays.

The "hardware" power state is the node's own ``power_state``.
"""

import time

from oslo_log import log as logging
from oslo_utils import timeutils

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.drivers import base
from ironic_lite.drivers import fake_firmware
from ironic_lite.drivers import fake_management
from ironic_lite.drivers import power_flow
from ironic_lite.drivers import raid
from ironic_lite.drivers import steps
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
    name = 'fake'

    @base.deploy_step(priority=100)
    def deploy(self, task):
        _record_step(task, self.interface_type, 'deploy')
        _sleep(CONF.fake.deploy_delay)
        task.driver.power.set_power_state(task, states.POWER_ON)

    def tear_down(self, task):
        power_flow.power_off_or_reboot(task)


class FakeManagement(fake_management.FakeModesAndIndicators,
                     base.ManagementInterface):
    """Boot devices as Ironic's fake management (pxe, disk); the device
    set is remembered in the node's driver_internal_info (saved by the
    caller) so that it reads back.  Boot mode, secure boot and indicators:
    ``fake_management``."""

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

    # Virtual media: {device_type: image URL} of what is attached, in
    # driver_internal_info (saved by the caller), read back as a BMC
    # reports its devices.
    _VMEDIA_KEY = 'fake_vmedia'
    _VMEDIA_TYPES = {'cdrom': 'CD', 'disk': 'USBStick', 'floppy': 'Floppy'}

    def _vmedia(self, task):
        return dict((task.node.driver_internal_info or {}).get(
            self._VMEDIA_KEY) or {})

    def _set_vmedia(self, task, attached):
        info = dict(task.node.driver_internal_info or {})
        info[self._VMEDIA_KEY] = attached
        task.node.driver_internal_info = info

    def get_virtual_media(self, task):
        attached = self._vmedia(task)
        return [{'media_types': [media_type],
                 'inserted': device in attached,
                 'image': attached.get(device, '')}
                for device, media_type in sorted(self._VMEDIA_TYPES.items())]

    def attach_virtual_media(self, task, device_type, image_url):
        self._set_vmedia(task, dict(self._vmedia(task),
                                    **{device_type: image_url}))

    def detach_virtual_media(self, task, device_types=None):
        attached = self._vmedia(task)
        for device in (self._VMEDIA_TYPES if device_types is None
                       else device_types):
            attached.pop(device, None)
        self._set_vmedia(task, attached)


class FakeInspect(base.InspectInterface):
    def inspect_hardware(self, task):
        _sleep(CONF.fake.deploy_delay)
        return states.MANAGEABLE


class FakeBoot(base.BootInterface):
    def prepare_ramdisk(self, task, ramdisk_params):
        # A network boot of the deploy ramdisk, next boot only (as
        # Ironic's PXE boot interfaces set it).
        task.driver.management.set_boot_device(task, 'pxe',
                                               persistent=False)


class FakeClean(base.CleanInterface):
    def clean(self, task):
        _sleep(CONF.fake.clean_delay)


class FakeHardware(base.HardwareType):
    """Ironic's ``fake-hardware``, with its interface names in Ironic's
    order (the fake one first): a node gets the first that is enabled."""

    name = 'fake-hardware'
    supported = {
        'bios': ['fake', 'no-bios'],
        'boot': ['fake'],
        'console': ['fake', 'no-console'],
        # ``ramdisk``: the generic deploy that waits for the agent's
        # heartbeat (drivers/ramdisk.py).
        'deploy': ['fake', 'ramdisk'],
        'firmware': ['fake', 'no-firmware'],
        # ``agent``: in-band inspection (drivers/agent_inspect.py).
        'inspect': ['fake', 'agent', 'no-inspect'],
        'management': ['fake'],
        'network': ['flat', 'noop'],
        'power': ['fake'],
        'raid': ['fake', 'no-raid'],
        'rescue': ['fake', 'no-rescue'],
        # [DEFAULT]default_storage_interface is "noop" by default.
        'storage': ['fake', 'noop', 'cinder', 'external'],
        'vendor': ['fake', 'no-vendor'],
    }
    interfaces_since = {('inspect', 'agent'): '6.0'}

    def __init__(self):
        super().__init__()
        self.power = FakePower()
        self.deploy = FakeDeploy()
        self.management = FakeManagement()
        self.inspect = FakeInspect()
        self.boot = FakeBoot()
        self.clean = FakeClean()
        self.storage = storage.NodeStorage()
        # Rescue, console, and the clean and deploy steps of
        # Ironic's fake interfaces (used when the node names ``fake``).
        self.rescue = FakeRescue()
        self.console = FakeConsole()
        self.bios = FakeBIOS()
        self.raid = FakeRAID()
        self.vendor = FakeVendor()
        self.firmware = fake_firmware.FakeFirmware()


# -- rescue, console, clean and deploy steps ---------------------------------
#
# Ironic's fake-hardware offers clean steps on its fake bios and vendor
# interfaces, and one deploy step, the core ``deploy.deploy`` (priority
# 100).  ironic-lite's fake bios and raid interfaces also offer deploy steps
# (priority 0: run only when a deploy template or the user's deploy_steps
# ask for them), so that templates can be tried without hardware -- on a
# node whose bios_interface / raid_interface is ``fake`` (``no-bios`` /
# ``no-raid`` have none).  What ran is kept in ``driver_internal_info``, so
# that a client can see it (Ironic's fakes keep no trace):
#
# * ``fake_clean_steps_run``: the clean steps of the node's last manual
#   cleaning, in order ("bios.factory_reset");
# * ``fake_deploy_steps``: the deploy steps of the last deploy, in order,
#   each {interface, step, priority} (cleared at the next deploy and at
#   tear down).

EXECUTED_STEPS_KEY = 'fake_clean_steps_run'
# The service steps of the node's last servicing (API 1.87), as
# "interface.step" (cleared when a servicing starts).
SERVICE_STEPS_KEY = 'fake_service_steps_run'
FAKE_STEPS_KEY = 'fake_deploy_steps'


def _record_step(task, interface, step):
    """Record a step that ran: a service step while the node is serviced
    (its ``service_step`` is set), a deploy step while it deploys (its
    ``deploy_step`` is set), else a clean step."""
    node = task.node
    info = dict(node.driver_internal_info or {})
    if node.service_step:
        info[SERVICE_STEPS_KEY] = list(
            info.get(SERVICE_STEPS_KEY) or []) + ['%s.%s' % (interface, step)]
    elif node.deploy_step:
        info[FAKE_STEPS_KEY] = list(info.get(FAKE_STEPS_KEY) or []) + [
            {'interface': interface, 'step': step,
             'priority': node.deploy_step.get('priority')}]
    else:
        _sleep(CONF.fake.clean_delay)
        info[EXECUTED_STEPS_KEY] = list(
            info.get(EXECUTED_STEPS_KEY) or []) + ['%s.%s' % (interface,
                                                              step)]
    node.driver_internal_info = info


class FakeRescue(base.RescueInterface):
    """The rescue environment "boots" at once: no rescue wait."""

    def rescue(self, task):
        return states.RESCUE

    def unrescue(self, task):
        return states.ACTIVE


class FakeConsole(base.ConsoleInterface):
    def start_console(self, task):
        pass

    def stop_console(self, task):
        pass

    def get_console(self, task):
        return {}


_BIOS_SETTINGS = {
    'settings': {'description': 'List of BIOS settings, each item needs to '
                                'contain a dictionary with name/value pairs',
                 'required': True}}


# The settings a fake node's BIOS has until a step changes them, with
# registry data (API 1.74), as a Redfish BIOS registry describes them.
_ENABLED = ['Enabled', 'Disabled']
DEFAULT_BIOS_SETTINGS = (
    {'name': 'BootMode', 'value': 'Uefi', 'attribute_type': 'Enumeration',
     'allowable_values': ['Bios', 'Uefi'], 'read_only': False,
     'reset_required': True, 'unique': False},
    {'name': 'ProcTurboMode', 'value': 'Enabled',
     'attribute_type': 'Enumeration', 'allowable_values': _ENABLED,
     'read_only': False, 'reset_required': True, 'unique': False},
    {'name': 'ProcVirtualization', 'value': 'Enabled',
     'attribute_type': 'Enumeration', 'allowable_values': _ENABLED,
     'read_only': False, 'reset_required': True, 'unique': False},
    {'name': 'SystemSerialNumber', 'value': 'FAKE0001',
     'attribute_type': 'String', 'min_length': 0, 'max_length': 32,
     'read_only': True, 'reset_required': False, 'unique': True},
)
BIOS_SETTINGS_KEY = 'fake_bios_settings'


class FakeBIOS(base.BaseInterface):
    """Ironic's fake BIOS interface: clean steps, and deploy steps.

    The node's settings live in ``driver_internal_info`` (``fake_bios_
    settings``; the defaults above until a step changes them):
    ``apply_configuration`` sets the values given (adding unknown names,
    as Ironic's fake stores them), ``factory_reset`` leaves none, as
    Ironic's fake (which deletes the node's stored settings; Tempest checks
    an empty list after it).  The conductor caches them after each of
    these steps (``conductor/bios.py``).
    """

    interface_type = 'bios'
    name = 'fake'

    def get_bios_settings(self, task):
        """The node's settings: dicts with name, value and registry
        keys (the contract of ``conductor/bios.py``)."""
        stored = (task.node.driver_internal_info or {}).get(
            BIOS_SETTINGS_KEY)
        if stored is None:
            stored = DEFAULT_BIOS_SETTINGS
        return [dict(setting) for setting in stored]

    def _store(self, task, settings):
        task.node.driver_internal_info = dict(
            task.node.driver_internal_info or {},
            **{BIOS_SETTINGS_KEY: settings})

    @steps.clean_step(priority=0, argsinfo=_BIOS_SETTINGS)
    @base.deploy_step(priority=0, argsinfo=_BIOS_SETTINGS)
    def apply_configuration(self, task, settings):
        if not isinstance(settings, list) or not all(
                isinstance(item, dict)
                and isinstance(item.get('name'), str)
                and 0 < len(item['name']) <= 255 for item in settings):
            raise exception.InvalidParameterValue(
                err='BIOS settings must be a list of objects with a name '
                    'and a value')
        current = {s['name']: s for s in self.get_bios_settings(task)}
        for item in settings:
            value = item.get('value')
            entry = current.setdefault(str(item['name']),
                                       {'name': str(item['name'])})
            entry['value'] = None if value is None else str(value)
        self._store(task, sorted(current.values(), key=lambda s: s['name']))
        _record_step(task, 'bios', 'apply_configuration')

    @steps.clean_step(priority=0)
    @base.deploy_step(priority=0)
    def factory_reset(self, task):
        self._store(task, [])
        _record_step(task, 'bios', 'factory_reset')

    @steps.clean_step(priority=0)
    def cache_bios_settings(self, task):
        _record_step(task, 'bios', 'cache_bios_settings')


class FakeRAID(base.RAIDInterface):
    """The node's target RAID configuration "applied" at once: ``create``
    copies it to ``raid_config`` (after the disks already there unless
    ``delete_existing``; with ``last_updated``, and the root
    volume's size as ``properties/local_gb``, as Ironic's
    ``update_raid_info``), ``delete`` empties it.  Clean steps (manual
    cleaning) and deploy steps (priority 0: templates, user steps)."""

    name = 'fake'

    @steps.clean_step(priority=0, argsinfo=raid.CREATE_ARGSINFO)
    @base.deploy_step(priority=0, argsinfo=raid.CREATE_ARGSINFO)
    def create_configuration(self, task, create_root_volume=True,
                             create_nonroot_volumes=True,
                             delete_existing=True):
        node = task.node
        target = node.target_raid_config or {}
        if target:
            kept = ([] if delete_existing else
                    (node.raid_config or {}).get('logical_disks', []))
            disks = [disk for disk in target.get('logical_disks', [])
                     if (create_root_volume if disk.get('is_root_volume')
                         else create_nonroot_volumes)]
            _apply_raid_config(node, kept + disks)
        _record_step(task, self.interface_type, 'create_configuration')

    @steps.clean_step(priority=0)
    @base.deploy_step(priority=0)
    def delete_configuration(self, task):
        task.node.raid_config = {}
        _record_step(task, self.interface_type, 'delete_configuration')


def _apply_raid_config(node, disks):
    node.raid_config = {'logical_disks': disks,
                        'last_updated': str(timeutils.utcnow())}
    root = [disk for disk in disks if disk.get('is_root_volume')]
    if root and root[0]['size_gb'] != 'MAX':
        node.properties = dict(node.properties or {},
                               local_gb=int(root[0]['size_gb']))


def _needs_bar(method, kwargs):
    if not kwargs.get('bar'):
        raise exception.MissingParameterValue(
            err="Parameter 'bar' not passed to method '%s'." % method)


class FakeVendor(base.VendorInterface):
    """Ironic's fake vendor interface (its FakeVendorB, with FakeVendorA's
    ``first_method``): passthru methods that compare ``bar`` with a word,
    and the ``log_passthrough`` clean step."""

    name = 'fake'
    properties = {'B1': 'B1 description. Required.',
                  'B2': 'B2 description. Required.'}

    def validate(self, task, method=None, **kwargs):
        if method in ('first_method', 'second_method', 'third_method_sync',
                      'fourth_method_shared_lock'):
            _needs_bar(method, kwargs)

    @base.passthru(['POST'], description='Test if the value of bar is baz')
    def first_method(self, task, http_method, bar):
        return bar == 'baz'

    @base.passthru(['POST'],
                   description='Test if the value of bar is kazoo')
    def second_method(self, task, http_method, bar):
        return bar == 'kazoo'

    @base.passthru(['POST'], async_call=False,
                   description='Test if the value of bar is meow')
    def third_method_sync(self, task, http_method, bar):
        return bar == 'meow'

    @base.passthru(['POST'], require_exclusive_lock=False,
                   description='Test if the value of bar is woof')
    def fourth_method_shared_lock(self, task, http_method, bar):
        return bar == 'woof'

    @steps.service_step(requires_ramdisk=False)
    @steps.clean_step(priority=1)
    @base.passthru(['POST'], description='Test pass-through to wait.')
    def log_passthrough(self, task, **kwargs):
        LOG.debug('Fake vendor step log_passthrough on node %s: %s',
                  task.node.uuid, kwargs)
        if 'http_method' not in kwargs:
            _record_step(task, 'vendor', 'log_passthrough')

    @steps.service_step()
    def trigger_servicewait(self, task, **kwargs):
        """Ironic's fake service step that waits for the ramdisk's agent:
        the node stays in ``service wait`` until the agent heartbeats."""
        _record_step(task, 'vendor', 'trigger_servicewait')
        return states.SERVICEWAIT
