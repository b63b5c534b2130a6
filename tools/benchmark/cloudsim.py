"""A cloud's consumers replayed against ironic-lite and Ironic (issue 24).

    .venv/bin/python -m tools.benchmark.cloudsim --only lite --nodes 2000 \\
        --db sqlite --duration 20 --period-scale 0.1
    .venv/bin/python -m tools.benchmark.cloudsim --db postgresql \\
        --nodes 100000 --shards 50 --duration 180 --json capacity.json

For each service in turn (Ironic first, from its own cached venv, then
ironic-lite; ``--only`` for one), on the same synthetic fleet loaded by
SQL (tools/benchmark/dataset.py) and in the split layout by default
(API and conductor processes): N nova-computes, one per shard, list
their shard every ``--compute-period`` and look instances up every
``--lookup-period``; M = N x ``--agents-per-compute`` networking-baremetal
agents list every port every ``--agent-period``; an operator times a
node GET, a node PATCH and a provision action.  Each step lasts
``--duration`` seconds; N grows (x ``--growth``, at least + ``--step``)
until an interactive p99 crosses ``--p99-limit`` seconds or a consumer
falls behind its period.  It prints a table per service (percentiles,
consumers behind, peak RSS and CPU of each process) and the knee.
``--period-scale 0.1`` runs every period ten times faster, so that a step
of a few minutes holds many cycles.  A tool for people, not a test.
See doc/source/admin/performance.rst.
"""

import argparse
import json
import os
import platform
import sys
import time

if __package__ in (None, ''):  # run as a file: tools/benchmark/cloudsim.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import cloudsim_load  # noqa: E402
from tools.benchmark import cloudsim_stats  # noqa: E402
from tools.benchmark import compare  # noqa: E402
from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import ironic_env  # noqa: E402
from tools.benchmark import measure  # noqa: E402
from tools.benchmark import services  # noqa: E402

IRONIC, LITE = compare.IRONIC, compare.LITE


def _fleet_args(parser):
    parser.add_argument('--db', choices=('sqlite', 'postgresql'),
                        default='postgresql')
    parser.add_argument('--pg-server', default=dataset.PG_SERVER)
    parser.add_argument('--nodes', type=int, default=100000)
    parser.add_argument('--shards', type=int, default=50)
    parser.add_argument('--unsharded', type=float, default=0.1)
    parser.add_argument('--portgroup-every', type=int, default=10)
    parser.add_argument('--layout', choices=('aio', 'split'),
                        default='split')
    parser.add_argument('--ironic-version', default=ironic_env.IRONIC_VERSION)
    parser.add_argument('--only', choices=(IRONIC, LITE))
    parser.add_argument('--keep', action='store_true')
    compare.add_lite_args(parser)


def _consumer_args(parser):
    parser.add_argument('--compute-period', type=float, default=60.0,
                        help='nova update_available_resource_interval')
    parser.add_argument('--lookup-period', type=float, default=10.0,
                        help='seconds between instance lookups of a compute')
    parser.add_argument('--agent-period', type=float, default=30.0,
                        help='networking-baremetal report_interval')
    parser.add_argument('--stale-lookups', type=int, default=1,
                        help='GET /v1/nodes/<id> per agent cycle')
    parser.add_argument('--agents-per-compute', type=float, default=0.2,
                        help='0: no agent (a ramp of computes alone)')
    parser.add_argument('--period-scale', type=float, default=1.0)
    parser.add_argument('--max-late', type=float, default=1.0,
                        help='seconds: a cycle starting later than this '
                             'after it was due counts as falling behind')
    parser.add_argument('--interval', type=float, default=0.5,
                        help='seconds between two operator requests')
    parser.add_argument('--pool', type=int, default=20,
                        help='nodes the operator works on')
    parser.add_argument('--together', action='store_true',
                        help='every consumer starts its first cycle at '
                             'the start of a step (as after a restart), '
                             'not at a random phase of its period')
    parser.add_argument('--instances', type=int, default=50,
                        help='nodes given an instance_uuid to look up')


def _ramp_args(parser):
    parser.add_argument('--duration', type=float, default=60.0,
                        help='seconds of each step')
    parser.add_argument('--start-computes', type=int, default=1)
    parser.add_argument('--growth', type=float, default=1.5)
    parser.add_argument('--step', type=int, default=1)
    parser.add_argument('--max-computes', type=int,
                        help='default: the number of shards')
    parser.add_argument('--p99-limit', type=float, default=1.0,
                        help='seconds')
    parser.add_argument('--drain', type=float,
                        help='seconds to let running cycles end after a '
                             'step (default: the longest scaled period)')
    parser.add_argument('--json', metavar='FILE')


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.cloudsim', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _fleet_args(parser)
    _consumer_args(parser)
    _ramp_args(parser)
    args = parser.parse_args(argv)
    if args.max_computes is None:
        args.max_computes = args.shards
    if args.drain is None:
        args.drain = args.period_scale * max(
            args.compute_period, args.agent_period, args.lookup_period)
    return args


