"""The requests of the side-by-side comparison, and its table.

Every request kind is sent to each service ``reps`` times, alternating
request by request (and which service goes first, every repetition), so a
burst of load on the shared machine hits both sides alike.  Writes send
the same body to both (a unique name or address per repetition).
"""

import statistics
import threading
import time

from tools.benchmark import measure

IRONIC, LITE = 'ironic', 'lite'

# Ironic 39 filters port groups by shard from API 1.106 on (ironic-lite
# from 1.82, its newest): each side gets a version it accepts.
SPECIAL_VERSIONS = {'GET /v1/portgroups?shard=S': {IRONIC: '1.106'}}

# Bounds of the load lines: no client waits longer than this in total.
LOAD_DEADLINE_S = 300


def order(rep, names):
    """Which service goes first in repetition ``rep`` (alternating)."""
    names = list(names)
    return names if rep % 2 == 0 else names[::-1]


def speedup(ironic_ms, lite_ms):
    """Ironic's time over ironic-lite's (> 1: ironic-lite is faster)."""
    if not ironic_ms or not lite_ms:
        return None
    return ironic_ms / lite_ms


def _median_ms(samples):
    return statistics.median(samples) * 1000 if samples else None


def alternate(clients, name, method, path, reps, warmup, body=None,
              versions=None):
    """Time one request kind on every side; a row of medians (ms).

    ``versions``: a microversion per side where they differ."""
    samples = {side: [] for side in clients}
    items = {}
    for rep in range(warmup + reps):
        for side in order(rep, clients):
            p = path(side) if callable(path) else path
            b = body(side, rep) if callable(body) else body
            elapsed, _, result = clients[side].call(
                method, p, b, (versions or {}).get(side))
            if rep >= warmup:
                samples[side].append(elapsed)
                items[side] = measure.count_items(result)
    return _row(name, {s: _median_ms(v) for s, v in samples.items()}, items)


def _row(name, medians, items, unit='ms'):
    row = {'request': name, 'unit': unit, 'items': items}
    row.update(medians)
    if IRONIC in medians and LITE in medians:
        if unit == 'ms':
            row['speedup'] = speedup(medians[IRONIC], medians[LITE])
        else:  # a rate: more is better
            row['speedup'] = speedup(medians[LITE], medians[IRONIC])
    return row


def page_through(clients, name, path, reps):
    """Walk every page of ``path`` (follow ``next``), alternating sides."""
    totals = {side: [] for side in clients}
    per_page = {side: [] for side in clients}
    items = {}
    for rep in range(reps + 1):
        for side in order(rep, clients):
            pages, n = measure.walk(clients[side], path)
            if rep:
                totals[side].append(sum(pages))
                per_page[side].extend(pages)
            items[side] = n
    row = _row(name, {s: _median_ms(v) for s, v in totals.items()}, items)
    row['page_ms'] = {s: _median_ms(v) for s, v in per_page.items()}
    row['pages'] = len(pages)
    return row


