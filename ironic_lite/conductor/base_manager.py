"""The conductor's life: registration, heartbeat, periodic tasks, stop.

``init_host`` (start) releases what this host held in a previous life,
registers it in the conductors table and starts the periodic tasks;
``del_host`` (graceful stop) refuses new work, waits for the work in
flight up to ``[DEFAULT]graceful_shutdown_timeout``, releases the locks and
marks the conductor offline.
"""

import threading

from futurist import periodics
from oslo_log import log as logging

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite.common import hash_ring
from ironic_lite import conf
from ironic_lite.conductor import power
from ironic_lite.conductor import recovery
from ironic_lite.conductor import worker_pool
from ironic_lite.drivers import factory
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)


class BaseConductorManager(object):
    """Lifecycle half of the conductor; ``manager.ConductorManager`` adds
    the RPC methods."""

    def __init__(self, host=None, topic=None):
        self.host = host or CONF.host
        self.topic = topic or CONF.conductor.topic
        self.conductor = None
        self._pool = None
        self._periodic_worker = None
        self._periodic_thread = None
        self._context = ir_context.get_admin_context()

    # -- start ------------------------------------------------------------

    def init_host(self):
        """Register this conductor and start its periodic tasks.

        :raises: DriverNotFound if [conductor]enabled_hardware_types names
            a hardware type this code does not have.
        """
        objects.register_all()
        drivers = factory.enabled_hardware_types()
        self._pool = worker_pool.WorkerPool(CONF.conductor.workers_pool_size)
        recovery.recover_own_nodes(self._context, self.host)
        self.conductor = objects.Conductor.register(
            self._context, self.host, drivers,
            CONF.conductor.conductor_group, update_existing=True)
        hash_ring.RING_MANAGER.reset()
        self._start_periodics()
        LOG.info('Conductor %s started with hardware types %s', self.host,
                 ', '.join(drivers))

    def _periodic_tasks(self):
        """(function, spacing) of each enabled periodic task."""
        tasks = [(self._heartbeat, CONF.conductor.heartbeat_interval)]
        if CONF.conductor.check_provision_state_interval > 0:
            tasks.append((self._recover_dead_conductors,
                          CONF.conductor.check_provision_state_interval))
        if CONF.conductor.sync_power_state_interval > 0:
            tasks.append((self._sync_power_states,
                          CONF.conductor.sync_power_state_interval))
        return tasks

    def _start_periodics(self):
        callables = []
        for func, spacing in self._periodic_tasks():
            # Decorate a fresh wrapper: a bound method takes no attributes.
            def task(func=func):
                func()
            task.__name__ = func.__name__
            callables.append((periodics.periodic(spacing)(task), (), {}))
        self._periodic_worker = periodics.PeriodicWorker(callables)
        self._periodic_thread = threading.Thread(
            target=self._periodic_worker.start, name='conductor-periodics',
            daemon=True)
        self._periodic_thread.start()

    # -- periodic tasks ---------------------------------------------------

    def _heartbeat(self):
        try:
            self.conductor.touch()
        except exception.ConductorNotFound:
            LOG.warning('Conductor %s was missing from the database; '
                        'registering it again', self.host)
            self.conductor = objects.Conductor.register(
                self._context, self.host, factory.enabled_hardware_types(),
                CONF.conductor.conductor_group, update_existing=True)
        except Exception:
            LOG.exception('Conductor %s failed to heartbeat', self.host)

    def _recover_dead_conductors(self):
        try:
            recovery.recover_dead_conductors(self._context, self.host)
        except Exception:
            LOG.exception('Checking for offline conductors failed')

    def _sync_power_states(self):
        try:
            power.sync_power_states(self._context, self.host)
        except Exception:
            LOG.exception('Power state sync failed')

    def _spawn_worker(self, func, *args, **kwargs):
        """Run ``func`` in the worker pool (NoFreeConductorWorker if full)."""
        return self._pool.spawn(func, *args, **kwargs)

    # -- stop -------------------------------------------------------------

    def del_host(self, timeout=None):
        """Stop gracefully: finish work in flight, release, go offline.

        :param timeout: seconds to wait for work in flight (default
            [DEFAULT]graceful_shutdown_timeout).
        :returns: the number of operations still running at the deadline.
        """
        if timeout is None:
            timeout = CONF.graceful_shutdown_timeout
        left = 0
        if self._pool is not None:
            self._pool.stop_accepting()
        if self._periodic_worker is not None:
            self._periodic_worker.stop()
            self._periodic_worker.wait(timeout)
            self._periodic_thread.join(timeout)
        if self._pool is not None:
            left = self._pool.wait(timeout)
        if left:
            # Their nodes stay locked by this host: they are failed when
            # it starts again, or by another conductor once this one's
            # heartbeat is older than [conductor]heartbeat_timeout.
            LOG.warning('Conductor %s stopping with %d operation(s) still '
                        'running after %ss', self.host, left, timeout)
        else:
            released = objects.Node.release_all_for_host(self._context,
                                                         self.host)
            if released:
                LOG.warning('Released %d node lock(s) at stop', released)
        self._unregister()
        if self._pool is not None:
            self._pool.shutdown(wait=False)
        LOG.info('Conductor %s stopped', self.host)
        return left

    def _unregister(self):
        if self.conductor is None:
            return
        try:
            self.conductor.unregister()
        except exception.ConductorNotFound:
            pass
        except Exception:
            LOG.exception('Could not mark conductor %s offline', self.host)
        hash_ring.RING_MANAGER.reset()