def setup_targets(port, args):
    """The shards, the nodes given instances, the operator's pool."""
    client = measure.Client(port)
    try:
        _, _, body = client.call('GET', '/v1/shards')
        # A compute serves a named shard: not the row of the nodes
        # without one ("None"; ironic-lite's ?shard=None lists them,
        # Ironic's finds no node).
        shards = sorted(s['name'] for s in body['shards']
                        if s['name'] != 'None')
        wanted = args.instances + args.pool
        _, _, body = client.call(
            'GET', '/v1/nodes?limit=%d&sort_key=id&fields=uuid' % wanted)
        nodes = [n['uuid'] for n in body['nodes']]
        if len(nodes) < wanted or not shards:
            raise SystemExit('the fleet is too small: %d nodes, %d shards '
                             'for %d instances + a pool of %d'
                             % (len(nodes), len(shards), args.instances,
                                args.pool))
        instances = []
        for node in nodes[:args.instances]:
            instance = cloudsim_load.instance_uuid_for(node)
            client.call('PATCH', '/v1/nodes/%s' % node, [
                {'op': 'add', 'path': '/instance_uuid', 'value': instance}])
            instances.append(instance)
    finally:
        client.close()
    return {'shards': shards, 'instances': instances, 'nodes': nodes,
            'pool': nodes[args.instances:]}


def ramp(name, side, targets, args):
    """Steps of growing N until the knee (or ``--max-computes``)."""
    steps = []
    computes = args.start_computes
    while computes is not None:
        agents = cloudsim_stats.agents_for(computes, args.agents_per_compute)
        step = cloudsim_load.run_step(side.port, side.procs, targets,
                                      computes, agents, args,
                                      seed=len(steps))
        step['loadavg'] = os.getloadavg()[0]
        steps.append(step)
        reasons = cloudsim_stats.step_verdict(step, args.p99_limit * 1000)
        print('%s: N=%d M=%d %s' % (name, computes, agents,
                                    '; '.join(reasons) or 'holds'),
              file=sys.stderr, flush=True)
        if reasons:
            break
        computes = cloudsim_stats.next_computes(
            computes, args.growth, args.step, args.max_computes)
    return steps


def run_side(name, args, bin_dir):
    side = compare.Side(name, args)
    try:
        if name == IRONIC:
            counts = compare.prepare_ironic(side, args, bin_dir)
        else:
            counts = compare.prepare_lite(side, args)
        services.wait_ready(side.procs, side.port, timeout=180)
        targets = setup_targets(side.port, args)
        steps = ramp(name, side, targets, args)
    finally:
        side.stop()
        side.drop()
    return {'counts': counts, 'shards': len(targets['shards']),
            'steps': steps,
            'knee': cloudsim_stats.knee(steps, args.p99_limit * 1000)}


def report(name, result, period_scale):
    label = 'Ironic' if name == IRONIC else 'ironic-lite'
    lines = ['', '%s (%s)' % (label, ', '.join(
        '%d %s' % (n, t) for t, n in result['counts'].items())),
        cloudsim_stats.format_table(result['steps'], cloudsim_load.OPS),
        cloudsim_stats.describe_knee(result['knee'], period_scale)]
    return '\n'.join(lines)


def header(args):
    return ('%s, %d nodes, %d shards, layout %s; periods: compute %g s, '
            'instance lookup %g s, agent %g s, x %g (period scale); '
            '%g s per step; M = N x %g; knee at p99 > %g s or a consumer '
            'behind; CPU in %% of one core of %d; machine load average '
            'at start %.1f' % (
                args.db, args.nodes, args.shards, args.layout,
                args.compute_period, args.lookup_period, args.agent_period,
                args.period_scale, args.duration, args.agents_per_compute,
                args.p99_limit, os.cpu_count(), os.getloadavg()[0])
            + ('; consumers start together' if args.together else '')
            + ''.join('; lite %s' % o for o in args.lite_option)
            + ('; lite over JSON-RPC' if args.lite_rpc == 'json-rpc'
               else ''))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    names = [args.only] if args.only else [IRONIC, LITE]
    bin_dir = (ironic_env.ensure_installed(args.ironic_version)
               if IRONIC in names else None)
    started = header(args)
    results = {name: run_side(name, args, bin_dir) for name in names}
    print('\n' + started)
    for name in names:
        print(report(name, results[name], args.period_scale))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'args': vars(args), 'header': started,
                       'results': results,
                       'machine': {'cpus': os.cpu_count(),
                                   'python': platform.python_version()},
                       'date': time.strftime('%Y-%m-%d %H:%M:%S')},
                      f, indent=2)
        print('\nresults written to %s' % args.json)
    return 0


if __name__ == '__main__':
    sys.exit(main())
