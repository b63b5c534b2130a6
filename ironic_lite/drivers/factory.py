"""Hardware types by name: the ones this code has, the ones enabled."""

import functools

from oslo_config import cfg
from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import release_pin
from ironic_lite import conf
from ironic_lite.drivers import agent_inspect
from ironic_lite.drivers import base
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import ramdisk
from ironic_lite.drivers import redfish

CONF = conf.CONF
LOG = logging.getLogger(__name__)

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
    ('inspect', 'agent'): agent_inspect.AgentInspect,
}


def enabled_hardware_types():
    """Names of [DEFAULT]enabled_hardware_types (validated)."""
    names = list(CONF.enabled_hardware_types)
    unknown = [n for n in names if n not in HARDWARE_TYPES]
    if unknown:
        raise exception.DriverNotFound(driver_name=', '.join(unknown))
    return names


def get_hardware_type(name):
    """A new instance of an enabled hardware type.

    :raises: DriverNotFound when ``name`` is unknown or not enabled here.
    """
    if name not in CONF.enabled_hardware_types or (
            name not in HARDWARE_TYPES):
        raise exception.DriverNotFound(driver_name=name)
    return HARDWARE_TYPES[name]()


@functools.lru_cache(maxsize=None)
def implemented_interfaces(iface):
    """Every implementation name of ``iface`` this code has, in the order
    the hardware types list them (a tuple: the code does not change, so
    it is computed once per interface)."""
    names = []
    for hw_type in HARDWARE_TYPES.values():
        names.extend(n for n in hw_type.supported.get(iface, ())
                     if n not in names)
    return tuple(names)


def enabled_interfaces(iface):
    """The implementations of ``iface`` this service enables, as Ironic's
    driver factory reads ``[DEFAULT]enabled_<iface>_interfaces``: the names
    in their order, without duplicates and without the ones this code
    does not implement; unset or empty: the first implementation each
    enabled hardware type supports.  (Computed once for each value of
    the two options: a node's creation asks for every interface's.)"""
    return list(_enabled_interfaces(
        iface, tuple(getattr(CONF, 'enabled_%s_interfaces' % iface) or ()),
        tuple(CONF.enabled_hardware_types)))


@functools.lru_cache(maxsize=256)
def _enabled_interfaces(iface, given, hardware_types):
    have = implemented_interfaces(iface)
    given = [n for n in given if n]
    names = []
    for name in given:
        if name in have and name not in names:
            names.append(name)
    if given:
        return tuple(names)
    for type_name in hardware_types:
        hw_type = HARDWARE_TYPES.get(type_name)
        first = hw_type.supported.get(iface) if hw_type else None
        if first and first[0] not in names:
            names.append(first[0])
    return tuple(names)


def unimplemented_interfaces(configured_only=False):
    """{option name: [names]} of the enabled_<iface>_interfaces values
    this code does not implement (ignored: ``enabled_interfaces``); with
    ``configured_only``, of the options the operator set (the defaults
    are Ironic's, which name implementations ironic-lite lacks)."""
    found = {}
    for iface in base.ALL_INTERFACES:
        have = implemented_interfaces(iface)
        option = 'enabled_%s_interfaces' % iface
        if configured_only and not _configured(option):
            continue
        missing = [n for n in getattr(CONF, option) or () if n
                   and n not in have]
        if missing:
            found[option] = missing
    return found


def _configured(option):
    """Whether the operator set the [DEFAULT] option (not its default)."""
    where = CONF.get_location(option)
    return where is not None and where.location not in (
        cfg.Locations.opt_default, cfg.Locations.set_default)


def warn_unimplemented_interfaces():
    """One warning line per enabled_<iface>_interfaces option that names
    implementations ironic-lite does not have."""
    for option, names in sorted(unimplemented_interfaces(True).items()):
        LOG.warning('[DEFAULT]%s: %s not implemented by ironic-lite, '
                    'ignored.', option, ', '.join(names))


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
    """Fill unset ``<type>_interface`` fields with the defaults (Ironic's
    rules: ``default_interface``).

    :raises: InvalidParameterValue when an interface set on the node is
        not enabled or not one the hardware type supports, or when no
        default can be found for an unset one.
    """
    for iface in base.ALL_INTERFACES:
        field = '%s_interface' % iface
        value = (getattr(node, field) if node.obj_attr_is_set(field)
                 else None)
        if value is None:
            setattr(node, field, default_interface(
                hw_type, iface, node=node.uuid if 'uuid' in node else None))
        else:
            check_supported(hw_type, iface, value)


