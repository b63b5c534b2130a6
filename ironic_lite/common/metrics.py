"""Prometheus metrics of this process (doc/source/admin/metrics.rst).

One registry per process (``REGISTRY``, not prometheus_client's global
one, so that a library's own metrics never show up in ours), holding:

* the families every layer records into, declared here so that their
  names, help and labels are in one place: the API's request latency per
  route template, the RPC calls' latency per method (the caller's view
  and the conductor's), node lock waits and takeovers;
* the process's CPU, memory and file descriptors (prometheus_client's
  process collector);
* families read at scrape time from whoever provides them
  (``provide(name, collect)``): the API server's connections and lanes,
  the nodes by provision state and shard.  A provider is replaced by
  name, never registered twice, so tests and restarts in one process
  need no cleanup.

prometheus_client's metrics are thread safe; a scrape runs the providers
in the scraping thread.  Recording costs a dictionary look-up and an
increment under a lock per observation (a few microseconds).

``wsgi_app()`` answers a scrape (content negotiation included: the
Prometheus text format or OpenMetrics); ``Listener`` serves it on a port
of its own (the conductor's ``[metrics]prometheus_conductor_port``).
"""

import os
import threading
import time

from oslo_log import log as logging
import prometheus_client
from prometheus_client import core
from prometheus_client import multiprocess
from prometheus_client import values as prometheus_values

from ironic_lite.common import exception
from ironic_lite import conf

CONF = conf.CONF
LOG = logging.getLogger(__name__)

# No ``_created`` sample beside each counter and histogram: Prometheus
# does not read it from the text format, and it doubles the series.
prometheus_client.disable_created_metrics()

REGISTRY = prometheus_client.CollectorRegistry(auto_describe=True)
prometheus_client.ProcessCollector(registry=REGISTRY)

# Seconds: from a small request (a few ms) to a BMC call that waits for
# [DEFAULT]rpc_response_timeout (60 s by default).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0, 30.0, 60.0, float('inf'))

# The route label of a request no route matched (a 404, a bad version).
NO_ROUTE = 'unmatched'

API_REQUESTS = prometheus_client.Histogram(
    'ironic_api_request_duration_seconds',
    'Time the API took to answer a request, by method, route template '
    '(e.g. /v1/nodes/{node_ident}) and HTTP status.',
    ['method', 'route', 'status'], registry=REGISTRY,
    buckets=LATENCY_BUCKETS)

RPC_CLIENT_CALLS = prometheus_client.Histogram(
    'ironic_rpc_client_duration_seconds',
    'Time an RPC call to a conductor took, seen by the caller (a cast: '
    'the time to send it), by method, kind (call, cast) and outcome (ok, '
    'error: the conductor raised, timeout: no answer in time).',
    ['method', 'kind', 'outcome'], registry=REGISTRY,
    buckets=LATENCY_BUCKETS)

RPC_SERVER_CALLS = prometheus_client.Histogram(
    'ironic_rpc_server_duration_seconds',
    'Time the conductor took to handle an RPC message, by method and '
    'outcome (ok, error).',
    ['method', 'outcome'], registry=REGISTRY, buckets=LATENCY_BUCKETS)

LOCK_WAITS = prometheus_client.Histogram(
    'ironic_node_lock_wait_seconds',
    'Time a conductor task waited for a node lock another task held, by '
    'outcome (acquired, gave_up: NodeLocked after the retries).',
    ['outcome'], registry=REGISTRY, buckets=LATENCY_BUCKETS)

LOCK_TAKEOVERS = prometheus_client.Counter(
    'ironic_node_lock_takeovers',
    'Node locks a conductor released on behalf of their holder, by '
    'reason: restart (its own, from before it restarted), '
    'dead_conductor (a conductor that missed its heartbeats), stale (a '
    'lock no task of its own held any more).',
    ['reason'], registry=REGISTRY)

_PROVIDERS = {}
_PROVIDERS_LOCK = threading.Lock()


def provide(name, collect):
    """Let ``collect()`` (an iterable of metric families) run at each
    scrape, under ``name``: a later call with the same name replaces it;
    ``collect=None`` removes it."""
    with _PROVIDERS_LOCK:
        if collect is None:
            _PROVIDERS.pop(name, None)
        else:
            _PROVIDERS[name] = collect


class _Provided(object):
    """The registry's collector of the providers' families.  A provider
    that fails is logged and skipped: the scrape still answers."""

    def describe(self):
        return []   # the names vary with the providers

    def collect(self):
        with _PROVIDERS_LOCK:
            providers = sorted(_PROVIDERS.items())
        for name, collect in providers:
            try:
                families = list(collect())
            except Exception as err:
                LOG.warning('Metrics of %s not collected: %s', name, err)
                continue
            yield from families


REGISTRY.register(_Provided())


class Cached(object):
    """``collect()`` remembered for ``ttl`` seconds: a scrape by each of
    several Prometheus servers reads the database once.  Thread safe: one
    scrape reads, a concurrent one waits for its result."""

    def __init__(self, collect, ttl, clock=time.monotonic):
        self._collect = collect
        self._ttl = ttl
        self._clock = clock
        self._lock = threading.Lock()
        self._families = None
        self._until = 0.0

    def __call__(self):
        with self._lock:
            now = self._clock()
            if self._families is None or now >= self._until:
                self._families = list(self._collect())
                self._until = now + self._ttl
            return self._families


