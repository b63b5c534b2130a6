"""The HTTP server's bounds as one figure for all of ironic-api's workers.

``[api]max_connections``, ``max_connections_per_client`` and the lanes'
``running`` (common/admission.py) bound what the *service* takes on, not
each worker process: an operator who sets 100 connections means 100,
however many ``[api]api_workers`` serve them.  A client's connections are
spread over the workers by the kernel (they share one listening socket),
so no worker can see them all.  ``Bounds`` is the memory they share for
it, made by the parent process before it starts a worker (shared memory
and one lock, inherited across the fork; no thread, no socket):

* each worker's open connections, one cell per worker: a worker accepts
  a connection under the lock, and only while the sum is below
  ``max_connections`` -- exact, whatever the workers do at once;
* each worker's connections per client address (a keyed 64-bit hash of
  the address, its count, and how many of them were idle when the
  worker last looked, at most IDLE_PUBLISH seconds ago), so that a
  worker sees the address's connections in the other workers, and
  whether any could make room; and a short list per worker of addresses
  another worker asks it to close an idle connection of;
* each lane's running requests, one cell per worker.

A worker writes only its own cells (the lock orders check-and-take), so a
worker that died leaves cells its replacement clears
(``Bounds.worker(index)``) -- nothing it held stays taken.

One process (``api_workers = 1``, the all-in-one command) has no Bounds:
the server counts in its own memory, as it always did.
"""

import contextlib
import ctypes
import hashlib
import ipaddress
import multiprocessing
import os

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

# How many close requests a worker's list holds (the oldest is dropped).
REQUESTS = 8
# Seconds between two updates of a worker's idle counts.
IDLE_PUBLISH = 0.25
# How long a worker waits for the lock before it decides alone: a worker
# killed while holding it must not stop the others.
LOCK_TIMEOUT = 1.0


def _cells(kind, size):
    return multiprocessing.RawArray(kind, max(size, 1))


class Bounds(object):
    """Made in the parent before the workers start; each worker takes its
    view with ``worker(index)``."""

    def __init__(self, workers, max_connections, per_client, lanes=0):
        self.workers = workers
        self.max_connections = max_connections
        self.per_client = per_client
        self.lock = multiprocessing.Lock()
        self.connections = _cells(ctypes.c_int32, workers)
        # A worker holds at most max_connections (and the one it closes).
        self.slots = (max_connections + 1) if per_client else 0
        size = workers * self.slots
        self.keys = _cells(ctypes.c_uint64, size)
        self.counts = _cells(ctypes.c_int32, size)
        self.idle = _cells(ctypes.c_int32, size)
        self.requests = _cells(ctypes.c_uint64, workers * REQUESTS)
        self.lanes = [_cells(ctypes.c_int32, workers) for _ in range(lanes)]
        self.hash_key = os.urandom(16)

    def worker(self, index):
        """Worker ``index``'s view; its cells cleared (a new worker, or
        the replacement of one that died)."""
        return WorkerBounds(self, index)


class WorkerBounds(object):
    """One worker's side: it writes its own cells, reads everyone's."""

    def __init__(self, bounds, index):
        self.shared = bounds
        self.index = index
        self.connections = bounds.connections
        self.connections[index] = 0
        first = index * bounds.slots
        self._slots = range(first, first + bounds.slots)
        for i in self._slots:
            bounds.keys[i] = 0
            bounds.counts[i] = 0
            bounds.idle[i] = 0
        self._slot_of = {}   # address hash -> slot index
        for j in range(REQUESTS):
            bounds.requests[index * REQUESTS + j] = 0
        for cells in bounds.lanes:
            cells[index] = 0

    # -- the lock ---------------------------------------------------------

    @contextlib.contextmanager
    def locked(self):
        """The workers' lock, for a check-and-take (any thread)."""
        got = self.shared.lock.acquire(timeout=LOCK_TIMEOUT)
        if not got:
            LOG.warning('The API workers\' shared lock was not free within '
                        '%ss; deciding without it', LOCK_TIMEOUT)
        try:
            yield
        finally:
            if got:
                self.shared.lock.release()

    # -- connections ------------------------------------------------------

    def total_connections(self):
        return sum(self.connections[:])

    def address_key(self, host):
        """The keyed hash of an address (0 is never one: a free slot)."""
        try:
            packed = ipaddress.ip_address(host).packed
        except ValueError:
            packed = host.encode('utf-8', 'replace')
        digest = hashlib.blake2b(packed, digest_size=8,
                                 key=self.shared.hash_key).digest()
        return int.from_bytes(digest, 'little') or 1

    def opened(self, key):
        """A connection of address ``key`` is open in this worker."""
        self.connections[self.index] += 1
        if not self.shared.slots:
            return
        slot = self._slot_of.get(key)
        if slot is None:
            slot = next((i for i in self._slots
                         if self.shared.keys[i] == 0), None)
            if slot is None:   # more than max_connections: not tracked
                return
            self.shared.counts[slot] = 0
            self.shared.idle[slot] = 0
            self.shared.keys[slot] = key
            self._slot_of[key] = slot
        self.shared.counts[slot] += 1

    def closed(self, key):
        self.connections[self.index] -= 1
        slot = self._slot_of.get(key)
        if slot is None:
            return
        self.shared.counts[slot] -= 1
        if self.shared.counts[slot] <= 0:
            self.shared.keys[slot] = 0
            del self._slot_of[key]

    def publish_idle(self, idle_by_key):
        """How many of each address's connections are idle now here."""
        for key, slot in self._slot_of.items():
            self.shared.idle[slot] = idle_by_key.get(key, 0)

    def elsewhere(self, key):
        """(connections, idle ones) of address ``key`` in the other
        workers, and the worker holding the most idle ones (or None)."""
        keys = self.shared.keys[:]
        total = idle = 0
        best, best_idle = None, 0
        for slot, value in enumerate(keys):
            if value != key or slot in self._slots:
                continue
            total += self.shared.counts[slot]
            n = self.shared.idle[slot]
            idle += n
            if n > best_idle:
                best, best_idle = slot // self.shared.slots, n
        return total, idle, best

    # -- asking another worker to make room --------------------------------

    def ask_to_close_idle(self, worker, key):
        """Ask ``worker`` to close one idle connection of ``key``."""
        base = worker * REQUESTS
        cells = self.shared.requests
        free = next((j for j in range(REQUESTS) if cells[base + j] == 0),
                    REQUESTS - 1)
        cells[base + free] = key

    def asked(self):
        """The address keys other workers asked this one to make room
        for (each once)."""
        base = self.index * REQUESTS
        cells = self.shared.requests
        keys = []
        for j in range(REQUESTS):
            if cells[base + j]:
                keys.append(cells[base + j])
                cells[base + j] = 0
        return keys

    # -- lanes --------------------------------------------------------------

    def lane_cells(self, number):
        return self.shared.lanes[number]
