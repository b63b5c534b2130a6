"""Where a write's time goes, in the API and in the conductor.

    .venv/bin/pip install py-spy
    .venv/bin/python -m tools.benchmark.write_profile --write post-node
    .venv/bin/python -m tools.benchmark.write_profile --write patch-node

Starts the split layout (an API and a conductor over RabbitMQ) on a
fresh PostgreSQL database holding a small fleet, sends one write after
another from one client for ``--seconds`` -- ``--write``: ``post-node``,
``post-port``, ``post-portgroup`` or ``patch-node`` (of
``/extra/profiled`` on one node) -- and samples both processes with
``py-spy`` meanwhile (``--idle``: a thread waiting counts, so the shares
are of wall time; ``--nonblocking``: the processes are not paused).  It
prints the median time of a request and, for the API's request threads
and the conductor's RPC handlers, the share of their samples in each
part of the path.

It is a tool for people, not a test: it asserts nothing about timings.
"""

import argparse
import collections
import os
import statistics
import subprocess
import sys
import time
import uuid

if __package__ in (None, ''):  # run as a file
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import measure  # noqa: E402
from tools.benchmark import services  # noqa: E402

# (process, the frame that marks a request's samples, [(part, a frame
# that marks it)]): the first part whose frame is in a stack takes it.
PARTS = (
    ('ironic-api', 'WSGITask.execute', (
        ('broker probe (TCP connect)', 'broker_probe.py'),
        ('waiting for the reply', 'ReplyWaiter'),
        ('publishing (with confirm)', 'publish'),
        ('database', 'sqlalchemy'),
        ('rendering', 'render'))),
    ('ironic-conductor', 'RPCDispatcher.dispatch', (
        ('database: commit', 'commit'),
        ('database: connection check-out', '_checkout'),
        ('database: statements', 'do_execute'),
        ('database: other', 'sqlalchemy'),
        ('objects (de)serialized', 'serializ'))),
)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--write', choices=sorted(WRITES),
                        default='post-node')
    parser.add_argument('--seconds', type=float, default=17.0)
    parser.add_argument('--rate', type=int, default=200,
                        help='py-spy samples per second')
    parser.add_argument('--nodes', type=int, default=2000)
    parser.add_argument('--transport', choices=('oslo', 'json-rpc'),
                        default='oslo',
                        help='the RPC between the API and the conductor: '
                             'RabbitMQ (oslo) or JSON-RPC')
    return parser.parse_args(argv)


def shares(raw_path, marker, parts):
    """(samples, Counter {part: samples}) of the stacks holding
    ``marker`` in a py-spy raw (collapsed) file."""
    counts, total = collections.Counter(), 0
    with open(raw_path) as f:
        for line in f:
            stack, _, number = line.rstrip().rpartition(' ')
            if marker not in stack:
                continue
            total += int(number)
            part = next((name for name, frame in parts if frame in stack),
                        'the rest')
            counts[part] += int(number)
    return total, counts


def _node_body(_node):
    return {'driver': 'fake-hardware',
            'name': 'profiled-%s' % uuid.uuid4().hex[:12]}


def _port_body(node):
    return {'node_uuid': node, 'address': '52:54:%02x:%02x:%02x:%02x'
            % tuple(os.urandom(4))}


def _portgroup_body(node):
    return dict(_port_body(node), name='pg-%s' % uuid.uuid4().hex[:12])


def _patch_body(_node):
    return [{'op': 'add', 'path': '/extra/profiled',
             'value': uuid.uuid4().hex}]


# --write: (method, path (%s: a node's UUID), body of a node's UUID)
WRITES = {
    'post-node': ('POST', '/v1/nodes', _node_body),
    'post-port': ('POST', '/v1/ports', _port_body),
    'post-portgroup': ('POST', '/v1/portgroups', _portgroup_body),
    'patch-node': ('PATCH', '/v1/nodes/%s', _patch_body),
}


def _send(client, write, node):
    method, path, body = WRITES[write]
    path = path % node if '%s' in path else path
    return client.call(method, path, body(node), measure.MICROVERSION)[0]


def _spy(proc, out, args):
    return subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), 'py-spy'), 'record',
         '-p', str(proc.proc.pid), '--idle', '--threads', '--nonblocking',
         '-r', str(args.rate), '-f', 'raw', '-o', out,
         '-d', str(int(args.seconds) + 3)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_split(db, nodes, procs, transport='oslo'):
    """The split layout on ``db`` holding a fleet of ``nodes`` (its
    processes appended to ``procs``), its RPC over ``transport`` (oslo:
    RabbitMQ, or json-rpc): (a client, one node's UUID)."""
    port = services.free_port()
    extra = services.json_rpc_settings() if transport == 'json-rpc' else ()
    config = services.write_config(
        os.path.join(db.tmpdir, 'ironic-%s.conf' % transport), db.url, port,
        'split', extra=extra)
    dataset.dbsync_upgrade(config)
    dataset.load(db.url, nodes, 10)
    procs.extend(services.start('split', config, db.tmpdir))
    services.wait_ready(procs, port)
    client = measure.Client(port)
    node = client.call('GET', '/v1/nodes?limit=1',
                       version=measure.MICROVERSION)[2]['nodes'][0]['uuid']
    return client, node


def run(args, db, procs):
    client, node = start_split(db, args.nodes, procs, args.transport)
    for _ in range(50):  # warm-up
        _send(client, args.write, node)
    raw = {p.name: os.path.join(db.tmpdir, '%s.raw' % p.name)
           for p in procs}
    spies = [_spy(p, raw[p.name], args) for p in procs]
    time.sleep(1)
    times, end = [], time.monotonic() + args.seconds
    while time.monotonic() < end:
        times.append(_send(client, args.write, node))
    for spy in spies:
        spy.wait()
    print('%s: %d requests, median %.2f ms (one client)'
          % (args.write, len(times), statistics.median(times) * 1e3))
    for name, marker, parts in PARTS:
        total, counts = shares(raw[name], marker, parts)
        print('\n%s, %d samples in %s:' % (name, total, marker))
        for part, samples in counts.most_common():
            print('  %5.1f %%  %s' % (100.0 * samples / max(total, 1), part))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    db = dataset.Database('postgresql')
    procs = []
    try:
        run(args, db, procs)
    finally:
        services.stop(procs)
        db.drop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
