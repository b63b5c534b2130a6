"""A client that behaves like a load balancer, and a mixed workload.

``RoundRobinClient`` spreads requests over the API processes and, like a
load balancer, sends a request to the next API when one refuses the
connection (the request never reached it, so this is safe for writes).
Anything else -- a 5xx, a timeout, a reset connection -- is a failure.

``Workload`` runs threads that read, create and patch nodes, drive power
and provision actions, and create and delete ports and port groups.  Every
write the API acknowledged is remembered, so that ``verify`` can prove no
acknowledged write was lost.
"""

from concurrent import futures
import http.client
import itertools
import json
import random
import threading
import time

from tests import timeouts

# Statuses a correct service may answer to this workload: 400 (an action
# that the node's current state does not allow) and 409 (node locked by a
# conductor at work) are the API doing its job, not failures.
TOLERATED = {400, 409}


class Result(object):
    __slots__ = ('step', 'status', 'latency', 'error')

    def __init__(self, step, status, latency, error=None):
        self.step, self.status = step, status
        self.latency, self.error = latency, error

    @property
    def failed(self):
        return self.status is None or self.status >= 500


class RoundRobinClient(object):
    def __init__(self, urls, timeout=timeouts.HANG, version='1.1'):
        self._urls = urls       # a callable returning the API base URLs
        self._counter = itertools.count()
        # A request unanswered after a hang's time fails (a timeout).
        self.timeout = timeout
        self.version = version
        self.results = []
        self._answered = {}     # step -> number of results
        self.step = 'setup'
        self._lock = threading.Lock()
        # Draining, as a load balancer does before an API is stopped: no
        # new request goes to a drained API, and drain() returns once the
        # requests already sent to it have been answered.
        self._drained = set()
        self._in_flight = {}
        self._idle = threading.Condition(self._lock)
        # The API base that answered this thread's last request.
        self.answered = threading.local()

    def drain(self, base, timeout=timeouts.HANG):
        with self._idle:
            self._drained.add(base)
            self._idle.wait_for(lambda: not self._in_flight.get(base),
                                timeout)

    def undrain(self, base):
        with self._lock:
            self._drained.discard(base)

    def _send(self, base, method, path, body, version):
        with self._lock:
            self._in_flight[base] = self._in_flight.get(base, 0) + 1
        try:
            return self._send_once(base, method, path, body, version)
        finally:
            with self._idle:
                self._in_flight[base] -= 1
                self._idle.notify_all()

    def _send_once(self, base, method, path, body, version):
        host, port = base.replace('http://', '').split(':')
        conn = http.client.HTTPConnection(host, int(port),
                                          timeout=self.timeout)
        try:
            headers = {'Content-Type': 'application/json',
                       'Accept': 'application/json',
                       'X-OpenStack-Ironic-API-Version':
                           version or self.version,
                       'Connection': 'close'}
            conn.request(method, path,
                         json.dumps(body) if body is not None else None,
                         headers)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, (json.loads(raw) if raw else None)
        finally:
            conn.close()

    def request(self, method, path, body=None, version=None, first=None):
        """Send to the next API (to the ``first``-th one not drained
        when given); ``answered.base`` tells which one answered."""
        with self._lock:
            urls = [u for u in self._urls() if u not in self._drained]
        start = next(self._counter) if first is None else first
        self.answered.base = None
        began = time.monotonic()
        status, parsed, error = None, None, None
        for i in range(len(urls)):
            base = urls[(start + i) % len(urls)]
            try:
                status, parsed = self._send(base, method, path, body,
                                            version)
                error = None
                self.answered.base = base
                break
            except ConnectionRefusedError as err:
                error = 'all APIs refused: %s' % err
                continue
            except (OSError, http.client.HTTPException) as err:
                error = '%s %s via %s: %r' % (method, path, base, err)
                break
        result = Result(self.step, status, time.monotonic() - began, error)
        if result.failed and error is None:
            result.error = '%s %s -> %s %s' % (method, path, status, parsed)
        with self._idle:
            self.results.append(result)
            self._answered[result.step] = self._answered.get(
                result.step, 0) + 1
            self._idle.notify_all()
        return status, parsed

    def wait_for_results(self, step, count, timeout=timeouts.HANG):
        """Wait until ``count`` requests of ``step`` have their result
        (an answer or a failure): a test measures the load it put on a
        layout in requests, which a slow machine cannot make fewer."""
        with self._idle:
            if not self._idle.wait_for(
                    lambda: self._answered.get(step, 0) >= count, timeout):
                raise AssertionError(
                    'step %s: %d of %d requests in %ss (a hang)'
                    % (step, self._answered.get(step, 0), count, timeout))


