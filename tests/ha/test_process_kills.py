"""A conductor and an API killed under load on the full HA deployment.

The deployment production runs, started once for the module: a
three-node RabbitMQ cluster with kolla's quorum-queue settings
(tests/ha/rabbit.py), a three-member Galera cluster behind HAProxy with
one writer (tests/ha/galera.py, tests/ha/haproxy.py), two ironic-api
behind HAProxy round robin and three ironic-conductor.  The clients
reach the APIs through HAProxy only.  Under the load of
tests/ha/scenario.py (its ledger: nothing lost, nothing applied twice,
no node stranded, every error retry-safe, the recovery seconds):

1. ``kill -9`` of the conductor that is deploying nodes (read from the
   database right after the kill: the dead conductor still holds their
   locks in ``deploying``).  Once it is found dead (heartbeat_timeout),
   the hash ring gives its nodes to the survivors, which fail the
   interrupted deploys (``deploy failed``) or find them done; none stays
   locked or in a transitional state, and every failed one deploys again.
2. ``kill -9`` of an API mid-load.  A request in flight on it fails
   (HAProxy answers 502: the server died without an answer) and is
   counted; a new connection to it is refused and HAProxy sends it to the
   other API (``retry-on conn-failure``) until its health check marks it
   down.  The API started again gets requests from HAProxy again.

Skipped with the reason when RabbitMQ, MariaDB/Galera or HAProxy is
missing (failed with CI=true).  Every process is torn down after the
module, failed or not.
"""

from concurrent import futures
import http.server
import os
import threading
import time

import pytest

from tests import conftest as shared
from tests.faults import cluster as cluster_mod
from tests.functional import procs
from tests.ha import galera as galera_mod
from tests.ha import haproxy as haproxy_mod
from tests.ha import rabbit
from tests.ha import scenario
from tests.ha import test_rabbit

pytestmark = pytest.mark.backend

PROVISION = '/v1/nodes/%s/states/provision'
# Nodes the test deploys itself right before the kill (the load's own
# deploys come and go at random).
DEPLOYED = 6
HELD = ('deploying', 'wait call-back')


class ProxiedClient(cluster_mod.Client):
    """The fault level's client; an answer that is not JSON (HAProxy's
    own error page) is an answer too: its status, no parsed body."""

    def _send_once(self, base, method, path, body, version):
        try:
            return super()._send_once(base, method, path, body, version)
        except ValueError:
            with self._lock:
                status = next(s for s, m, p, _ in reversed(self.error_bodies)
                              if (m, p) == (method, path))
            return status, None


class Deployed(test_rabbit.IronicOnRabbit):
    """api-1, api-2, conductor-1..3 on the RabbitMQ cluster and on the
    Galera writer through HAProxy; ``client`` talks to the APIs' HAProxy
    section only."""

    def __init__(self, workdir, rabbit_cluster, galera, proxy, database):
        self.galera = galera
        self.proxy = proxy
        self.checks = galera_mod.ClusterCheck(galera.members)
        db_port = proxy.single_writer('galera', [
            (m.name, '127.0.0.1:%d' % m.port, self.checks.ports[m.name])
            for m in galera.members])
        super().__init__(workdir, galera.url(db_port, database),
                         rabbit_cluster)
        for label in self.APIS:
            self.api_ports[label] = procs.free_port()
        self.proxy_port = proxy.round_robin('api', [
            (label, '127.0.0.1:%d' % self.api_ports[label])
            for label in self.APIS])
        self.client = scenario.watch(ProxiedClient(
            lambda: ['http://127.0.0.1:%d' % self.proxy_port]))

    def start_all(self):
        self.dbsync(self.release, 'upgrade')
        # Side by side: each start mostly waits for its process.
        with futures.ThreadPoolExecutor(len(self.CONDUCTORS)) as pool:
            for kind, labels in (('conductor', self.CONDUCTORS),
                                 ('api', self.APIS)):
                list(pool.map(lambda label, kind=kind: self.start(
                    label, kind, self.release), labels))
        self.wait_api_up(*self.APIS)

    def wait_api_up(self, *labels):
        procs.wait_for(lambda: all(
            self.proxy.servers('api').get(label) == 'UP'
            for label in labels), what='%s UP behind HAProxy' % (labels,))

    def sessions(self, label):
        """Connections HAProxy has sent to API ``label`` so far."""
        for line in self.proxy.command('show stat').splitlines():
            fields = line.split(',')
            if len(fields) > 7 and fields[:2] == ['api', label]:
                return int(fields[7])
        raise AssertionError('no server %s in HAProxy' % label)

    def stop_all(self):
        try:
            super().stop_all()
        finally:
            self.checks.stop()


