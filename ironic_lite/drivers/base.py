"""The interfaces a hardware type is made of.

A hardware type composes one implementation per interface; the conductor
calls them with a ``task`` (see ``conductor.task_manager``) whose ``node``
it may change (the flow saves it).  Release 1.0 ships only the
``fake-hardware`` type; real protocols (IPMI, Redfish) plug in here.
"""

import abc

from ironic_lite.common import exception
from ironic_lite.common import interfaces
from ironic_lite.common import states
from ironic_lite.drivers import raid

# The interface names (node fields ``<name>_interface``), Ironic's order:
# defined in common, below every layer that needs them.
ALL_INTERFACES = interfaces.ALL_INTERFACES


class BaseInterface(abc.ABC):
    """Common base: ``validate`` checks the node's driver_info."""

    interface_type = 'base'
    # driver_info keys (or other node settings) it reads -> description,
    # listed by GET /v1/drivers/<name>/properties (Ironic's
    # ``get_properties``).
    properties = {}

    def validate(self, task):
        """Raise InvalidParameterValue if the node cannot use this."""

    def get_properties(self):
        return dict(self.properties)


class PowerInterface(BaseInterface):
    interface_type = 'power'

    @abc.abstractmethod
    def get_power_state(self, task):
        """The node's current power state (a ``states.POWER_*``)."""

    @abc.abstractmethod
    def set_power_state(self, task, power_state, timeout=None):
        """Switch the node on or off (``states.POWER_ON``/``POWER_OFF``/
        ``SOFT_POWER_OFF``)."""

    @abc.abstractmethod
    def reboot(self, task, timeout=None):
        """Reboot the node; it ends powered on."""

    def get_supported_power_states(self, task):
        return list(states.POWER_STATES)


class DeployInterface(BaseInterface):
    interface_type = 'deploy'

    @abc.abstractmethod
    def deploy(self, task):
        """Write the image and boot the node; returns None when done."""

    @abc.abstractmethod
    def tear_down(self, task):
        """Undo ``deploy``; the node ends powered off."""

    def clean_up(self, task):
        """Remove anything ``deploy`` left behind on the conductor."""

    # A deploy interface whose ``deploy`` may return ``states.DEPLOYWAIT``
    # (wait call-back) and go on when the ramdisk heartbeats sets this and
    # implements ``continue_deploy`` (drivers/ramdisk.py).  Others ignore
    # heartbeats, as Ironic's base deploy interface does.
    takes_heartbeats = False

    def continue_deploy(self, task):
        """Go on with a deploy that waited for the ramdisk's heartbeat;
        the conductor then runs the remaining deploy steps and boots the
        instance (``boot.prepare_instance``)."""


