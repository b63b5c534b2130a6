"""The bounded pool of threads running node operations.

A request first *claims* a slot (failing fast with NoFreeConductorWorker,
503, when ``[conductor]workers_pool_size`` operations are in flight) and
only then changes the node, so a refused request has written nothing.
"""

import threading

import futurist
from futurist import waiters
from oslo_log import log as logging

from ironic_lite.common import exception

LOG = logging.getLogger(__name__)


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
    def __init__(self, size):
        self.size = size
        self._executor = futurist.ThreadPoolExecutor(max_workers=size)
        self._lock = threading.Lock()
        self._claimed = 0
        self._futures = set()
        self._accepting = True

    @property
    def in_flight(self):
        with self._lock:
            return self._claimed

    def claim(self):
        """Reserve a worker.

        :raises: NoFreeConductorWorker when the pool is full or stopping.
        """
        with self._lock:
            if not self._accepting or self._claimed >= self.size:
                raise exception.NoFreeConductorWorker()
            self._claimed += 1
        return Slot(self)

    def _release_slot(self):
        with self._lock:
            self._claimed -= 1

    def _submit(self, func, *args, **kwargs):
        def run():
            try:
                return func(*args, **kwargs)
            except Exception:
                LOG.exception('Unhandled error in conductor worker %s', func)
                raise
            finally:
                self._release_slot()

        future = self._executor.submit(run)
        with self._lock:
            self._futures.add(future)
        future.add_done_callback(self._forget)
        return future

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