def _start_engines(rabbit_cluster, galera):
    """Both clusters side by side (each start mostly waits)."""
    with futures.ThreadPoolExecutor(2) as pool:
        started = [pool.submit(rabbit_cluster.start),
                   pool.submit(galera.start)]
        for future in started:
            future.result()


@pytest.fixture(scope='module')
def deployed(tmp_path_factory):
    lacking = ([rabbit.missing()] if rabbit.missing() else []) + (
        galera_mod.missing() + haproxy_mod.missing())
    if lacking:
        shared.unavailable('RabbitMQ, MariaDB Galera or HAProxy not '
                           'installed: %s' % ', '.join(lacking))
    workdir = str(tmp_path_factory.mktemp('ha-procs'))
    rabbit_cluster = rabbit.RabbitCluster(os.path.join(workdir, 'rabbitmq'))
    os.makedirs(os.path.join(workdir, 'galera'))
    galera = galera_mod.Galera(os.path.join(workdir, 'galera'))
    proxy = haproxy_mod.HAProxy(workdir)
    cluster = None
    try:
        began = time.monotonic()
        _start_engines(rabbit_cluster, galera)
        galera.create_database('ironic')
        cluster = Deployed(os.path.join(workdir, 'ironic'), rabbit_cluster,
                           galera, proxy, 'ironic')
        proxy.start()
        cluster.start_all()
        print('deployment started in %.0fs' % (time.monotonic() - began))
        yield cluster
    finally:
        try:
            if cluster is not None:
                cluster.stop_all()
        finally:
            proxy.stop()
            galera.stop()
            rabbit_cluster.stop_all()


def _node(cluster, uuid):
    status, node = cluster.request('GET', '/v1/nodes/%s' % uuid)
    assert status == 200, node
    return node


def _provision(cluster, uuid, verb):
    """The provision action, sent again while its answer is a retry-safe
    503 (a conductor not yet found dead can still be the one asked)."""
    def sent():
        status, body = cluster.request('PUT', PROVISION % uuid,
                                       {'target': verb})
        assert status in (202, 503), (uuid, verb, status, body)
        return status == 202
    procs.wait_for(sent, interval=1, what='%s of %s accepted' % (verb, uuid))


def _available_nodes(cluster, count):
    nodes = []
    for _ in range(count):
        status, body = cluster.request('POST', '/v1/nodes',
                                       {'driver': 'fake-hardware'})
        assert status == 201, body
        nodes.append(body['uuid'])
    with futures.ThreadPoolExecutor(count) as pool:
        list(pool.map(cluster.make_available, nodes))
    return nodes


def _held(cluster):
    """{conductor: [node]} of the nodes locked in a deploy right now."""
    rows = cluster.sql(
        'SELECT uuid, reservation FROM nodes WHERE reservation IS NOT '
        'NULL AND provision_state IN (%s)'
        % ', '.join("'%s'" % s for s in HELD))
    held = {}
    for uuid, owner in rows:
        held.setdefault(owner, []).append(uuid)
    return held


