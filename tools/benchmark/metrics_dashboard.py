"""The dashboard picture of doc/source/admin/metrics.rst, from real scrapes.

    .venv/bin/python -m tools.benchmark.metrics_dashboard record scrapes.json
    python3 -m tools.benchmark.metrics_dashboard render scrapes.json out.png

``record`` starts ironic-lite (SQLite, fake hardware) with its metrics
on, drives a small fleet for ``--seconds`` (clients listing and showing
nodes, asking for missing ones, nodes deployed and torn down) and
scrapes ``/metrics`` every ``--every`` seconds into a JSON file.
``render`` draws the panels an operator would put on a dashboard from
those scrapes, with the queries written under each; it needs matplotlib
and prometheus_client (``pip install matplotlib prometheus_client``),
which ironic-lite itself does not.

A tool for people, not a test: it asserts nothing.
"""

import argparse
import collections
import json
import os
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

if __package__ in (None, ''):  # run as a file
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.benchmark import services  # noqa: E402

HEADERS = {'X-OpenStack-Ironic-API-Version': '1.82',
           'Content-Type': 'application/json'}
SHARDS = ('rack-1', 'rack-2', 'rack-3')


def call(base, method, path, body=None):
    req = urllib.request.Request(
        base + path, method=method, headers=HEADERS,
        data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            raw = resp.read()
            return resp.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as err:
        err.read()
        return err.code, None


def readers(base, names, stop):
    """A client listing and showing nodes, and asking for missing ones."""
    while not stop.is_set():
        call(base, 'GET', '/v1/nodes?detail=true&limit=200')
        call(base, 'GET', '/v1/nodes/%s' % random.choice(names))
        if random.random() < 0.2:
            call(base, 'GET', '/v1/nodes/missing-node')
        call(base, 'GET', '/v1/shards')
        time.sleep(0.05)


def operator(base, names, stop):
    """Nodes moved along: manage, provide, deploy, tear down."""
    steps = ['manage', 'provide', 'active', 'deleted']
    done = collections.Counter()
    while not stop.is_set():
        name = random.choice(names)
        step = steps[done[name] % 4] if done[name] < 2 else \
            steps[2 + done[name] % 2]
        status, _ = call(base, 'PUT', '/v1/nodes/%s/states/provision'
                         % name, {'target': step})
        if status == 202:
            done[name] += 1
        stop.wait(0.4)


def record(args):
    workdir = tempfile.mkdtemp(prefix='metrics-dashboard-')
    port = services.free_port()
    config = services.write_config(
        os.path.join(workdir, 'ironic.conf'),
        'sqlite:///%s' % os.path.join(workdir, 'ironic.db'), port, 'lite',
        extra=['metrics.prometheus_api_enabled=true',
               'metrics.prometheus_node_counts_ttl=1',
               'DEFAULT.enabled_hardware_types=fake-hardware'])
    procs = services.start('lite', config, workdir)
    base = 'http://127.0.0.1:%d' % port
    stop = threading.Event()
    scrapes = []
    try:
        services.wait_ready(procs, port)
        names = []
        for i in range(args.nodes):
            name = 'node-%03d' % i
            call(base, 'POST', '/v1/nodes', {
                'driver': 'fake-hardware', 'name': name,
                'shard': SHARDS[i % len(SHARDS)]})
            names.append(name)
        threads = [threading.Thread(target=readers, args=(base, names, stop))
                   for _ in range(args.clients)]
        threads.append(threading.Thread(target=operator,
                                        args=(base, names, stop)))
        for thread in threads:
            thread.start()
        began = time.monotonic()
        while time.monotonic() - began < args.seconds:
            with urllib.request.urlopen(base + '/metrics') as resp:
                scrapes.append({'t': time.monotonic() - began,
                                'text': resp.read().decode()})
            time.sleep(args.every)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        stop.set()
        services.stop(procs)
    with open(args.output, 'w') as f:
        json.dump(scrapes, f)
    print('%d scrapes in %s' % (len(scrapes), args.output))
    return 0


def parse(scrapes):
    """[(t, {(name, frozen labels): value})]."""
    from prometheus_client.parser import text_string_to_metric_families
    series = []
    for scrape in scrapes:
        found = {}
        for family in text_string_to_metric_families(scrape['text']):
            for s in family.samples:
                found[(s.name, frozenset(s.labels.items()))] = s.value
        series.append((scrape['t'], found))
    return series


def summed(found, name, by, **match):
    """{label ``by``: sum of ``name``'s samples matching ``match``}."""
    out = collections.Counter()
    for (sample, labels), value in found.items():
        labels = dict(labels)
        if sample == name and all(labels.get(k) == v
                                  for k, v in match.items()):
            out[labels.get(by, '')] += value
    return out


def rates(series, name, by, window, **match):
    """{label: [(t, per second over the last ``window`` scrapes)]}."""
    out = collections.defaultdict(list)
    for i in range(window, len(series)):
        (t0, old), (t1, new) = series[i - window], series[i]
        before, after = summed(old, name, by, **match), summed(
            new, name, by, **match)
        for key in after:
            out[key].append((t1, (after[key] - before[key]) / (t1 - t0)))
    return out


def quantile(series, name, by, q, window):
    """{label: [(t, the q-quantile of the window's observations)]},
    from the histogram's cumulative buckets, as histogram_quantile."""
    out = collections.defaultdict(list)
    for i in range(window, len(series)):
        (_, old), (t1, new) = series[i - window], series[i]
        buckets = collections.defaultdict(collections.Counter)
        for (sample, labels), value in new.items():
            if sample != name + '_bucket':
                continue
            labels = dict(labels)
            delta = value - old.get((sample, frozenset(labels.items())), 0)
            buckets[labels[by]][float(labels['le'])] += delta
        for key, counts in buckets.items():
            total = counts[float('inf')]
            if total <= 0:
                continue
            out[key].append((t1, _interpolated(counts, q * total) * 1000))
    return out


def _interpolated(counts, rank):
    """The value of rank ``rank`` in cumulative ``counts`` ({upper bound:
    count}), linear within its bucket, as Prometheus interpolates."""
    lower, below = 0.0, 0.0
    for bound in sorted(b for b in counts if b != float('inf')):
        if counts[bound] >= rank:
            inside = counts[bound] - below
            share = (rank - below) / inside if inside else 1.0
            return lower + (bound - lower) * share
        lower, below = bound, counts[bound]
    return lower   # in the +Inf bucket: its lower bound, as Prometheus


def top(lines, n):
    return sorted(lines, key=lambda k: -sum(v for _, v in lines[k]))[:n]


def panels(series, args):
    """[(title, query, keys or None (the top 5), {key: points}, unit)]."""
    return [
        ('Requests per second by route',
         'sum by (route) (rate(ironic_api_request_duration_seconds_count'
         '[%(w)s]))',
         top(rates(series, 'ironic_api_request_duration_seconds_count',
                   'route', args.window), 5),
         rates(series, 'ironic_api_request_duration_seconds_count',
               'route', args.window), 'req/s'),
        ('p95 request latency by route',
         'histogram_quantile(0.95, sum by (route, le) (rate(\n'
         'ironic_api_request_duration_seconds_bucket[%(w)s])))',
         None, quantile(series, 'ironic_api_request_duration_seconds',
                        'route', 0.95, args.window), 'ms'),
        ('Nodes by provision state', 'ironic_nodes', None,
         {k: [(t, summed(f, 'ironic_nodes', 'provision_state').get(k, 0))
              for t, f in series]
          for k in summed(series[-1][1], 'ironic_nodes',
                          'provision_state')}, 'nodes'),
        ('RPC calls per second by method (API side)',
         'sum by (method) (rate(ironic_rpc_client_duration_seconds_count'
         '[%(w)s]))', None,
         rates(series, 'ironic_rpc_client_duration_seconds_count',
               'method', args.window), 'calls/s'),
        ('p95 conductor handling time by method',
         'histogram_quantile(0.95, sum by (method, le) (rate(\n'
         'ironic_rpc_server_duration_seconds_bucket[%(w)s])))', None,
         quantile(series, 'ironic_rpc_server_duration_seconds', 'method',
                  0.95, args.window), 'ms'),
        ('HTTP connections and large pages',
         'ironic_api_http_connections, ironic_api_lane_running,\n'
         'ironic_api_lane_waiting', None,
         {'connections': [(t, summed(f, 'ironic_api_http_connections',
                                     '')[''])
                          for t, f in series],
          'large pages running': [
              (t, summed(f, 'ironic_api_lane_running', 'lane').get(
                  'large_lists', 0)) for t, f in series],
          'large pages waiting': [
              (t, summed(f, 'ironic_api_lane_waiting', 'lane').get(
                  'large_lists', 0)) for t, f in series]}, 'count'),
    ]


def render(args):
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot
    with open(args.scrapes) as f:
        series = parse(json.load(f))
    fig, axes = pyplot.subplots(2, 3, figsize=(15, 8))
    window = '%ds' % round(args.window * args.every)
    for ax, (title, query, keys, lines, unit) in zip(
            axes.flat, panels(series, args)):
        query = query % {'w': window}
        for key in keys or top(lines, 5):
            points = lines[key]
            ax.plot([t for t, _ in points], [v for _, v in points],
                    label=key or '(none)')
        ax.set_title(title, fontsize=11)
        ax.set_xlabel('seconds\n' + query, fontsize=7, family='monospace')
        ax.set_ylabel(unit, fontsize=8)
        ax.legend(fontsize=7, loc='upper left')
        ax.grid(alpha=0.3)
    fig.suptitle('ironic-lite: one API and conductor (ironic-lite), %d '
                 'nodes, scraped every %ss' % (
                     sum(summed(series[-1][1], 'ironic_nodes',
                                'provision_state').values()),
                     args.every), fontsize=12)
    fig.tight_layout()
    fig.savefig(args.png, dpi=args.dpi)
    print('wrote %s' % args.png)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='command', required=True)
    rec = sub.add_parser('record')
    rec.add_argument('output')
    rec.add_argument('--seconds', type=float, default=120)
    rec.add_argument('--every', type=float, default=2)
    rec.add_argument('--nodes', type=int, default=60)
    rec.add_argument('--clients', type=int, default=3)
    ren = sub.add_parser('render')
    ren.add_argument('scrapes')
    ren.add_argument('png')
    ren.add_argument('--window', type=int, default=5,
                     help='scrapes per rate window')
    ren.add_argument('--every', type=float, default=2)
    ren.add_argument('--dpi', type=int, default=80)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    return record(args) if args.command == 'record' else render(args)


if __name__ == '__main__':
    sys.exit(main())
