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

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite.common import rpc
from ironic_lite.common import upgrade_state
from ironic_lite import conf
from ironic_lite import objects
from ironic_lite.objects import service as service_obj
from ironic_lite import version

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
        self._target = target
        rpc.serve_locally(target, self.rpcserver)
        LOG.info('RPC server of %s listening on topic %s', self.host,
                 self.topic)
        self.manager.register()

    def stop(self, timeout=None):
        self.manager.drain()
        if self.rpcserver is not None:
            LOG.info('Stopping the RPC server of %s', self.host)
            rpc.unserve_locally(self._target)
            self.rpcserver.stop()
            self.rpcserver.wait()
            self.rpcserver = None
        return self.manager.del_host(timeout=timeout)


class ServiceReporter(object):
    """Records this process in the services table, with a heartbeat.

    Started before the service it reports on and stopped after it.
    ``start`` first refuses (``ServiceStartRefused``) to run a service
    unpinned while services of an older release are alive, unless
    ``[DEFAULT]/allow_unsafe_unpin`` is set; then it records the process
    (type, name, host, release, pin) and refreshes that record every
    ``[DEFAULT]/report_interval`` seconds.  ``stop`` marks it offline.
    """

    def __init__(self, service_type, name):
        self.service_type = service_type
        self.name = name
        self._context = ir_context.get_admin_context()
        self._stop = threading.Event()
        self._thread = None
        self._service = None

    def start(self):
        objects.register_all()
        self.check_unpin_is_safe()
        self._report()
        self._thread = threading.Thread(
            target=self._loop, name='service-report', daemon=True)
        self._thread.start()

    def check_unpin_is_safe(self):
        """Refuse an unpinned start while older releases are alive."""
        pin = CONF.pin_release_version
        if pin and pin != version.RELEASE:
            return
        try:
            records = service_obj.deployment_records(self._context)
        except Exception as err:
            # A database that is down (or not upgraded yet) must not keep
            # a service from starting: it answers 503 until the database
            # is back, as before.
            LOG.warning('Could not read the services table to check that '
                        'no older release is alive (%s); starting anyway',
                        err)
            return
        blockers = upgrade_state.unpin_blockers(
            records, version.RELEASE, own=(self.service_type, self.name))
        if not blockers:
            return
        names = '; '.join(upgrade_state.describe(r) for r in blockers)
        if CONF.allow_unsafe_unpin:
            LOG.warning('Starting %s %s unpinned although older services '
                        'are alive ([DEFAULT]/allow_unsafe_unpin): %s',
                        self.service_type, self.name, names)
            return
        raise exception.ServiceStartRefused(reason=(
            'Refusing to start %(type)s %(name)s of release %(rel)s without '
            '[DEFAULT]/pin_release_version: services of an older release '
            'are alive and could not read what it writes and sends: '
            '%(names)s. Set pin_release_version = %(pin)s until every '
            'service runs %(rel)s (see "ironic-status upgrade check"), or '
            'set [DEFAULT]/allow_unsafe_unpin = true if those services '
            'are in fact gone.' % {
                'type': self.service_type, 'name': self.name,
                'rel': version.RELEASE, 'names': names,
                'pin': upgrade_state.previous_release(version.RELEASE)}))

    def _report(self):
        try:
            self._service = objects.Service.report(
                self._context, self.service_type, self.name, CONF.host)
        except Exception:
            LOG.warning('Could not record %s %s in the services table',
                        self.service_type, self.name, exc_info=True)

    def _loop(self):
        while not self._stop.wait(CONF.report_interval):
            self._report()

    def stop(self, timeout=None):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._service is not None:
            try:
                self._service.stop()
            except Exception:
                LOG.warning('Could not mark %s %s offline',
                            self.service_type, self.name, exc_info=True)


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


def reload_config(signum=None, frame=None):
    """SIGHUP: re-read the configuration files.

    Only options marked mutable change (oslo.config logs a warning for any
    other option that changed in the files: those take a restart).
    """
    LOG.info('Caught SIGHUP, reloading the configuration files')
    try:
        CONF.mutate_config_files()
    except Exception:
        LOG.exception('Reloading the configuration failed; keeping the '
                      'running configuration')


def run(services):
    """Run ``services`` until SIGTERM/SIGINT; returns the exit code.

    SIGHUP reloads the mutable options and keeps running.  0 after a
    graceful stop; 1 when a service fails to start or to stop.
    """
    launcher = Launcher(services)
    previous = {sig: signal.signal(sig, launcher.request_stop)
                for sig in _STOP_SIGNALS}
    previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, reload_config)
    try:
        refused = None
        try:
            launcher.start()
        except exception.ServiceStartRefused as err:
            refused = str(err)
        except Exception:
            LOG.exception('Failed to start')
            launcher.stop()
            return 1
        if refused:
            # Logged outside the except block: the reason, no traceback.
            LOG.error('%s', refused)
            launcher.stop()
            return 1
        while not launcher.wait(1.0):
            pass
        return 0 if launcher.stop() else 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        rpc.cleanup()
