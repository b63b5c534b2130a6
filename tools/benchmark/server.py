"""HTTP server benchmark: GET /v1/nodes/<uuid> over keep-alive connections.

Starts ``ironic-lite`` (API and conductor in one process, SQLite, the
in-process ``fake://`` transport: no broker, no database server), enrolls
one node and, for each concurrency level, runs that many client threads,
each on its own HTTP/1.1 connection that it keeps open as long as the
server allows, for ``--seconds`` seconds or ``--max-requests`` requests per
client, whichever comes first.  It prints requests/s, latency percentiles
and how many TCP connections the clients had to open (1 per client when the
server keeps connections alive; 1 per request when it closes them).

    .venv/bin/python -m tools.benchmark.server
    .venv/bin/python -m tools.benchmark.server --clients 1,4,8 --seconds 10

A tool for people, not a test: it asserts nothing about timings.  The
clients share the machine (and, being threads of one process, an
interpreter lock) with the server: compare runs made on the same machine.
"""

import argparse
import http.client
import json
import os
import sys
import tempfile
import threading
import time

if __package__ in (None, ''):  # run as a file: tools/benchmark/server.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import measure  # noqa: E402
from tools.benchmark import services  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.server', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--clients', default='1,4,8',
                        help='comma-separated concurrency levels')
    parser.add_argument('--seconds', type=float, default=5.0,
                        help='duration of each level')
    parser.add_argument('--max-requests', type=int, default=5000,
                        help='upper bound of requests per client and level')
    parser.add_argument('--warmup', type=int, default=20,
                        help='untimed requests before the first level')
    parser.add_argument('--api-threads', type=int, default=8)
    parser.add_argument('--json', metavar='FILE', help='write results here')
    return parser.parse_args(argv)


class _Client(object):
    """One client thread's connection, counting the connections opened."""

    def __init__(self, port, path):
        self.port = port
        self.path = path
        self.conn = None
        self.opened = 0
        self.latencies = []
        self.errors = 0

    def get(self):
        if self.conn is None or self.conn.sock is None:
            if self.conn is not None:
                self.conn.close()
            self.conn = http.client.HTTPConnection('127.0.0.1', self.port,
                                                   timeout=30)
            self.conn.connect()
            self.opened += 1
        start = time.perf_counter()
        try:
            self.conn.request('GET', self.path, headers={
                'X-OpenStack-Ironic-API-Version': measure.MICROVERSION})
            resp = self.conn.getresponse()
            resp.read()
            ok = resp.status == 200
            if resp.will_close:
                self.conn.close()
        except (OSError, http.client.HTTPException):
            ok = False
            self.conn.close()
        self.latencies.append(time.perf_counter() - start)
        if not ok:
            self.errors += 1

    def run(self, deadline, max_requests):
        while (time.monotonic() < deadline
               and len(self.latencies) < max_requests):
            self.get()
        if self.conn is not None:
            self.conn.close()


def run_level(port, path, clients, seconds, max_requests):
    workers = [_Client(port, path) for _ in range(clients)]
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=w.run, args=(deadline, max_requests))
               for w in workers]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    latencies = [t for w in workers for t in w.latencies]
    return {'clients': clients, 'requests': len(latencies),
            'seconds': round(elapsed, 2),
            'req_per_s': round(len(latencies) / elapsed, 1),
            'p50_ms': round(measure.percentile(latencies, 50) * 1000, 2),
            'p99_ms': round(measure.percentile(latencies, 99) * 1000, 2),
            'connections': sum(w.opened for w in workers),
            'errors': sum(w.errors for w in workers)}


def format_rows(rows):
    lines = ['%7s %9s %9s %8s %8s %11s %6s' % (
        'clients', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'connections',
        'errors')]
    for r in rows:
        lines.append('%7d %9d %9.1f %8.2f %8.2f %11d %6d' % (
            r['clients'], r['requests'], r['req_per_s'], r['p50_ms'],
            r['p99_ms'], r['connections'], r['errors']))
    return '\n'.join(lines)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    levels = [int(c) for c in args.clients.split(',') if c]
    with tempfile.TemporaryDirectory(prefix='ironic-lite-server-') as tmp:
        port = services.free_port()
        config = services.write_config(
            os.path.join(tmp, 'ironic.conf'),
            'sqlite:///%s' % os.path.join(tmp, 'ironic.sqlite'), port,
            'lite', api_threads=args.api_threads)
        with open(config, 'a') as f:
            f.write('[DEFAULT]\nstate_path = %s\n' % tmp)
        procs = services.start('lite', config, tmp)
        try:
            services.wait_ready(procs, port)
            client = measure.Client(port)
            _, _, node = client.call('POST', '/v1/nodes',
                                     {'driver': 'fake-hardware'})
            client.close()
            path = '/v1/nodes/%s' % node['uuid']
            run_level(port, path, 1, 60, args.warmup)
            rows = [run_level(port, path, c, args.seconds, args.max_requests)
                    for c in levels]
        finally:
            services.stop(procs)
    print('GET /v1/nodes/<uuid>, %ss per level, keep-alive clients'
          % args.seconds)
    print(format_rows(rows))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