def load(ports, side, path, body, clients, requests):
    """``clients`` threads POST ``requests`` in all; requests per second."""
    per_client = max(1, requests // clients)
    errors = []
    deadline = time.monotonic() + LOAD_DEADLINE_S

    def worker(index):
        client = measure.Client(ports[side])
        try:
            for i in range(per_client):
                if time.monotonic() > deadline:
                    break
                client.call('POST', path, body(side, index * per_client + i))
        except Exception as exc:  # reported below, not hidden
            errors.append(exc)
        finally:
            client.close()

    threads = [threading.Thread(target=worker, args=(i,))
               for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(LOAD_DEADLINE_S + 30)
    elapsed = time.perf_counter() - start
    if errors:
        raise RuntimeError('%s load on %s failed: %s' % (path, side,
                                                         errors[0]))
    return per_client * clients / elapsed


def load_row(ports, name, path, body, args, tag):
    """Alternating load rounds; the median rate of each side."""
    rates = {side: [] for side in ports}
    for rnd in range(args.load_rounds):
        for side in order(rnd, ports):
            rates[side].append(load(
                ports, side, path,
                lambda s, i: body(s, '%s-%d-%d' % (tag, rnd, i)),
                args.load_clients, args.load_requests))
    return _row(name, {s: statistics.median(v) for s, v in rates.items()},
                {}, unit='req/s')


def fleet_facts(clients):
    """The biggest shard and its size, checked equal on every side."""
    shards = {side: {s['name']: s['count'] for s in
                     c.call('GET', '/v1/shards')[2]['shards']}
              for side, c in clients.items()}
    first = next(iter(shards.values()))
    for side, got in shards.items():
        if got != first:
            raise RuntimeError('the fleets differ: %s has shards %s, not %s'
                               % (side, got, first))
    shard = max((n for n in first if n != 'None'), key=lambda n: first[n])
    some = next(iter(clients.values())).call(
        'GET', '/v1/nodes?shard=%s&limit=2' % shard)[2]['nodes']
    return {'shard': shard, 'shard_count': first[shard],
            'unsharded_count': first.get('None'),
            'node': some[0]['uuid'], 'patch_node': some[1]['uuid']}


def _mac(prefix, number):
    return '%s:%02x:%02x:%02x:%02x' % (prefix, (number >> 24) & 255,
                                       (number >> 16) & 255,
                                       (number >> 8) & 255, number & 255)


def reads(clients, info, args):
    s = info['shard']
    rows = []
    for name, path in [
            ('GET /v1/nodes?shard=S', '/v1/nodes?shard=%s' % s),
            ('GET /v1/nodes?shard=S&detail=True',
             '/v1/nodes?shard=%s&detail=True' % s),
            ('GET /v1/nodes?sharded=false', '/v1/nodes?sharded=false'),
            ('GET /v1/shards', '/v1/shards'),
            ('GET /v1/ports?shard=S', '/v1/ports?shard=%s' % s),
            ('GET /v1/portgroups?shard=S', '/v1/portgroups?shard=%s' % s),
            ('GET /v1/nodes (unfiltered)', '/v1/nodes'),
            ('GET /v1/nodes/<uuid>', '/v1/nodes/%s' % info['node'])]:
        rows.append(alternate(clients, name, 'GET', path, args.reps,
                              args.warmup,
                              versions=SPECIAL_VERSIONS.get(name)))
        progress(rows[-1])
    rows.append(page_through(clients, 'page through shard S (limit 1000)',
                             '/v1/nodes?shard=%s&limit=1000' % s,
                             args.paging_reps))
    progress(rows[-1])
    return rows


def writes(clients, info, args):
    node = info['patch_node']
    rows = [alternate(
        clients, 'PATCH /v1/nodes/<uuid> (shard)', 'PATCH',
        '/v1/nodes/%s' % node, args.reps, args.warmup,
        lambda side, rep: [{'op': 'replace', 'path': '/shard',
                            'value': 'bench-patch-%d' % (rep % 2)}])]
    progress(rows[-1])
    rows.append(alternate(
        clients, 'POST /v1/nodes', 'POST', '/v1/nodes', args.reps,
        args.warmup, lambda side, rep: {'driver': 'fake-hardware',
                                        'name': 'bench-new-%d' % rep}))
    progress(rows[-1])
    rows.append(alternate(
        clients, 'POST /v1/ports', 'POST', '/v1/ports', args.reps,
        args.warmup, lambda side, rep: {
            'node_uuid': node, 'address': _mac('52:56', rep)}))
    progress(rows[-1])
    rows.append(alternate(
        clients, 'POST /v1/portgroups', 'POST', '/v1/portgroups', args.reps,
        args.warmup, lambda side, rep: {
            'node_uuid': node, 'address': _mac('52:57', rep),
            'name': 'bench-pg-%d' % rep}))
    progress(rows[-1])
    return rows


def load_lines(ports, info, args):
    rows = []
    node = info['patch_node']
    rows.append(load_row(
        ports, 'load: POST /v1/nodes, %d clients' % args.load_clients,
        '/v1/nodes', lambda side, tag: {'driver': 'fake-hardware',
                                        'name': 'bench-load-%s' % tag},
        args, 'n'))
    progress(rows[-1])
    seq = iter(range(1, 10 ** 6))
    macs = {}

    def port_body(side, tag):
        if tag not in macs:
            macs[tag] = _mac('52:58', next(seq))
        return {'node_uuid': node, 'address': macs[tag]}
    rows.append(load_row(
        ports, 'load: POST /v1/ports, %d clients' % args.load_clients,
        '/v1/ports', port_body, args, 'p'))
    progress(rows[-1])
    return rows


def run_all(ports, args):
    clients = {side: measure.Client(port) for side, port in ports.items()}
    try:
        info = fleet_facts(clients)
        rows = reads(clients, info, args) + writes(clients, info, args)
    finally:
        for client in clients.values():
            client.close()
    rows += load_lines(ports, info, args)
    return rows, info


def progress(row):
    print('  measured %s' % format_row(row), flush=True)


def _fmt(value, unit):
    if value is None:
        return '-'
    return '%.1f' % value if unit == 'ms' else '%.0f/s' % value


def format_row(row):
    unit = row['unit']
    ratio = row.get('speedup')
    return '| %s | %s | %s | %s |' % (
        row['request'] + _items(row), _fmt(row.get(IRONIC), unit),
        _fmt(row.get(LITE), unit),
        '%.2fx' % ratio if ratio is not None else '-')


def _items(row):
    counts = set(row.get('items', {}).values())
    if len(counts) == 1 and row['unit'] == 'ms':
        n = counts.pop()
        return ' (%d)' % n if n > 1 else ''
    if len(counts) > 1:
        return ' (items differ: %s)' % row['items']
    return ''


def format_table(rows):
    lines = ['| request | Ironic | ironic-lite | speed-up |',
             '|---|---|---|---|']
    for row in rows:
        lines.append(format_row(row))
        if 'page_ms' in row:
            pages = row['page_ms']
            lines.append(format_row(_row(
                '  one page of it (%d pages)' % row['pages'],
                pages, {})))
    return '\n'.join(lines)
