"""Client side of the conductor RPC API."""

import functools
import socket

import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import hash_ring
from ironic_lite.common import release_mappings
from ironic_lite.common import rpc
from ironic_lite import conf

CONF = conf.CONF

# The one definition of the RPC API version; the manager's Target imports
# it, and it equals the last entry of ConductorAPI's history (a unit test
# checks both).
RPC_API_VERSION = '1.1'


# Remote errors of a conductor that cannot read what it was sent.
_TOO_NEW_FOR_THE_CONDUCTOR = ('UnsupportedVersion',
                              'IncompatibleObjectVersion')


def _broker_unreachable(transport_url):
    """The broker hosts of a URL that refuse a TCP connection (or None).

    oslo.messaging retries forever to open the connection on which replies
    arrive, so a call made while the broker is down would hang: after a
    failure, each call first checks the broker is there at all.
    """
    url = messaging.TransportURL.parse(CONF, transport_url)
    hosts = [(h.hostname, h.port or 5672) for h in url.hosts if h.hostname]
    if not hosts or url.transport in ('fake', 'kafka'):
        return None
    for host, port in hosts:
        try:
            socket.create_connection((host, port), timeout=2).close()
            return None
        except OSError:
            continue
    return ', '.join('%s:%s' % hp for hp in hosts)


def _rpc_errors(func):
    """Turn a dead broker or a silent conductor into a clear 503."""
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        if not self._broker_ok:
            down = _broker_unreachable(CONF.transport_url)
            if down:
                raise exception.ServiceUnavailable(
                    reason='The message broker (%s) cannot be reached; the '
                           'request was not carried out, please retry '
                           'later.' % down)
        try:
            result = func(self, *args, **kwargs)
        except messaging.MessagingTimeout:
            raise exception.ServiceUnavailable(
                reason='The conductor did not answer in time; the operation '
                       'may still complete, please check and retry.')
        except messaging.MessageDeliveryFailure as err:
            self._broker_ok = False
            raise exception.ServiceUnavailable(
                reason='The message broker cannot be reached: %s' % err)
        except messaging.RemoteError as err:
            if err.exc_type in _TOO_NEW_FOR_THE_CONDUCTOR:
                # An API unpinned before the conductors (upgrade step 6.3
                # before 6.1): nothing was done; retrying will not help.
                raise exception.ConductorTooOld(version=self.version_cap)
            raise exception.ServiceUnavailable(
                reason='RPC to the conductor failed: %s: %s'
                       % (err.exc_type, err.value))
        except messaging.MessagingException as err:
            if isinstance(err, exception.IronicException):
                raise
            self._broker_ok = False
            raise exception.ServiceUnavailable(
                reason='RPC to the conductor failed: %s' % err)
        self._broker_ok = True
        return result
    return wrapper


class ConductorAPI(object):
    """Client side of the conductor RPC API.

    API version history (append only; RPC_API_VERSION is the last line):

    |    1.0 - Initial version (release 1.0): create_node, update_node,
    |          destroy_node, change_node_power_state,
    |          do_provisioning_action, do_node_deploy, do_node_tear_down.
    |    1.1 - update_node takes an optional reset_interfaces (release 2.0).
    """

    RPC_API_VERSION = RPC_API_VERSION

    def __init__(self, topic=None):
        self.topic = topic or CONF.conductor.topic
        target = messaging.Target(topic=self.topic, version='1.0')
        pinned = release_mappings.get_release(CONF.pin_release_version)
        self.version_cap = pinned['rpc'] if pinned else RPC_API_VERSION
        self.client = rpc.get_client(target, version_cap=self.version_cap)
        # False until a call went through, and after a broker failure.
        self._broker_ok = False

    def can_send_version(self, version):
        return self.client.can_send_version(version)

    def get_conductor_for(self, context, node):
        """The host name of the conductor that owns ``node``."""
        return hash_ring.RING_MANAGER.get_host(
            context, node.uuid, node.driver, node.conductor_group)

    def _prepare(self, context, node, version, host=None):
        host = host or self.get_conductor_for(context, node)
        return self.client.prepare(server=host, version=version,
                                   retry=CONF.conductor.rpc_send_retries)

    @_rpc_errors
    def create_node(self, context, node_obj):
        """Create a node (after the conductor validated its driver)."""
        cctxt = self._prepare(context, node_obj, '1.0')
        return cctxt.call(context, 'create_node', node_obj=node_obj)

    @_rpc_errors
    def update_node(self, context, node_obj, reset_interfaces=None):
        """Save a node's changes under the conductor's lock.

        :param reset_interfaces: with a driver change, reset the interfaces
            not given to the new type's defaults.  Sent only at 1.1; pinned
            to 1.0 it is dropped, and the conductor behaves as release 1.0
            did (it resets only the interfaces the new type lacks).
        """
        kwargs = {'node_obj': node_obj}
        version = '1.0'
        if self.can_send_version('1.1'):
            version = '1.1'
            kwargs['reset_interfaces'] = reset_interfaces
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
    def do_node_deploy(self, context, node, rebuild=False, configdrive=None):
        cctxt = self._prepare(context, node, '1.0')
        return cctxt.call(context, 'do_node_deploy', node_id=node.uuid,
                          rebuild=rebuild, configdrive=configdrive)

    @_rpc_errors
    def do_node_tear_down(self, context, node):
        cctxt = self._prepare(context, node, '1.0')
        return cctxt.call(context, 'do_node_tear_down', node_id=node.uuid)
