"""RPC plumbing: the transport ``[DEFAULT]rpc_transport`` chooses, and
oslo.messaging's: one transport per process, threading executor.

With ``json-rpc`` the client and server are json_rpc_client.py's and
json_rpc_server.py's (no broker); the server dispatches through the same
RPCDispatcher as oslo.messaging's (``get_server``).

With the in-process ``fake://`` transport (``ironic-lite``), a call to an
RPC server of this same process is dispatched at once in the caller's
thread (``LocalFirstClient``) instead of through the fake driver's queues,
which its listener polls every 50 ms (a node PATCH takes three times as
long through them: doc/source/admin/performance.rst).  It goes through
what a call over the wire goes through -- the client's serializer and
version cap, the check that the message encodes as JSON, the server's
dispatcher (its public ``dispatch``) with its version check, access
policy and serializer -- and it answers, and fails, as the fake driver
does.  Only public interfaces of oslo.messaging are used: the client
wraps the RPCClient, which carries casts, fanouts and calls to other
servers over the transport as before.
"""

import functools
import sys
import threading

from oslo_context import context as ctx_lib
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_messaging.rpc import dispatcher
from oslo_serialization import jsonutils
from oslo_utils import netutils

from ironic_lite.common import context as ir_context
from ironic_lite.common import json_rpc_client
from ironic_lite.common import json_rpc_server
from ironic_lite.common import metrics
from ironic_lite import conf
from ironic_lite.conf import json_rpc as json_rpc_conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)
TRANSPORT = None

# Exceptions raised by a conductor are re-raised, with their HTTP code, in
# the API that made the call.
ALLOWED_EXMODS = ['ironic_lite.common.exception']

# fake:// only: {(topic, server): RPCDispatcher} of this process's RPC
# servers that calls may reach in place (``serve_locally``).
_SERVED = {}
_SERVED_LOCK = threading.Lock()
_IN_PROCESS = False


def init(conf_=None):
    global TRANSPORT, _IN_PROCESS
    if TRANSPORT is None:
        TRANSPORT = messaging.get_rpc_transport(
            conf_ or CONF, allowed_remote_exmods=ALLOWED_EXMODS)
        url = messaging.TransportURL.parse(conf_ or CONF)
        _IN_PROCESS = url.transport == 'fake'
    return TRANSPORT


class _Incoming(object):
    """What the RPC dispatcher reads of a received message (no
    ``client_timeout``: no call-monitor heartbeats, the caller is here)."""

    client_timeout = None

    def __init__(self, ctxt, message):
        self.ctxt = ctxt
        self.message = message


def _dispatch_here(rpc_dispatcher, ctxt, message):
    """The result of ``message``, dispatched in this thread; an error is
    raised as the fake driver raises it: the server's exception itself."""
    caller = ctx_lib.get_current()
    try:
        return rpc_dispatcher.dispatch(_Incoming(ctxt, message))
    except messaging.ExpectedException as err:
        LOG.debug('Expected exception during message handling (%s)', err)
        raise err.exc_info[1]
    except Exception:
        LOG.exception('Exception during message handling')
        raise
    finally:
        # The server side made its own context the thread's current.
        if caller is not None:
            caller.update_store()


# The keywords of RPCClient.prepare() that change the target.
_TARGET_KEYS = ('exchange', 'topic', 'namespace', 'version', 'server',
                'fanout')


class LocalFirstClient(object):
    """An RPCClient (``prepare``, ``call``, ``cast``,
    ``can_send_version``) whose calls to a server of this process are
    dispatched in place; everything else goes through ``client``."""

    def __init__(self, client, target, serializer, version_cap):
        self.client = client  # the RPCClient, or what its prepare returned
        self.target = target
        self.serializer = serializer
        self.version_cap = version_cap

    def prepare(self, **kwargs):
        """RPCClient.prepare, remembering the target it prepares for."""
        target = self.target(**{k: v for k, v in kwargs.items()
                                if k in _TARGET_KEYS})
        return LocalFirstClient(
            self.client.prepare(**kwargs), target, self.serializer,
            kwargs.get('version_cap', self.version_cap))

    def can_send_version(self, *version):
        return self.client.can_send_version(*version)

    def cast(self, ctxt, method, **kwargs):
        return self.client.cast(ctxt, method, **kwargs)

    def call(self, ctxt, method, **kwargs):
        """RPCClient.call; in place when the target's server is served
        here (a fanout never is: a call cannot fan out)."""
        here = None
        if not self.target.fanout:
            here = _SERVED.get((self.target.topic, self.target.server))
        if here is None:
            return self.client.call(ctxt, method, **kwargs)
        message = self._message(ctxt, method, kwargs)
        result = _dispatch_here(
            here, self.serializer.serialize_context(ctxt), message)
        return self.serializer.deserialize_entity(ctxt, result)

    def _message(self, ctxt, method, kwargs):
        """The message RPCClient.call would send: the arguments
        serialized, the target's namespace and version, within the cap."""
        version = self.target.version
        if not self.client.can_send_version(version):
            raise messaging.RPCVersionCapError(
                version=version, version_cap=self.version_cap)
        message = {'method': method,
                   'args': {name: self.serializer.serialize_entity(ctxt, arg)
                            for name, arg in kwargs.items()}}
        if self.target.namespace is not None:
            message['namespace'] = self.target.namespace
        if version is not None:
            message['version'] = version
        jsonutils.dumps(message)  # as the fake driver checks every message
        return message


