"""The ``redfish`` management interface: boot device, boot mode, secure
boot, indicator LEDs and NMI through the node's ComputerSystem.

Ironic's names and behaviour: a BMC that refuses a persistent boot
device gets a one-time one, kept in ``driver_internal_info``
(``redfish_boot_device``) and set again before each power on.
"""

import contextlib
import time

from oslo_log import log as logging
import sushy

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.drivers import base
from ironic_lite.drivers.redfish import utils
from ironic_lite.drivers.redfish import vmedia

CONF = conf.CONF
LOG = logging.getLogger(__name__)

BOOT_DEVICE_MAP = {
    sushy.BOOT_SOURCE_TARGET_PXE: 'pxe',
    sushy.BOOT_SOURCE_TARGET_HDD: 'disk',
    sushy.BOOT_SOURCE_TARGET_CD: 'cdrom',
    sushy.BOOT_SOURCE_TARGET_BIOS_SETUP: 'bios',
    sushy.BOOT_SOURCE_TARGET_UEFI_HTTP: 'uefi-http',
}
BOOT_DEVICE_MAP_REV = {v: k for k, v in BOOT_DEVICE_MAP.items()}

BOOT_MODE_MAP = {sushy.BOOT_SOURCE_MODE_UEFI: 'uefi',
                 sushy.BOOT_SOURCE_MODE_BIOS: 'bios'}
BOOT_MODE_MAP_REV = {v: k for k, v in BOOT_MODE_MAP.items()}

BOOT_DEVICE_PERSISTENT_MAP = {sushy.BOOT_SOURCE_ENABLED_CONTINUOUS: True,
                              sushy.BOOT_SOURCE_ENABLED_ONCE: False}

INDICATOR_MAP = {sushy.INDICATOR_LED_LIT: 'ON',
                 sushy.INDICATOR_LED_OFF: 'OFF',
                 sushy.INDICATOR_LED_BLINKING: 'BLINKING',
                 sushy.INDICATOR_LED_UNKNOWN: 'UNKNOWN'}
INDICATOR_MAP_REV = {v: k for k, v in INDICATOR_MAP.items()}

_INTERNAL_KEY = 'redfish_boot_device'
# Seconds between two reads while waiting for a boot mode change.
_BOOT_MODE_POLL = 5


def _set_boot_device(task, system, device, persistent):
    enabled = (sushy.BOOT_SOURCE_ENABLED_CONTINUOUS if persistent
               else sushy.BOOT_SOURCE_ENABLED_ONCE)
    try:
        system.set_system_boot_options(device, enabled=enabled)
        return
    except sushy.exceptions.SushyError:
        if not persistent:
            raise
    # Continuous boot was removed from Redfish, and some BMCs refuse it:
    # a one-time boot device, set again before every power on.
    system.set_system_boot_options(device,
                                   enabled=sushy.BOOT_SOURCE_ENABLED_ONCE)
    LOG.warning('Could not set persistent boot device to %s for node %s, '
                'using one-time boot device instead',
                BOOT_DEVICE_MAP[device], task.node.uuid)
    info = dict(task.node.driver_internal_info or {})
    info[_INTERNAL_KEY] = BOOT_DEVICE_MAP[device]
    task.node.driver_internal_info = info


def restore_boot_device(task, system):
    """Before a power on: set again the one-time boot device that stands
    for a persistent one (a warning only if that fails)."""
    device = (task.node.driver_internal_info or {}).get(_INTERNAL_KEY)
    if device not in BOOT_DEVICE_MAP_REV:
        return
    try:
        system.set_system_boot_options(
            BOOT_DEVICE_MAP_REV[device],
            enabled=sushy.BOOT_SOURCE_ENABLED_ONCE)
    except sushy.exceptions.SushyError as err:
        LOG.warning('Unable to recover boot device %s for node %s, relying '
                    'on the pre-configured boot order. Error: %s', device,
                    task.node.uuid, utils.scrub(err, task.node))


def _indicator_resources(system, component):
    """{component: sushy resource with an indicator_led}."""
    found = {}
    if component in (None, 'system'):
        found['system'] = system
    if component in (None, 'chassis'):
        with contextlib.suppress(sushy.exceptions.SushyError):
            if system.chassis:
                found['chassis'] = system.chassis[0]
    return found