def _retire_computes(cluster):
    """Delete the nodes (and ports) of an earlier scenario's computes:
    tests/upgrade/consumers.py names each compute's node and port the
    same in every run, and a compute's shard must hold its node only."""
    for index in (1, 2):
        name = 'compute-node-%d' % index
        status, node = cluster.request('GET', '/v1/nodes/%s' % name)
        if status == 404:
            continue
        assert status == 200, node
        if node['provision_state'] == 'active':
            _provision(cluster, name, 'deleted')
            cluster.wait_state(name, lambda n: n['provision_state'] ==
                               'available' and not n['reservation'],
                               what='undeployed')
        if node['instance_uuid']:
            status, body = cluster.request('PATCH', '/v1/nodes/%s' % name, [
                {'op': 'remove', 'path': '/instance_uuid'}])
            assert status == 200, body
        status, body = cluster.request('DELETE', '/v1/nodes/%s' % name)
        assert status == 204, body


@pytest.mark.long(150)
def test_conductor_killed_mid_deployment(deployed):
    cluster = deployed
    _retire_computes(cluster)
    ours = _available_nodes(cluster, DEPLOYED)
    victim = []
    held_at_kill = []

    def look():
        # Outside the recovery clock: our deploys begin (FAKE_DELAY s
        # each), the conductor holding most of the deploys is chosen.
        with futures.ThreadPoolExecutor(DEPLOYED) as pool:
            list(pool.map(lambda u: _provision(cluster, u, 'active'), ours))
        held = procs.wait_for(
            lambda: {c: n for c, n in _held(cluster).items()
                     if c in cluster.CONDUCTORS},
            interval=0.1, what='a conductor deploying a node')
        victim.append(max(sorted(held), key=lambda c: len(held[c])))
        return {'victim': victim[0]}

    def kill():
        cluster.kill(victim[0])
        # Dead now: its locks are as it left them at the kill.
        held_at_kill.extend(_held(cluster).get(victim[0], []))
        return {'held_at_kill': len(held_at_kill)}

    try:
        figures = scenario.run(cluster, kill, 'conductor-kill-mid-deploy',
                               look=look)
        assert held_at_kill, 'the killed conductor held no deploy'
        ends = {}
        for uuid in held_at_kill:
            node = _node(cluster, uuid)
            ends[uuid] = node['provision_state']
            assert node['reservation'] is None, node
            assert node['conductor'] in cluster.CONDUCTORS, node
            assert node['conductor'] != victim[0], node
            assert node['provision_state'] in ('active',
                                               'deploy failed'), node
            if node['provision_state'] == 'deploy failed':
                assert node['last_error'], node
        print('nodes the killed conductor held: %s' % sorted(ends.values()))
        # A failed deploy deploys again, on a survivor.
        failed = [u for u, state in ends.items() if state == 'deploy failed']
        for uuid in failed:
            _provision(cluster, uuid, 'active')
        for uuid in failed:
            cluster.wait_state(uuid, lambda n: n['provision_state'] ==
                               'active' and not n['reservation'],
                               what='redeployed')
        assert not cluster.locked_nodes()
    finally:
        if victim and not cluster.services[victim[0]].alive():
            cluster.revive(victim[0])
    assert figures.requests > scenario.BEFORE + scenario.AFTER
    assert figures.acknowledged > 0
    assert not figures.problems(), '\n'.join(figures.problems())


def _in_flight_failures(timeline, began, ended):
    """The requests answered with a 5xx other than 503 (HAProxy's 502:
    the API died without answering) that were in flight at the kill."""
    return [(method, path, status) for start, end, method, path, status
            in timeline if status is not None and status >= 500
            and status != 503 and start <= ended and end >= began]


def _unanswered_writes(problems, in_flight):
    """The problems of ``Workload.verify`` ("node <uuid> extra ...",
    "ports <uuid> lost (404)") that a write failed in flight on the
    object explains: applied before the kill, its answer lost."""
    touched = {path.split('?')[0].rstrip('/').split('/')[3]
               for method, path, _ in in_flight
               if method in scenario.WRITES and path.count('/') >= 3}
    return [p for p in problems if p.split()[1] in touched]