def serve_locally(target, server):
    """Let calls from this process to ``target`` skip the transport
    (fake:// only; a no-op otherwise), until ``unserve_locally``."""
    if _IN_PROCESS:
        with _SERVED_LOCK:
            _SERVED[(target.topic, target.server)] = server.dispatcher


def unserve_locally(target):
    with _SERVED_LOCK:
        _SERVED.pop((target.topic, target.server), None)


# The conductors' topic when [conductor]/topic is unset and
# [DEFAULT]/control_exchange is left at its default (Ironic's topic).
BASE_TOPIC = 'ironic.conductor_manager'
# The default exchange: "openstack" (oslo.messaging's default, the value
# the services have run with since release 1.0) or "ironic" (the one the
# sample configuration shows).  Either keeps the released topic, so that
# old and new services reach each other during a rolling upgrade.
DEFAULT_EXCHANGES = ('openstack', 'ironic')


# oslo.messaging's RabbitMQ driver polls the broker 1 ms after each
# message it receives, then 2, 4, 8 ... ms (up to 5 s) while nothing
# comes (``ACK_REQUEUE_EVERY_SECONDS_MIN`` of its amqpdriver module).
# A poll lets the connection's thread run what other threads queued for
# it: the acknowledgement or requeue of a *notification* an executor's
# thread has handled.  An RPC call is acknowledged by the callback that
# receives it (``RpcAMQPListener``, since oslo.messaging's bug 1695746)
# and a reply by the reply waiter's: no ironic-lite process listens to
# notifications, so the polls only wake its threads up -- some 0.2 ms
# of CPU each under the GIL, four per node PATCH in an API and three in
# its conductor.  In ironic-api and ironic-conductor they start at
# POLL_START (doc/source/admin/performance.rst); a message is taken as
# soon as it comes whatever the poll's timeout.
POLL_START = 0.05


def poll_lazily():
    """In a process that listens to no notifications over RabbitMQ
    (ironic-api, ironic-conductor): its connections' polls start at
    POLL_START after each message."""
    if transport() != 'oslo':
        return
    from oslo_messaging._drivers import amqpdriver as driver
    driver.ACK_REQUEUE_EVERY_SECONDS_MIN = max(
        POLL_START, driver.ACK_REQUEUE_EVERY_SECONDS_MIN)


def _register_transport_opts():
    from oslo_messaging import opts as messaging_opts
    for group, opts in messaging_opts.list_opts():
        if group is None:
            CONF.register_opts(opts)


def response_timeout():
    """``[DEFAULT]rpc_response_timeout``: how long an API waits for a
    conductor's answer (oslo.messaging's option, as Ironic's)."""
    _register_transport_opts()
    return CONF.rpc_response_timeout


def hardware_call_timeout():
    """Seconds a conductor waits for a BMC on behalf of a synchronous call
    (and of the power state sync, per node): a little less than
    ``[DEFAULT]rpc_response_timeout``, so that the API gets the
    conductor's clear answer (HardwareTimeout) before it stops waiting."""
    total = float(response_timeout())
    return max(1.0, total - min(5.0, total / 5))


def set_default_transport_url(url):
    """Change the default of ``[DEFAULT]/transport_url`` (before parsing)."""
    _register_transport_opts()
    CONF.set_default('transport_url', url)


def conductor_topic():
    """The conductors' RPC topic, i.e. the name of their broker queues.

    oslo.messaging's RabbitMQ driver names a queue after the topic alone,
    whatever the exchange: two deployments with different
    ``control_exchange`` values but one topic would share queues (each
    conductor taking the other deployment's calls).  So, unless
    ``[conductor]/topic`` is set, the topic carries the exchange when it
    is not the default one.
    """
    if CONF.conductor.topic:
        return CONF.conductor.topic
    _register_transport_opts()
    exchange = CONF.control_exchange
    if not exchange or exchange in DEFAULT_EXCHANGES:
        return BASE_TOPIC
    return '%s.%s' % (exchange, BASE_TOPIC)


def cleanup():
    global TRANSPORT, _IN_PROCESS
    if TRANSPORT is not None:
        TRANSPORT.cleanup()
    TRANSPORT = None
    _IN_PROCESS = False
    json_rpc_client.POOLS.clear()
    with _SERVED_LOCK:
        _SERVED.clear()


class RequestContextSerializer(messaging.Serializer):
    """Carries the request context; entities go through ``base`` (the
    objects' serializer, given by the caller: ``common/`` does not import
    the objects)."""

    def __init__(self, base):
        self._base = base or messaging.NoOpSerializer()

    def serialize_entity(self, context, entity):
        return self._base.serialize_entity(context, entity)

    def deserialize_entity(self, context, entity):
        return self._base.deserialize_entity(context, entity)

    def serialize_context(self, context):
        return context.to_dict()

    def deserialize_context(self, context):
        return ir_context.RequestContext.from_dict(context)