def gauge(name, documentation, labels, samples):
    """A gauge family of ``samples``: [(label values, value)]."""
    family = core.GaugeMetricFamily(name, documentation, labels=labels)
    for values, value in samples:
        family.add_metric([str(v) for v in values], value)
    return family


def counter(name, documentation, labels, samples):
    """A counter family (``name`` without ``_total``) of ``samples``."""
    family = core.CounterMetricFamily(name, documentation, labels=labels)
    for values, value in samples:
        family.add_metric([str(v) for v in values], value)
    return family


# The directory of the files in which the processes of one service (the
# workers of ironic-api) record their counters and histograms; None: this
# process's memory.
_SHARED_DIR = None


# The process whose workers share _SHARED_DIR (the parent).
_SHARED_PARENT = None

# Of the process metrics, the ones a service's figure is the sum of its
# processes' (the others, start time and fd limit: the parent's).
_SUMMED = frozenset(['process_virtual_memory_bytes',
                     'process_resident_memory_bytes',
                     'process_cpu_seconds', 'process_open_fds'])


class _ServiceProcesses(object):
    """prometheus_client's process metrics of the parent and all its
    workers together: the CPU, memory and file descriptors the service
    uses, whichever worker answers the scrape."""

    def describe(self):
        return []

    def collect(self):
        parent = _SHARED_PARENT
        pids = [parent] + _children(parent)
        totals = {}
        for pid in pids:
            collector = prometheus_client.ProcessCollector(
                pid=lambda pid=pid: pid, registry=None)
            for family in collector.collect():
                if not family.samples:
                    continue   # gone meanwhile
                known = totals.get(family.name)
                if known is None:
                    totals[family.name] = family
                elif family.name in _SUMMED:
                    sample = known.samples[0]
                    known.samples[0] = sample._replace(
                        value=sample.value + family.samples[0].value)
        return list(totals.values())


def _children(pid):
    """The child processes of ``pid`` (Linux)."""
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(child) for child in f.read().split()]
    except OSError:
        return []


def share_across_processes(directory):
    """Record counters and histograms in files under ``directory``
    (prometheus_client's multiprocess mode), for the processes started
    from here on: a scrape answered by any of them sums them all.  Called
    by the parent before it starts the processes, before any sample is
    recorded (a family's samples take their storage when first
    recorded)."""
    global _SHARED_DIR, _SHARED_PARENT
    os.environ['PROMETHEUS_MULTIPROC_DIR'] = directory
    prometheus_values.ValueClass = prometheus_values.MultiProcessValue()
    _SHARED_DIR = directory
    _SHARED_PARENT = os.getpid()


def _scraped_registry():
    """``REGISTRY``; with shared files, their sums, the providers'
    families and the processes' CPU and memory summed."""
    if _SHARED_DIR is None:
        return REGISTRY
    registry = prometheus_client.CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=_SHARED_DIR)
    registry.register(_Provided())
    registry.register(_ServiceProcesses())
    return registry


def wsgi_app():
    """A WSGI application answering a scrape of ``REGISTRY`` (or of the
    files of all the service's processes)."""
    return prometheus_client.make_wsgi_app(_scraped_registry())


class Timer(object):
    """``with Timer(histogram, label, ...) as t: ...``: observes the
    block's duration with those labels and ``t.outcome`` ('ok', or
    'error' when the block raised, unless the block set it)."""

    __slots__ = ('histogram', 'labels', 'outcome', 'began')

    def __init__(self, histogram, *labels):
        self.histogram = histogram
        self.labels = labels
        self.outcome = None

    def __enter__(self):
        self.began = time.monotonic()
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.outcome is None:
            self.outcome = 'ok' if exc_type is None else 'error'
        self.histogram.labels(*self.labels, self.outcome).observe(
            time.monotonic() - self.began)
        return False


class Listener(object):
    """A launcher service serving ``REGISTRY`` on host:port, in a thread
    of its own (prometheus_client's WSGI server: one thread per scrape)."""

    def __init__(self, name, host, port):
        self.name, self.host, self.port = name, host, port
        self._server = None

    def start(self):
        try:
            self._server, _thread = prometheus_client.start_http_server(
                self.port, addr=self.host, registry=REGISTRY)
        except OSError as err:
            raise exception.ServiceStartRefused(reason=(
                'Cannot serve metrics on %s:%s ([metrics]prometheus_'
                'conductor_host, prometheus_conductor_port): %s'
                % (self.host, self.port, err.strerror or err)))
        self.port = self._server.server_port
        LOG.info('%s metrics on http://%s:%s/metrics', self.name,
                 self.host, self.port)

    def stop(self):
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


def conductor_listener(name):
    """The conductor's metrics ``Listener`` as configured
    (``[metrics]prometheus_conductor_port``); None when not set."""
    if CONF.metrics.prometheus_conductor_port is None:
        return None
    return Listener(name, CONF.metrics.prometheus_conductor_host,
                    CONF.metrics.prometheus_conductor_port)
