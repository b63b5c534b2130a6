"""oslo.messaging plumbing: one transport per process, threading executor.

With the in-process ``fake://`` transport (``ironic-lite``), a call to an
RPC server of this same process is dispatched at once in the caller's
thread (``_LocalFirstDriver``) instead of through the fake driver's queues,
which its listener polls every 50 ms.  It goes through everything a call
over the wire goes through -- the client's serializer and version cap
(oslo.messaging's call context, unchanged), the check that the message
encodes as JSON, the server's dispatcher with its version check and
serializer -- and it answers, and fails, as the fake driver does.
"""

import threading

from oslo_context import context as ctx_lib
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_messaging.rpc import dispatcher
from oslo_serialization import jsonutils

from ironic_lite.common import context as ir_context
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)
TRANSPORT = None

# Exceptions raised by a conductor are re-raised, with their HTTP code, in
# the API that made the call.
ALLOWED_EXMODS = ['ironic_lite.common.exception']


def init(conf_=None):
    global TRANSPORT
    if TRANSPORT is None:
        TRANSPORT = messaging.get_rpc_transport(
            conf_ or CONF, allowed_remote_exmods=ALLOWED_EXMODS)
        url = messaging.TransportURL.parse(conf_ or CONF)
        if url.transport == 'fake':
            TRANSPORT._driver = _LocalFirstDriver(TRANSPORT._driver)
    return TRANSPORT


class _Incoming(object):
    """What the RPC dispatcher reads of a received message."""

    client_timeout = None

    def __init__(self, ctxt, message):
        self.ctxt = ctxt
        self.message = message


class _LocalFirstDriver(object):
    """The fake driver, but a call to a server of this process is
    dispatched in the calling thread (no polling, no thread hop)."""

    def __init__(self, driver):
        self._driver = driver
        self._local = {}
        self._lock = threading.Lock()

    def __getattr__(self, name):
        return getattr(self._driver, name)

    def serve(self, target, rpc_dispatcher):
        with self._lock:
            self._local[(target.topic, target.server)] = rpc_dispatcher

    def unserve(self, target):
        with self._lock:
            self._local.pop((target.topic, target.server), None)

    def send(self, target, ctxt, message, wait_for_reply=None, timeout=None,
             call_monitor_timeout=None, retry=None, transport_options=None):
        local = self._local.get((target.topic, target.server))
        if local is None or not wait_for_reply or target.fanout:
            return self._driver.send(
                target, ctxt, message, wait_for_reply=wait_for_reply,
                timeout=timeout, call_monitor_timeout=call_monitor_timeout,
                retry=retry, transport_options=transport_options)
        jsonutils.dumps(message)  # as the fake driver checks every message
        caller = ctx_lib.get_current()
        try:
            return local.dispatch(_Incoming(ctxt, message))
        except dispatcher.ExpectedException as err:
            LOG.debug('Expected exception during message handling (%s)',
                      err)
            raise err.exc_info[1]
        except Exception:
            LOG.exception('Exception during message handling')
            raise
        finally:
            # The server side made its own context the thread's current.
            if caller is not None:
                caller.update_store()


def serve_locally(target, server):
    """Let calls from this process to ``target`` skip the transport
    (fake:// only; a no-op otherwise), until ``unserve_locally``."""
    driver = getattr(TRANSPORT, '_driver', None)
    if isinstance(driver, _LocalFirstDriver):
        driver.serve(target, server.dispatcher)


def unserve_locally(target):
    driver = getattr(TRANSPORT, '_driver', None)
    if isinstance(driver, _LocalFirstDriver):
        driver.unserve(target)


# The conductors' topic when [conductor]/topic is unset and
# [DEFAULT]/control_exchange is left at its default (Ironic's topic).
BASE_TOPIC = 'ironic.conductor_manager'
# The default exchange: "openstack" (oslo.messaging's default, the value
# the services have run with since release 1.0) or "ironic" (the one the
# sample configuration shows).  Either keeps the released topic, so that
# old and new services reach each other during a rolling upgrade.
DEFAULT_EXCHANGES = ('openstack', 'ironic')


def _register_transport_opts():
    from oslo_messaging import opts as messaging_opts
    for group, opts in messaging_opts.list_opts():
        if group is None:
            CONF.register_opts(opts)


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
    global TRANSPORT
    if TRANSPORT is not None:
        TRANSPORT.cleanup()
    TRANSPORT = None


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


def get_client(target, version_cap=None, serializer=None):
    """An RPC client; ``serializer`` converts the objects it sends."""
    return messaging.get_rpc_client(
        init(), target, version_cap=version_cap,
        serializer=RequestContextSerializer(serializer))


def get_server(target, endpoints, serializer=None):
    """An RPC server; ``serializer`` converts the objects it receives."""
    return messaging.get_rpc_server(
        init(), target, endpoints,
        serializer=RequestContextSerializer(serializer),
        access_policy=dispatcher.DefaultRPCAccessPolicy)
