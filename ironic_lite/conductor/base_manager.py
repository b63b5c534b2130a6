"""The conductor's life: registration, heartbeat, periodic tasks, stop.

``init_host`` releases what this host held in a previous life and starts
the worker pool; ``register`` (once the RPC server listens) joins the
conductors table, i.e. the hash ring, and starts the periodic tasks.
``drain`` (first step of a graceful stop) leaves the ring while still
serving; ``del_host`` refuses new work, waits for the work in flight up to
``[DEFAULT]graceful_shutdown_timeout``, releases the locks and marks the
conductor offline.
"""

import threading
import time

import futurist
from futurist import periodics
from oslo_log import log as logging

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite.common import release_pin
from ironic_lite.common import rpc
from ironic_lite import conf
from ironic_lite.conductor import agent
from ironic_lite.conductor import hash_ring
from ironic_lite.conductor import inspection
from ironic_lite.conductor import node_history
from ironic_lite.conductor import power
from ironic_lite.conductor import recovery
from ironic_lite.conductor import servicing
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
        self.topic = topic or rpc.conductor_topic()
        self.conductor = None
        self._pool = None
        self._periodic_worker = None
        self._periodic_thread = None
        self._keepalive_evt = None
        self._keepalive_thread = None
        self._context = ir_context.get_admin_context()
        self._drivers = []
        self._registered_types = None
        # What the registration published of the types' interfaces.
        self._published = None
        self._types_lock = threading.RLock()

    # -- start ------------------------------------------------------------

    def init_host(self):
        """Prepare to serve: check drivers, start the pool, recover locks.

        The conductor is not in the hash ring yet: ``register`` adds it
        once its RPC server listens, so no API routes a call to a
        conductor that cannot receive it.

        :raises: DriverNotFound if [DEFAULT]enabled_hardware_types names
            a hardware type this code does not have.
        :raises: InvalidParameterValue if an enabled hardware type has no
            default for an interface (Ironic's rules, drivers/factory.py).
        """
        objects.register_all()
        self._drivers = factory.enabled_hardware_types()
        factory.warn_unimplemented_interfaces()
        factory.check_default_interfaces(self._drivers)
        self._pool = worker_pool.WorkerPool(
            CONF.conductor.workers_pool_size,
            CONF.conductor.reserved_workers_pool_percentage)
        recovery.recover_own_nodes(self._context, self.host)

    def register(self):
        """Join the hash ring (the conductors table) and start periodics."""
        self._register_types()
        release_pin.on_recheck(self.follow_release)
        self._start_keepalive()
        self._start_periodics()
        LOG.info('Conductor %s started with hardware types %s', self.host,
                 ', '.join(self._registered_types) or '(none)')

    def types_in_force(self):
        """The enabled hardware types that the release in force has: a
        conductor pinned below the release that added a type does not
        register it, so no API routes such a node to it (and an API of
        that release answers "No valid host")."""
        have = release_pin.hardware_types()
        return [name for name in self._drivers if name in have]

    def _register_types(self):
        with self._types_lock:
            types = self.types_in_force()
            left_out = sorted(set(self._drivers) - set(types))
            if left_out:
                LOG.warning('Conductor %s does not register hardware '
                            'type(s) %s: release %s, in force, does not '
                            'have them', self.host, ', '.join(left_out),
                            release_pin.effective())
            published = self._publishes(types)
            self.conductor = objects.Conductor.register(
                self._context, self.host, types,
                CONF.conductor.conductor_group, update_existing=True,
                hardware_interfaces=published[1])
            self._registered_types = types
            self._published = published
        hash_ring.RING_MANAGER.reset()

    @staticmethod
    def _publishes(types):
        """What a registration now publishes of ``types``' interfaces
        (``factory.published_interfaces``), with the Conductor version it
        is written at: below 1.1 (pinned to an older release) it is not
        written, and APIs send every node creation to the conductors."""
        return (objects.Conductor.get_target_version(),
                factory.published_interfaces(types))

    def follow_release(self):
        """Register again when the release in force (``auto`` moving,
        SIGHUP) changes which enabled types this conductor may take, or
        what it publishes of their interfaces."""
        with self._types_lock:
            # None: not registered yet, or left the ring (drain, stop).
            types = self.types_in_force()
            if self._registered_types is None or (
                    types == self._registered_types
                    and self._published == self._publishes(types)):
                return
            LOG.info('Conductor %s: the release in force is now %s; '
                     'registering hardware types %s', self.host,
                     release_pin.effective() or 'this code\'s own',
                     ', '.join(self.types_in_force()) or '(none)')
            self._register_types()

    def drain(self):
        """Leave the hash ring while still serving RPC.

        The first step of a graceful stop: the conductor is marked offline
        (the heartbeat stops first, so it stays offline), and it keeps
        answering for ``[DEFAULT]hash_ring_reset_interval`` + 1 seconds,
        until every API and conductor has rebuilt its rings without it.
        Calls routed to it meanwhile are served normally.  Skipped when no
        other conductor is alive: nobody could take over.
        """
        self._stop_keepalive()
        self._stop_periodics()
        self._unregister()
        others = [c for c in objects.Conductor.list_active(
            self._context, CONF.conductor.heartbeat_timeout)
            if c.hostname != self.host]
        if others:
            wait = CONF.hash_ring_reset_interval + 1
            names = sorted(c.hostname for c in others)
            LOG.info('Conductor %s left the hash ring; serving for %ss '
                     'more while %s %s over', self.host, wait,
                     ', '.join(names), 'takes' if len(names) == 1 else 'take')
            time.sleep(wait)

    def _periodic_tasks(self):
        """(function, spacing) of each enabled periodic task."""
        tasks = []
        if CONF.conductor.check_provision_state_interval > 0:
            tasks.append((self._recover_dead_conductors,
                          CONF.conductor.check_provision_state_interval))
            # Also run once as the periodics start (the conductor has just
            # joined the ring): work interrupted while it was down.
            tasks.append((self._recover_interrupted,
                          CONF.conductor.check_provision_state_interval))
            if CONF.conductor.deploy_callback_timeout > 0:
                tasks.append((self._check_deploy_timeouts,
                              CONF.conductor.check_provision_state_interval))
            if CONF.conductor.inspect_wait_timeout > 0:
                tasks.append((self._check_inspect_wait_timeouts,
                              CONF.conductor.check_provision_state_interval))
            if CONF.conductor.service_callback_timeout > 0:
                tasks.append((self._check_service_timeouts,
                              CONF.conductor.check_provision_state_interval))
        if CONF.conductor.stale_lock_reclaim_interval > 0:
            tasks.append((self._reclaim_stale_locks,
                          CONF.conductor.stale_lock_reclaim_interval))
        if CONF.conductor.sync_power_state_interval > 0:
            tasks.append((self._sync_power_states,
                          CONF.conductor.sync_power_state_interval))
        if CONF.conductor.node_history_cleanup_interval > 0:
            tasks.append((self._cleanup_node_history,
                          CONF.conductor.node_history_cleanup_interval))
        return tasks

    # Periodic tasks that also run as soon as the periodics start.
    _RUN_AT_START = ('_recover_interrupted',)

    def _start_periodics(self):
        callables = []
        for func, spacing in self._periodic_tasks():
            # Decorate a fresh wrapper: a bound method takes no attributes.
            def task(func=func):
                func()
            task.__name__ = func.__name__
            now = func.__name__ in self._RUN_AT_START
            callables.append((periodics.periodic(
                spacing, run_immediately=now)(task), (), {}))
        if not callables:
            return
        # Each task in a thread of its own (up to periodic_max_workers):
        # a power sync waiting for BMCs does not delay the takeover of a
        # dead conductor's nodes.
        self._periodic_worker = periodics.PeriodicWorker(
            callables, executor_factory=lambda: futurist.ThreadPoolExecutor(
                max_workers=CONF.conductor.periodic_max_workers))
        self._periodic_thread = threading.Thread(
            target=self._periodic_worker.start, name='conductor-periodics',
            daemon=True)
        self._periodic_thread.start()

    def _start_keepalive(self):
        # The heartbeat has its own thread (as in Ironic): the periodic
        # worker runs its tasks one after another, so a long power sync
        # must not delay the heartbeat past heartbeat_timeout and make a
        # busy but healthy conductor look dead to the APIs.
        self._keepalive_evt = threading.Event()
        self._keepalive_thread = threading.Thread(
            target=self._keepalive, args=(self._keepalive_evt,),
            name='conductor-heartbeat', daemon=True)
        self._keepalive_thread.start()

    def _keepalive(self, stop_evt):
        while not stop_evt.wait(CONF.conductor.heartbeat_interval):
            self._heartbeat()

    def _stop_keepalive(self, timeout=None):
        if self._keepalive_evt is not None:
            self._keepalive_evt.set()
            self._keepalive_thread.join(timeout)
            self._keepalive_evt = None
            self._keepalive_thread = None

    # -- periodic tasks ---------------------------------------------------

    def _heartbeat(self):
        try:
            self.conductor.touch()
        except exception.ConductorNotFound:
            LOG.warning('Conductor %s was missing from the database; '
                        'registering it again', self.host)
            self._register_types()
        except Exception:
            LOG.exception('Conductor %s failed to heartbeat', self.host)

    def _recover_dead_conductors(self):
        try:
            recovery.recover_dead_conductors(self._context, self.host)
        except Exception:
            LOG.exception('Checking for offline conductors failed')

    def _recover_interrupted(self):
        try:
            recovery.recover_interrupted(self._context, self.host)
        except Exception:
            LOG.exception('Checking for interrupted operations failed')

    def _check_deploy_timeouts(self):
        try:
            agent.check_deploy_timeouts(self._context, self.host)
        except Exception:
            LOG.exception('Checking for deploy callback timeouts failed')

    def _check_inspect_wait_timeouts(self):
        try:
            inspection.check_inspect_wait_timeouts(self._context, self.host)
        except Exception:
            LOG.exception('Checking for inspect wait timeouts failed')

    def _check_service_timeouts(self):
        try:
            servicing.check_service_timeouts(self._context, self.host)
        except Exception:
            LOG.exception('Checking for service callback timeouts failed')

    def _reclaim_stale_locks(self):
        try:
            recovery.reclaim_stale_locks(self._context, self.host)
        except Exception:
            LOG.exception('Reclaiming stale node locks failed')

    def _sync_power_states(self):
        try:
            power.sync_power_states(self._context, self.host, self._pool)
        except Exception:
            LOG.exception('Power state sync failed')

    def _cleanup_node_history(self):
        try:
            node_history.cleanup_node_history(self._context, self.host)
        except Exception:
            LOG.exception('Node history cleanup failed')

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
        self._stop_keepalive(timeout)
        self._stop_periodics(timeout)
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

    def _stop_periodics(self, timeout=None):
        if self._periodic_worker is not None:
            self._periodic_worker.stop()
            self._periodic_worker.wait(timeout)
            self._periodic_thread.join(timeout)
            self._periodic_worker = None

    def _unregister(self):
        release_pin.no_recheck(self.follow_release)
        with self._types_lock:
            self._registered_types = None
        if self.conductor is None:
            return
        try:
            self.conductor.unregister()
        except exception.ConductorNotFound:
            pass
        except Exception:
            LOG.exception('Could not mark conductor %s offline', self.host)
        hash_ring.RING_MANAGER.reset()
