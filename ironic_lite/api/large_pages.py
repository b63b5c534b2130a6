"""A bound on the large list pages rendered at once (issue 20).

A detailed page of 1,000 nodes takes a worker thread for a long while
and megabytes of memory: 16 of them at once took every worker thread of
an API and made a one-node GET wait 8 to 17 seconds.  So at most
``[api]max_concurrent_large_lists`` large pages are read and rendered at
once; up to ``[api]large_list_queue`` more wait for their turn (each in
its worker thread), and the ones beyond are refused with a retry-safe
503, nothing done.  The other worker threads stay free for light
requests -- as long as the two add up to fewer than ``[api]api_workers``.
"""

import contextlib
import threading

from oslo_config import cfg

from ironic_lite.common import exception

CONF = cfg.CONF

_lock = threading.Lock()
_gate = None


class Gate(object):
    """``running`` holders at once, ``waiting`` more in line."""

    def __init__(self, running, waiting):
        self.running = running
        self.waiting = waiting
        self._slots = threading.Semaphore(running)
        self._lock = threading.Lock()
        self.in_line = 0
        self.refused = 0   # a counter, for tests and benchmarks

    def _wait_in_line(self):
        with self._lock:
            if self.in_line >= self.waiting:
                self.refused += 1
                raise exception.ServiceUnavailable(reason=(
                    'Too many large list requests are being served; the '
                    'request was not carried out: retry later, or ask '
                    'for smaller pages (?limit=).'))
            self.in_line += 1
        try:
            self._slots.acquire()
        finally:
            with self._lock:
                self.in_line -= 1

    @contextlib.contextmanager
    def held(self):
        if not self._slots.acquire(blocking=False):
            self._wait_in_line()
        try:
            yield
        finally:
            self._slots.release()


def gate():
    """The process's gate, as configured (None: no bound)."""
    global _gate
    if not CONF.api.max_concurrent_large_lists:
        return None
    with _lock:
        if _gate is None:
            _gate = Gate(CONF.api.max_concurrent_large_lists,
                         CONF.api.large_list_queue)
        return _gate


def is_large(limit, detail, explicit_fields):
    """A page of more than [api]large_list_threshold items with every
    field (a detailed list) or the fields asked for."""
    return (limit > CONF.api.large_list_threshold
            and (detail or explicit_fields))


@contextlib.contextmanager
def bounded(large):
    """Around the reading and rendering of a page."""
    the_gate = gate() if large else None
    if the_gate is None:
        yield
        return
    with the_gate.held():
        yield
