"""A bound on the large list pages rendered at once (issues 20, 34).

A detailed page of 1,000 nodes takes a worker thread for a long while
and megabytes of memory: 16 of them at once took every worker thread of
an API and made a one-node GET wait 8 to 17 seconds.  So at most
``[api]max_concurrent_large_lists`` large pages are read and rendered at
once, and the others wait for their turn, up to
``[api]request_queue_timeout`` seconds; one that could not be served in
that time is answered with a retry-safe 503, nothing done.

A burst is served, not refused: nova-computes and networking-baremetal
agents restarted together ask for their pages at the same moment, and
refusing the fifth (as the first bound did, with a line of 2) turned
them away at four computes.  Under ironic-lite's own HTTP server the
pages wait in the server's lane (``lane()``, api/lanes.py),
holding no worker thread: the other threads stay free for light
requests however many pages wait.  Under another WSGI server (uwsgi,
mod_wsgi: api/wsgi.py) they wait in the gate below, each in its thread.

Pages of nodes, ports and port groups share the one gate: what it
protects -- the worker threads and the memory -- is shared, and
networking-baremetal agents asking for every port every 30 s compete
with node listers for the same threads.
"""

import contextlib
import ctypes
import ctypes.util
import gc
import threading
import time
import urllib.parse

from oslo_config import cfg

from ironic_lite.api import middleware
from ironic_lite.api import request_scope
from ironic_lite.common import admission
from ironic_lite.common import exception
from ironic_lite.conf import api as api_conf

CONF = cfg.CONF

_lock = threading.Lock()
_gate = None
_lane = None   # the HTTP server's lane, when it has one


def refusal(timeout):
    """What a large page that could not be served in time is answered."""
    return ('Too many large list requests are being served: this one '
            'could not be served within %ss ([api]request_queue_timeout) '
            'and was not carried out; retry later, or ask for smaller '
            'pages (?limit=).' % timeout)


class Gate(object):
    """``running`` holders at once; the others wait up to ``timeout``
    seconds for their turn."""

    def __init__(self, running, timeout):
        self.running = running
        self.timeout = timeout
        self._slots = threading.Semaphore(running)
        self._lock = threading.Lock()
        self.in_line = 0
        self.holding = 0
        self.refused = 0   # a counter, for tests and benchmarks

    def _wait_in_line(self):
        with self._lock:
            self.in_line += 1
        try:
            acquired = self._slots.acquire(timeout=self.timeout)
        finally:
            with self._lock:
                self.in_line -= 1
                self.refused += not acquired
        if not acquired:
            raise exception.ServiceUnavailable(reason=refusal(self.timeout))

    @contextlib.contextmanager
    def held(self):
        if not self._slots.acquire(blocking=False):
            self._wait_in_line()
        with self._lock:
            self.holding += 1
        try:
            yield
        finally:
            with self._lock:
                self.holding -= 1
            self._slots.release()

    def idle(self):
        """No large page rendered or waiting."""
        with self._lock:
            return not (self.holding or self.in_line)


def gate():
    """The process's gate, as configured (None: no bound).  Under
    another WSGI server each process has its own."""
    global _gate
    line = api_conf.large_list_line(CONF)
    if not line:
        return None
    with _lock:
        if _gate is None:
            _gate = Gate(line, CONF.api.request_queue_timeout)
        return _gate


def lane(processes=1):
    """The HTTP server's admission lane for large pages, as configured,
    for a service of ``processes`` API processes sharing it (None: no
    bound)."""
    global _lane
    line = api_conf.large_list_line(CONF, processes)
    if not line:
        return None
    timeout = CONF.api.request_queue_timeout
    _lane = admission.Lane(is_large_request, line, timeout,
                           refusal(timeout))
    return _lane


# The collections whose large pages are bounded: {collection: whether
# a plain page (neither detailed nor ?fields=) counts}.  A plain node
# list reads only the few columns it renders; a port or port group list
# reads whole rows (their JSON included) whatever it renders.  Chassis
# and conductors are a handful of rows (one per rack, per conductor
# host): never queued behind the big pages, never refused.
BOUNDED = {'nodes': False, 'ports': True, 'portgroups': True}


def is_large(limit, detail, explicit_fields, collection='nodes'):
    """A page of a bounded collection that may hold more than
    [api]large_list_threshold items, and reads (or renders) them whole:
    detailed, or with the fields asked for, or any port or port group
    page."""
    if collection not in BOUNDED or limit <= CONF.api.large_list_threshold:
        return False
    return bool(detail or explicit_fields or BOUNDED[collection])


_TRUE = ('1', 't', 'true', 'on', 'y', 'yes')