class ManagementInterface(BaseInterface):
    interface_type = 'management'

    @abc.abstractmethod
    def get_supported_boot_devices(self, task):
        """The boot devices (Ironic's names: pxe, disk, ...) it can set."""

    @abc.abstractmethod
    def set_boot_device(self, task, device, persistent=False):
        """Boot the node from ``device`` next time (always if persistent)."""

    @abc.abstractmethod
    def get_boot_device(self, task):
        """{'boot_device': name or None, 'persistent': bool or None}."""

    def inject_nmi(self, task):
        """Send the node a non-maskable interrupt (a crash dump); like
        Ironic's base class, this one does not implement it."""
        raise exception.UnsupportedDriverExtension(driver=task.node.driver,
                                                   extension='inject_nmi')

    # -- boot mode and secure boot, Ironic's signatures: an
    # implementation that lacks one raises UnsupportedDriverExtension, as
    # Ironic's base class does --------------------------------------------

    def get_supported_boot_modes(self, task):
        """The boot modes (``common.boot_modes``) it can set; [] when it
        cannot tell."""
        _unsupported(task, 'get_supported_boot_modes')

    def set_boot_mode(self, task, mode):
        """Boot the node in ``mode`` (``bios`` or ``uefi``) from now on."""
        _unsupported(task, 'set_boot_mode')

    def get_boot_mode(self, task):
        """The node's boot mode, or None if unknown."""
        _unsupported(task, 'get_boot_mode')

    def get_secure_boot_state(self, task):
        """Whether UEFI secure boot is on (a bool)."""
        _unsupported(task, 'get_secure_boot_state')

    def set_secure_boot_state(self, task, state):
        """Turn UEFI secure boot on (True) or off (False)."""
        _unsupported(task, 'set_secure_boot_state')

    def get_node_health(self, task):
        """The hardware's health as the BMC reports it: ``OK``,
        ``Warning``, ``Critical`` (``common/states.py`` HEALTH_STATES) or
        None when it does not say (Ironic 1.109)."""
        _unsupported(task, 'get_node_health')

    # -- indicators (LEDs) ------------------------------------------------

    def get_supported_indicators(self, task, component=None):
        """{component: {indicator_id: {'readonly': bool, 'states':
        [state, ...]}}} (``common.components``,
        ``common.indicator_states``), for one component when given."""
        _unsupported(task, 'get_supported_indicators')

    def set_indicator_state(self, task, component, indicator, state):
        """Set an indicator of a component to ``state``."""
        _unsupported(task, 'set_indicator_state')

    def get_indicator_state(self, task, component, indicator):
        """The state of an indicator of a component."""
        _unsupported(task, 'get_indicator_state')

    # -- virtual media (API 1.89, 1.93) ------------------------------------

    def get_virtual_media(self, task):
        """[{'media_types': [...], 'inserted': bool, 'image': url}] of
        the node's virtual media devices."""
        _unsupported(task, 'get_virtual_media')

    def attach_virtual_media(self, task, device_type, image_url):
        """Insert ``image_url`` into the ``device_type`` device (``disk``,
        ``cdrom`` or ``floppy``)."""
        _unsupported(task, 'attach_virtual_media')

    def detach_virtual_media(self, task, device_types=None):
        """Eject the ``device_types`` devices (all when None)."""
        _unsupported(task, 'detach_virtual_media')


def _unsupported(task, extension):
    raise exception.UnsupportedDriverExtension(driver=task.node.driver,
                                               extension=extension)


class InspectInterface(BaseInterface):
    interface_type = 'inspect'

    @abc.abstractmethod
    def inspect_hardware(self, task):
        """Discover the node's properties; returns the next state."""


class BootInterface(BaseInterface):
    interface_type = 'boot'

    def prepare_ramdisk(self, task, ramdisk_params):
        """Set the node up to boot the deploy ramdisk (with the kernel
        parameters ``ramdisk_params``, a dict)."""

    def clean_up_ramdisk(self, task):
        """Undo ``prepare_ramdisk``."""

    def prepare_instance(self, task):
        """Set the node up to boot the deployed instance."""

    def clean_up_instance(self, task):
        """Undo ``prepare_instance``."""


class CleanInterface(BaseInterface):
    """Automated cleaning (Ironic spreads it over deploy/management/raid
    clean steps; release 1.0 has one step per hardware type)."""

    interface_type = 'clean'

    @abc.abstractmethod
    def clean(self, task):
        """Run the automated cleaning of the node."""


