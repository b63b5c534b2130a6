"""The ``redfish`` BIOS interface: the system's BIOS attributes.

``get_bios_settings`` reads them (with their attribute registry's fields
when the BMC has one) in the shape the conductor caches.  The clean and
deploy steps (Ironic's names, priority 0: only when asked for) write
pending attributes or ask for a factory reset, then reboot the node so
that the BMC applies them, and wait for it to be powered on.  Unlike
Ironic, they do not then wait for the BIOS to report the new values
(Ironic's conductor polls the BMC between reboots): the caller reads the
settings again to see them.
"""

from oslo_log import log as logging
import sushy

from ironic_lite.common import exception
from ironic_lite.drivers import base
from ironic_lite.drivers import steps
from ironic_lite.drivers.redfish import utils

LOG = logging.getLogger(__name__)

REGISTRY_FIELDS = ('attribute_type', 'allowable_values', 'lower_bound',
                   'max_length', 'min_length', 'read_only', 'reset_required',
                   'unique', 'upper_bound')

_SETTINGS_ARGSINFO = {
    'settings': {'description': 'A list of BIOS settings to be applied',
                 'required': True}}


def _bios(task):
    system = utils.get_system(task.node)
    try:
        return system.bios
    except sushy.exceptions.MissingAttributeError:
        raise exception.UnsupportedDriverExtension(
            driver=task.node.driver, extension='BIOS settings') from None
    except sushy.exceptions.SushyError as err:
        raise utils.translate(err, task.node) from None


def _registry(task, bios):
    """{name: registry attribute} (empty when the BMC has no registry)."""
    try:
        registry = bios.get_attribute_registry()
        entries = registry.registry_entries.attributes if registry else []
    except Exception as err:
        LOG.info('Cannot get BIOS Registry attributes for node %s: %s',
                 task.node.uuid, utils.scrub(err, task.node))
        return {}
    return {entry.name: entry for entry in entries or []}


def _allowable(values):
    if not isinstance(values, list):
        return values
    return [item.get('ValueName') or item.get('ValueDisplayName')
            for item in values
            if item.get('ValueName') or item.get('ValueDisplayName')]


def _setting(name, value, entry):
    setting = {'name': name, 'value': value}
    for field in REGISTRY_FIELDS:
        if entry is not None and getattr(entry, field, None) is not None:
            setting[field] = getattr(entry, field)
    if 'allowable_values' in setting:
        setting['allowable_values'] = _allowable(setting['allowable_values'])
    return setting


class RedfishBIOS(base.BaseInterface):
    interface_type = 'bios'
    properties = utils.COMMON_PROPERTIES

    def validate(self, task):
        utils.parse_driver_info(task.node)

    def get_bios_settings(self, task):
        """The node's BIOS settings: [{'name', 'value', registry keys}]."""
        bios = _bios(task)
        with utils.sushy_errors(task.node):
            attributes = dict(bios.attributes or {})
        registry = _registry(task, bios)
        return [_setting(name, value, registry.get(name))
                for name, value in sorted(attributes.items())]

    @steps.service_step(argsinfo=_SETTINGS_ARGSINFO, requires_ramdisk=False)
    @steps.clean_step(priority=0, argsinfo=_SETTINGS_ARGSINFO,
                      requires_ramdisk=False)
    @base.deploy_step(priority=0, argsinfo=_SETTINGS_ARGSINFO)
    def apply_configuration(self, task, settings):
        if not isinstance(settings, list) or not all(
                isinstance(item, dict) and 'name' in item and 'value' in item
                for item in settings):
            raise exception.InvalidParameterValue(
                err='BIOS settings must be a list of objects with a name '
                    'and a value')
        bios = _bios(task)
        attributes = {item['name']: item['value'] for item in settings}
        with utils.sushy_errors(task.node):
            bios.set_attributes(attributes)
        LOG.info('BIOS settings %s set pending on node %s; rebooting to '
                 'apply them', sorted(attributes), task.node.uuid)
        task.driver.power.reboot(task)

    @steps.service_step(requires_ramdisk=False)
    @steps.clean_step(priority=0, requires_ramdisk=False)
    @base.deploy_step(priority=0)
    def factory_reset(self, task):
        bios = _bios(task)
        with utils.sushy_errors(task.node):
            bios.reset_bios()
        LOG.info('BIOS factory reset requested on node %s; rebooting',
                 task.node.uuid)
        task.driver.power.reboot(task)
