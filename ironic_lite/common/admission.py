"""Admission of a class of requests to the HTTP server's worker threads.

A Lane bounds how many requests of one class (the API's large list
pages) run at once without refusing the ones beyond: those wait in line,
holding no worker thread -- only their parsed request, which the server
has read already -- and are handed to the threads in arrival order as
the running ones finish.  One that has waited ``wait`` seconds is handed
over at once marked ``expired``: the application answers it without
doing its work (a retry-safe 503), within the deadline a client's own
timeout allows, instead of the server holding it longer.

The line needs no bound of its own: waitress reads a connection's next
request only once the previous one is answered, so at most one request
per open connection waits, and the connections are bounded by
``[api]max_connections``.

The server calls ``take`` (in its event loop) when a request of the
class is ready, ``done`` (in the worker thread) when an admitted one is
answered, and ``expire`` (in its event loop, once a turn) to hand over
the ones whose wait is over.  ``dispatch`` hands a channel to the worker
threads; each request carries its lane in ``request.lane`` and its state in
``request.lane_state``: 'slot' (admitted: counts against ``running``),
'expired', or 'done'.

With several API processes (``[api]api_workers``), ``share`` makes
``running`` a figure for all of them: each worker counts its running
requests in a cell of shared memory (common/worker_bounds.py) and admits
one only while the sum is below ``running``.  Each worker keeps its own
line; a slot freed in another worker is taken by the next turn of this
worker's event loop (``expire``, at least once a second).
"""

import collections
import contextlib
import threading
import time

from oslo_log import log as logging

LOG = logging.getLogger(__name__)


class Lane(object):

    def __init__(self, classify, running, wait, refusal='', dispatch=None):
        """``classify(method, path, query)``: whether a request belongs
        to the lane; ``running``: how many run at once; ``wait``: the
        longest wait in line, in seconds; ``refusal``: what the
        application answers a request that waited too long;
        ``dispatch(channel)``: hands a channel to the worker threads (set
        by the server)."""
        self.classify = classify
        self.running = running
        self.wait = wait
        self.refusal = refusal
        self.dispatch = dispatch
        self._lock = threading.Lock()
        self._line = collections.deque()   # (deadline, channel, request)
        self.in_flight = 0
        # For tests, benchmarks and the operator's eye: the most run at
        # once, how many waited, and how many waited too long.
        self.high_water = 0
        self.waited = 0
        self.expired = 0
        # Several API processes: (WorkerBounds, the lane's cells).
        self._shared = None

    def share(self, bounds, cells):
        """Count ``running`` over every worker: ``bounds`` is this
        worker's WorkerBounds, ``cells`` the lane's running per worker."""
        self._shared = (bounds, cells)

    def _free(self):
        """Whether a slot is free (in every worker, when shared).  Under
        the lock (and the workers' lock, when shared)."""
        if self._shared is None:
            return self.in_flight < self.running
        return sum(self._shared[1][:]) < self.running

    def _workers_lock(self):
        if self._shared is None:
            return contextlib.nullcontext()
        return self._shared[0].locked()

    def belongs(self, request):
        return not request.error and self.classify(
            request.command, request.path, request.query)

    def take(self, channel, request):
        """Admit ``request`` (the next of ``channel``) at once -- True,
        the caller dispatches it -- or put it in line (False)."""
        request.lane = self
        with self._lock, self._workers_lock():
            if not self._line and self._free():
                self._admit(request)
                return True
            self.waited += 1
            self._line.append(
                (time.monotonic() + self.wait, channel, request))
            return False

    def _admit(self, request):
        self.in_flight += 1
        if self._shared is not None:
            bounds, cells = self._shared
            cells[bounds.index] += 1
        self.high_water = max(self.high_water, self.in_flight)
        request.lane_state = 'slot'

    def done(self, request):
        """An admitted request is answered: its slot goes to the next in
        line (or, past its deadline, the next ones go expired)."""
        if getattr(request, 'lane_state', None) != 'slot':
            return   # not admitted by a lane (only done() changes 'slot')
        with self._lock, self._workers_lock():
            request.lane_state = 'done'
            self.in_flight -= 1
            if self._shared is not None:
                bounds, cells = self._shared
                cells[bounds.index] -= 1
            ready = self._next(time.monotonic())
        self._hand_over(ready)

    def expire(self, now=None):
        """Hand over, marked expired, the requests whose wait is over."""
        if not self._line:   # the common case: a look, no lock
            return
        with self._lock, self._workers_lock():
            ready = self._next(time.monotonic() if now is None else now)
        self._hand_over(ready)

    def _next(self, now):
        """The channels to dispatch: the expired ones at the head of the
        line, then as many as the free slots admit.  Under the lock."""
        ready = []
        while self._line:
            deadline, channel, request = self._line[0]
            if deadline <= now or not channel.connected:
                request.lane_state = 'expired'
                if deadline <= now:
                    self.expired += 1
                    LOG.warning('A request waited %ss for its turn among '
                                '%s running at once and is answered '
                                'unserved (%s so far)', self.wait,
                                self.running, self.expired)
            elif self._free():
                self._admit(request)
            else:
                break
            self._line.popleft()
            ready.append(channel)
        return ready

    def _hand_over(self, channels):
        for channel in channels:
            self.dispatch(channel)

    def running_now(self):
        """Requests of the lane running now (in every worker, when
        shared)."""
        if self._shared is None:
            return self.in_flight
        return sum(self._shared[1][:])

    def waiting(self):
        with self._lock:
            return len(self._line)
