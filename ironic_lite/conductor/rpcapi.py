"""Client side of the conductor RPC API.

``ConductorAPI`` is composed of one part per feature: the methods of the
feature served by ``conductor/<feature>.py`` (``<Feature>Mixin`` of the
manager) are in ``conductor/rpcapi_<feature>.py`` (``<Feature>Calls``).
This module keeps what every part uses -- the version cap, ``_prepare``,
``send``, ``call_new_method`` -- and the node records (create, update,
delete), as ``manager.py`` does on the server side.  ``RPC_API_VERSION``
and the version history are here and nowhere else.
"""

import random

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import release_mappings
from ironic_lite.common import release_pin
from ironic_lite.common import rpc
from ironic_lite import conf
from ironic_lite.conductor import hardware_gate
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import rpc_errors
from ironic_lite.conductor import rpcapi_agent
from ironic_lite.conductor import rpcapi_allocations
from ironic_lite.conductor import rpcapi_boot_mode
from ironic_lite.conductor import rpcapi_cleaning
from ironic_lite.conductor import rpcapi_console
from ironic_lite.conductor import rpcapi_indicators
from ironic_lite.conductor import rpcapi_management
from ironic_lite.conductor import rpcapi_ports
from ironic_lite.conductor import rpcapi_power
from ironic_lite.conductor import rpcapi_provisioning
from ironic_lite.conductor import rpcapi_raid
from ironic_lite.conductor import rpcapi_rescue
from ironic_lite.conductor import rpcapi_servicing
from ironic_lite.conductor import rpcapi_traits
from ironic_lite.conductor import rpcapi_vendor
from ironic_lite.conductor import rpcapi_vif
from ironic_lite.conductor import rpcapi_vmedia
from ironic_lite.conductor import rpcapi_volume
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import factory
from ironic_lite.objects import base as objects_base

CONF = conf.CONF

# The one definition of the RPC API version; the manager's Target imports
# it, and it equals the last entry of ConductorAPI's history (a unit test
# checks both).
RPC_API_VERSION = '1.13'

# (version cap, version) -> whether a call of that version may be sent.
_CAN_SEND = {}

# A node's interface fields, checked against the release in force.
_INTERFACE_FIELDS = tuple('%s_interface' % i
                          for i in drivers_base.ALL_INTERFACES)


def conductor_rings(context):
    """The conductors' hash rings as they are now: a snapshot for
    ``conductor_for`` to map many nodes with (a page's)."""
    return hash_ring.RING_MANAGER.rings(context)


def conductor_for(context, node, rings=None):
    """The host name of the conductor the hash ring maps ``node`` to
    (what the API shows as the node's ``conductor``), from ``rings``
    (``conductor_rings``) when they serve the node."""
    if rings is not None:
        ring = rings.get((node.driver, node.conductor_group or ''))
        if ring is not None:
            return hash_ring.host_of(ring, node.uuid)
    return hash_ring.RING_MANAGER.get_host(
        context, node.uuid, node.driver, node.conductor_group)


