"""Client side of the conductor RPC API."""

import functools
import random

from amqp import exceptions as amqp_exceptions
from kombu import exceptions as kombu_exceptions
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.common import rpc
from ironic_lite import conf
from ironic_lite.conductor import broker_probe
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import rpcapi_agent
from ironic_lite.conductor import rpcapi_hardware
from ironic_lite.conductor import rpcapi_management
from ironic_lite.conductor import rpcapi_raid_vendor
from ironic_lite.objects import base as objects_base

CONF = conf.CONF

# The one definition of the RPC API version; the manager's Target imports
# it, and it equals the last entry of ConductorAPI's history (a unit test
# checks both).
RPC_API_VERSION = '1.10'


# Remote errors of a conductor that cannot read what it was sent.
_TOO_NEW_FOR_THE_CONDUCTOR = ('UnsupportedVersion',
                              'IncompatibleObjectVersion')


# oslo.messaging appends the remote traceback to the message of an
# exception it re-raises here, in a class named ``<Class>_Remote``.
_REMOTE_SUFFIX = '_Remote'
_TRACEBACK = '\nTraceback (most recent call last):'

# Remote errors that mean the database was unreachable or gave up: an
# outage, after which the request may or may not have been carried out.
_DB_OUTAGES = ('DBConnectionError', 'DBDeadlock', 'OperationalError',
               'DBError')


def _without_remote_traceback(err):
    """A conductor's exception as it was raised there: its own class and
    message, the remote traceback kept aside (``remote_traceback``) for
    ``[DEFAULT]debug_tracebacks_in_api`` and never in the message.

    oslo.messaging re-raises a conductor's exception as an instance of a
    subclass it makes of the exception's own class (only to append the
    traceback to ``str()``); a new exception of that own class is built
    from the same arguments.
    """
    cls = type(err)
    if not cls.__name__.endswith(_REMOTE_SUFFIX):
        return err
    message = str(err)
    cut = message.find(_TRACEBACK)
    text, trace = ((message[:cut], message[cut + 1:]) if cut >= 0
                   else (message.rstrip('\n'), None))
    local = cls.__bases__[0](text, **getattr(err, 'kwargs', {}))
    local.args = (text,) + tuple(err.args[1:])
    local.remote_traceback = trace
    return local


# The 503 of a call the transport failed to complete, by error class.
_TRANSPORT_FAILURES = (
    (messaging.MessagingTimeout,
     'The conductor did not answer in time; the request may have been '
     'carried out: please check the resource before you retry.'),
    (messaging.MessageDeliveryFailure,
     'The message broker did not accept the request; please check the '
     'resource before you retry.'),
    # pin_release_version = auto lowered the cap between the choice of
    # the version and the call: refused before anything was sent.
    (messaging.RPCVersionCapError,
     'The release this service speaks was lowered while the request was '
     'prepared (an older service is alive again); it was not carried '
     'out, please retry.'),
)


# What the broker's client library raises itself when the broker fails
# mid-call (a partition: a channel closed, a queue whose node is gone, a
# socket reset) and oslo.messaging lets through unwrapped.
_BROKER_ERRORS = (amqp_exceptions.AMQPError, kombu_exceptions.KombuError,
                  OSError)
_BROKER_FAILED = ('The message broker failed while the request was sent '
                  '(%s); it may or may not have been carried out: please '
                  'check the resource before you retry.')


def _error_name(err):
    """The class name of a messaging error: the conductor's own for a
    RemoteError (an error raised there)."""
    if isinstance(err, messaging.RemoteError):
        return err.exc_type
    return type(err).__name__


def _remote_failure_reason(err):
    """A conductor's unexpected error, as the API tells it.  The remote
    message may quote SQL or paths: it goes to the conductor's log only."""
    what = ('could not reach its database' if err.exc_type in _DB_OUTAGES
            else 'failed (%s)' % err.exc_type)
    return ('The conductor %s while carrying out the request; it may or '
            'may not have been carried out: please check the resource '
            'before you retry.' % what)


