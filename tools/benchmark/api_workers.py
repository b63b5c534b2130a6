"""Throughput of ironic-api by [api]api_workers (processes).

Starts ``ironic-api`` and ``ironic-conductor`` (RabbitMQ, PostgreSQL,
``--nodes`` nodes loaded by dataset.py) once per worker count of
``--workers``, and measures with ``--clients`` client *processes* (not
threads: clients sharing one interpreter lock would be the bottleneck
measured) each on its own keep-alive connection, for ``--seconds``:

* ``GET /v1/nodes?detail=True&limit=<--page>`` pages;
* ``GET /v1/nodes/<uuid>`` of one node.

    .venv/bin/python -m tools.benchmark.api_workers
    .venv/bin/python -m tools.benchmark.api_workers --workers 1,2 \\
        --clients 6 --seconds 10

A tool for people, not a test: it asserts nothing about timings.  The
clients share the machine with the services: on two cores, compare runs
made one after the other.
"""

import argparse
import multiprocessing
import os
import sys
import tempfile
import time

if __package__ in (None, ''):  # run as a file
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import measure  # noqa: E402
from tools.benchmark import server  # noqa: E402
from tools.benchmark import services  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.api_workers', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--workers', default='1,2',
                        help='comma-separated [api]api_workers to compare')
    parser.add_argument('--clients', type=int, default=6)
    parser.add_argument('--seconds', type=float, default=10.0)
    parser.add_argument('--nodes', type=int, default=300)
    parser.add_argument('--page', type=int, default=100)
    return parser.parse_args(argv)


def _client(port, path, deadline):
    client = server._Client(port, path)
    client.run(deadline, 10 ** 6)
    return client.latencies, client.errors


def _level(port, path, clients, seconds):
    deadline = time.monotonic() + seconds
    began = time.monotonic()
    with multiprocessing.Pool(clients) as pool:
        results = pool.starmap(_client, [(port, path, deadline)] * clients)
    elapsed = time.monotonic() - began
    latencies = [t for lat, _errors in results for t in lat]
    return {'requests': len(latencies),
            'req_per_s': round(len(latencies) / elapsed, 1),
            'p50_ms': round(measure.percentile(latencies, 50) * 1000, 1),
            'p99_ms': round(measure.percentile(latencies, 99) * 1000, 1),
            'errors': sum(errors for _lat, errors in results)}


def _measure(args, workers, db_url, tmp):
    port = services.free_port()
    config = services.write_config(
        os.path.join(tmp, 'ironic-%d.conf' % workers), db_url, port,
        'split', api_workers=workers)
    procs = services.start('split', config, tmp)
    try:
        services.wait_ready(procs, port)
        client = measure.Client(port)
        _, _, body = client.call('GET', '/v1/nodes?limit=1')
        client.close()
        paths = {'detail page': '/v1/nodes?detail=True&limit=%d' % args.page,
                 'node GET': '/v1/nodes/%s' % body['nodes'][0]['uuid']}
        rows = {}
        for name, path in paths.items():
            _level(port, path, args.clients, 2)   # warm up
            rows[name] = _level(port, path, args.clients, args.seconds)
        return rows
    finally:
        services.stop(procs)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    db = dataset.Database('postgresql')
    try:
        with tempfile.TemporaryDirectory(prefix='ironic-lite-workers-') as t:
            config = services.write_config(os.path.join(t, 'sync.conf'),
                                           db.url, 0, 'split')
            dataset.dbsync_upgrade(config)
            dataset.load(db.url, args.nodes)
            results = [(w, _measure(args, w, db.url, t))
                       for w in [int(w) for w in args.workers.split(',')]]
    finally:
        db.drop()
    print('%d nodes, %d client processes, %ss per measure'
          % (args.nodes, args.clients, args.seconds))
    print('%-12s %8s %9s %9s %9s %7s' % ('request', 'workers', 'req/s',
                                         'p50 ms', 'p99 ms', 'errors'))
    for workers, rows in results:
        for name, row in rows.items():
            print('%-12s %8d %9.1f %9.1f %9.1f %7d' % (
                name, workers, row['req_per_s'], row['p50_ms'],
                row['p99_ms'], row['errors']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
