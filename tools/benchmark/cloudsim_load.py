"""The consumers the cloud simulator replays, and the clock that runs them.

Each consumer is a thread with its own keep-alive connection
(measure.Client) that runs one cycle per period, starting at a random
phase within its first period; its cycles are accounted in a
cloudsim_stats.CycleLog.  The requests are those of the real consumers:

* nova-compute (``nova/virt/ironic/driver.py``), one per shard: the
  resource update lists the shard with the driver's node fields, page
  after page (``next``); an instance action looks its node up by
  ``instance_uuid`` with the same fields;
* the networking-baremetal agent (``ironic_neutron_agent._report_state``):
  every port, ``GET /v1/ports/detail`` page after page, then a node by
  UUID (the stale-agent check);
* an operator: a node GET, a node PATCH of ``extra`` and a provision
  action (``manage`` / ``provide`` in turn on each node of a pool), one
  every ``interval`` seconds, timed one by one.

Threads of one client process: the load generator does not share an
interpreter lock with the services (separate processes), but it shares
the machine's cores; its own CPU is reported beside theirs.  To keep it
cheap the periodic consumers read their pages as bytes and find the
``next`` link at the end of the body instead of parsing every node and
port (the parsing a real consumer does is its own cost, not the
service's).
"""

import http.client
import json
import random
import re
import threading
import time
import uuid

import psutil

from tools.benchmark import cloudsim_stats
from tools.benchmark import measure

# nova.virt.ironic.driver._NODE_FIELDS
NODE_FIELDS = ('uuid', 'power_state', 'target_power_state',
               'provision_state', 'target_provision_state', 'last_error',
               'maintenance', 'properties', 'instance_uuid', 'traits',
               'resource_class')
FIELDS = ','.join(NODE_FIELDS)
OPS = ('node GET', 'node PATCH', 'provision action')


def shard_path(shard):
    return '/v1/nodes?shard=%s&fields=%s' % (shard, FIELDS)


def instance_path(instance_uuid):
    return '/v1/nodes?instance_uuid=%s&fields=%s' % (instance_uuid, FIELDS)


