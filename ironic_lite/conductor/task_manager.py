"""Node locks and the ``task`` every conductor operation works through.

::

    with task_manager.acquire(context, node_id, purpose='node deployment')
            as task:
        task.process_event('deploy', pool=worker_pool,
                           call_args=(deployments.do_node_deploy, task))

An exclusive task holds the node's lock (its ``reservation`` column set to
this conductor's host) from ``acquire`` until the ``with`` block ends --
or, if work was handed to a worker with ``spawn_after``, until that work
ends, whatever its outcome.  A shared task only reads the node.

Every write of an exclusive task is fenced by its reservation (host and a
random token taken with the lock): ``task.node.save()`` and ``destroy()``
directly, other rows written under the lock through ``task.fenced``.  A
write made after the lock was broken (this conductor was taken for dead)
raises NodeLockLost, writes nothing, and ends the task.
"""

import collections
import threading
import time

from oslo_db import exception as db_exc
from oslo_log import log as logging
import sqlalchemy.exc as sa_exc

from ironic_lite.common import exception
from ironic_lite.common import metrics
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import phase_secrets
from ironic_lite.conductor import utils
from ironic_lite.drivers import factory
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)

# The database was unreachable (oslo.db wraps most of these, but not a
# failure of the very first connection).
_DB_OUTAGE = (db_exc.DBConnectionError, db_exc.DBDeadlock,
              sa_exc.OperationalError, sa_exc.InterfaceError)
# Events after which a worker has nothing left to do: if the write of one
# fails because the database is unreachable, the work is done and only
# that write is missing, so it is retried (``_save_unsaved_end``).
_END_EVENTS = ('done', 'wait')


# The nodes (by the id or UUID given to ``acquire``) whose lock a task of
# this process holds or is taking: a reservation by this host of a node
# not in here is stale (its release failed) and ``reclaim_stale_locks``
# clears it.  A key is added *before* the reservation is written, and the
# reclaim checks and clears under the same lock, so it never clears the
# lock of a task that is taking it.
_HELD = collections.Counter()
_HELD_LOCK = threading.Lock()
# Notified when a key leaves _HELD (its lock released, or not taken).
_HELD_GONE = threading.Condition(_HELD_LOCK)


def _hold(key, delta):
    with _HELD_LOCK:
        _HELD[key] += delta
        if _HELD[key] <= 0:
            del _HELD[key]
            _HELD_GONE.notify_all()


def _wait_for_local_holder(keys, deadline):
    """When a task of this process holds the node (under any of ``keys``:
    its id and UUID, as tasks name it either way): wait until it lets go,
    up to ``deadline`` (monotonic).  'free' when it did, 'late' when the
    deadline came first, None when no task here holds it."""
    with _HELD_LOCK:
        if not any(key in _HELD for key in keys):
            return None
        released = _HELD_GONE.wait_for(
            lambda: not any(key in _HELD for key in keys),
            max(0.0, deadline - time.monotonic()))
        return 'free' if released else 'late'


def _reserve(context, node_id, retry):
    """Take the node's lock, retrying while another host holds it.

    A lock held by another task of this process (two operations on one
    node from this conductor, say) is waited for: the next attempt is
    made as soon as that task releases it, rather than after a fixed
    interval, and such waits do not use up attempts; they end within the
    time the retries would take (``node_locked_retry_attempts`` x
    ``node_locked_retry_interval``).
    """
    key = str(node_id)

    def reserve():
        _hold(key, 1)
        try:
            return objects.Node.reserve(context, CONF.host, node_id)
        except Exception:
            _hold(key, -1)
            raise
    return _retry_while_locked(key, retry, reserve)


def _retry_while_locked(key, retry, attempt_to):
    """``attempt_to()`` again while it raises NodeLocked: at once when a
    task of this process held the lock and let it go, else after
    ``node_locked_retry_interval``, up to ``node_locked_retry_attempts``
    more times (none without ``retry``)."""
    retries = CONF.conductor.node_locked_retry_attempts if retry else 0
    interval = CONF.conductor.node_locked_retry_interval
    began = time.monotonic()
    deadline = began + retries * interval
    attempt, locked = 0, False
    while True:
        try:
            result = attempt_to()
        except exception.NodeLocked as err:
            locked = True
            # The error names the node by UUID, a task may hold it by id.
            keys = {key, str(err.kwargs.get('node'))}
            waited = _wait_for_local_holder(keys, deadline)
            if waited == 'free':
                continue
            attempt += 1
            if waited == 'late' or attempt > retries:
                _lock_waited(began, 'gave_up')
                raise
            time.sleep(interval)
        else:
            if locked:
                _lock_waited(began, 'acquired')
            return result


def _lock_waited(began, outcome):
    metrics.LOCK_WAITS.labels(outcome).observe(time.monotonic() - began)