@pytest.mark.long(120)
def test_api_killed_behind_haproxy(deployed):
    cluster = deployed
    _retire_computes(cluster)
    victim = 'api-1'
    seen = len(cluster.client.timeline)
    kill_times = []

    def look():
        return {'sessions_of_%s' % victim: cluster.sessions(victim)}

    def kill():
        began = time.monotonic()
        cluster.kill(victim)
        kill_times.extend([began, time.monotonic()])
        return {}

    try:
        figures = scenario.run(cluster, kill, 'api-kill-behind-haproxy',
                               look=look)
        timeline = cluster.client.timeline[seen:]
        in_flight = _in_flight_failures(timeline, *kill_times)
        figures.notes['in_flight_failed'] = len(in_flight)
        # Every other 5xx must be retry-safe: those of the killed API's
        # requests in flight are its death's cost, counted above.
        others = [e for e in figures.not_retry_safe
                  if (e[1], e[2], e[0]) not in in_flight]
        # A write that failed in flight may have been applied before the
        # kill (its answer lost): not acknowledged, so not lost either.
        ambiguous = _unanswered_writes(figures.lost, in_flight)
        figures.lost = [p for p in figures.lost if p not in ambiguous]
        figures.notes['in_flight_applied'] = len(ambiguous)
        late = [e for e in timeline if e[4] is not None and e[4] >= 500
                and e[4] != 503 and (e[2], e[3], e[4]) not in in_flight]
        print(figures.line())
        print('failed in flight on %s: %s' % (victim, in_flight))
        assert not late, late[:10]
        figures.not_retry_safe = others
        assert not figures.problems(), '\n'.join(figures.problems())
        assert figures.requests > scenario.BEFORE + scenario.AFTER
        assert figures.acknowledged > 0
        # Started again, it gets requests from HAProxy again.
        began = time.monotonic()
        cluster.revive(victim)
        cluster.wait_api_up(victim)
        print('%s back UP behind HAProxy in %.1fs'
              % (victim, time.monotonic() - began))
        before = cluster.sessions(victim)
        statuses = [cluster.request('GET', '/v1/nodes?limit=5')[0]
                    for _ in range(10)]
        assert statuses == [200] * 10, statuses
        assert cluster.sessions(victim) >= before + 4, (
            before, cluster.sessions(victim))
    finally:
        if not cluster.services[victim].alive():
            cluster.revive(victim)


def test_in_flight_failures_are_those_of_the_kill():
    """Only the non-503 5xx of requests begun before the kill ended and
    ended after it began are counted."""
    timeline = [(0.0, 1.0, 'GET', '/a', 502),     # ended before the kill
                (1.5, 2.5, 'POST', '/b', 502),    # in flight
                (1.5, 2.5, 'GET', '/c', 503),     # a 503: not counted
                (2.2, 2.4, 'GET', '/d', 200),     # answered
                (3.0, 3.5, 'PATCH', '/e', 502)]   # begun after the kill
    assert _in_flight_failures(timeline, 2.0, 2.1) == [('POST', '/b', 502)]


def test_a_write_failed_in_flight_explains_its_object_only():
    in_flight = [('DELETE', '/v1/ports/p1', 502),
                 ('PATCH', '/v1/nodes/n1', 502),
                 ('GET', '/v1/ports/p2', 502)]
    problems = ['ports p1 lost (404)', 'ports p2 lost (404)',
                'node n1 extra {}, acknowledged {}', 'node n2 lost (404)']
    assert _unanswered_writes(problems, in_flight) == [
        'ports p1 lost (404)', 'node n1 extra {}, acknowledged {}']


class _Gateway(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'<html><body><h1>502 Bad Gateway</h1></body></html>'
        self.send_response(502)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_client_keeps_a_page_that_is_not_json():
    server = http.server.HTTPServer(('127.0.0.1', 0), _Gateway)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = 'http://127.0.0.1:%d' % server.server_address[1]
        client = ProxiedClient(lambda: [url])
        assert client.request('GET', '/v1/nodes') == (502, None)
        assert [b[:3] for b in client.error_bodies] == [
            (502, 'GET', '/v1/nodes')]
    finally:
        server.shutdown()
        server.server_close()
