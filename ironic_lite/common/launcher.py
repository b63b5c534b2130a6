"""Running services in one process, with a graceful stop on signals.

A *service* is any object with ``start()`` and ``stop()`` (``stop`` lets
the work in flight finish, bounded by its own timeout).  ``run(services)``
starts them in order, waits for SIGTERM or SIGINT and stops them in
reverse order, so ``ironic-api``, ``ironic-conductor`` and the combined
``ironic-lite`` share one well-tested shutdown path.  The services
themselves: ``common/rpc_service.py`` (a conductor),
``common/service_reporter.py`` (the services table), ``common/wsgi.py``
(the API); the signals: ``common/signals.py``.  Once they have stopped
the database connections are closed (``db/api.py``: an SQLite file is
checkpointed first).
"""

import gc
import signal
import threading

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import rpc
from ironic_lite.common import signals
from ironic_lite.db import api as db_api

LOG = logging.getLogger(__name__)


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


def run(services):
    """Run ``services`` until SIGTERM/SIGINT; returns the exit code.

    SIGHUP reloads the mutable options and keeps running.  0 after a
    graceful stop; 1 when a service fails to start or to stop.
    """
    launcher = Launcher(services)
    try:
        with signals.handled(launcher.request_stop):
            return _start_wait_stop(launcher)
    finally:
        rpc.cleanup()
        # Every service has stopped: close the database connections (an
        # SQLite file gets its write-ahead log back, so that the file
        # alone holds the data).
        db_api.reset()


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