def is_large_request(method, path, query):
    """is_large() of a request as the HTTP server has it, before any
    parsing by the application: a GET of a collection
    (``/v1/nodes[/detail]``, ``/v1/nodes/<n>/ports[/detail]`` ...) whose
    ``limit`` (or [api]max_limit) is above the threshold.  An invalid
    query is the application's to refuse; here it only decides which
    line the request waits in."""
    if method != 'GET':
        return False
    parts = [p for p in path.split('/') if p]
    detail = bool(parts) and parts[-1] == 'detail'
    if detail:
        parts.pop()
    if len(parts) < 2 or parts[0] != 'v1' or parts[-1] not in BOUNDED:
        return False
    params = urllib.parse.parse_qs(query)
    if 'instance_uuid' in params:
        return False   # one node at most (node_list.list_body)
    detail = detail or (params.get('detail') or [''])[-1].lower() in _TRUE
    try:
        limit = int((params.get('limit') or ['0'])[-1])
    except ValueError:
        limit = 0
    if limit <= 0:
        limit = CONF.api.max_limit
    return is_large(min(limit, CONF.api.max_limit), detail,
                    'fields' in params, parts[-1])


@contextlib.contextmanager
def bounded(large):
    """Around the reading and rendering of a page."""
    the_gate = gate() if large else None
    if the_gate is None:
        yield
        return
    with the_gate.held():
        yield


@contextlib.contextmanager
def page(environ, collection, limit, detail, explicit_fields):
    """Around the reading and rendering of a list page of ``collection``:
    a large one waits for the gate.  The body reports how many items it
    rendered (``with page(...) as rendered: ...; rendered(len(items))``):
    a detailed page (or one with ``?fields=``) that turned out to hold
    more than [api]large_list_threshold items returns its memory once
    answered (ReturnMemory, through ``environ``).  A short page -- most
    plain lists of ports and port groups ask for up to [api]max_limit
    items and get a few dozen -- and a plain port list, whose bodies are
    a few fields each, do not pay for a full collection: it runs while
    the response is still being sent (a page of 1,000 plain ports took
    3 ms longer with it)."""
    large = is_large(limit, detail, explicit_fields, collection)
    counts = []
    with bounded(large):
        yield counts.append
    if (large and (detail or explicit_fields) and counts
            and counts[-1] > CONF.api.large_list_threshold):
        request_scope.of(environ).large_page = True


def _libc_trim():
    """glibc's malloc_trim(), or None elsewhere."""
    try:
        return ctypes.CDLL(ctypes.util.find_library('c')).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None


_TRIM = _libc_trim()


# At most one return of memory per this many seconds: a client walking
# every page (a networking-baremetal agent: 200 pages of ports at 200,000
# ports) leaves the gate idle between two of its pages, and a full
# collection and trim after each page took 11 % of the API's time.  The
# last page of a walk is still followed by one, at most this late.
RETURN_EVERY = 1.0
_returned = {'at': None, 'timer': None}
_return_lock = threading.Lock()


def return_memory():
    """Once the last large page is answered, give the memory its
    objects took back to the system.  Part of it is held in reference
    cycles that the (tuned, rarely run) full collection would find late,
    and glibc keeps what is freed: after 16 clients had asked for
    detailed pages of 1,000 nodes for 20 s, the API kept 280 MB with the
    trim alone, 228 MB with the collection alone, 159 MB with both (113
    MB at start; tools/benchmark/heavy_lists.py).
    Done only when no other large page is rendered or waiting, which
    only the gate and the server's lane know: not with the bound off (a
    burst waiting in the lane returns it once, after its last page); and
    at most once per ``RETURN_EVERY`` seconds (a later one is put off
    until then)."""
    the_gate = gate()
    if the_gate is None or not the_gate.idle() or (
            _lane is not None and _lane.waiting()):
        return
    with _return_lock:
        now = time.monotonic()
        last = _returned['at']
        if last is not None and now - last < RETURN_EVERY:
            if _returned['timer'] is None:
                timer = threading.Timer(last + RETURN_EVERY - now,
                                        _deferred_return)
                timer.daemon = True
                _returned['timer'] = timer
                timer.start()
            return
        _returned['at'] = now
    gc.collect()
    if _TRIM is not None:
        _TRIM(0)


def _deferred_return():
    with _return_lock:
        _returned['timer'] = None
    return_memory()


class ReturnMemory(object):
    """WSGI middleware: return_memory() after a large page's response."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        result = self.app(environ, start_response)
        if request_scope.of(environ).large_page:
            return middleware.after_close(result, return_memory)
        return result