def check_supported(hw_type, iface, name):
    """InvalidParameterValue with Ironic's message unless ``name`` is an
    enabled implementation of ``iface`` that the type supports -- and that
    the release in force has (``interfaces_since``)."""
    enabled = enabled_interfaces(iface)
    if name not in enabled:
        raise exception.InvalidParameterValue(
            err='Could not find the following interface in the '
                "'ironic.hardware.interfaces.%(iface)s' entrypoint: "
                '%(name)s. Valid interfaces are %(valid)s.'
                % {'iface': iface, 'name': name, 'valid': enabled})
    if not hw_type.supports(iface, name):
        raise exception.InvalidParameterValue(
            err="%(iface)s interface implementation '%(name)s' is not "
                'supported by hardware type %(type)s.'
                % {'iface': iface, 'name': name,
                   'type': type(hw_type).__name__})
    since = hw_type.interfaces_since.get((iface, name))
    pin = release_pin.lacks(since)
    if pin:
        # The conductors of that release refuse it (400, the message
        # above): so does this one while it is in force.
        raise exception.InvalidParameterValue(
            err="%(iface)s interface implementation '%(name)s' of hardware "
                'type %(type)s is new in release %(since)s: not available '
                'while this conductor is pinned to release %(pin)s; nothing '
                'was changed.'
                % {'iface': iface, 'name': name, 'type': hw_type.name,
                   'since': since, 'pin': pin})


def check_interfaces_in_force(node_obj, fields):
    """PinnedInterface (409, nothing sent) when one of the node's
    ``fields`` (``<iface>_interface`` names) holds an implementation newer
    than the release in force: the API's check before it asks a
    conductor (``check_supported`` is the conductor's)."""
    hw_type = HARDWARE_TYPES.get(node_obj.driver)
    for field in fields if hw_type is not None else ():
        iface = field[:-len('_interface')]
        name = getattr(node_obj, field, None)
        since = hw_type.interfaces_since.get((iface, name))
        pin = release_pin.lacks(since)
        if pin:
            raise exception.PinnedInterface(iface=iface, name=name,
                                            driver=node_obj.driver,
                                            since=since, pin=pin)


def default_interface(hw_type, iface, node=None):
    """The implementation of ``iface`` a node of ``hw_type`` gets when it
    names none, as Ironic's ``driver_factory.default_interface``:
    ``[DEFAULT]default_<iface>_interface`` when set (it must be enabled
    and supported by the type), else the first implementation the type
    supports that is enabled.

    :raises: InvalidParameterValue (Ironic's messages) when there is none.
    """
    name = getattr(CONF, 'default_%s_interface' % iface)
    if name is not None:
        if name not in enabled_interfaces(iface):
            check_supported(hw_type, iface, name)
        if not hw_type.supports(iface, name):
            name = None
    else:
        name = hw_type.enabled_default(iface, enabled_interfaces(iface))
    if name is None:
        raise exception.InvalidParameterValue(
            err="For%(node)s hardware type '%(driver)s', no default value "
                'found for %(iface)s interface could be determined. Please '
                'ensure the interfaces are enabled.'
                % {'node': ' node %s with' % node if node else '',
                   'driver': hw_type.name, 'iface': iface})
    return name


def check_default_interfaces(names):
    """Refuse (InvalidParameterValue) to start a conductor when a hardware
    type of ``names`` has no default for an interface (Ironic's conductor
    computes them all at start)."""
    for name in names:
        hw_type = HARDWARE_TYPES[name]()
        for iface in base.ALL_INTERFACES:
            default_interface(hw_type, iface)


def published_interfaces(type_names):
    """What a conductor publishes in its registration (the conductors
    table) of the hardware types it serves: ``{type: {interface:
    {'default': name, 'enabled': [names]}}}``, where ``enabled`` holds
    the implementations ``check_supported`` accepts for a node of that
    type and ``default`` is the one ``default_interface`` gives a node
    that names none (None when there is none).  An API creating a node
    the conductor would create applies the same rules to it
    (``apply_published``) instead of sending it."""
    table = {}
    for name in type_names:
        hw_type = HARDWARE_TYPES[name]()
        ifaces = table[name] = {}
        for iface in base.ALL_INTERFACES:
            enabled = []
            for impl in enabled_interfaces(iface):
                try:
                    check_supported(hw_type, iface, impl)
                except exception.InvalidParameterValue:
                    continue
                enabled.append(impl)
            try:
                default = default_interface(hw_type, iface)
            except exception.InvalidParameterValue:
                default = None
            ifaces[iface] = {'default': default, 'enabled': enabled}
    return table


def apply_published(node, published):
    """Set the unset interfaces of ``node`` to the defaults ``published``
    (one conductor's ``published_interfaces``) gives its hardware type,
    as that conductor's ``check_and_update_node_interfaces`` would, and
    return True; or change nothing and return False when the conductor
    has to answer: it published nothing for the type, or one of the
    node's interfaces is not one it accepts, or has no default (its own
    check then words the error)."""
    ifaces = (published or {}).get(node.driver)
    if not ifaces:
        return False
    defaults = {}
    for iface in base.ALL_INTERFACES:
        field = '%s_interface' % iface
        known = ifaces.get(iface)
        value = (getattr(node, field) if node.obj_attr_is_set(field)
                 else None)
        if known is None:
            return False
        if value is None:
            if known.get('default') is None:
                return False
            defaults[field] = known['default']
        elif value not in known.get('enabled', ()):
            return False
    for field, value in defaults.items():
        setattr(node, field, value)
    return True
