"""fake-hardware's ``fake`` firmware interface (release 6.0, API 1.86).

Ironic's fake firmware interface reports nothing and flashes nothing;
this one gives a node fixed, plausible components -- a BIOS and a BMC,
with a vendor, a model and a serial number (API 1.114) -- so that the
firmware API and the ``update`` step can be tried without hardware.

What a node runs lives in its ``driver_internal_info``
(``fake_firmware_versions``: {component: version}; the defaults below
until an ``update`` changes them).  ``update`` "flashes" each component of
its settings at once: the new version is the one the image's URL names
(``.../bmc-1.2.0.bin`` -> ``1.2.0``), else the current one with its last
number raised by one.  The conductor then stores the components
(``conductor/firmware.py``).
"""

import re

from ironic_lite.common import exception
from ironic_lite.drivers import base
from ironic_lite.drivers import firmware
from ironic_lite.drivers import steps

VERSIONS_KEY = 'fake_firmware_versions'

# (component, first version, vendor, model, serial number)
DEFAULT_COMPONENTS = (
    (firmware.BIOS, '1.0.0', 'Fake Vendor', 'Fake BIOS', 'FAKEBIOS0001'),
    (firmware.BMC, '2.10.0', 'Fake Vendor', 'Fake BMC', 'FAKEBMC0001'),
)

_VERSION_IN_URL = re.compile(r'(\d+(?:\.\d+)+)(?!.*\d+\.\d)')


def next_version(current, url):
    """The version an image of ``url`` carries (see the module
    docstring)."""
    found = _VERSION_IN_URL.search(url.rsplit('/', 1)[-1])
    if found:
        return found.group(1)
    head, _sep, last = (current or '0').rpartition('.')
    try:
        bumped = str(int(last) + 1)
    except ValueError:
        return (current or '0') + '.1'
    return '%s.%s' % (head, bumped) if head else bumped


class FakeFirmware(base.FirmwareInterface):
    name = 'fake'

    def _versions(self, task):
        stored = (task.node.driver_internal_info or {}).get(VERSIONS_KEY)
        versions = {c[0]: c[1] for c in DEFAULT_COMPONENTS}
        versions.update(stored or {})
        return versions

    def get_firmware_components(self, task):
        versions = self._versions(task)
        return [{'component': name, 'current_version': versions[name],
                 'vendor': vendor, 'model': model, 'serial_number': serial}
                for name, _first, vendor, model, serial
                in DEFAULT_COMPONENTS]

    @steps.clean_step(priority=0, argsinfo=firmware.UPDATE_ARGSINFO,
                      requires_ramdisk=False)
    @base.deploy_step(priority=0, argsinfo=firmware.UPDATE_ARGSINFO)
    def update(self, task, settings):
        firmware.validate_update_settings(settings)
        versions = self._versions(task)
        for setting in settings:
            name = setting['component']
            if name not in versions:
                raise exception.InvalidParameterValue(
                    err='Node %s has no firmware component %s'
                        % (task.node.uuid, name))
            versions[name] = next_version(versions[name], setting['url'])
        task.node.driver_internal_info = dict(
            task.node.driver_internal_info or {}, **{VERSIONS_KEY: versions})
