"""The agent's lookup under a flood: do anonymous lookups slow the others?

Starts ``ironic-lite`` (API and conductor in one process, SQLite, the
in-process ``fake://`` transport), enrolls ``--nodes`` nodes with two ports
each, then, for each flood size, runs ``--flooders`` threads sending
``GET /v1/lookup?addresses=<N MACs of nobody>`` back to back while one
probe thread reads a node (``GET /v1/nodes/<uuid>``) every 0.1 s.  It
prints the floods' answers and rate and the probe's latencies.

    .venv/bin/python -m tools.benchmark.lookup_flood
    .venv/bin/python -m tools.benchmark.lookup_flood --sizes 256,3000

A tool for people, not a test: it asserts nothing about timings.
"""

import argparse
import collections
import os
import sys
import tempfile
import threading
import time

if __package__ in (None, ''):  # run as a file
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import measure  # noqa: E402
from tools.benchmark import services  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog='python -m tools.benchmark.lookup_flood', description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--sizes', default='256,3000',
                        help='comma-separated MAC counts per lookup')
    parser.add_argument('--flooders', type=int, default=8)
    parser.add_argument('--seconds', type=float, default=15.0)
    parser.add_argument('--nodes', type=int, default=200)
    return parser.parse_args(argv)


def _mac(i, prefix='52:54:00'):
    return '%s:%02x:%02x:%02x' % (prefix, i >> 16 & 255, i >> 8 & 255,
                                  i & 255)


def enroll(port, count):
    """``count`` nodes with two ports each; the first node's UUID."""
    client = measure.Client(port)
    first = None
    for i in range(count):
        _t, _s, node = client.call('POST', '/v1/nodes',
                                   {'driver': 'fake-hardware'})
        first = first or node['uuid']
        for j in (2 * i, 2 * i + 1):
            client.call('POST', '/v1/ports', {'node_uuid': node['uuid'],
                                              'address': _mac(j)})
    client.close()
    return first


def _flood(port, size, stop, answers):
    macs = ','.join(_mac(i, '52:54:99') for i in range(size))
    conn = measure.Client(port).conn
    while not stop.is_set():
        conn.request('GET', '/v1/lookup?addresses=' + macs,
                     headers={'X-OpenStack-Ironic-API-Version': '1.82'})
        resp = conn.getresponse()
        resp.read()
        answers[resp.status] += 1


def _probe(port, uuid, stop, seconds):
    client = measure.Client(port)
    while not stop.is_set():
        seconds.append(client.call('GET', '/v1/nodes/%s' % uuid)[0])
        time.sleep(0.1)
    client.close()


def run_level(port, uuid, size, flooders, duration):
    stop = threading.Event()
    answers = collections.Counter()
    probe = []
    threads = [threading.Thread(target=_flood,
                                args=(port, size, stop, answers))
               for _ in range(flooders)]
    threads.append(threading.Thread(target=_probe,
                                    args=(port, uuid, stop, probe)))
    for thread in threads:
        thread.start()
    time.sleep(duration)
    stop.set()
    for thread in threads:
        thread.join()
    return {'macs': size, 'flooders': flooders,
            'lookups_per_s': sum(answers.values()) / duration,
            'answers': dict(answers), 'probes': len(probe),
            'probe_median_ms': measure.percentile(probe, 50) * 1000,
            'probe_p95_ms': measure.percentile(probe, 95) * 1000,
            'probe_max_ms': max(probe) * 1000}


def main(argv=None):
    args = parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        port = services.free_port()
        config = services.write_config(
            os.path.join(workdir, 'ironic.conf'),
            'sqlite:///%s' % os.path.join(workdir, 'ironic.sqlite'), port,
            'lite')
        procs = services.start('lite', config, workdir)
        try:
            services.wait_ready(procs, port)
            uuid = enroll(port, args.nodes)
            for size in [int(s) for s in args.sizes.split(',')]:
                print(run_level(port, uuid, size, args.flooders,
                                args.seconds), flush=True)
        finally:
            services.stop(procs)


if __name__ == '__main__':
    main()
