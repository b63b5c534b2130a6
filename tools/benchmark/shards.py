"""Shard API benchmark: 100,000 nodes behind a real ironic-api.

Loads a synthetic fleet (N nodes with 2 ports each, 50 shards, ~10%
unsharded, one port group per 10 nodes) straight into a fresh database,
starts real services on it and times the shard endpoints over HTTP
(microversion 1.82), then shows the database plan of each shard query.

    .venv/bin/python -m tools.benchmark.shards --db sqlite
    .venv/bin/python -m tools.benchmark.shards --db postgresql --json pg.json

It is a tool for people, not a test: it asserts nothing about timings.
See doc/source/admin/performance.rst for how to read its output.
"""

import argparse
import json
import os
import platform
import sys
import time

if __package__ in (None, ''):  # run as a file: tools/benchmark/shards.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import explain  # noqa: E402
from tools.benchmark import measure  # noqa: E402
from tools.benchmark import services  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.shards', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--db', choices=('sqlite', 'postgresql'),
                        default='sqlite', help='database backend')
    parser.add_argument('--pg-server', default=dataset.PG_SERVER,
                        help='PostgreSQL server URL (a fresh database is '
                             'created there and dropped at the end)')
    parser.add_argument('--nodes', type=int, default=100000)
    parser.add_argument('--shards', type=int, default=50)
    parser.add_argument('--unsharded', type=float, default=0.1,
                        help='fraction of nodes without a shard')
    parser.add_argument('--portgroup-every', type=int, default=10,
                        help='one port group per this many nodes (0: none)')
    parser.add_argument('--reps', type=int, default=50,
                        help='timed repetitions of each request')
    parser.add_argument('--warmup', type=int, default=5)
    parser.add_argument('--paging-reps', type=int, default=10,
                        help='timed walks through a whole shard (0: none)')
    parser.add_argument('--shard', help='the shard to query (default: the '
                                        'biggest one)')
    parser.add_argument('--services', choices=('split', 'lite'),
                        default='split',
                        help='split: ironic-api + ironic-conductor over '
                             'RabbitMQ; lite: ironic-lite (fake://)')
    parser.add_argument('--api-threads', type=int, default=8)
    parser.add_argument('--profile', metavar='PATH',
                        help='also cProfile GET PATH in-process, e.g. '
                             '"/v1/nodes?shard=shard-07"')
    parser.add_argument('--json', metavar='FILE', help='write results here')
    parser.add_argument('--keep', action='store_true',
                        help='keep the database and logs at the end')
    parser.add_argument('--no-explain', action='store_true')
    parser.add_argument('--reuse', metavar='URL',
                        help='measure the database a --keep run left at '
                             'URL (upgraded to the head schema) instead '
                             'of loading a new one; it is kept')
    return parser.parse_args(argv)


def operations(shard):
    """(name, method, path) of the single requests timed."""
    return [
        ('GET /v1/shards', '/v1/shards'),
        ('GET /v1/nodes?shard=X', '/v1/nodes?shard=%s' % shard),
        ('GET /v1/nodes?shard=X&detail=True',
         '/v1/nodes?shard=%s&detail=True' % shard),
        ('GET /v1/nodes?sharded=false', '/v1/nodes?sharded=false'),
        ('GET /v1/ports?shard=X', '/v1/ports?shard=%s' % shard),
        ('GET /v1/portgroups?shard=X', '/v1/portgroups?shard=%s' % shard),
        ('GET /v1/nodes (unfiltered)', '/v1/nodes'),
        ('GET /v1/ports/detail (unfiltered)', '/v1/ports/detail'),
    ]


def run_http(args, port):
    """Every timed operation; returns (rows, shard, shard list, marker)."""
    client = measure.Client(port)
    try:
        shards = client.call('GET', '/v1/shards')[2]['shards']
        shard = args.shard or next(s['name'] for s in shards
                                   if s['name'] != 'None')
        rows = []
        for name, path in operations(shard):
            rows.append(measure.timed(client, name, 'GET', path, args.reps,
                                      args.warmup))
            _progress(rows[-1])
        if args.paging_reps:
            walk = measure.paging(client, 'page through shard X (all pages)',
                                  '/v1/nodes?shard=%s' % shard,
                                  args.paging_reps, 1)
            expected = next(s['count'] for s in shards if s['name'] == shard)
            if walk['items'] != expected:
                raise RuntimeError('paging returned %s nodes, /v1/shards '
                                   'says %s' % (walk['items'], expected))
            rows.append(walk)
            _progress(walk)
        one = client.call('GET', '/v1/nodes?shard=%s&limit=1' % shard)[2]
        rows.append(measure.timed(
            client, 'GET /v1/nodes/<uuid>', 'GET',
            '/v1/nodes/%s' % one['nodes'][0]['uuid'], args.reps,
            args.warmup))
        _progress(rows[-1])
        rows.append(_patch(client, args, shard))
        _progress(rows[-1])
        first_page = client.call('GET', '/v1/nodes?shard=%s' % shard)[2]
        marker = first_page['nodes'][-1]['uuid']
    finally:
        client.close()
    return rows, shard, shards, marker


