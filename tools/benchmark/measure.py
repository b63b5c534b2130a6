"""Timing REST calls over one keep-alive HTTP connection."""

import http.client
import json
import statistics
import time
from urllib import parse

MICROVERSION = '1.82'


class Client(object):
    """One persistent HTTP/1.1 connection to the API."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection('127.0.0.1', port, timeout=120)
        self.headers = {'X-OpenStack-Ironic-API-Version': MICROVERSION,
                        'Content-Type': 'application/json'}

    def call(self, method, path, body=None, version=None):
        """(seconds, status, parsed body) of one request."""
        data = json.dumps(body) if body is not None else None
        headers = self.headers
        if version:
            headers = dict(headers,
                           **{'X-OpenStack-Ironic-API-Version': version})
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        raw = resp.read()
        elapsed = time.perf_counter() - start
        if resp.status >= 400:
            raise RuntimeError('%s %s -> %s: %s' % (method, path, resp.status,
                                                    raw[:500]))
        return elapsed, resp.status, json.loads(raw) if raw else None

    def close(self):
        self.conn.close()


def percentile(values, pct):
    """Nearest-rank percentile (p95 of 50 samples = the 48th)."""
    ordered = sorted(values)
    rank = max(1, int(round(pct / 100.0 * len(ordered) + 0.4999)))
    return ordered[min(rank, len(ordered)) - 1]


def summary(name, seconds, items, extra=None):
    """A result row; req/s is what one sequential client achieves."""
    total = sum(seconds)
    row = {'operation': name, 'samples': len(seconds),
           'median_ms': statistics.median(seconds) * 1000,
           'p95_ms': percentile(seconds, 95) * 1000,
           'req_per_s': len(seconds) / total if total else 0.0,
           'items': items}
    row.update(extra or {})
    return row


def count_items(body):
    for key in ('nodes', 'ports', 'portgroups', 'shards'):
        if (isinstance(body, dict) and isinstance(body.get(key), list)
                and set(body) <= {key, 'next'}):
            return len(body[key])
    return 1


def timed(client, name, method, path, reps, warmup, body=None):
    """Time ``reps`` calls after ``warmup`` untimed ones.

    ``body`` may be a callable of the repetition number (so that every
    PATCH really changes something)."""
    samples = []
    items = None
    for i in range(warmup + reps):
        payload = body(i) if callable(body) else body
        elapsed, _, result = client.call(method, path, payload)
        if i >= warmup:
            samples.append(elapsed)
            items = count_items(result)
    return summary(name, samples, items, {'method': method, 'path': path})


def next_path(first, nxt):
    """The path of the ``next`` link, with the filters of the first request
    it lacks put back (Ironic's ``next`` drops ``shard``: a consumer
    paging through its shard must add it again)."""
    url = parse.urlsplit(nxt)
    params = parse.parse_qsl(url.query, keep_blank_values=True)
    have = {k for k, _ in params}
    for key, value in parse.parse_qsl(parse.urlsplit(first).query,
                                      keep_blank_values=True):
        if key not in have:
            params.append((key, value))
    return '%s?%s' % (url.path, parse.urlencode(params))


def walk(client, path, max_pages=1000):
    """Follow ``next`` links from ``path``; (per-page seconds, items)."""
    pages = []
    items = 0
    first = path
    while path and len(pages) < max_pages:
        elapsed, _, body = client.call('GET', path)
        pages.append(elapsed)
        items += count_items(body)
        nxt = body.get('next')
        path = next_path(first, nxt) if nxt else None
    return pages, items


def paging(client, name, path, reps, warmup):
    """Page through a whole collection ``reps`` times."""
    totals, per_page = [], []
    items = 0
    for i in range(warmup + reps):
        pages, items = walk(client, path)
        if i >= warmup:
            totals.append(sum(pages))
            per_page.extend(pages)
    row = summary(name, totals, items, {'method': 'GET', 'path': path})
    row['pages'] = len(per_page) // max(reps, 1)
    row['page_median_ms'] = statistics.median(per_page) * 1000
    row['page_p95_ms'] = percentile(per_page, 95) * 1000
    return row
