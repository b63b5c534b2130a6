"""A redfish node's virtual media devices through sushy's VirtualMedia:
those of the ComputerSystem, else of its managers (Ironic's order).

Used by the ``redfish-virtual-media`` boot interface (the deploy ISO in
the CD) and by the ``redfish`` management interface's virtual media calls
(``/v1/nodes/<n>/vmedia``, API 1.89 and 1.93), with Ironic's names for the
devices: ``cdrom`` (CD), ``disk`` (USBStick), ``floppy`` (Floppy).
"""

import sushy

from ironic_lite.common import exception
from ironic_lite.drivers.redfish import utils

# Ironic's VMEDIA_DEVICES_MAP: the sushy media type of each device.
DEVICE_MEDIA_TYPES = {
    'cdrom': sushy.VIRTUAL_MEDIA_CD,
    'floppy': sushy.VIRTUAL_MEDIA_FLOPPY,
    'disk': sushy.VIRTUAL_MEDIA_USBSTICK,
}


def _collections(system):
    """The VirtualMedia collections to look in: the system's, else its
    managers'."""
    try:
        collection = system.virtual_media
    except sushy.exceptions.MissingAttributeError:
        collection = None
    if collection is not None:
        return [collection]
    return [manager.virtual_media for manager in system.managers or ()]


def _members(task, system):
    with utils.sushy_errors(task.node):
        return [member for collection in _collections(system)
                for member in collection.get_members()]


def devices(task, system, media_type=None):
    """The virtual media devices of ``media_type`` (all when None)."""
    return [m for m in _members(task, system)
            if media_type is None or media_type in (m.media_types or [])]


def describe(task):
    """[{'media_types': [...], 'inserted': bool, 'image': url}] of every
    device (Ironic's get_vmedia)."""
    system = utils.get_system(task.node)
    return [{'media_types': [str(getattr(t, 'value', t))
                             for t in m.media_types or ()],
             'inserted': bool(m.inserted), 'image': m.image}
            for m in devices(task, system)]


def insert(task, url, media_type):
    """Insert ``url`` into the first device of ``media_type`` (ejecting
    what it held first)."""
    system = utils.get_system(task.node)
    found = devices(task, system, media_type)
    if not found:
        raise exception.InvalidParameterValue(
            err='No suitable virtual media device of type %s found on node '
                '%s' % (getattr(media_type, 'value', media_type),
                        task.node.uuid))
    with utils.sushy_errors(task.node):
        if found[0].inserted:
            found[0].eject_media()
        found[0].insert_media(url, inserted=True, write_protected=True)


def eject(task, media_type=None):
    """Eject what the devices of ``media_type`` (all when None) hold."""
    system = utils.get_system(task.node)
    for device in devices(task, system, media_type):
        with utils.sushy_errors(task.node):
            if device.inserted:
                device.eject_media()
