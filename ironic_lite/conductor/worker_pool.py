"""The bounded pool of threads running node operations and BMC calls.

A request first *claims* a slot (failing fast with NoFreeConductorWorker,
503, when ``[conductor]workers_pool_size`` operations are in flight) and
only then changes the node, so a refused request has written nothing.
``[conductor]reserved_workers_pool_percentage`` of the slots are kept for
requests of the API: the power state sync (and other periodic work)
claims only the others, as in Ironic.

Work runs in the request context of whoever submitted it (the log
lines of a deploy carry the request id of the call that started it).

Threads are made as work arrives and dropped when idle (futurist's
DynamicThreadPoolExecutor, as Ironic's conductor): a pool of 300 costs
threads only while 300 things run.

``run_bounded`` runs a call that talks to a BMC with a deadline: at the
deadline the caller gets HardwareTimeout and goes on; the worker thread
finishes the call on its own (a BMC that never answers costs it the
redfish timeouts, attempts stop once the deadline passed) and keeps its
slot until then, so what hung BMCs take is counted and bounded.
"""

import threading
import time

import futurist
from futurist import waiters
from oslo_context import context as ctx_lib
from oslo_log import log as logging

from ironic_lite.common import context as ir_context
from ironic_lite.common import deadline as deadline_mod
from ironic_lite.common import exception

LOG = logging.getLogger(__name__)

# Threads kept even when idle.
MIN_THREADS = 4


class Slot(object):
    """A claimed place in the pool: ``submit`` it once, or ``cancel`` it."""

    def __init__(self, pool):
        self._pool = pool
        self._used = False

    def submit(self, func, *args, **kwargs):
        self._used = True
        return self._pool._submit(func, *args, **kwargs)

    def cancel(self):
        if not self._used:
            self._used = True
            self._pool._release_slot()


class WorkerPool(object):
    def __init__(self, size, reserved_percentage=0):
        self.size = size
        self.reserved = int(size * reserved_percentage / 100)
        self._executor = futurist.DynamicThreadPoolExecutor(
            max_workers=size, min_workers=min(MIN_THREADS, size - 1))
        self._lock = threading.Lock()
        self._claimed = 0
        self._futures = set()
        self._accepting = True

    @property
    def in_flight(self):
        with self._lock:
            return self._claimed

    def claim(self, reserved=True):
        """Reserve a worker; ``reserved=False`` (periodic work) leaves the
        reserved part of the pool to the API's requests.

        :raises: NoFreeConductorWorker when the pool is full or stopping.
        """
        limit = self.size if reserved else self.size - self.reserved
        with self._lock:
            if not self._accepting or self._claimed >= limit:
                raise exception.NoFreeConductorWorker()
            self._claimed += 1
        return Slot(self)

    def _release_slot(self):
        with self._lock:
            self._claimed -= 1

    def _submit(self, func, *args, **kwargs):
        # The submitter's request context goes with the work: the
        # worker's log lines carry its request id.
        request = ctx_lib.get_current()

        def run():
            with ir_context.carried(request):
                try:
                    return func(*args, **kwargs)
                except Exception:
                    LOG.exception('Unhandled error in conductor worker %s',
                                  func)
                    raise
                finally:
                    self._release_slot()

        future = self._executor.submit(run)
        with self._lock:
            self._futures.add(future)
        future.add_done_callback(self._forget)
        return future

    def submit_bounded(self, timeout, func, *args, reserved=True, **kwargs):
        """Start ``func`` in a worker whose thread has a deadline
        ``timeout`` seconds from now (``common/deadline.py``); its future.

        :raises: NoFreeConductorWorker when the pool is full.
        """
        at = time.monotonic() + timeout

        def bounded():
            # The error goes to whoever waits, if anyone does: it is the
            # call's answer (a 404, a BMC error), not a worker's failure.
            with deadline_mod.until(at):
                try:
                    return func(*args, **kwargs), None
                except Exception as err:
                    return None, err
        return self.claim(reserved=reserved).submit(bounded)

    def run_bounded(self, timeout, node, func, *args, **kwargs):
        """``func(*args, **kwargs)`` in a worker; its result, or its
        exception, if it ends within ``timeout`` seconds.

        :raises: HardwareTimeout (503) at the deadline; the worker goes on.
        :raises: NoFreeConductorWorker when the pool is full.
        """
        future = self.submit_bounded(timeout, func, *args, **kwargs)
        done, _ = waiters.wait_for_any([future], timeout=timeout)
        if not done:
            LOG.warning('A call to the BMC of node %s did not end within %s '
                        'seconds; it is abandoned (%s)', node, timeout,
                        getattr(func, '__name__', func))
            raise exception.HardwareTimeout(node=node, timeout='%g' % timeout)
        result, err = future.result()
        if err is not None:
            raise err
        return result

    def _forget(self, future):
        with self._lock:
            self._futures.discard(future)

    def stop_accepting(self):
        with self._lock:
            self._accepting = False

    def wait(self, timeout=None):
        """Wait for the work in flight; returns the number still running."""
        with self._lock:
            futures = list(self._futures)
        if not futures:
            return 0
        done, not_done = waiters.wait_for_all(futures, timeout=timeout)
        return len(not_done)

    def shutdown(self, wait=False):
        self._executor.shutdown(wait=wait)