class Workload(object):
    # What one worker keeps at most: nodes of its own (it creates one now
    # and then) and ports, port groups per node (it deletes one instead of
    # creating one past that).  Unbounded, a long run grew to hundreds of
    # nodes and ports: each check's verify read every one of them, and the
    # online data migrations of an upgrade ran a hundred batches.
    MAX_NODES = 6
    MAX_CHILDREN = 3

    def __init__(self, client, threads=4, nodes_per_thread=2, pace=0.01):
        self.client = client
        self.threads = threads
        # Seconds each worker waits between two operations: the load a
        # test needs to catch a failed request, without starving of CPU
        # the processes it restarts on a small machine.
        self.pace = pace
        self.nodes_per_thread = nodes_per_thread
        self._stop = threading.Event()
        self._workers = []
        # pause(): workers finish the operation they are in, then wait.
        self._go = threading.Event()
        self._go.set()
        self._busy = 0
        self._idle = threading.Condition()
        # Acknowledged writes: node uuid -> expected extra, port/portgroup
        # uuid -> node uuid (None once acknowledged deleted).
        self.nodes = {}
        self.ports = {}
        self.portgroups = {}
        # node uuid -> the values of the PATCHes sent since its last
        # acknowledged one whose answer was a 5xx or none: "may have been
        # carried out", so the node may hold any of them instead.
        self.unsure = {}
        # Deleted children a verify found gone: not read again (a long
        # run deletes hundreds, and each step's verify read them all).
        self._seen_gone = set()
        # Nodes the last verify found holding such a value.
        self.applied_unacknowledged = 0
        self._lock = threading.Lock()
        self._mac = itertools.count(1)
        self._values = itertools.count(1)
        self.errors = []

    # -- helpers ----------------------------------------------------------

    def _new_mac(self):
        n = next(self._mac)
        return '52:54:%02x:%02x:%02x:%02x' % (
            random.randint(0, 255), (n >> 16) & 255, (n >> 8) & 255, n & 255)

    def create_node(self, name=None):
        status, body = self.client.request(
            'POST', '/v1/nodes', {'driver': 'fake-hardware',
                                  'extra': {'k': 0}})
        if status == 201:
            with self._lock:
                self.nodes[body['uuid']] = {'k': 0}
            return body['uuid']
        return None

    # -- operations -------------------------------------------------------

    def _patch(self, node):
        value = next(self._values)
        status, _ = self.client.request(
            'PATCH', '/v1/nodes/%s' % node,
            [{'op': 'replace', 'path': '/extra/k', 'value': value}])
        with self._lock:
            if status == 200:
                self.nodes[node] = {'k': value}
                self.unsure.pop(node, None)
            elif status is None or status >= 500:
                self.unsure.setdefault(node, set()).add(value)

    def _power(self, node):
        target = random.choice(['power on', 'power off'])
        self.client.request('PUT', '/v1/nodes/%s/states/power' % node,
                            {'target': target})

    def _provision(self, node):
        status, body = self.client.request('GET', '/v1/nodes/%s' % node)
        if status != 200:
            return
        verb = {'enroll': 'manage', 'manageable': 'provide',
                'available': 'active', 'active': 'deleted'}.get(
            body['provision_state'])
        if verb:
            self.client.request('PUT', '/v1/nodes/%s/states/provision'
                                % node, {'target': verb})

    def _port(self, node):
        mine = [p for p, n in self.ports.items() if n == node]
        if mine and (len(mine) >= self.MAX_CHILDREN or
                     random.random() < 0.4):
            port = random.choice(mine)
            status, _ = self.client.request('DELETE', '/v1/ports/%s' % port)
            if status == 204:
                with self._lock:
                    self.ports[port] = None
            return
        status, body = self.client.request(
            'POST', '/v1/ports', {'address': self._new_mac(),
                                  'node_uuid': node})
        if status == 201:
            with self._lock:
                self.ports[body['uuid']] = node

    def _portgroup(self, node):
        mine = [p for p, n in self.portgroups.items() if n == node]
        if mine and (len(mine) >= self.MAX_CHILDREN or
                     random.random() < 0.5):
            pg = random.choice(mine)
            status, _ = self.client.request(
                'DELETE', '/v1/portgroups/%s' % pg, version='1.26')
            if status == 204:
                with self._lock:
                    self.portgroups[pg] = None
            return
        status, body = self.client.request(
            'POST', '/v1/portgroups', {'address': self._new_mac(),
                                       'node_uuid': node}, version='1.26')
        if status == 201:
            with self._lock:
                self.portgroups[body['uuid']] = node

    def _read(self, node):
        if random.random() < 0.5:
            self.client.request('GET', '/v1/nodes?limit=20')
        else:
            self.client.request('GET', '/v1/nodes/%s' % node,
                                version='1.81')

    def _worker(self, index):
        own = [self.create_node() for _ in range(self.nodes_per_thread)]
        own = [n for n in own if n]
        ops = ([self._read] * 4 + [self._patch] * 2 + [self._power] +
               [self._provision] + [self._port] + [self._portgroup])
        while not self._stop.is_set() and own:
            self._go.wait()
            with self._idle:
                if not self._go.is_set():
                    continue
                self._busy += 1
            try:
                random.choice(ops)(random.choice(own))
                if len(own) < self.MAX_NODES and random.random() < 0.02:
                    new = self.create_node()
                    if new:
                        own.append(new)
            finally:
                with self._idle:
                    self._busy -= 1
                    self._idle.notify_all()
            time.sleep(self.pace)

    # -- control ----------------------------------------------------------

    def start(self):
        for i in range(self.threads):
            worker = threading.Thread(target=self._worker, args=(i,),
                                      daemon=True, name='workload-%d' % i)
            worker.start()
            self._workers.append(worker)

    def pause(self, timeout=timeouts.HANG):
        """Let in-flight operations finish, start no new one.

        ``verify`` while the workload runs could read a write that is
        applied but not yet acknowledged, and report it as lost: pause,
        verify, ``resume``.
        """
        with self._idle:
            self._go.clear()
            if not self._idle.wait_for(lambda: self._busy == 0, timeout):
                raise AssertionError('workload did not pause in %ss'
                                     % timeout)

    def resume(self):
        self._go.set()

    def stop(self):
        self._stop.set()
        self._go.set()
        for worker in self._workers:
            worker.join(timeouts.HANG)

    def verify(self, parallel=8):
        """Every acknowledged write is there; returns the problems.

        Checks run ``parallel`` at a time (the tables grow with the run).
        Pause the workload first (``pause``): a write applied but not yet
        acknowledged would otherwise look lost.  A deleted port or port
        group is read until one verify finds it gone, not after.
        """
        get = self.client.request

        def node_problem(item):
            node, extra = item
            status, body = get('GET', '/v1/nodes/%s' % node)
            if status != 200:
                return 'node %s lost (%s)' % (node, status)
            found = body['extra'].get('k')
            if found == extra['k']:
                return None
            if found in unsure.get(node, ()):
                # A later PATCH answered "may have been carried out" was:
                # not a lost write.  (Each node's writes come from one
                # worker, in order: an earlier one cannot land here.)
                with self._lock:
                    self.applied_unacknowledged += 1
                return None
            return ('node %s extra %s, acknowledged %s'
                    % (node, body['extra'], extra))

        def child_problem(item):
            kind, ident, node = item
            status, body = get('GET', '/v1/%s/%s' % (kind, ident),
                               version='1.26')
            if node is None and status != 404:
                return ('%s %s deleted but still there (%s)'
                        % (kind, ident, status))
            if node is None:
                with self._lock:
                    self._seen_gone.add(ident)
            if node is not None and (status != 200 or
                                     body['node_uuid'] != node):
                return '%s %s lost (%s)' % (kind, ident, status)
            return None

        with self._lock:
            nodes = sorted(self.nodes.items())
            unsure = {n: set(v) for n, v in self.unsure.items()}
            # Counted afresh: the upgrade tests verify at every step.
            self.applied_unacknowledged = 0
            children = [(kind, i, n) for kind, table in (
                ('ports', self.ports), ('portgroups', self.portgroups))
                for i, n in table.items() if i not in self._seen_gone]
        with futures.ThreadPoolExecutor(parallel) as pool:
            found = (list(pool.map(node_problem, nodes)) +
                     list(pool.map(child_problem, sorted(children))))
        return [p for p in found if p]


