"""ironic-lite beside real OpenStack Ironic, on the same fleet, in one run.

    .venv/bin/python -m tools.benchmark.compare                 # 10k, SQLite
    .venv/bin/python -m tools.benchmark.compare --db postgresql --nodes 100000

Installs Ironic (``--ironic-version``, from PyPI) into a cached venv of its
own, loads the same synthetic fleet by SQL into a database for each
service, starts both side by side and times the same requests against
both, alternating request by request (so that whatever else loads the
machine loads both), each over its own keep-alive HTTP connection.  It
prints, per request, the two medians and the speed-up (Ironic's median
over ironic-lite's).  A tool for people, not a test: no timing is
asserted.  See doc/source/admin/performance.rst.
"""

import argparse
import json
import os
import platform
import sys
import time

if __package__ in (None, ''):  # run as a file: tools/benchmark/compare.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import compare_ops  # noqa: E402
from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import ironic_env  # noqa: E402
from tools.benchmark import services  # noqa: E402

IRONIC, LITE = 'ironic', 'lite'


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.compare', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--db', choices=('sqlite', 'postgresql'),
                        default='sqlite')
    parser.add_argument('--pg-server', default=dataset.PG_SERVER)
    parser.add_argument('--nodes', type=int, default=10000)
    parser.add_argument('--shards', type=int, default=20)
    parser.add_argument('--unsharded', type=float, default=0.1)
    parser.add_argument('--portgroup-every', type=int, default=10)
    parser.add_argument('--layout', choices=('auto', 'aio', 'split'),
                        default='auto',
                        help='aio: ironic-lite vs Ironic\'s all-in-one '
                             '"ironic" (rpc_transport=none); split: '
                             'ironic-api + ironic-conductor of each (lite '
                             'over RabbitMQ, Ironic over JSON-RPC).  auto: '
                             'aio on SQLite, split on PostgreSQL')
    add_lite_args(parser)
    parser.add_argument('--reps', type=int, default=40,
                        help='timed requests of each kind per service')
    parser.add_argument('--warmup', type=int, default=3)
    parser.add_argument('--paging-reps', type=int, default=5)
    parser.add_argument('--load-clients', type=int, default=4)
    parser.add_argument('--load-requests', type=int, default=100,
                        help='POSTs per load round (split over the clients)')
    parser.add_argument('--load-rounds', type=int, default=2)
    parser.add_argument('--ironic-version', default=ironic_env.IRONIC_VERSION)
    parser.add_argument('--only', choices=(IRONIC, LITE),
                        help='start and measure one side only')
    parser.add_argument('--profile', action='store_true',
                        help='afterwards, cProfile ironic-lite in process '
                             'on the same database: a shard page, one '
                             'node, PATCH and POST')
    parser.add_argument('--json', metavar='FILE')
    parser.add_argument('--keep', action='store_true')
    args = parser.parse_args(argv)
    if args.layout == 'auto':
        args.layout = 'aio' if args.db == 'sqlite' else 'split'
    return args


class Side(object):
    """One service under test: its database, config, processes, port."""

    def __init__(self, name, args):
        self.name = name
        self.db = dataset.Database(args.db, args.pg_server, keep=args.keep)
        self.port = services.free_port()
        self.procs = []
        self.config = None
        self.load_seconds = None

    def stop(self):
        services.stop(self.procs)
        self.procs = []

    def drop(self):
        self.db.drop()


def add_lite_args(parser):
    """ironic-lite's settings of a run (this tool's and cloudsim's)."""
    parser.add_argument('--lite-rpc', choices=('oslo', 'json-rpc'),
                        default='oslo',
                        help='split layout: ironic-lite\'s conductor over '
                             'RabbitMQ (oslo) or over its JSON-RPC, as '
                             'Ironic\'s is')
    parser.add_argument('--lite-option', action='append', default=[],
                        metavar='SECTION.OPTION=VALUE',
                        help='a setting added to ironic-lite\'s '
                             'ironic.conf (repeatable), e.g. '
                             'api.api_workers=2, or '
                             'api.max_concurrent_large_lists=0 (the bound '
                             'off)')