class RedfishManagement(base.ManagementInterface):
    properties = utils.COMMON_PROPERTIES

    def validate(self, task):
        utils.parse_driver_info(task.node)

    # -- boot device ----------------------------------------------------

    def get_supported_boot_devices(self, task):
        return list(BOOT_DEVICE_MAP_REV)

    def set_boot_device(self, task, device, persistent=False):
        if device not in BOOT_DEVICE_MAP_REV:
            raise exception.InvalidParameterValue(
                err='Invalid boot device %s specified.' % device)
        system = utils.get_system(task.node)
        info = dict(task.node.driver_internal_info or {})
        info.pop(_INTERNAL_KEY, None)
        task.node.driver_internal_info = info
        try:
            _set_boot_device(task, system, BOOT_DEVICE_MAP_REV[device],
                             persistent)
        except sushy.exceptions.SushyError as err:
            raise exception.RedfishError(
                error='Redfish set boot device failed for node %s: %s'
                      % (task.node.uuid, utils.scrub(err, task.node))
            ) from None

    def get_boot_device(self, task):
        system = utils.get_system(task.node)
        return {'boot_device': BOOT_DEVICE_MAP.get(system.boot.target),
                'persistent': BOOT_DEVICE_PERSISTENT_MAP.get(
                    system.boot.enabled)}

    # -- boot mode --------------------------------------------------------

    def get_supported_boot_modes(self, task):
        return list(BOOT_MODE_MAP_REV)

    def get_boot_mode(self, task):
        system = utils.get_system(task.node)
        return BOOT_MODE_MAP.get(system.boot.mode)

    def set_boot_mode(self, task, mode):
        if mode not in BOOT_MODE_MAP_REV:
            raise exception.InvalidParameterValue(
                err='Invalid boot mode %s specified.' % mode)
        system = utils.get_system(task.node)
        with utils.sushy_errors(task.node):
            system.set_system_boot_options(mode=BOOT_MODE_MAP_REV[mode])
        self._wait_for_boot_mode(task, mode)

    def _wait_for_boot_mode(self, task, mode):
        deadline = time.monotonic() + CONF.redfish.boot_mode_config_timeout
        while self.get_boot_mode(task) != mode:
            if time.monotonic() >= deadline:
                raise exception.RedfishError(
                    error='Timed out waiting for the boot mode of node %s '
                          'to become %s' % (task.node.uuid, mode))
            time.sleep(_BOOT_MODE_POLL)

    # -- secure boot ------------------------------------------------------

    def _secure_boot(self, task):
        system = utils.get_system(task.node)
        try:
            return system.secure_boot
        except sushy.exceptions.MissingAttributeError:
            raise exception.UnsupportedDriverExtension(
                driver=task.node.driver, extension='secure boot') from None

    def get_secure_boot_state(self, task):
        secure_boot = self._secure_boot(task)
        with utils.sushy_errors(task.node):
            return bool(secure_boot.enabled)

    def set_secure_boot_state(self, task, state):
        secure_boot = self._secure_boot(task)
        with utils.sushy_errors(task.node):
            if bool(secure_boot.enabled) != bool(state):
                secure_boot.set_enabled(bool(state))

    def get_node_health(self, task):
        """The system's ``Status.Health`` (Ironic's: the health of the
        system only, not rolled up), or None."""
        system = utils.get_system(task.node)
        with utils.sushy_errors(task.node):
            status = system.status
            health = status.health if status is not None else None
        health = getattr(health, 'value', health)
        return health if health in states.HEALTH_STATES else None

    # -- indicators -------------------------------------------------------

    def get_supported_indicators(self, task, component=None):
        system = utils.get_system(task.node)
        supported = {}
        for comp, resource in _indicator_resources(system, component).items():
            if resource.indicator_led is None:
                continue
            supported[comp] = {resource.identity: {
                'readonly': False, 'states': ['BLINKING', 'OFF', 'ON']}}
        return supported

    def _indicator(self, task, component, indicator):
        system = utils.get_system(task.node)
        resource = _indicator_resources(system, component).get(component)
        if resource is None or resource.identity != indicator:
            raise exception.InvalidParameterValue(
                err='Indicator %s of component %s not found on node %s'
                    % (indicator, component, task.node.uuid))
        return resource

    def set_indicator_state(self, task, component, indicator, state):
        if state not in ('ON', 'OFF', 'BLINKING'):
            raise exception.InvalidParameterValue(
                err='Invalid indicator state %s' % state)
        resource = self._indicator(task, component, indicator)
        with utils.sushy_errors(task.node):
            resource.set_indicator_led(INDICATOR_MAP_REV[state])

    def get_indicator_state(self, task, component, indicator):
        resource = self._indicator(task, component, indicator)
        return INDICATOR_MAP.get(resource.indicator_led, 'UNKNOWN')

    # -- NMI --------------------------------------------------------------

    def inject_nmi(self, task):
        system = utils.get_system(task.node)
        with utils.sushy_errors(task.node):
            system.reset_system(sushy.RESET_NMI)

    # -- virtual media (API 1.89, 1.93) -----------------------------------

    def get_virtual_media(self, task):
        return vmedia.describe(task)

    def attach_virtual_media(self, task, device_type, image_url):
        vmedia.insert(task, image_url,
                      vmedia.DEVICE_MEDIA_TYPES[device_type])

    def detach_virtual_media(self, task, device_types=None):
        if device_types is None:
            vmedia.eject(task)
            return
        for device_type in device_types:
            vmedia.eject(task, vmedia.DEVICE_MEDIA_TYPES[device_type])