def _error_for(err, version_cap):
    """The error to raise for ``err``, a MessagingException raised by an
    RPC call."""
    for cls, reason in _TRANSPORT_FAILURES:
        if isinstance(err, cls):
            return exception.ServiceUnavailable(reason=reason)
    if _error_name(err) in _TOO_NEW_FOR_THE_CONDUCTOR:
        # An API unpinned before the conductors (upgrade step 6.3 before
        # 6.1): nothing was done; retrying will not help.  (A broker
        # carries the refusal as a RemoteError; the fake:// transport
        # raises it as is.)
        return exception.ConductorTooOld(version=version_cap)
    if isinstance(err, messaging.RemoteError):
        return exception.ServiceUnavailable(
            reason=_remote_failure_reason(err))
    return exception.ServiceUnavailable(
        reason='RPC to the conductor failed; the request may or may not '
               'have been carried out: please check the resource before '
               'you retry.')


def _rpc_errors(func):
    """Turn a dead broker or a silent conductor into a clear 503, and a
    conductor's error into the same error without its traceback.

    A 503 says the request was not carried out only when nothing was
    sent; once a call is sent, the conductor may have carried it out.
    """
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        broker_probe.check()
        try:
            result = func(self, *args, **kwargs)
        except exception.IronicException as err:
            if type(err).__name__.endswith(_REMOTE_SUFFIX):
                broker_probe.answered()   # with the conductor's error
            # Not chained to the remote exception: its message carries
            # the traceback, which stays out of logs and bodies.
            raise _without_remote_traceback(err) from None
        except messaging.MessagingException as err:
            raise _error_for(err, self.version_cap)
        except _BROKER_ERRORS as err:
            raise exception.ServiceUnavailable(
                reason=_BROKER_FAILED % type(err).__name__) from None
        broker_probe.answered()
        return result
    return wrapper


def conductor_for(context, node):
    """The host name of the conductor the hash ring maps ``node`` to
    (what the API shows as the node's ``conductor``)."""
    return hash_ring.RING_MANAGER.get_host(
        context, node.uuid, node.driver, node.conductor_group)


