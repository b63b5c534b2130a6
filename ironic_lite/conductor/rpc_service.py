"""A conductor manager served over RPC, as a service of the launcher.

``RPCService`` is a *service* in the sense of ``common/launcher.py``: an
object with ``start()`` and ``stop()``.  The order of their steps is what
lets conductors restart one at a time with no call lost.
"""

import time

import oslo_messaging as messaging
from oslo_log import log as logging

from ironic_lite.common import rpc
from ironic_lite import conf
from ironic_lite.objects import base as objects_base

CONF = conf.CONF
LOG = logging.getLogger(__name__)

# Seconds of [DEFAULT]graceful_shutdown_timeout kept, after the wait for
# the work in flight, for the stop's last writes (releasing the node
# locks, going offline) before the launcher's bound ends the process.
LAST_WRITES = 2


class RPCService(object):
    """A conductor manager behind an RPC server on its topic and host.

    ``start`` prepares the manager (``init_host``), listens, and only
    then joins the hash ring (``register``).  ``stop`` leaves the ring
    while still listening (``drain``), stops listening, then lets the
    manager finish its work in flight (``del_host``).  Together they let
    conductors restart one at a time with no call lost.
    """

    def __init__(self, manager, host=None, topic=None):
        self.manager = manager
        self.host = host or manager.host
        self.topic = topic or manager.topic
        self.rpcserver = None

    def start(self):
        self.manager.init_host()
        target = messaging.Target(topic=self.topic, server=self.host)
        self.rpcserver = rpc.get_server(
            target, [self.manager],
            serializer=objects_base.IronicObjectSerializer())
        self.rpcserver.start()
        self._target = target
        rpc.serve_locally(target, self.rpcserver)
        LOG.info('RPC server of %s listening on topic %s (%s)', self.host,
                 self.topic, rpc.transport())
        self.manager.register()

    def stop(self, timeout=None):
        """Drain, stop listening, then wait for the work in flight for
        ``timeout`` seconds -- by default what is left of
        [DEFAULT]graceful_shutdown_timeout, which bounds the whole stop
        (common/launcher.py), less LAST_WRITES."""
        started = time.monotonic()
        self.manager.drain()
        if self.rpcserver is not None:
            LOG.info('Stopping the RPC server of %s', self.host)
            rpc.unserve_locally(self._target)
            self.rpcserver.stop()
            self.rpcserver.wait()
            self.rpcserver = None
        if timeout is None:
            spent = time.monotonic() - started
            timeout = max(0, CONF.graceful_shutdown_timeout - spent
                          - LAST_WRITES)
        return self.manager.del_host(timeout=timeout)