def percentile(values, pct):
    if not values:
        return 0.0
    values = sorted(values)
    index = min(len(values) - 1, int(round(pct / 100.0 * len(values))) - 1)
    return values[max(index, 0)]


def step_table(results, steps):
    """Rows (step, layout, requests, errors, p50 ms, p99 ms, seconds).

    ``steps`` holds (step, layout) or (step, layout, seconds) in order.
    """
    rows = []
    for entry in steps:
        step, layout = entry[0], entry[1]
        seconds = entry[2] if len(entry) > 2 else None
        mine = [r for r in results if r.step == step]
        lat = [r.latency * 1000 for r in mine]
        rows.append((step, layout, len(mine),
                     sum(1 for r in mine if r.failed),
                     percentile(lat, 50), percentile(lat, 99), seconds))
    return rows


def format_table(rows):
    lines = ['%-8s %6s %6s %8s %8s %5s  %s' % (
        'step', 'reqs', 'errors', 'p50 ms', 'p99 ms', 'secs', 'services')]
    for step, layout, reqs, errors, p50, p99, seconds in rows:
        lines.append('%-8s %6d %6d %8.1f %8.1f %5s  %s'
                     % (step, reqs, errors, p50, p99,
                        '-' if seconds is None else '%.0f' % seconds,
                        layout))
    return '\n'.join(lines)