class HardwareType(object):
    """A named set of interface implementations.

    ``supported`` maps an interface type to the implementation names the
    node's ``<type>_interface`` may hold, in Ironic's order: a node gets
    the first one that is enabled (``factory.default_interface``).
    """

    name = None
    supported = {}
    # The release that added each implementation name of ``supported``
    # after the type's first release, by (interface, name): a service
    # whose release in force is older refuses it (factory.check_supported,
    # rpcapi.create_node and update_node), as that release's conductors
    # do.  Append-only.
    interfaces_since = {}
    # driver_info keys the type itself reads -> description; with its
    # default interfaces' properties: GET /v1/drivers/<name>/properties.
    properties = {}

    def __init__(self):
        self.power = None
        self.deploy = None
        self.management = None
        self.inspect = None
        self.boot = None
        self.clean = None
        self.storage = None

    def default_interface(self, interface_type):
        """The implementation a node gets when it names none (Ironic's
        rules: ``factory.default_interface``), or None when there is
        none."""
        # The factory lists the hardware types, which import this module.
        from ironic_lite.drivers import factory
        try:
            return factory.default_interface(self, interface_type)
        except exception.InvalidParameterValue:
            return None

    def enabled_default(self, interface_type, enabled):
        """The first implementation of ``interface_type`` this type
        supports that is in ``enabled`` (None if none is)."""
        for name in self.supported.get(interface_type, ()):
            if name in enabled:
                return name
        return None

    def get_properties(self):
        """The properties of the type and of the implementation of each
        interface a node gets by default (as Ironic: not node-aware)."""
        found = dict(self.properties)
        for iface in ALL_INTERFACES:
            name = self.default_interface(iface)
            impl = getattr(self, iface, None)
            if (impl is None or not name or name.startswith('no-')
                    or not self.supports(iface, name)):
                continue
            found.update(impl.get_properties())
        return found

    def supports(self, interface_type, name):
        return name in self.supported.get(interface_type, ())

    def interface(self, node, interface_type):
        """The implementation of ``interface_type`` the node uses: this
        type's one, or a ``NoInterface`` for ``no-<type>`` (or none)."""
        name = (getattr(node, '%s_interface' % interface_type, None)
                or self.default_interface(interface_type))
        impl = getattr(self, interface_type, None)
        if impl is None or not name or name.startswith('no-'):
            return NoInterface(interface_type)
        return impl


# -- rescue, console, and the interfaces that only have clean steps (RPC
# 1.6) --------------------------------------------------------------------

class RescueInterface(BaseInterface):
    interface_type = 'rescue'

    @abc.abstractmethod
    def rescue(self, task):
        """Boot the rescue environment; returns ``states.RESCUE`` when it
        runs (or ``states.RESCUEWAIT`` while it boots)."""

    @abc.abstractmethod
    def unrescue(self, task):
        """Return to the instance; returns ``states.ACTIVE``."""


class ConsoleInterface(BaseInterface):
    interface_type = 'console'

    @abc.abstractmethod
    def start_console(self, task):
        """Start the node's remote console."""

    @abc.abstractmethod
    def stop_console(self, task):
        """Stop it."""

    @abc.abstractmethod
    def get_console(self, task):
        """How to connect to it (a dict)."""


class NoInterface(object):
    """Ironic's ``no-<type>`` implementations: validating or calling any
    method raises UnsupportedDriverExtension (a 400), and it has no clean
    steps."""

    def __init__(self, interface_type):
        self.interface_type = interface_type

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)

        def fail(task, *args, **kwargs):
            raise exception.UnsupportedDriverExtension(
                driver=task.node.driver, extension=self.interface_type)
        return fail

# -- deploy steps, as Ironic's ``base.deploy_step`` ------------------------


def deploy_step(priority, argsinfo=None):
    """Mark an interface method as a deploy step.

    :param priority: its default priority; 0 runs it only when a deploy
        template or the user's ``deploy_steps`` ask for it.
    :param argsinfo: {argument: {'description': str, 'required': bool}}
        of the keyword arguments it takes (its ``args``).
    """
    def mark(func):
        func._deploy_step = {'priority': priority,
                             'argsinfo': argsinfo or {}}
        return func
    return mark


# Every deploy interface's ``deploy`` is the core deploy step (Ironic's
# deploy interfaces all mark it so), at Ironic's priority.
CORE_STEP = {'priority': 100, 'argsinfo': {}}


def get_deploy_steps(interface):
    """The deploy steps of an interface implementation, Ironic's dicts:
    ``{'interface', 'step', 'priority', 'argsinfo'}``, by step name."""
    marks = {}
    if isinstance(interface, DeployInterface):
        marks['deploy'] = CORE_STEP
    for name in dir(type(interface)):
        marked = getattr(getattr(type(interface), name), '_deploy_step',
                         None)
        if marked is not None:
            marks[name] = marked
    return [dict(marks[name], interface=interface.interface_type, step=name)
            for name in sorted(marks)]


# -- firmware (release 6.0, API 1.86) --------------------------------------

