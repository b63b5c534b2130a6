"""Light requests while heavy list pages run (issue 20).

Loads a fleet of ``--nodes`` nodes into SQLite, starts ``ironic-lite``
and, for ``--seconds`` seconds, runs ``--heavy`` client threads that ask
for ``GET /v1/nodes/detail?limit=1000`` one after the other, while one
light client asks for ``GET /v1/nodes/<uuid>``.  It prints the light
request's latencies, how many heavy pages were served and refused (503),
and the API's resident memory before, at the end and 2 s after.

    .venv/bin/python -m tools.benchmark.heavy_lists
    .venv/bin/python -m tools.benchmark.heavy_lists --max-large 0  # off
    .venv/bin/python -m tools.benchmark.heavy_lists \
        --heavy-path '/v1/ports/detail?limit=1000'   # ports (2 per node)

``--max-large`` and ``--timeout`` set ``[api]max_concurrent_large_lists``
(0: no bound, as before the bound) and ``[api]request_queue_timeout``.  A
tool for people, not a test: it asserts nothing about timings.
"""

import argparse
import http.client
import os
import sys
import tempfile
import threading
import time

if __package__ in (None, ''):  # run as a file
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import measure  # noqa: E402
from tools.benchmark import server  # noqa: E402
from tools.benchmark import services  # noqa: E402

HEAVY = '/v1/nodes/detail?limit=1000'


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.heavy_lists', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--nodes', type=int, default=3000)
    parser.add_argument('--heavy', type=int, default=16,
                        help='client threads asking for heavy pages')
    parser.add_argument('--seconds', type=float, default=20.0)
    parser.add_argument('--api-threads', type=int, default=8)
    parser.add_argument('--max-large', type=int, default=2)
    parser.add_argument('--timeout', type=int, default=30,
                        help='[api]request_queue_timeout')
    parser.add_argument('--heavy-path', default=HEAVY,
                        help='what the heavy clients ask for')
    return parser.parse_args(argv)


class _Heavy(server._Client):
    """A heavy client: counts pages served and refused."""

    def __init__(self, port, path):
        super().__init__(port, path)
        self.statuses = []

    def get(self):
        if self.conn is None or self.conn.sock is None:
            self.conn = http.client.HTTPConnection(
                '127.0.0.1', self.port, timeout=300)
        try:
            self.conn.request('GET', self.path, headers={
                'X-OpenStack-Ironic-API-Version': measure.MICROVERSION})
            resp = self.conn.getresponse()
            resp.read()
            self.statuses.append(resp.status)
            if resp.status == 503:
                time.sleep(0.5)   # a client backing off before it retries
        except (OSError, http.client.HTTPException):
            self.statuses.append(None)
            self.conn.close()
        self.latencies.append(0)


def _config(tmp, port, args):
    config = services.write_config(
        os.path.join(tmp, 'ironic.conf'),
        'sqlite:///%s' % os.path.join(tmp, 'ironic.sqlite'), port, 'lite',
        api_threads=args.api_threads)
    with open(config, 'a') as f:
        f.write('[DEFAULT]\nstate_path = %s\n' % tmp)
        f.write('[api]\nmax_concurrent_large_lists = %d\n'
                'request_queue_timeout = %d\n'
                % (args.max_large, args.timeout))
    return config


def _first_node(port):
    client = measure.Client(port)
    _, _, body = client.call('GET', '/v1/nodes?limit=1')
    client.close()
    return body['nodes'][0]['uuid']


def _run(args, port, procs):
    light = server._Client(port, '/v1/nodes/%s' % _first_node(port))
    heavy = [_Heavy(port, args.heavy_path) for _ in range(args.heavy)]
    rss_before = services.rss_mb(procs)
    deadline = time.monotonic() + args.seconds
    threads = [threading.Thread(target=c.run, args=(deadline, 10 ** 6))
               for c in heavy + [light]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rss_after = services.rss_mb(procs)
    time.sleep(2)   # the last pages answered: what the API keeps
    statuses = [s for c in heavy for s in c.statuses]
    lat = sorted(light.latencies)
    return {'light_requests': len(lat),
            'light_p50_ms': measure.percentile(lat, 50) * 1000,
            'light_p99_ms': measure.percentile(lat, 99) * 1000,
            'light_max_ms': lat[-1] * 1000 if lat else 0,
            'heavy_200': statuses.count(200),
            'heavy_503': statuses.count(503),
            'heavy_other': len(statuses) - statuses.count(200)
            - statuses.count(503),
            'rss_before_mb': rss_before, 'rss_after_mb': rss_after,
            'rss_quiet_mb': services.rss_mb(procs)}


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory(prefix='ironic-lite-heavy-') as tmp:
        port = services.free_port()
        config = _config(tmp, port, args)
        dataset.dbsync_upgrade(config)
        dataset.load('sqlite:///%s' % os.path.join(tmp, 'ironic.sqlite'),
                     args.nodes)
        procs = services.start('lite', config, tmp)
        try:
            services.wait_ready(procs, port)
            result = _run(args, port, procs)
        finally:
            services.stop(procs)
    print('%d nodes, %d heavy clients of %s, %d API threads, '
          'max_concurrent_large_lists=%d, request_queue_timeout=%d, %ss'
          % (args.nodes, args.heavy, args.heavy_path, args.api_threads,
             args.max_large, args.timeout, args.seconds))
    for key, value in result.items():
        print('%-14s %s' % (key, value if not isinstance(value, float)
                            else '%.1f' % value))
    return 0


if __name__ == '__main__':
    sys.exit(main())