class ConductorAPI(rpcapi_management.ManagementCalls,
                  rpcapi_raid_vendor.RaidVendorAPI, rpcapi_agent.AgentCalls):
    """Client side of the conductor RPC API.

    API version history (append only; RPC_API_VERSION is the last line):

    |    1.0 - Initial version (release 1.0): create_node, update_node,
    |          destroy_node, change_node_power_state,
    |          do_provisioning_action, do_node_deploy, do_node_tear_down.
    |    1.1 - update_node takes an optional reset_interfaces (release 2.0).
    |    1.2 - add_node_traits, remove_node_traits, vif_attach, vif_detach,
    |          vif_list, validate_driver_interfaces, set_boot_device,
    |          get_boot_device, get_supported_boot_devices (release 3.0).
    |    1.3 - update_node takes an optional expected: the values the
    |          change was computed from (compare-and-swap, 409 NodeChanged);
    |          create_port, update_port, destroy_port, create_portgroup,
    |          update_portgroup, destroy_portgroup (written under the
    |          node's lock).
    |    1.4 - create_volume_connector, update_volume_connector,
    |          destroy_volume_connector, create_volume_target,
    |          update_volume_target, destroy_volume_target (release 4.0).
    |    1.5 - create_allocation, destroy_allocation (release 4.0).
    |    1.6 - do_node_rescue, do_node_unrescue, do_node_clean (manual
    |          cleaning), inject_nmi, get_console_information,
    |          set_console_mode.
    |    1.7 - do_node_deploy takes an optional deploy_steps (the user's
    |          deploy steps, API 1.69); the deploy runs the steps of the
    |          instance's deploy templates (release 4.0).
    |    1.8 - change_node_boot_mode, change_node_secure_boot,
    |          get_supported_indicators, get_indicator_state,
    |          set_indicator_state (release 5.0; rpcapi_management.py).
    |    1.9 - set_target_raid_config, get_raid_logical_disk_properties,
    |          vendor_passthru, driver_vendor_passthru,
    |          get_node_vendor_passthru_methods,
    |          get_driver_vendor_passthru_methods (release 5.0;
    |          rpcapi_raid_vendor.py).
    |    1.10 - heartbeat, get_node_with_token (the ramdisk's agent:
    |          /v1/heartbeat and /v1/lookup; rpcapi_agent.py).
    """

    RPC_API_VERSION = RPC_API_VERSION

    def __init__(self, topic=None):
        self.topic = topic or rpc.conductor_topic()
        target = messaging.Target(topic=self.topic, version='1.0')
        self.client = rpc.get_client(
            target, version_cap=self.version_cap,
            serializer=objects_base.IronicObjectSerializer())

    @property
    def version_cap(self):
        """The RPC version cap in force now: the pinned release's (with
        ``pin_release_version = auto`` it follows the live services,
        ``common/release_pin.py``), else RPC_API_VERSION.  Every call
        prepares its context with it."""
        pinned = release_mappings.get_release(release_pin.effective())
        return pinned['rpc'] if pinned else RPC_API_VERSION

    def can_send_version(self, version):
        return self.client.prepare(
            version_cap=self.version_cap).can_send_version(version)

    def check_can_send(self, version, what):
        """Refuse (409, nothing done) a request needing RPC ``version``
        while this service is pinned below it: a conductor of the older
        release may own the node and would not know the method."""
        if not self.can_send_version(version):
            raise exception.PinnedRelease(
                what=what, version=version,
                pin=release_pin.effective())

    def get_conductor_for(self, context, node):
        """The host name of the conductor that owns ``node``."""
        return conductor_for(context, node)

    def _prepare(self, context, node, version, host=None):
        host = host or self.get_conductor_for(context, node)
        return self.client.prepare(server=host, version=version,
                                   version_cap=self.version_cap,
                                   retry=CONF.conductor.rpc_send_retries)

    @_rpc_errors
    def call_new_method(self, context, version, what, method, node=None,
                        host=None, **kwargs):
        """Call ``method``, which has no older form, of RPC ``version``
        on the node's conductor or on ``host``: refused (409 PinnedRelease,
        nothing sent) while this service is pinned below ``version``."""
        self.check_can_send(version, what)
        cctxt = self._prepare(context, node, version, host=host)
        return rpcapi_hardware.call(cctxt, context, method, **kwargs)

    def call_node_method(self, context, node, version, method, what,
                         **kwargs):
        """``call_new_method`` on the node's conductor, for the node."""
        return self.call_new_method(context, version, what, method,
                                    node=node, node_id=node.uuid, **kwargs)

    @_rpc_errors
    def create_node(self, context, node_obj):
        """Create a node (after the conductor validated its driver)."""
        release_pin.check_hardware_type(node_obj.driver)
        cctxt = self._prepare(context, node_obj, '1.0')
        return cctxt.call(context, 'create_node', node_obj=node_obj)

    @_rpc_errors
    def update_node(self, context, node_obj, reset_interfaces=None,
                    expected=None):
        """Save a node's changes under the conductor's lock.

        :param reset_interfaces: with a driver change, reset the interfaces
            not given to the new type's defaults.  Sent only at 1.1; pinned
            to 1.0 it is dropped, and the conductor behaves as release 1.0
            did (it resets only the interfaces the new type lacks).
        :param expected: {field: value} the changed fields had when the
            change was computed; the conductor saves only if the node still
            has them (else 409 NodeChanged, nothing written).  Sent only at
            1.3; pinned lower it is dropped, and the last write wins as in
            release 2.0.
        """
        if 'driver' in node_obj.obj_what_changed():
            release_pin.check_hardware_type(node_obj.driver)
        kwargs = {'node_obj': node_obj}
        version = '1.0'
        if self.can_send_version('1.1'):
            version = '1.1'
            kwargs['reset_interfaces'] = reset_interfaces
        if expected is not None and self.can_send_version('1.3'):
            version = '1.3'
            kwargs['expected'] = expected
        cctxt = self._prepare(context, node_obj, version)
        return cctxt.call(context, 'update_node', **kwargs)

    @_rpc_errors
    def destroy_node(self, context, node):
        cctxt = self._prepare(context, node, '1.0')
        return cctxt.call(context, 'destroy_node', node_id=node.uuid)

    @_rpc_errors
    def change_node_power_state(self, context, node, new_state,
                                timeout=None):
        """Start a power action; returns once the node is locked for it."""
        cctxt = self._prepare(context, node, '1.0')
        return cctxt.call(context, 'change_node_power_state',
                          node_id=node.uuid, new_state=new_state,
                          timeout=timeout)

    @_rpc_errors
    def do_provisioning_action(self, context, node, action):
        """Start manage, provide, inspect or abort on a node."""
        cctxt = self._prepare(context, node, '1.0')
        return cctxt.call(context, 'do_provisioning_action',
                          node_id=node.uuid, action=action)

    @_rpc_errors
    def do_node_deploy(self, context, node, rebuild=False, configdrive=None,
                       deploy_steps=None):
        """Start deploying (or rebuilding) a node.

        :param deploy_steps: the user's deploy steps, sent at 1.7.  Pinned
            below 1.7 a deploy without them is the 1.0 call; one with them
            is refused (409, nothing done) rather than run without them.
        """
        kwargs = {'node_id': node.uuid, 'rebuild': rebuild,
                  'configdrive': configdrive}
        version = '1.0'
        if deploy_steps:
            self.check_can_send('1.7', 'Deploying with deploy_steps')
            version = '1.7'
            kwargs['deploy_steps'] = deploy_steps
        cctxt = self._prepare(context, node, version)
        return cctxt.call(context, 'do_node_deploy', **kwargs)

    @_rpc_errors
    def do_node_tear_down(self, context, node):
        cctxt = self._prepare(context, node, '1.0')
        return cctxt.call(context, 'do_node_tear_down', node_id=node.uuid)

    # -- 1.2 --------------------------------------------------------------

    def _call_1_2(self, context, node, method, **kwargs):
        self.check_can_send('1.2', 'This request')
        cctxt = self._prepare(context, node, '1.2')
        return rpcapi_hardware.call(cctxt, context, method,
                                    node_id=node.uuid, **kwargs)

    @_rpc_errors
    def add_node_traits(self, context, node, traits, replace=False):
        """Add ``traits`` to a node, or replace all of its traits."""
        return self._call_1_2(context, node, 'add_node_traits',
                              traits=traits, replace=replace)

    @_rpc_errors
    def remove_node_traits(self, context, node, traits=None):
        """Remove ``traits`` from a node (all of them when None)."""
        return self._call_1_2(context, node, 'remove_node_traits',
                              traits=traits)

    @_rpc_errors
    def vif_attach(self, context, node, vif_info):
        return self._call_1_2(context, node, 'vif_attach',
                              vif_info=vif_info)

    @_rpc_errors
    def vif_detach(self, context, node, vif_id):
        return self._call_1_2(context, node, 'vif_detach', vif_id=vif_id)

    @_rpc_errors
    def vif_list(self, context, node):
        """[{'id': vif_id}] of the VIFs attached to a node."""
        return self._call_1_2(context, node, 'vif_list')

    @_rpc_errors
    def validate_driver_interfaces(self, context, node):
        """{interface: {'result': bool[, 'reason': str]}}."""
        return self._call_1_2(context, node, 'validate_driver_interfaces')

    @_rpc_errors
    def set_boot_device(self, context, node, device, persistent=False):
        return self._call_1_2(context, node, 'set_boot_device',
                              device=device, persistent=persistent)

    @_rpc_errors
    def get_boot_device(self, context, node):
        """{'boot_device': name or None, 'persistent': bool or None}."""
        return self._call_1_2(context, node, 'get_boot_device')

    @_rpc_errors
    def get_supported_boot_devices(self, context, node):
        return self._call_1_2(context, node, 'get_supported_boot_devices')

    # -- ports and port groups (1.3), written under the node's lock -------
    #
    # ``node`` is the port's (port group's) node: the call goes to the
    # conductor that owns it.  A client pinned below 1.3 does not call
    # these (``can_send_version('1.3')``): the API then writes ports
    # directly, as release 2.0 did.

    @_rpc_errors
    def create_port(self, context, port_obj, node):
        cctxt = self._prepare(context, node, '1.3')
        return cctxt.call(context, 'create_port', port_obj=port_obj)

    @_rpc_errors
    def update_port(self, context, port_obj, node):
        cctxt = self._prepare(context, node, '1.3')
        return cctxt.call(context, 'update_port', port_obj=port_obj)

    @_rpc_errors
    def destroy_port(self, context, port, node):
        cctxt = self._prepare(context, node, '1.3')
        return cctxt.call(context, 'destroy_port', port=port)

    @_rpc_errors
    def create_portgroup(self, context, portgroup_obj, node):
        cctxt = self._prepare(context, node, '1.3')
        return cctxt.call(context, 'create_portgroup',
                          portgroup_obj=portgroup_obj)

    @_rpc_errors
    def update_portgroup(self, context, portgroup_obj, node):
        cctxt = self._prepare(context, node, '1.3')
        return cctxt.call(context, 'update_portgroup',
                          portgroup_obj=portgroup_obj)

    @_rpc_errors
    def destroy_portgroup(self, context, portgroup, node):
        cctxt = self._prepare(context, node, '1.3')
        return cctxt.call(context, 'destroy_portgroup', portgroup=portgroup)

    # -- volume connectors and targets (1.4) -----------------------------
    #
    # Written by the conductor that owns the node, under its lock.  A new
    # method: pinned below 1.4 the request is refused (409, nothing done).

    def _call_1_4(self, context, node, method, what, **kwargs):
        self.check_can_send('1.4', what)
        cctxt = self._prepare(context, node, '1.4')
        return cctxt.call(context, method, **kwargs)

    @_rpc_errors
    def create_volume_connector(self, context, connector, node):
        return self._call_1_4(context, node, 'create_volume_connector',
                              'Creating a volume connector',
                              connector=connector)

    @_rpc_errors
    def update_volume_connector(self, context, connector, node):
        return self._call_1_4(context, node, 'update_volume_connector',
                              'Updating a volume connector',
                              connector=connector)

    @_rpc_errors
    def destroy_volume_connector(self, context, connector, node):
        return self._call_1_4(context, node, 'destroy_volume_connector',
                              'Deleting a volume connector',
                              connector=connector)

    @_rpc_errors
    def create_volume_target(self, context, target, node):
        return self._call_1_4(context, node, 'create_volume_target',
                              'Creating a volume target', target=target)

    @_rpc_errors
    def update_volume_target(self, context, target, node):
        return self._call_1_4(context, node, 'update_volume_target',
                              'Updating a volume target', target=target)

    @_rpc_errors
    def destroy_volume_target(self, context, target, node):
        return self._call_1_4(context, node, 'destroy_volume_target',
                              'Deleting a volume target', target=target)

    # -- allocations (1.5) -------------------------------------------------
    #
    # Refused (409, nothing done) while pinned below 1.5: a conductor of
    # the older release would not know the methods.

    def _any_host(self, context):
        """A live conductor, at random (as Ironic's get_random_topic)."""
        hosts = sorted({host for ring in
                        hash_ring.RING_MANAGER.rings(context).values()
                        for host in ring.nodes})
        if not hosts:
            raise exception.ServiceUnavailable(
                reason='No ironic-conductor is alive; the request cannot be '
                       'handled now, please retry later.')
        return random.choice(hosts)

    @_rpc_errors
    def create_allocation(self, context, allocation, node=None):
        """Store and process an allocation: on any live conductor, or on
        the conductor of ``node`` for a backfill."""
        self.check_can_send('1.5', 'Creating an allocation')
        host = None if node is not None else self._any_host(context)
        cctxt = self._prepare(context, node, '1.5', host=host)
        return cctxt.call(context, 'create_allocation',
                          allocation=allocation)

    @_rpc_errors
    def destroy_allocation(self, context, allocation):
        self.check_can_send('1.5', 'Deleting an allocation')
        cctxt = self._prepare(context, None, '1.5',
                              host=self._any_host(context))
        return cctxt.call(context, 'destroy_allocation',
                          allocation=allocation)

    # -- 1.6: rescue, manual cleaning, NMI, console -----------------------
    #
    # New methods, no older form: a client pinned below 1.6 refuses them
    # (409 PinnedRelease, nothing sent).

    def do_node_rescue(self, context, node, rescue_password):
        """active (rescue, rescue failed, unrescue failed) -> rescuing ->
        rescue."""
        return self.call_node_method(context, node, '1.6', 'do_node_rescue',
                                     'Rescuing a node',
                                     rescue_password=rescue_password)

    def do_node_unrescue(self, context, node):
        """rescue (rescue failed, unrescue failed) -> unrescuing ->
        active."""
        return self.call_node_method(context, node, '1.6',
                                     'do_node_unrescue', 'Unrescuing a node')

    def do_node_clean(self, context, node, clean_steps,
                      disable_ramdisk=None):
        """manageable -> cleaning -> manageable, running ``clean_steps``."""
        return self.call_node_method(context, node, '1.6', 'do_node_clean',
                                     'Manual cleaning',
                                     clean_steps=clean_steps,
                                     disable_ramdisk=disable_ramdisk)

    def inject_nmi(self, context, node):
        return self.call_node_method(context, node, '1.6', 'inject_nmi',
                                     'Injecting an NMI')

    def get_console_information(self, context, node):
        """The console's connection information (NodeConsoleNotEnabled
        when it is disabled)."""
        return self.call_node_method(context, node, '1.6',
                                     'get_console_information',
                                     'The console')

    def set_console_mode(self, context, node, enabled):
        return self.call_node_method(context, node, '1.6',
                                     'set_console_mode', 'The console',
                                     enabled=enabled)