def prepare_lite(side, args):
    mode = 'lite' if args.layout == 'aio' else 'split'
    extra = list(args.lite_option)
    if mode == 'split' and args.lite_rpc == 'json-rpc':
        extra = services.json_rpc_settings() + extra
    side.config = services.write_config(
        os.path.join(side.db.tmpdir, 'ironic.conf'), side.db.url, side.port,
        mode, extra=extra)
    dataset.dbsync_upgrade(side.config)
    counts, side.load_seconds = dataset.load(
        side.db.url, args.nodes, args.shards, args.unsharded,
        args.portgroup_every)
    side.procs.extend(services.start(mode, side.config, side.db.tmpdir))
    return counts


def prepare_ironic(side, args, bin_dir):
    rpc_port = services.free_port() if args.layout == 'split' else None
    side.config = ironic_env.write_config(
        os.path.join(side.db.tmpdir, 'ironic.conf'),
        ironic_env.config_sections(side.db.url, side.port, args.layout,
                                   side.db.tmpdir, rpc_port))
    ironic_env.dbsync(bin_dir, side.config)
    counts, side.load_seconds = dataset.load(
        side.db.url, args.nodes, args.shards, args.unsharded,
        args.portgroup_every, versions=ironic_env.object_versions(bin_dir),
        node_extra={'firmware_interface': 'no-firmware'})
    side.procs.extend(ironic_env.start(bin_dir, args.layout, side.config,
                                       side.db.tmpdir))
    return counts


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    names = [args.only] if args.only else [IRONIC, LITE]
    bin_dir = (ironic_env.ensure_installed(args.ironic_version)
               if IRONIC in names else None)
    sides = {name: Side(name, args) for name in names}
    try:
        result = _run(args, sides, bin_dir)
    finally:
        for side in sides.values():
            side.stop()
            side.drop()
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=2)
        print('\nresults written to %s' % args.json)
    return 0


def _run(args, sides, bin_dir):
    counts = {}
    for name, side in sides.items():
        prepare = prepare_ironic if name == IRONIC else prepare_lite
        counts[name] = (prepare(side, args, bin_dir) if name == IRONIC
                        else prepare(side, args))
        print('%s: loaded %s by SQL in %.1f s' % (
            name, ', '.join('%d %s' % (n, t)
                            for t, n in counts[name].items()),
            side.load_seconds), file=sys.stderr, flush=True)
    for side in sides.values():
        services.wait_ready(side.procs, side.port, timeout=180)
    ports = {name: side.port for name, side in sides.items()}
    loadavg = os.getloadavg()
    rows, info = compare_ops.run_all(ports, args)
    rss_each = {name: services.rss_per_process_mb(side.procs)
                for name, side in sides.items()}
    rss = {name: {proc: sum(each) for proc, each in procs.items()}
           for name, procs in rss_each.items()}
    layout = args.layout
    if args.layout == 'split':
        layout += ' (ironic-lite over %s)' % args.lite_rpc
    if args.lite_option:
        layout += ', ironic-lite with %s' % ', '.join(args.lite_option)
    header = ('%s, %d nodes (%s in shard %s), layout %s, %d reps after %d '
              'warm-up, load average before/after %s / %s' % (
                  args.db, args.nodes, info['shard_count'], info['shard'],
                  layout, args.reps, args.warmup,
                  '%.1f' % loadavg[0], '%.1f' % os.getloadavg()[0]))
    print('\n' + header + '\n')
    print(compare_ops.format_table(rows))
    print('\nRSS after the run (MB): %s' %
          '; '.join('%s: %s' % (side, ', '.join(
              '%s %.0f' % kv for kv in procs.items()))
              for side, procs in rss.items()))
    print('RSS per process, parent first (MB): %s' % '; '.join(
        '%s: %s' % (side, ', '.join(
            '%s %s' % (name, '/'.join('%.0f' % mb for mb in each))
            for name, each in procs.items()))
        for side, procs in rss_each.items()))
    result = {'db': args.db, 'nodes': args.nodes, 'layout': layout,
              'rss_mb_per_process': rss_each,
              'ironic_version': args.ironic_version, 'counts': counts,
              'shard': info['shard'], 'shard_count': info['shard_count'],
              'rss_mb': rss, 'loadavg_before': loadavg,
              'loadavg_after': os.getloadavg(),
              'machine': {'cpus': os.cpu_count(),
                          'python': platform.python_version()},
              'rows': rows, 'date': time.strftime('%Y-%m-%d %H:%M:%S')}
    if args.profile and LITE in sides:
        from tools.benchmark import profile
        side = sides[LITE]
        side.stop()
        print(profile.profile_operations(side.config, info))
    return result


if __name__ == '__main__':
    sys.exit(main())
