"""Running services in one process, with a graceful stop on signals.

A *service* is any object with ``start()`` and ``stop()`` (``stop`` lets
the work in flight finish, bounded by its own timeout).  ``run(services)``
starts them in order, waits for SIGTERM or SIGINT and stops them in
reverse order, so ``ironic-api``, ``ironic-conductor`` and the combined
``ironic-lite`` share one well-tested shutdown path.
"""

import signal
import threading

import oslo_messaging as messaging
from oslo_log import log as logging

from ironic_lite.common import rpc
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)

_STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


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
        self.rpcserver = rpc.get_server(target, [self.manager])
        self.rpcserver.start()
        LOG.info('RPC server of %s listening on topic %s', self.host,
                 self.topic)
        self.manager.register()

    def stop(self, timeout=None):
        self.manager.drain()
        if self.rpcserver is not None:
            LOG.info('Stopping the RPC server of %s', self.host)
            self.rpcserver.stop()
            self.rpcserver.wait()
            self.rpcserver = None
        return self.manager.del_host(timeout=timeout)


class Launcher(object):
    """Starts services, and stops them once ``request_stop`` is called."""

    def __init__(self, services):
        self.services = list(services)
        self._stop = threading.Event()
        self._started = []

    def request_stop(self, signum=None, frame=None):
        if signum is not None:
            LOG.info('Caught signal %s, stopping', signal.Signals(signum).name)
        self._stop.set()

    def start(self):
        for service in self.services:
            service.start()
            self._started.append(service)

    def wait(self, timeout=None):
        """Block until a stop is requested (or ``timeout``)."""
        return self._stop.wait(timeout)

    def stop(self):
        """Stop every started service, newest first; returns True if all
        stopped cleanly."""
        clean = True
        while self._started:
            service = self._started.pop()
            try:
                service.stop()
            except Exception:
                clean = False
                LOG.exception('Error stopping %s', service)
        return clean


def run(services):
    """Run ``services`` until SIGTERM/SIGINT; returns the exit code.

    0 after a graceful stop; 1 when a service fails to start or to stop.
    """
    launcher = Launcher(services)
    previous = {sig: signal.signal(sig, launcher.request_stop)
                for sig in _STOP_SIGNALS}
    try:
        try:
            launcher.start()
        except Exception:
            LOG.exception('Failed to start')
            launcher.stop()
            return 1
        while not launcher.wait(1.0):
            pass
        return 0 if launcher.stop() else 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        rpc.cleanup()