def write_unless_locked(context, node_id, write, purpose):
    """Run ``write()`` (a port or port group change) as if under the
    node's lock, in one transaction: no task may hold the node's lock,
    and none can take it until the write commits (see
    ``Node.write_unless_locked``).  Retried while the node is locked, as
    ``acquire`` is.  Returns what ``write`` returns."""
    return retry_while_locked(
        node_id,
        lambda: objects.Node.write_unless_locked(context, node_id, write),
        purpose)


def retry_while_locked(node_id, write, purpose):
    """``write()``, which refuses (NodeLocked) while a task holds the node
    (the node's id), retried as ``acquire`` is.  Returns what ``write``
    returns."""
    result = _retry_while_locked(str(node_id), True, write)
    LOG.debug('Node %s written for %s', node_id, purpose)
    return result


def reclaim_stale_locks(context, host):
    """Release the nodes ``host`` (this process) reserved but no task
    holds: locks whose release failed (a dropped database connection, a
    deadlock beyond the retries).  Returns the UUIDs released.
    """
    released = []
    for node_id, uuid in objects.Node.list_reserved_ids(context, host):
        with _HELD_LOCK:
            if str(node_id) in _HELD or uuid in _HELD:
                continue
            try:
                objects.Node.release(context, host, uuid)
            except (exception.NodeNotFound, exception.NodeLocked,
                    exception.NodeNotLocked):
                continue
        released.append(uuid)
        LOG.warning('Released the stale lock of host %s on node %s (no '
                    'task held it: an earlier release failed)', host, uuid)
    return released


class TaskManager(object):
    """A node, its hardware type and (unless shared) its lock."""

    def __init__(self, context, node_id, shared=False, purpose='unspecified',
                 retry=True, load_driver=True):
        self.context = context
        self.shared = shared
        self.purpose = purpose
        self.node = None
        self.driver = None
        self._slot = None
        self._spawn_args = None
        self._on_error = None
        self._locked = False
        self._unsaved_end = None
        self._held_key = str(node_id)
        if shared:
            self.node = objects.Node.get(context, node_id)
        else:
            self.node = _reserve(context, node_id, retry)
            self._locked = True
        LOG.debug('Node %s %s for %s', self.node.uuid,
                  'read' if shared else 'locked by %s' % CONF.host, purpose)
        try:
            if load_driver:
                self.driver = factory.get_driver_for(self.node)
        except Exception:
            self.release_resources()
            raise

    # -- the lock ---------------------------------------------------------

    def release_resources(self):
        """Release the node's lock, if this task holds it."""
        if not self._locked:
            return
        self._locked = False
        try:
            # Retried on a deadlock or a dropped connection (db layer).
            # Only this task's reservation: not one taken since it was
            # broken (by this host too).
            objects.Node.release(self.context, CONF.host, self.node.uuid,
                                 token=self.node.lock_fence[1])
        except exception.NodeNotFound:
            pass  # deleted under this lock
        except (exception.NodeLocked, exception.NodeNotLocked) as err:
            LOG.warning('Releasing node %s for %s: %s', self.node.uuid,
                        self.purpose, err)
        except Exception:
            # The database stayed unreachable: no task holds the node any
            # more, so the periodic reclaim_stale_locks releases it.
            LOG.exception('Could not release node %s after %s; its lock '
                          'will be reclaimed within [conductor]'
                          'stale_lock_reclaim_interval', self.node.uuid,
                          self.purpose)
        finally:
            _hold(self._held_key, -1)

    def fenced(self, write):
        """``write()`` (ports, port groups, traits under the node's lock)
        in one transaction, applied only while this task still holds the
        lock (NodeLockLost otherwise, nothing written)."""
        if not self._locked:
            raise exception.NodeNotLocked(node=self.node.uuid,
                                          host=CONF.host)
        return objects.Node.write_if_held(self.context, self.node.id,
                                          self.node.lock_fence, write)

    def lock_lost(self, err):
        """Log a write dropped because the lock was broken."""
        LOG.warning('%s of node %s stopped: %s Another conductor took '
                    'the node over (this one was taken for dead, or '
                    'restarted).', self.purpose, self.node.uuid, err)

    # -- handing work to a worker -----------------------------------------

    def spawn_after(self, pool, func, *args, **kwargs):
        """Run ``func(*args, **kwargs)`` in ``pool`` when the block exits.

        A worker is claimed now (NoFreeConductorWorker, before anything
        is written); the lock passes to the worker, which releases it.
        """
        slot = pool.claim()
        if self._slot is not None:
            self._slot.cancel()
        self._slot = slot
        self._spawn_args = (func, args, kwargs)

    def set_spawn_error_hook(self, handler, *args, **kwargs):
        """``handler(exc, *args, **kwargs)`` if the spawned work raises."""
        self._on_error = (handler, args, kwargs)

    def _run_spawned(self):
        func, args, kwargs = self._spawn_args
        try:
            func(*args, **kwargs)
        except exception.NodeLockLost as err:
            self.lock_lost(err)
        except Exception as err:
            if self._unsaved_end and isinstance(err, _DB_OUTAGE):
                self._save_unsaved_end(err)
            else:
                LOG.exception('%s of node %s failed', self.purpose,
                              self.node.uuid)
                self._run_error_hook(err)
        finally:
            self.release_resources()

    def _run_error_hook(self, err):
        if self._on_error is None:
            return
        handler, h_args, h_kwargs = self._on_error
        try:
            handler(err, *h_args, **h_kwargs)
        except exception.NodeLockLost as lost:
            self.lock_lost(lost)
        except Exception:
            LOG.exception('Error handler of %s failed', self.purpose)

    def _save_unsaved_end(self, err):
        """The work succeeded but the database dropped when its end was
        written: write it again (still fenced, the lock still held)
        until it goes through, the lock turns out lost, or
        [conductor]completion_write_retry_timeout passes.  Given up, the
        node stays locked in its transitional state: the lock is reclaimed
        and the node failed once the database answers (recovery)."""
        event, node = self._unsaved_end, self.node
        LOG.warning('%s of node %s: writing its end (event %s) failed, the '
                    'database is unreachable (%s); retrying for up to %ss',
                    self.purpose, node.uuid, event, err,
                    CONF.conductor.completion_write_retry_timeout)
        deadline = (time.monotonic()
                    + CONF.conductor.completion_write_retry_timeout)
        delay = 0.5
        while time.monotonic() < deadline:
            time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
            delay = min(delay * 2, 5.0)
            try:
                node.save()
            except exception.NodeLockLost as lost:
                return self.lock_lost(lost)
            except _DB_OUTAGE:
                continue
            self._unsaved_end = None
            LOG.warning('%s of node %s: its end (event %s) written once the '
                        'database answered again; now %s', self.purpose,
                        node.uuid, event, node.provision_state)
            return
        LOG.error('%s of node %s: gave up writing its end (event %s); the '
                  'node will be failed once its lock is reclaimed',
                  self.purpose, node.uuid, event)

    # -- the provision state machine --------------------------------------

    def process_event(self, event, pool=None, call_args=(),
                      call_kwargs=None, target_state=None, last_error=None):
        """Move the node through the state machine and save it.

        :param pool: a WorkerPool (Ironic passes a ``callback`` that
            spawns a worker); when given, ``call_args[0]`` is run in it
            with the rest of ``call_args`` after the block exits, and
            ``last_error`` is cleared.
        :raises: InvalidStateRequested (nothing written) when the event is
            not allowed in the node's state; NoFreeConductorWorker (nothing
            written) when no worker is free.
        """
        node = self.node
        new_state, target = states.next_state(
            node.uuid, node.provision_state, event, target_state)
        if pool is not None:
            func, args = call_args[0], tuple(call_args[1:])
            self.spawn_after(pool, func, *args, **(call_kwargs or {}))
            node.last_error = last_error
        elif last_error is not None:
            node.last_error = last_error
        LOG.info('Node %s moved from %s to %s (event %s)', node.uuid,
                 node.provision_state, new_state, event)
        phase_secrets.drop_left_behind(node, node.provision_state, new_state)
        node.provision_state = new_state
        node.target_provision_state = target
        self._unsaved_end = event if event in _END_EVENTS else None
        node.save()
        self._unsaved_end = None

    # -- context manager --------------------------------------------------

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if isinstance(exc_value, exception.NodeLockLost):
            self.lock_lost(exc_value)
        if exc_type is None and self._slot is not None:
            slot, self._slot = self._slot, None
            try:
                slot.submit(self._run_spawned)
                return False
            except Exception:
                slot.cancel()
                self.release_resources()
                raise
        if self._slot is not None:
            self._slot.cancel()
            self._slot = None
        self.release_resources()
        return False