class FirmwareInterface(BaseInterface):
    """Ironic's firmware interface: the node's firmware components and
    their update.

    ``get_firmware_components`` reports what the hardware runs, a list of
    dicts with ``component`` (``bios``, ``bmc``...), ``current_version``
    and the optional ``vendor``, ``model`` and ``serial_number``; the
    conductor stores them (``conductor/firmware.py``) when the node is
    verified and inspected and after the ``update`` step.  ``update`` is
    a clean, deploy and service step of priority 0 (run only when asked
    for) taking Ironic's ``settings``: a list of ``{"component", "url"}``
    (and an optional ``wait``, seconds).
    """

    interface_type = 'firmware'

    @abc.abstractmethod
    def get_firmware_components(self, task):
        """The node's firmware components (see the class docstring)."""

    @abc.abstractmethod
    def update(self, task, settings):
        """Flash the components of ``settings`` from their URLs."""


# -- RAID and vendor passthru (RPC 1.9) -------------------------------------

class RAIDInterface(BaseInterface):
    """Ironic's RAID interface: the target configuration is checked against
    the RAID schema (``drivers/raid.py``); ``create_configuration`` builds
    ``node.target_raid_config`` and records it in ``node.raid_config``,
    ``delete_configuration`` removes it."""

    interface_type = 'raid'

    def validate(self, task):
        if task.node.target_raid_config:
            self.validate_raid_config(task, task.node.target_raid_config)

    def validate_raid_config(self, task, raid_config):
        """InvalidParameterValue unless ``raid_config`` may be applied."""
        raid.validate_configuration(raid_config)

    @abc.abstractmethod
    def create_configuration(self, task, create_root_volume=True,
                             create_nonroot_volumes=True,
                             delete_existing=True):
        """Create the node's target RAID configuration."""

    @abc.abstractmethod
    def delete_configuration(self, task):
        """Delete the node's RAID configuration."""

    def get_logical_disk_properties(self):
        """{property: description} a logical disk may be given."""
        return raid.logical_disk_properties()


def _passthru_mark(attr, http_methods, method, async_call, description,
                   attach, **extra):
    def mark(func):
        setattr(func, attr, dict(
            extra, name=method or func.__name__,
            http_methods=[m.upper() for m in http_methods],
            description=description or '', attach=attach,
            **{'async': async_call}))
        return func
    return mark


def passthru(http_methods, method=None, async_call=True, description=None,
             attach=False, require_exclusive_lock=True):
    """Mark a vendor interface method as a node vendor passthru method
    (``/v1/nodes/<n>/vendor_passthru?method=<name>``), as Ironic's."""
    return _passthru_mark('_vendor_passthru', http_methods, method,
                          async_call, description, attach,
                          require_exclusive_lock=require_exclusive_lock)


def driver_passthru(http_methods, method=None, async_call=True,
                    description=None, attach=False):
    """Mark a vendor interface method as a driver vendor passthru method
    (``/v1/drivers/<d>/vendor_passthru?method=<name>``): called with the
    request context instead of a task."""
    return _passthru_mark('_driver_passthru', http_methods, method,
                          async_call, description, attach)


def _routes(interface, attr):
    found = {}
    for name in dir(type(interface)):
        meta = getattr(getattr(type(interface), name, None), attr, None)
        if meta is not None:
            found[meta['name']] = dict(meta, func=getattr(interface, name))
    return found


class VendorInterface(BaseInterface):
    """Ironic's vendor interface: its marked methods are the node's
    (``vendor_routes``) and the driver's (``driver_routes``) vendor
    passthru methods, by name, each with its metadata and ``func``."""

    interface_type = 'vendor'

    @property
    def vendor_routes(self):
        return _routes(self, '_vendor_passthru')

    @property
    def driver_routes(self):
        return _routes(self, '_driver_passthru')

    def validate(self, task, method=None, **kwargs):
        """Check the arguments of a call of ``method`` (a passthru method
        name; None: the node's driver_info only)."""

    def driver_validate(self, method, **kwargs):
        """Check the arguments of a driver passthru call."""


def passthru_metadata(routes):
    """What the API lists of vendor ``routes``: each method's metadata
    without its function (Ironic's ``get_vendor_passthru_metadata``)."""
    return {name: {k: v for k, v in meta.items()
                   if k not in ('func', 'name')}
            for name, meta in routes.items()}
