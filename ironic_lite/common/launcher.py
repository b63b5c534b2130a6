"""Running services in one process, with a graceful stop on signals.

A *service* is any object with ``start()`` and ``stop()`` (``stop`` lets
the work in flight finish, bounded by its own timeout).  ``run(services)``
starts them in order, waits for SIGTERM or SIGINT and stops them in
reverse order, so ``ironic-api``, ``ironic-conductor`` and the combined
``ironic-lite`` share one well-tested shutdown path.  The services
themselves: ``conductor/rpc_service.py`` (a conductor),
``service_reporter.py`` (the services table), ``common/wsgi.py``
(the API); the signals: ``common/signals.py``.  Once they have stopped
the RPC transport is closed, then whatever the command asked for
(``close``: the database connections, ``db.api.reset``, which
checkpoints an SQLite file first; ``common/`` does not import the
database layer).

The whole stop -- and the process's exit after it -- is bounded by
``[DEFAULT]graceful_shutdown_timeout`` (``StopWatchdog``): a step that
never ends (a database or broker that stopped answering without closing
the connection) cannot keep the process alive.
"""

import gc
import logging as std_logging
import os
import signal
import sys
import threading
import traceback

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import rpc
from ironic_lite.common import signals
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)


# The exit code of a process whose stop did not finish within
# [DEFAULT]graceful_shutdown_timeout (1: a service failed to start or
# stop; 0: a graceful stop).
EXIT_STOP_TIMED_OUT = 3


def flush_logs():
    for handler in std_logging.getLogger().handlers:
        try:
            handler.flush()
        except Exception:
            pass


class StopWatchdog(object):
    """Ends the process when its stop outlasts graceful_shutdown_timeout.

    ``arm()`` (the stop was asked for) starts the count; ``disarm()``
    ends the watch.  If neither the stop nor the process's exit is over
    by then, it logs what was not finished (``step``, and where the main
    thread was waiting) and ends the process at once with
    ``EXIT_STOP_TIMED_OUT``: the database writes of the stop (releasing
    node locks, going offline) may not have been made, and the other
    conductors recover the nodes as after a crash.  A timeout of 0 or
    less means no bound (as oslo.service).
    """

    def __init__(self, exit_process=None):
        self.step = 'the services to start'
        self._exit = exit_process or os._exit
        self._armed = threading.Event()
        self._done = threading.Event()
        self._main = threading.get_ident()
        self.thread = threading.Thread(target=self._watch,
                                       name='stop-watchdog', daemon=True)
        self.thread.start()

    def arm(self):
        self._armed.set()

    def disarm(self):
        self._done.set()
        self._armed.set()

    def _watch(self):
        self._armed.wait()
        timeout = CONF.graceful_shutdown_timeout
        if self._done.is_set() or timeout <= 0:
            return
        if self._done.wait(timeout):
            return
        frame = sys._current_frames().get(self._main)
        LOG.error('The stop did not finish within [DEFAULT]'
                  'graceful_shutdown_timeout (%ss); gave up waiting for '
                  '%s, exiting now with code %d.  Node locks this process '
                  'still holds are recovered by the other conductors as '
                  'after a crash.  The stop was waiting at:\n%s',
                  timeout, self.step, EXIT_STOP_TIMED_OUT,
                  ''.join(traceback.format_stack(frame)) if frame else '?')
        flush_logs()
        self._exit(EXIT_STOP_TIMED_OUT)


class _Unbounded(object):
    """No watchdog: a Launcher used on its own (tests)."""
    step = None

    def arm(self):
        pass

    def disarm(self):
        pass


def _describe(service):
    name = getattr(service, 'name', None) or getattr(service, 'host', None)
    return '%s %s' % (type(service).__name__, name or '')


class Launcher(object):
    """Starts services, and stops them once ``request_stop`` is called."""

    def __init__(self, services, watchdog=None):
        self.services = list(services)
        self._stop = threading.Event()
        self._started = []
        self.watchdog = watchdog or _Unbounded()

    def request_stop(self, signum=None, frame=None):
        if signum is not None:
            LOG.info('Caught signal %s, stopping', signal.Signals(signum).name)
        self.watchdog.arm()
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
        self.watchdog.arm()
        clean = True
        while self._started:
            service = self._started.pop()
            self.watchdog.step = 'stopping %s' % _describe(service)
            try:
                service.stop()
            except Exception:
                clean = False
                LOG.exception('Error stopping %s', service)
        return clean


# The collector's thresholds while serving: (objects allocated before a
# young collection, young collections per middle one, middle per full).
# Python's defaults (700, 10, 10) collect hundreds of times during one
# detailed page of 1,000 nodes (about 200,000 objects, all alive until
# the response is sent), several of them full collections of the whole
# heap.
GC_THRESHOLDS = (50000, 20, 20)


def tune_gc():
    """Move what the process built to start (modules, config, the ORM's
    metadata, the app) out of the collector's sight, and collect less
    often: the start-up objects live as long as the process, and a full
    collection walked all of them again and again while a large response
    was being built (a third of the time of a detailed page of 1,000
    nodes).  Garbage cycles are still collected, in fewer passes."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def run(services, watchdog=None, close=()):
    """Run ``services`` until SIGTERM/SIGINT; returns the exit code.

    SIGHUP reloads the mutable options and keeps running.  0 after a
    graceful stop; 1 when a service fails to start or to stop; the stop
    is bounded by ``watchdog`` (see ``StopWatchdog``).  A watchdog given
    is left armed: the caller's process exits next, and the bound covers
    that too (the interpreter joins the threads still running).  Without
    one, a watchdog of this call's own is disarmed on return.  ``close``
    are called once the services have stopped (whatever happened), after
    the RPC transport is closed.
    """
    own = watchdog is None
    launcher = Launcher(services, watchdog or StopWatchdog())
    # The handlers stay until the connections are closed: a second
    # SIGTERM during the stop (a supervisor, or an impatient operator)
    # is logged, and cannot kill the process before its SQLite file got
    # its write-ahead log back.
    with signals.handled(launcher.request_stop):
        try:
            return _start_wait_stop(launcher)
        finally:
            _close_connections(launcher.watchdog, close)
            if own:
                launcher.watchdog.disarm()


def _close_connections(watchdog, close):
    watchdog.step = ('closing the connections to the message broker and '
                     'the database')
    rpc.cleanup()
    # Every service has stopped: close the database connections (an
    # SQLite file gets its write-ahead log back, so that the file alone
    # holds the data).
    for func in close:
        func()
    watchdog.step = 'the threads still running to end'


def serve(services, close=()):
    """``run`` for a service command: the bound of the stop lasts until
    the process has exited."""
    return run(services, StopWatchdog(), close)


def _start_wait_stop(launcher):
    refused = None
    try:
        launcher.start()
        tune_gc()
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