def instance_uuid_for(node_uuid):
    """The instance a node of the fleet carries (same on both services)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, 'cloudsim/%s' % node_uuid))


class Consumer(object):
    """A periodic consumer: ``cycle(client)`` once per ``period``."""

    def __init__(self, name, period, phase, cycle, max_late, port):
        self.log = cloudsim_stats.CycleLog(name, period, max_late)
        self.phase = phase
        self.cycle = cycle
        self.port = port

    def run(self, start, deadline, stop):
        client = measure.Client(self.port)
        due = start + self.phase
        while due < deadline:
            if stop.wait(max(0.0, due - time.monotonic())):
                break
            self.log.started(due, time.monotonic())
            error = None
            refused = getattr(client, 'refusals', 0)
            try:
                self.cycle(client)
            except Exception as exc:  # an error answer, a dropped connection
                error = '%s: %s' % (type(exc).__name__, exc)
                client.close()
            self.log.refused += getattr(client, 'refusals', 0) - refused
            if error:
                client = measure.Client(self.port)
            now = time.monotonic()
            self.log.finished(now, error)
            due = self.log.next_due(due, now)
        client.close()


# A collection's ``next`` link closes its body: ``..., "next": "URL"}``.
_NEXT_AT_END = re.compile(rb'"next":\s*"([^"]+)"\s*}\s*$')


def next_link(raw):
    """The ``next`` link of a collection body, read without parsing the
    whole body (the load generator must stay cheap): from its end, else
    by parsing it after all."""
    match = _NEXT_AT_END.search(raw[-2048:])
    if match:
        return match.group(1).decode().replace('\\/', '/')
    if b'"next"' not in raw:
        return None
    return json.loads(raw).get('next')


# openstacksdk's baremetal proxy retries 409 and 503 answers (5 times by
# default, keystoneauth doubling the delay from 0.5 s): so do consumers.
RETRIED = (409, 503)
RETRIES = 5
FIRST_DELAY = 0.5


# A kept-alive connection the server closed while it was idle (Ironic's
# server does, after a while): the request is sent again, once, on a new
# connection -- as urllib3's pool (under openstacksdk) does.
STALE = (http.client.RemoteDisconnected, ConnectionResetError,
         BrokenPipeError)


def _send(client, path):
    for fresh in (False, True):
        try:
            client.conn.request('GET', path, headers=client.headers)
            resp = client.conn.getresponse()
            return resp, resp.read()
        except STALE:
            client.conn.close()   # the next request connects anew
            if fresh:
                raise


def get_raw(client, path, sleep=time.sleep):
    """One GET over the client's connection, retried as the SDK would;
    the body as bytes."""
    for attempt in range(RETRIES + 1):
        resp, raw = _send(client, path)
        if resp.status not in RETRIED:
            break
        # Counted, retried or not: "no 503" is a result of its own.
        client.refusals = getattr(client, 'refusals', 0) + 1
        if attempt == RETRIES:
            break
        sleep(FIRST_DELAY * 2 ** attempt)
    if resp.status >= 400:
        text = raw[:300].decode(errors='replace')
        raise RuntimeError('GET %s -> %s %s' % (path, resp.status, text))
    return raw


def walk_light(client, path):
    """Every page of ``path`` (as measure.walk, unparsed); pages read."""
    first, pages = path, 0
    while path:
        nxt = next_link(get_raw(client, path))
        pages += 1
        path = measure.next_path(first, nxt) if nxt else None
    return pages


def compute_cycle(shard):
    def cycle(client):
        walk_light(client, shard_path(shard))
    return cycle


def lookup_cycle(instances, rnd):
    def cycle(client):
        get_raw(client, instance_path(rnd.choice(instances)))
    return cycle


def agent_cycle(nodes, stale_lookups, rnd):
    def cycle(client):
        walk_light(client, '/v1/ports/detail')
        for _ in range(stale_lookups):
            get_raw(client, '/v1/nodes/%s' % rnd.choice(nodes))
    return cycle


class Interactive(object):
    """The operator: GET, PATCH, provision action in turn, timed.

    The three go to one node of the pool, then to the next.  The action
    follows the state the GET just read: ``manage`` an ``available`` node,
    ``provide`` a ``manageable`` one; a node still on its way (cleaning)
    is skipped, and counted."""

    ACTIONS = {'available': 'manage', 'manageable': 'provide'}

    def __init__(self, port, pool, interval):
        self.port = port
        self.pool = list(pool)
        self.interval = interval
        self.samples = {op: [] for op in OPS}
        self.errors = dict.fromkeys(OPS, 0)
        self.first_error = dict.fromkeys(OPS)
        self.skipped = 0
        self.state = None
        self.count = 0

    def _request(self, op, node):
        if op == 'node GET':
            return 'GET', '/v1/nodes/%s' % node, None
        if op == 'node PATCH':
            return 'PATCH', '/v1/nodes/%s' % node, [
                {'op': 'add', 'path': '/extra/cloudsim', 'value': self.count}]
        target = self.ACTIONS.get(self.state)
        if target is None:
            return None
        return ('PUT', '/v1/nodes/%s/states/provision' % node,
                {'target': target})

    def one(self, client):
        """The next request of the rotation; False if it failed."""
        op = OPS[self.count % len(OPS)]
        node = self.pool[(self.count // len(OPS)) % len(self.pool)]
        self.count += 1
        request = self._request(op, node)
        if request is None:
            self.skipped += 1
            return True
        try:
            elapsed, _, body = client.call(*request)
        except Exception as err:
            self.errors[op] += 1
            if self.first_error[op] is None:
                self.first_error[op] = '%s: %s' % (type(err).__name__, err)
            self.state = None
            return False
        if op == 'node GET':
            self.state = body.get('provision_state')
        self.samples[op].append(elapsed)
        return True

    def run(self, start, deadline, stop):
        client = measure.Client(self.port)
        due = start
        while due < deadline:
            if stop.wait(max(0.0, due - time.monotonic())):
                break
            if not self.one(client):
                client.close()
                client = measure.Client(self.port)
            due = max(due + self.interval, time.monotonic())
        client.close()

    def summary(self):
        result = {}
        for op in OPS:
            row = cloudsim_stats.latency_summary(self.samples[op])
            row['errors'] = self.errors[op]
            row['first_error'] = self.first_error[op]
            result[op] = row
        result['provision action']['skipped'] = self.skipped
        return result


class ProcessSampler(object):
    """Peak RSS (sampled every ``every`` s) and CPU of each service
    process -- with its children (a launcher's workers) -- and of this
    client process."""

    def __init__(self, procs, every=1.0):
        self.trees = {p.name: psutil.Process(p.proc.pid) for p in procs}
        self.trees['client'] = psutil.Process()
        self.every = every
        self.rss_max = dict.fromkeys(self.trees, 0.0)
        # The largest one process of each tree (an API worker), and how
        # many processes the tree had at most.
        self.rss_max_one = dict.fromkeys(self.trees, 0.0)
        self.members_max = dict.fromkeys(self.trees, 1)
        self.cpu_start = {}
        self.wall_start = None

    def _members(self, name):
        root = self.trees[name]
        try:
            kids = root.children(recursive=True) if name != 'client' else []
        except psutil.Error:
            kids = []
        return [root] + kids

    def _cpu(self, name):
        """{pid: user + system seconds} of the tree now."""
        result = {}
        for proc in self._members(name):
            try:
                times = proc.cpu_times()
            except psutil.Error:
                continue
            result[proc.pid] = times.user + times.system
        return result

    def _sample_rss(self):
        for name in self.trees:
            total = 0
            members = self._members(name)
            for proc in members:
                try:
                    rss = proc.memory_info().rss / 2.0 ** 20
                except psutil.Error:
                    continue
                total += rss
                self.rss_max_one[name] = max(self.rss_max_one[name], rss)
            self.rss_max[name] = max(self.rss_max[name], total)
            self.members_max[name] = max(self.members_max[name],
                                         len(members))

    def run(self, deadline, stop):
        self.wall_start = time.monotonic()
        self.cpu_start = {name: self._cpu(name) for name in self.trees}
        while not stop.is_set() and time.monotonic() < deadline:
            self._sample_rss()
            stop.wait(self.every)

    def summary(self):
        """{process: {'rss_max_mb', 'cpu_pct'}}; CPU in % of one core."""
        wall = max(time.monotonic() - self.wall_start, 1e-6)
        self._sample_rss()
        result = {}
        for name in self.trees:
            before = self.cpu_start.get(name, {})
            now = self._cpu(name)
            used = sum(t - before.get(pid, 0.0) for pid, t in now.items())
            result[name] = {'rss_max_mb': self.rss_max[name],
                            'cpu_pct': 100.0 * used / wall}
            if self.members_max[name] > 1:
                result[name]['rss_max_process_mb'] = self.rss_max_one[name]
        return result


def build_consumers(port, targets, computes, agents, args, seed):
    """The periodic consumers of a step: N computes (a shard each, in
    turn) with their instance lookups, and M agents."""
    rnd = random.Random(seed)
    shards = targets['shards']
    scale = args.period_scale
    out = []

    def add(name, period, cycle):
        # --together: every consumer's first cycle at the start, as
        # after a restart of the cloud's services.
        phase = 0.0 if args.together else rnd.uniform(0, period)
        out.append(Consumer(name, period, phase, cycle, args.max_late,
                            port))
    for i in range(computes):
        add('compute#%d' % i, args.compute_period * scale,
            compute_cycle(shards[i % len(shards)]))
        add('instance-lookup#%d' % i, args.lookup_period * scale,
            lookup_cycle(targets['instances'], random.Random(seed + i)))
    for j in range(agents):
        add('agent#%d' % j, args.agent_period * scale,
            agent_cycle(targets['nodes'], args.stale_lookups,
                        random.Random(seed - j - 1)))
    return out


def run_step(port, procs, targets, computes, agents, args, seed=0):
    """One step of the ramp for ``args.duration`` seconds; its record."""
    consumers = build_consumers(port, targets, computes, agents, args, seed)
    operator = Interactive(port, targets['pool'], args.interval)
    sampler = ProcessSampler(procs)
    stop = threading.Event()
    start = time.monotonic() + 0.5
    deadline = start + args.duration
    threads = [threading.Thread(target=c.run, args=(start, deadline, stop),
                                daemon=True) for c in consumers]
    threads.append(threading.Thread(target=operator.run,
                                    args=(start, deadline, stop),
                                    daemon=True))
    threads.append(threading.Thread(target=sampler.run,
                                    args=(deadline, stop), daemon=True))
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, deadline - time.monotonic()))
    stop.set()
    drain_until = time.monotonic() + args.drain
    for thread in threads:
        thread.join(max(0.0, drain_until - time.monotonic()))
    now = time.monotonic()
    lag = [c.log.summary(now) for c in consumers]
    return {'computes': computes, 'agents': agents,
            'interactive': operator.summary(),
            'lag': cloudsim_stats.lag_by_kind(lag),
            'consumers_still_running': sum(t.is_alive() for t in threads),
            'processes': sampler.summary()}