class TimedClient(object):
    """An RPC client (RPCClient or LocalFirstClient) whose calls and casts
    are observed in ``ironic_rpc_client_duration_seconds``."""

    def __init__(self, client):
        self.client = client

    def prepare(self, **kwargs):
        return TimedClient(self.client.prepare(**kwargs))

    def can_send_version(self, *version):
        return self.client.can_send_version(*version)

    def call(self, ctxt, method, **kwargs):
        with metrics.Timer(metrics.RPC_CLIENT_CALLS, method,
                           'call') as timer:
            try:
                return self.client.call(ctxt, method, **kwargs)
            except messaging.MessagingTimeout:
                timer.outcome = 'timeout'
                raise

    def cast(self, ctxt, method, **kwargs):
        with metrics.Timer(metrics.RPC_CLIENT_CALLS, method, 'cast'):
            return self.client.cast(ctxt, method, **kwargs)


class TimedEndpoint(object):
    """An RPC server's endpoint whose public methods are observed in
    ``ironic_rpc_server_duration_seconds``; what the dispatcher reads of
    it (``target``, ``hasattr``) is the endpoint's own."""

    def __init__(self, endpoint):
        self._endpoint = endpoint

    def __getattr__(self, name):
        found = getattr(self._endpoint, name)
        if name.startswith('_') or name == 'target' or not callable(found):
            return found

        def timed(*args, **kwargs):
            with metrics.Timer(metrics.RPC_SERVER_CALLS, name):
                return found(*args, **kwargs)
        return timed


def transport():
    """``[DEFAULT]rpc_transport``: oslo, json-rpc or none."""
    return CONF.rpc_transport


def set_conductor_host():
    """Make ``[DEFAULT]host`` the name the conductor of this process
    registers, locks nodes with and is called by.  With JSON-RPC the host
    must be the conductor's address, and is followed by ``:<port>`` when
    ``[json_rpc]port`` is not the default (as Ironic does), so that the
    API finds it."""
    port = CONF.json_rpc.port
    if transport() != 'json-rpc' or port == json_rpc_conf.DEFAULT_PORT:
        return
    suffix = ':%d' % port
    if not CONF.host.endswith(suffix):
        CONF.set_override('host', netutils.escape_ipv6(CONF.host) + suffix)


def use_in_process():
    """``rpc_transport = none`` in the all-in-one command: the in-process
    fake:// transport, whose calls the conductor of this process serves
    in place (``LocalFirstClient``)."""
    if transport() == 'none':
        _register_transport_opts()
        CONF.set_override('transport_url', 'fake://')
        CONF.set_override('rpc_transport', 'oslo')


def check_remote_transport(prog):
    """Exit with a clear message when ``rpc_transport = none`` is set for
    a service that has no conductor beside its API (as Ironic)."""
    if transport() == 'none':
        sys.exit('ERROR: %s cannot run with [DEFAULT]rpc_transport = none '
                 '(no RPC): use the all-in-one ironic command, or oslo or '
                 'json-rpc.' % prog)


def get_client(target, version_cap=None, serializer=None):
    """An RPC client; ``serializer`` converts the objects it sends.

    With json-rpc, a ``json_rpc_client.Client``; with fake://, a
    ``LocalFirstClient`` around the RPCClient (see the module's
    docstring).  Either is timed (``TimedClient``).
    """
    serializer = RequestContextSerializer(serializer)
    if transport() == 'json-rpc':
        timeout = CONF.json_rpc.timeout or response_timeout()
        return TimedClient(json_rpc_client.Client(
            CONF, serializer, version_cap=version_cap,
            version=target.version, timeout=timeout))
    client = messaging.get_rpc_client(
        init(), target, version_cap=version_cap, serializer=serializer)
    if _IN_PROCESS:
        client = LocalFirstClient(client, target, serializer, version_cap)
    return TimedClient(client)


def get_server(target, endpoints, serializer=None):
    """An RPC server; ``serializer`` converts the objects it receives.
    Its endpoints' methods are timed (``TimedEndpoint``).  With
    json-rpc, a ``json_rpc_server.Server`` dispatching through the same
    RPCDispatcher an oslo.messaging server would use."""
    endpoints = [TimedEndpoint(e) for e in endpoints]
    serializer = RequestContextSerializer(serializer)
    policy = dispatcher.DefaultRPCAccessPolicy
    if transport() == 'json-rpc':
        _register_transport_opts()
        rpc_dispatcher = dispatcher.RPCDispatcher(endpoints, serializer,
                                                  policy)
        return json_rpc_server.Server(
            CONF, functools.partial(_dispatch_here, rpc_dispatcher),
            rpc_dispatcher)
    return messaging.get_rpc_server(
        init(), target, endpoints, serializer=serializer,
        access_policy=policy)
