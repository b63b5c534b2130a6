"""Options of ``[metrics]``: the Prometheus endpoints (ironic-lite's own).

Ironic's ``[metrics]`` group chooses a backend (statsd, or a collector
that ironic-prometheus-exporter reads from the notifications); ironic-lite
has none of those and serves Prometheus itself instead
(doc/source/admin/metrics.rst, doc/source/api/differences.rst).  Both
endpoints are off by default: they are unauthenticated.
"""

from oslo_config import cfg

opts = [
    cfg.BoolOpt('prometheus_api_enabled', default=False,
                help='Serve Prometheus metrics at /metrics on the API\'s '
                     'own port (ironic-api, ironic-lite). Note that this is '
                     'unauthenticated, as /healthcheck: it tells request '
                     'rates, latencies and node counts to whoever reaches '
                     'the port; protect it at the load balancer or leave '
                     'it off.'),
    cfg.PortOpt('prometheus_conductor_port',
                help='Serve Prometheus metrics of ironic-conductor (and '
                     'ironic-lite) on this port, at /metrics, '
                     'unauthenticated. Unset (the default): not served. '
                     '0: a free port, logged at start.'),
    cfg.HostAddressOpt('prometheus_conductor_host', default='127.0.0.1',
                       help='The address the conductor\'s metrics port '
                            'listens on ([metrics]prometheus_conductor_'
                            'port); set it to the address the Prometheus '
                            'server reaches.'),
    cfg.IntOpt('prometheus_node_counts_ttl', default=10, min=0,
               help='Seconds the node counts by provision state and by '
                    'shard are kept between scrapes (each read is one '
                    'grouped query): several Prometheus servers scraping '
                    'the API read the database once in this time.'),
]


def register_opts(conf):
    conf.register_opts(opts, group='metrics')
