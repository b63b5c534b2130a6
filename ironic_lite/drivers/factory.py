"""Hardware types by name: the ones this code has, the ones enabled."""

from ironic_lite.common import exception
from ironic_lite import conf
from ironic_lite.drivers import base
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import ramdisk
from ironic_lite.drivers import redfish

CONF = conf.CONF

# Every hardware type this code base provides, by name.
HARDWARE_TYPES = {
    fake_hardware.FakeHardware.name: fake_hardware.FakeHardware,
    redfish.RedfishHardware.name: redfish.RedfishHardware,
}


# Implementations any hardware type may list among its supported ones
# (Ironic's generic interfaces), by (interface, name): a node naming one
# gets it in place of the type's own (``get_driver_for``).
GENERIC_INTERFACES = {
    ('deploy', 'ramdisk'): ramdisk.RamdiskDeploy,
}


def enabled_hardware_types():
    """Names of [conductor]enabled_hardware_types (validated)."""
    names = list(CONF.conductor.enabled_hardware_types)
    unknown = [n for n in names if n not in HARDWARE_TYPES]
    if unknown:
        raise exception.DriverNotFound(driver_name=', '.join(unknown))
    return names


def get_hardware_type(name):
    """A new instance of an enabled hardware type.

    :raises: DriverNotFound when ``name`` is unknown or not enabled here.
    """
    if name not in CONF.conductor.enabled_hardware_types or (
            name not in HARDWARE_TYPES):
        raise exception.DriverNotFound(driver_name=name)
    return HARDWARE_TYPES[name]()


def get_driver_for(node):
    """The node's hardware type (a new instance, as ``get_hardware_type``)
    with the generic interfaces the node names and the type supports.

    :raises: DriverNotFound as ``get_hardware_type``.
    """
    hw_type = get_hardware_type(node.driver)
    for (iface, name), impl in GENERIC_INTERFACES.items():
        if (getattr(node, '%s_interface' % iface, None) == name
                and hw_type.supports(iface, name)):
            setattr(hw_type, iface, impl())
    return hw_type


def check_and_update_node_interfaces(node, hw_type):
    """Fill unset ``<type>_interface`` fields with the defaults (the
    operator's ``[DEFAULT]default_<type>_interface``, else the type's).

    :raises: InvalidParameterValue when an interface set on the node, or
        the default it would get, is not one the hardware type supports.
    """
    for iface in base.ALL_INTERFACES:
        field = '%s_interface' % iface
        value = (getattr(node, field) if node.obj_attr_is_set(field)
                 else None)
        if value is None:
            value = hw_type.default_interface(iface)
            if value is None:
                continue
            check_supported(hw_type, iface, value)
            setattr(node, field, value)
            continue
        check_supported(hw_type, iface, value)


def check_supported(hw_type, iface, name):
    """InvalidParameterValue, with Ironic's message for an implementation
    it cannot load, unless the hardware type supports ``name``."""
    if not hw_type.supports(iface, name):
        raise exception.InvalidParameterValue(
            err='Could not find the following interface in the '
                "'ironic.hardware.interfaces.%(iface)s' entrypoint: "
                '%(name)s. Valid interfaces are %(valid)s.'
                % {'iface': iface, 'name': name,
                   'valid': ', '.join(hw_type.supported.get(iface, []))})


def check_default_interfaces(names):
    """Refuse (InvalidParameterValue) a ``[DEFAULT]default_*_interface``
    that one of the hardware types ``names`` does not support: Ironic's
    conductor does not start then, rather than fail each node create."""
    for name in names:
        hw_type = HARDWARE_TYPES[name]()
        for iface in base.ALL_INTERFACES:
            default = hw_type.default_interface(iface)
            if default is not None:
                check_supported(hw_type, iface, default)