def acquire(context, node_id, shared=False, purpose='unspecified action',
            retry=True, load_driver=True):
    """A TaskManager for ``node_id`` (id or UUID; a name when shared).

    :raises: NodeLocked (409, naming the holder) when another host keeps
        the lock through all of [conductor]node_locked_retry_attempts;
        NodeNotFound; DriverNotFound if the node's hardware type is not
        enabled here (with ``load_driver``).
    """
    return TaskManager(context, node_id, shared=shared, purpose=purpose,
                       retry=retry, load_driver=load_driver)


def fail_timed_out_waits(context, host, wait_state, timeout, purpose, fail):
    """``fail(task)`` for each node this host owns that has waited in
    ``wait_state`` (not in maintenance) for ``timeout`` seconds, under its
    lock; a node locked or gone meanwhile is left for the next pass.
    ``fail`` returns whether it failed the node.  Returns the UUIDs
    failed (none when ``timeout`` <= 0: the check is off)."""
    failed = []
    if timeout <= 0:
        return failed
    for node in objects.Node.list_interrupted(context, [wait_state],
                                              timeout):
        if node.maintenance or not utils.is_owner(context, node, host):
            continue
        try:
            with acquire(context, node.uuid, retry=False,
                         purpose=purpose) as task:
                if fail(task):
                    failed.append(node.uuid)
        except (exception.NodeLocked, exception.NodeNotFound,
                exception.DriverNotFound):
            continue
    return failed
