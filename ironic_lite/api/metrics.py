"""The API's Prometheus metrics (common/metrics.py,
doc/source/admin/metrics.rst).

* ``Endpoint``: ``GET /metrics`` on the API's own port when
  ``[metrics]prometheus_api_enabled`` (off by default), answered before
  authentication, as ``/healthcheck`` -- and outside the request metrics
  and the access log, so that a scrape counts nothing.
* ``RequestMetrics``: each request's latency by method, route template
  and status.  The route is the template the route table matched
  (``/v1/nodes/{node_ident}``), never the raw path: the label has as many
  values as the table has routes, whatever the clients send.
* ``server_families``: the HTTP server's open connections and its lanes
  (api/lanes.py), read at scrape time from counters the server keeps
  anyway (with several API processes, ``[api]api_workers``: the open
  connections and the lanes' running requests of them all, from the
  memory they share; a lane's waiting, high water, waited and expired
  are the answering process's own); ``node_families``: the nodes by
  provision state and by shard (the shard counts the database keeps,
  db/shard_counts.py; one grouped read for the states), cached
  ``[metrics]prometheus_node_counts_ttl`` seconds.
"""

import time

from ironic_lite.api import lanes
from ironic_lite.api import page_cache
from ironic_lite.common import context as ir_context
from ironic_lite.common import metrics
from ironic_lite import conf
from ironic_lite import objects

CONF = conf.CONF

PATH = '/metrics'
# The environ key the root controller sets to the matched route template.
ROUTE_KEY = 'ironic_lite.route'
# The method label: any other method a client sends is 'other' (a label
# value per made-up method would grow the series without bound).
METHODS = frozenset(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE',
                     'OPTIONS'])


def enabled():
    return CONF.metrics.prometheus_api_enabled


class Endpoint(object):
    """WSGI middleware: ``/metrics`` is a scrape; other paths go on."""

    def __init__(self, app):
        self.app = app
        self.scrape = metrics.wsgi_app()

    def __call__(self, environ, start_response):
        if environ.get('PATH_INFO', '').rstrip('/') == PATH:
            return self.scrape(environ, start_response)
        return self.app(environ, start_response)


class RequestMetrics(object):
    """WSGI middleware: observes ``ironic_api_request_duration_seconds``
    for each request, once its application has answered."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        began = time.monotonic()
        status = []

        def _start_response(code, headers, exc_info=None):
            status[:] = [code.split(' ', 1)[0]]
            return start_response(code, headers, exc_info)

        try:
            return self.app(environ, _start_response)
        finally:
            method = environ.get('REQUEST_METHOD')
            metrics.API_REQUESTS.labels(
                method if method in METHODS else 'other',
                environ.get(ROUTE_KEY, metrics.NO_ROUTE),
                status[0] if status else '500').observe(
                    time.monotonic() - began)


def lane_name(lane):
    """The label of a lane of api/lanes.py's ``server_lanes``."""
    if lane.classify is lanes.is_hardware_request:
        return 'hardware_calls'
    return 'large_lists'


def server_families(service):
    """The families of a ``wsgi.WSGIService``'s connections and lanes,
    read without a lock but the lanes' own (``waiting()``)."""
    server = service.server
    yield metrics.gauge(
        'ironic_api_http_connections',
        'Open HTTP connections of the API server ([api]max_connections '
        'at most; all the API processes together).', [],
        [((), server.open_connections())])
    yield metrics.gauge(
        'ironic_api_http_connections_limit',
        'The most open connections the API server keeps '
        '([api]max_connections).', [],
        [((), server.connection_limit())])
    names = [(lane_name(lane), lane) for lane in server.lanes]
    for suffix, doc, read in _LANE_GAUGES:
        yield metrics.gauge('ironic_api_lane_' + suffix, doc, ['lane'],
                            [((n,), read(lane)) for n, lane in names])
    for suffix, doc, attr in _LANE_COUNTERS:
        yield metrics.counter('ironic_api_lane_' + suffix, doc, ['lane'],
                              [((n,), getattr(lane, attr))
                               for n, lane in names])
    yield from page_families()


def page_families():
    """The list pages kept (api/page_cache.py) by the answering process
    (none when [api]list_page_cache_size is 0)."""
    kept = page_cache.pages()
    if kept is None:
        return
    yield metrics.gauge(
        'ironic_api_list_pages_kept_bytes',
        'Compressed bytes of the list pages this API process keeps '
        '([api]list_page_cache_size MiB at most).', [], [((), kept.used)])
    yield metrics.counter(
        'ironic_api_list_page_requests',
        'List page requests that could be answered with a kept page '
        '(PostgreSQL), by whether they were (this API process).',
        ['kept'], [(('yes',), kept.hits), (('no',), kept.misses)])


_LANE_GAUGES = [
    ('running', 'Requests of the lane being served now (by all the API '
     'processes).', lambda lane: lane.running_now()),
    ('waiting', 'Requests of the lane waiting for their turn now.',
     lambda lane: lane.waiting()),
    ('slots', 'How many requests of the lane run at once '
     '([api]max_concurrent_large_lists, max_concurrent_hardware_calls).',
     lambda lane: lane.running),
    ('high_water', 'The most requests of the lane run at once since the '
     'server started.', lambda lane: lane.high_water),
]
_LANE_COUNTERS = [
    ('waited', 'Requests of the lane that waited for their turn.',
     'waited'),
    ('expired', 'Requests of the lane that waited longer than '
     '[api]request_queue_timeout and were answered 503 unserved.',
     'expired'),
]


def node_families():
    """The nodes by provision state and by shard (database reads)."""
    ctx = ir_context.get_admin_context()
    by_state = objects.Node.count_by_provision_state(ctx)
    yield metrics.gauge(
        'ironic_nodes', 'Nodes by provision state.', ['provision_state'],
        [((state or '',), n) for state, n in sorted(
            by_state.items(), key=lambda item: item[0] or '')])
    yield metrics.gauge(
        'ironic_shard_nodes', 'Nodes by shard (shard="": no shard).',
        ['shard'], [((row['name'] or '',), row['count'])
                    for row in objects.Node.get_shard_list(ctx)])


def wrap(app):
    """``app`` with the request metrics and the endpoint, when enabled;
    the node counts provided to the scrapes."""
    if not enabled():
        return app
    metrics.provide('nodes', metrics.Cached(
        node_families, CONF.metrics.prometheus_node_counts_ttl))
    return Endpoint(RequestMetrics(app))


def provide_server(service):
    """Scrapes read ``service``'s connections and lanes."""
    metrics.provide('api_server', lambda: server_families(service))