def _progress(row):
    print('  measured %-40s median %.1f ms' % (row['operation'],
                                               row['median_ms']),
          file=sys.stderr, flush=True)


def _patch(client, args, shard):
    """PATCH /shard of one node of X, back and forth (each a change)."""
    node = client.call('GET', '/v1/nodes?shard=%s&limit=1' % shard)[2]
    path = '/v1/nodes/%s' % node['nodes'][0]['uuid']

    def body(i):
        return [{'op': 'replace', 'path': '/shard',
                 'value': 'bench-patch-%d' % (i % 2)}]
    row = measure.timed(client, 'PATCH /v1/nodes/<uuid> (/shard)', 'PATCH',
                        path, args.reps, args.warmup, body)
    client.call('PATCH', path, [{'op': 'replace', 'path': '/shard',
                                 'value': shard}])
    return row


def print_table(rows):
    header = '%-40s %10s %10s %9s %7s' % ('operation', 'median ms',
                                          'p95 ms', 'req/s', 'items')
    print(header)
    print('-' * len(header))
    for row in rows:
        print('%-40s %10.1f %10.1f %9.1f %7s' % (
            row['operation'], row['median_ms'], row['p95_ms'],
            row['req_per_s'], row['items']))
        if 'pages' in row:
            print('%-40s %10.1f %10.1f %9s %7s' % (
                '  per page (%d pages)' % row['pages'],
                row['page_median_ms'], row['page_p95_ms'], '', ''))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    db = dataset.Database(args.db, args.pg_server, keep=args.keep,
                          url=args.reuse)
    procs = []
    try:
        result = _run(args, db, procs)
    finally:
        services.stop(procs)
        db.drop()
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=2)
        print('\nresults written to %s' % args.json)
    return 0


def _run(args, db, procs):
    port = services.free_port()
    config = services.write_config(os.path.join(db.tmpdir, 'ironic.conf'),
                                   db.url, port, args.services,
                                   args.api_threads)
    dataset.dbsync_upgrade(config)
    if args.reuse:
        counts, load_s = dataset.count_rows(db.url), None
        args.nodes = counts['nodes']
    else:
        counts, load_s = dataset.load(db.url, args.nodes, args.shards,
                                      args.unsharded, args.portgroup_every)
        print('loaded %s into %s in %.1f s' % (
            ', '.join('%d %s' % (n, t) for t, n in counts.items()),
            args.db, load_s))
    procs.extend(services.start(args.services, config, db.tmpdir))
    services.wait_ready(procs, port)
    rows, shard, shards, marker = run_http(args, port)
    print('\n%s, %d nodes, %d shards (+ unsharded), shard X = %s (%s nodes),'
          ' %d repetitions (+%d warm-up), services: %s\n' % (
              args.db, args.nodes, args.shards, shard,
              next(s['count'] for s in shards if s['name'] == shard),
              args.reps, args.warmup, args.services))
    print_table(rows)
    result = {'backend': args.db, 'nodes': args.nodes, 'counts': counts,
              'load_seconds': load_s, 'shard': shard,
              'services': args.services,
              'machine': {'cpus': os.cpu_count(),
                          'python': platform.python_version()},
              'results': rows, 'date': time.strftime('%Y-%m-%d %H:%M:%S')}
    if not args.no_explain or args.profile:
        from ironic_lite.common import config as ir_config
        ir_config.parse_args(['--config-file', config], prog='benchmark')
    if not args.no_explain:
        result['explain'] = explain.plans(shard, marker)
        explain.print_plans(result['explain'])
    if args.profile:
        from tools.benchmark import profile
        print(profile.profile_request(args.profile))
    return result


if __name__ == '__main__':
    sys.exit(main())