class ConductorAPI(rpcapi_power.PowerCalls,
                   rpcapi_provisioning.ProvisioningCalls,
                   rpcapi_traits.TraitsCalls, rpcapi_vif.VifCalls,
                   rpcapi_management.ManagementCalls,
                   rpcapi_ports.PortsCalls, rpcapi_volume.VolumeCalls,
                   rpcapi_allocations.AllocationsCalls,
                   rpcapi_rescue.RescueCalls,
                   rpcapi_cleaning.CleaningCalls,
                   rpcapi_console.ConsoleCalls,
                   rpcapi_boot_mode.BootModeCalls,
                   rpcapi_indicators.IndicatorsCalls,
                   rpcapi_raid.RaidCalls, rpcapi_vendor.VendorCalls,
                   rpcapi_agent.AgentCalls,
                   rpcapi_servicing.ServicingCalls,
                   rpcapi_vmedia.VmediaCalls):
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
    |          set_indicator_state (release 5.0; rpcapi_boot_mode.py,
    |          rpcapi_indicators.py).
    |    1.9 - set_target_raid_config, get_raid_logical_disk_properties,
    |          vendor_passthru, driver_vendor_passthru,
    |          get_node_vendor_passthru_methods,
    |          get_driver_vendor_passthru_methods (release 5.0;
    |          rpcapi_raid.py, rpcapi_vendor.py).
    |    1.10 - heartbeat, get_node_with_token (the ramdisk's agent:
    |          /v1/heartbeat and /v1/lookup; rpcapi_agent.py).
    |    1.11 - continue_inspection (the agent's inspection data:
    |          /v1/continue_inspection; rpcapi_agent.py).
    |    1.12 - do_node_service (servicing an active node, API 1.87;
    |          rpcapi_servicing.py).
    |    1.13 - get_virtual_media, attach_virtual_media,
    |          detach_virtual_media (/v1/nodes/<n>/vmedia, API 1.89 and
    |          1.93; rpcapi_vmedia.py).
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
        cap = self.version_cap
        found = _CAN_SEND.get((cap, version))
        if found is None:
            # The library's answer, once per cap and version (a client
            # prepared per question was a fifth of a call's preparation).
            found = _CAN_SEND[cap, version] = self.client.prepare(
                version_cap=cap).can_send_version(version)
        return found

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

    def published_by(self, context, host):
        """What conductor ``host`` published of its hardware types'
        interfaces (``factory.published_interfaces``), as the hash ring
        last read it; None for a conductor of an older release."""
        return hash_ring.RING_MANAGER.published(context, host)

    def host_for_driver(self, context, driver_name):
        """A live conductor that enables ``driver_name``, at random
        (Ironic's ``get_topic_for_driver``).

        :raises: DriverNotFound (404) when none does.
        """
        hosts = sorted({host for (driver, _group), ring in
                        hash_ring.RING_MANAGER.rings(context).items()
                        if driver == driver_name for host in ring.nodes})
        if not hosts:
            raise exception.DriverNotFound(driver_name=driver_name,
                                           code=404)
        return random.choice(hosts)

    def _prepare(self, context, node, version, host=None):
        host = host or self.get_conductor_for(context, node)
        return self.client.prepare(server=host, version=version,
                                   version_cap=self.version_cap,
                                   retry=CONF.conductor.rpc_send_retries)

    def send(self, context, version, method, node=None, host=None,
             what=None, **kwargs):
        """Call ``method`` of RPC ``version`` on the node's conductor or
        on ``host``; with ``what``, refused first (409 PinnedRelease,
        nothing sent) while this service is pinned below ``version``.
        The caller is ``@rpc_errors.translated``."""
        if what is not None:
            self.check_can_send(version, what)
        cctxt = self._prepare(context, node, version, host=host)
        return hardware_gate.call(cctxt, context, method, **kwargs)

    @rpc_errors.translated
    def call_new_method(self, context, version, what, method, node=None,
                        host=None, **kwargs):
        """Call ``method``, which has no older form, of RPC ``version``
        on the node's conductor or on ``host``: refused (409 PinnedRelease,
        nothing sent) while this service is pinned below ``version``."""
        return self.send(context, version, method, node=node, host=host,
                         what=what, **kwargs)

    def call_node_method(self, context, node, version, method, what,
                         **kwargs):
        """``call_new_method`` on the node's conductor, for the node."""
        return self.call_new_method(context, version, what, method,
                                    node=node, node_id=node.uuid, **kwargs)

    # -- node records (manager.py) ----------------------------------------

    @rpc_errors.translated
    def create_node(self, context, node_obj):
        """Create a node (after the conductor validated its driver)."""
        release_pin.check_hardware_type(node_obj.driver)
        factory.check_interfaces_in_force(node_obj, [
            f for f in _INTERFACE_FIELDS if node_obj.obj_attr_is_set(f)])
        cctxt = self._prepare(context, node_obj, '1.0')
        return cctxt.call(context, 'create_node', node_obj=node_obj)

    @rpc_errors.translated
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
        delta = node_obj.obj_what_changed()
        if 'driver' in delta:
            release_pin.check_hardware_type(node_obj.driver)
        factory.check_interfaces_in_force(
            node_obj, [f for f in _INTERFACE_FIELDS if f in delta])
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

    @rpc_errors.translated
    def destroy_node(self, context, node):
        cctxt = self._prepare(context, node, '1.0')
        return cctxt.call(context, 'destroy_node', node_id=node.uuid)
