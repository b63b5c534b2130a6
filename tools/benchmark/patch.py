"""JSON patch benchmark: the time of one PATCH by its number of operations.

Starts ``ironic-lite`` (API and conductor in one process, ``fake://``
transport) on a fresh SQLite database, creates a node and times PATCH
requests of ``--ops`` operations each, over HTTP (microversion 1.82)::

    .venv/bin/python -m tools.benchmark.patch --ops 100 1000 3000
    git worktree add ../before main     # the code before the change
    .venv/bin/python -m tools.benchmark.patch --code ../before

``--code DIR`` runs the services from another checkout (its directory goes
first on their ``PYTHONPATH``): the same patches timed before and after a
change.  The request body limit and ``[api]max_patch_operations`` are
raised for the run so that any length can be timed.  It is a tool for
people, not a test: it asserts nothing about timings.  See
doc/source/admin/performance.rst.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile

if __package__ in (None, ''):  # run as a file: tools/benchmark/patch.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import dataset  # noqa: E402
from tools.benchmark import measure  # noqa: E402
from tools.benchmark import services  # noqa: E402

SECRET_INFO = {'ipmi_password': 'pw', 'ipmi_address': '10.0.0.1'}


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--ops', type=int, nargs='+',
                        default=[100, 1000, 3000])
    parser.add_argument('--reps', type=int, default=3)
    parser.add_argument('--code', help='checkout the services run from')
    parser.add_argument('--kinds', nargs='+', default=['add', 'copy'],
                        choices=['add', 'copy'])
    return parser.parse_args(argv)


def patch_of(kind, count):
    """``count`` operations: ``add`` of small values to ``extra``, or
    ``copy`` inside the masked ``driver_info`` (each read is checked
    against what a GET shows).  The first one resets the field, so every
    repetition patches the same document."""
    if kind == 'add':
        ops = [{'op': 'replace', 'path': '/extra', 'value': {}}]
        ops += [{'op': 'add', 'path': '/extra/k%d' % i, 'value': i}
                for i in range(count - 1)]
        return ops
    ops = [{'op': 'replace', 'path': '/driver_info', 'value': SECRET_INFO}]
    ops += [{'op': 'copy', 'from': '/driver_info/ipmi_address',
             'path': '/driver_info/a%d' % i} for i in range(count - 1)]
    return ops


def time_patches(client, uuid, args):
    rows = []
    for kind in args.kinds:
        for count in args.ops:
            body = patch_of(kind, count)
            samples = [client.call('PATCH', '/v1/nodes/' + uuid, body)[0]
                       for _ in range(args.reps)]
            rows.append((kind, count, statistics.median(samples),
                         max(samples)))
            print('%-5s %6d ops: median %8.3f s  max %8.3f s'
                  % rows[-1], flush=True)
    return rows


def config(tmp, args):
    port = services.free_port()
    path = services.write_config(
        os.path.join(tmp, 'ironic.conf'),
        'sqlite:///%s' % os.path.join(tmp, 'bench.db'), port, 'lite')
    with open(path, 'a') as f:
        f.write('[oslo_middleware]\nmax_request_body_size = 67108864\n\n'
                '[api]\nmax_patch_operations = %d\n'
                % max(args.ops + [1000]))
    return path, port


def main(argv=None):
    args = parse_args(argv)
    tmp = tempfile.mkdtemp(prefix='patch-bench-')
    env = {'PYTHONPATH': os.pathsep.join(
        p for p in (args.code, os.environ.get('PYTHONPATH')) if p)}
    procs = []
    try:
        path, port = config(tmp, args)
        dataset.dbsync_upgrade(path)
        procs = services.start('lite', path, tmp, env)
        services.wait_ready(procs, port)
        client = measure.Client(port)
        uuid = client.call('POST', '/v1/nodes', {
            'driver': 'fake-hardware', 'driver_info': SECRET_INFO})[2]['uuid']
        print('code: %s' % (args.code or 'this checkout'))
        time_patches(client, uuid, args)
        client.close()
    finally:
        services.stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
