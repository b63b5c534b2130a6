"""ironic-lite on a three-member MariaDB Galera cluster behind HAProxy.

* A certification conflict -- the same row written on two members at
  once -- reaches the writer as MariaDB's error 1213, which oslo.db
  raises as DBDeadlock, and ``db/api.py``'s ``retry_on_db_errors`` runs
  the whole transaction again: an update is applied (once), a node lock
  taken on the other member meanwhile is seen (NodeLocked), never
  overwritten.
* The writer killed (``kill -9``) under a steady load through HAProxy (one
  writer, two backups; two APIs behind a second HAProxy section; three
  conductors): HAProxy moves the clients to the first backup; nothing
  acknowledged is lost or applied twice, no node is stranded, every
  error is a retry-safe 503, and the seconds until writes succeed again
  are printed.  The killed member then rejoins and HAProxy moves the
  clients back to it (the backups' sessions cut): the same checks.

Every process (Galera members, HAProxy, services) is torn down after the
test, failed or not.  Without MariaDB/Galera or HAProxy the tests are
skipped with the reason (failed with CI=true).
"""

from concurrent import futures
import json
import time
import uuid as uuidlib

import pytest
from sqlalchemy import event

from ironic_lite.common import exception
from ironic_lite.db import api as db_api
from ironic_lite.db import migration
from ironic_lite.db import node as db_node
from tests import conftest as shared
from tests.faults import cluster as faults
from tests.functional import procs
from tests.ha import galera as galera_mod
from tests.ha import haproxy as haproxy_mod
from tests import timeouts
from tests.upgrade import deployment
from tests.upgrade import workload

pytestmark = pytest.mark.backend

CONDUCTORS = ('conductor-1', 'conductor-2', 'conductor-3')
APIS = ('api-1', 'api-2')
# Requests of the load in each phase: before the kill, after it (at
# least: the phase lasts until writes succeed again), after the rejoin.
BEFORE = 40
AFTER = 120


@pytest.fixture(scope='module')
def galera(tmp_path_factory):
    """One cluster for the tests of the module (each leaves it whole:
    a member it kills, it starts again; each has a database of its own)."""
    lacking = galera_mod.missing() + haproxy_mod.missing()
    if lacking:
        shared.unavailable('MariaDB Galera or HAProxy not installed: %s'
                           % ', '.join(lacking))
    cluster = galera_mod.Galera(str(tmp_path_factory.mktemp('galera')))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


# -- certification conflicts ----------------------------------------------


@pytest.fixture
def database(galera):
    """The name of a new database on the cluster."""
    name = 'ironic_%s' % uuidlib.uuid4().hex[:8]
    galera.create_database(name)
    return name


@pytest.fixture
def on_member_1(galera, database, use_db):
    """ironic-lite's DB layer on member 1 (migrated), in this process."""
    use_db(galera.url(galera.members[0].port, database), migrate=False)
    migration.upgrade('head')
    return galera, database


def _conflict_at_commit(member, database, statement, params):
    """At the next commit of ironic-lite's engine, ``statement`` commits
    on ``member`` first (the same row: a certification conflict).
    Returns (commits seen, errors seen)."""
    engine = db_api.get_engine()
    commits, errors = [], []

    def commit(conn):
        commits.append(len(commits) + 1)
        if len(commits) == 1:
            with member.connect(database) as other, other.cursor() as cur:
                # A member applies what the others committed a moment
                # later: wait until it has the row (a causal read), or
                # the statement may find nothing to conflict with.
                cur.execute('SET SESSION wsrep_sync_wait = 15')
                cur.execute(statement, params)
                assert cur.rowcount == 1, 'no conflicting write made'

    def handle_error(context):
        errors.append(str(context.original_exception))

    event.listen(engine, 'commit', commit)
    event.listen(engine, 'handle_error', handle_error)
    return commits, errors


def test_certification_conflict_is_retried(on_member_1):
    galera, database = on_member_1
    node = db_node.create_node({'driver': 'fake-hardware', 'extra': {}})
    commits, errors = _conflict_at_commit(
        galera.members[1], database,
        'UPDATE nodes SET extra = %s WHERE uuid = %s',
        (json.dumps({'by': 'member-2'}), node.uuid))
    db_node.update_node(node.uuid, {'extra': {'by': 'member-1'}})
    # The first commit lost to member 2's write (1213, DBDeadlock); the
    # whole update ran again and was applied once.
    assert len(commits) == 2, (commits, errors)
    assert len(errors) == 1 and '1213' in errors[0], errors
    with galera.members[2].connect(database) as conn, conn.cursor() as cur:
        cur.execute('SELECT extra FROM nodes WHERE uuid = %s', (node.uuid,))
        assert json.loads(cur.fetchone()[0]) == {'by': 'member-1'}
    print('certification conflict: %s' % errors[0][:200])


def test_lock_taken_on_another_member_is_seen(on_member_1):
    """Two conductors reserving one node on two members: the one that
    loses certification runs again, sees the other's lock and gets
    NodeLocked; the lock is never taken twice."""
    galera, database = on_member_1
    node = db_node.create_node({'driver': 'fake-hardware'})
    commits, errors = _conflict_at_commit(
        galera.members[1], database,
        "UPDATE nodes SET reservation = 'conductor-b' WHERE uuid = %s "
        'AND reservation IS NULL', (node.uuid,))
    with pytest.raises(exception.NodeLocked) as raised:
        db_node.reserve_node('conductor-a', node.uuid)
    assert 'conductor-b' in str(raised.value)
    assert len(errors) == 1 and '1213' in errors[0], errors
    assert db_node.get_node_by_uuid(node.uuid).reservation == 'conductor-b'


# -- the writer killed under load -----------------------------------------


class Client(faults.Client):
    """The faults client, also keeping (began, ended, method, status,
    path) of every request."""

    def __init__(self, urls, **kwargs):
        super().__init__(urls, **kwargs)
        self.timeline = []

    def request(self, method, path, body=None, version=None, first=None):
        began = time.monotonic()
        status, parsed = super().request(method, path, body, version,
                                         first)
        with self._lock:
            self.timeline.append((began, time.monotonic(), method, status,
                                  path))
        return status, parsed


class Load(workload.Workload):
    """The upgrade tests' workload; each node created carries a ledger
    id in ``extra``, so that a create applied twice shows as two rows."""

    def __init__(self, client, **kwargs):
        super().__init__(client, **kwargs)
        self.ledger_ids = []

    def create_node(self, name=None):
        ledger = uuidlib.uuid4().hex
        with self._lock:
            self.ledger_ids.append(ledger)
        status, body = self.client.request(
            'POST', '/v1/nodes', {'driver': 'fake-hardware',
                                  'extra': {'k': 0, 'ledger': ledger}})
        if status == 201:
            with self._lock:
                self.nodes[body['uuid']] = {'k': 0}
            return body['uuid']
        return None


class GaleraDeployment(deployment.Deployment):
    EXTRA_CONFIG = faults.EXTRA


def recovery_seconds(timeline, since):
    """Seconds from ``since`` to the end of the first successful write
    begun after ``since`` and after the last failed request."""
    failed = [end for began, end, _, status, _ in timeline
              if end >= since and (status is None or status >= 500)]
    start = max([since] + failed)
    ends = [end for began, end, method, status, _ in timeline
            if began >= start and method != 'GET' and status is not None
            and status < 500]
    return round(min(ends) - since, 1) if ends else None


def ledger_problems(member, database, ledger_ids):
    """(duplicated, rows): ledger ids with more than one node row."""
    with member.connect(database) as conn, conn.cursor() as cur:
        cur.execute("SELECT extra FROM nodes WHERE extra LIKE '%%ledger%%'")
        rows = [json.loads(extra).get('ledger') for (extra,) in cur]
    counts = {}
    for ledger in rows:
        counts[ledger] = counts.get(ledger, 0) + 1
    return ({k: n for k, n in counts.items() if n > 1 and k in ledger_ids},
            len(rows))


def applied_by_retry(problems, timeline):
    """(lost, retried): the problems of ``Workload.verify`` but those of
    a port or port group whose DELETE was answered 404, and those.

    Only the workload deletes its ports: a 404 to its DELETE means the
    request deleted it, committed, lost the answer with its connection
    (the member died, HAProxy cut the session) and found nothing left
    when ``retry_on_db_errors`` ran it again.  Applied once, answered
    404; the ledger, which records only 204s, still expects the port.
    """
    gone = {path.rsplit('/', 1)[1] for _, _, method, status, path
            in timeline if method == 'DELETE' and status == 404}
    retried = [p for p in problems if p.split()[1] in gone
               and p.split()[0] in ('ports', 'portgroups')]
    return [p for p in problems if p not in retried], retried


TRANSITIONAL = ('deploying', 'wait call-back', 'cleaning', 'clean wait',
                'deleting', 'inspecting', 'verifying')


def settle(member, database):
    """Wait until no node is locked or on its way to a state; what is
    left locked or in a transitional state after a hang's time fails."""
    def unsettled():
        with member.connect(database) as conn, conn.cursor() as cur:
            cur.execute('SELECT uuid, provision_state, reservation FROM '
                        'nodes WHERE reservation IS NOT NULL OR '
                        'provision_state IN (%s)'
                        % ', '.join(['%s'] * len(TRANSITIONAL)),
                        TRANSITIONAL)
            return list(cur)
    procs.wait_for(lambda: not unsettled(), interval=1,
                   what='no node locked or in a transitional state')


class Scenario(object):
    """Galera + HAProxy (writer and APIs) + ironic-lite, started."""

    def __init__(self, workdir, galera, database):
        self.galera = galera
        self.checks = galera_mod.ClusterCheck(galera.members)
        self.proxy = haproxy_mod.HAProxy(workdir)
        self.db_port = self.proxy.single_writer('galera', [
            (m.name, '127.0.0.1:%d' % m.port, self.checks.ports[m.name])
            for m in galera.members])
        self.dep = GaleraDeployment(
            workdir, galera.url(self.db_port, database), shared.RABBIT_URL)
        for label in APIS:
            self.dep.api_ports[label] = procs.free_port()
        self.api_port = self.proxy.round_robin('api', [
            (label, '127.0.0.1:%d' % self.dep.api_ports[label])
            for label in APIS])
        self.client = Client(
            lambda: ['http://127.0.0.1:%d' % self.api_port])

    def start(self):
        self.proxy.start()
        release = deployment.Release('this tree', procs.BIN)
        self.dep.dbsync(release, 'upgrade')
        # Side by side: each start mostly waits for its process.
        with futures.ThreadPoolExecutor(len(CONDUCTORS)) as pool:
            for kind, labels in (('conductor', CONDUCTORS), ('api', APIS)):
                list(pool.map(lambda label, kind=kind: self.dep.start(
                    label, kind, release), labels))
        procs.wait_for(lambda: set(self.proxy.servers('api').values()) == {
            'UP'}, what='both APIs up behind HAProxy')

    def stop(self):
        try:
            for service in self.dep.services.values():
                service.terminate()
            self.dep.stop_all()
        finally:
            self.proxy.stop()
            self.checks.stop()

    def phase(self, load, step, count, event=None):
        """Run ``count`` more requests of the load as ``step``, then,
        when writes fail, until they succeed again; ``event()`` (the
        kill, the rejoin) right at the start.  Its figures."""
        seen = len(self.client.timeline)
        errors_seen = len(self.client.error_bodies)
        self.client.step = step
        began = time.monotonic()
        if event is not None:
            event()
        # Recovery counts from the start of the event: a member restarted
        # has rejoined and synced when ``revive`` returns (event_s), and
        # HAProxy moves the clients back to it then.
        event_seconds = round(time.monotonic() - began, 1)
        self.client.wait_for_results(step, count)
        procs.wait_for(lambda: recovery_seconds(
            self.client.timeline[seen:], began) is not None,
            what='a write succeeding after %s' % step)
        timeline = self.client.timeline[seen:]
        statuses = {}
        for _, _, _, status, _ in timeline:
            if status is None or status >= 400:
                statuses[status] = statuses.get(status, 0) + 1
        messages = {}
        for status, _, _, raw in self.client.error_bodies[errors_seen:]:
            try:
                text = '%s %s' % (status, faults.faultstring(
                    json.loads(raw))[:120])
            except (KeyError, TypeError, ValueError):
                text = '%s %r' % (status, raw[:120])
            messages[text] = messages.get(text, 0) + 1
        failures = sorted(round(end - began, 1) for _, end, _, status, _
                          in timeline if status is None or status >= 500)
        print('%s: failures at %s s; %s' % (step, failures, messages))
        return {'step': step, 'requests': len(timeline),
                'seconds': round(time.monotonic() - began),
                'event_s': event_seconds,
                'writes_acked': sum(1 for _, _, m, s, _ in timeline
                                    if m != 'GET' and s is not None
                                    and s < 300),
                'recovery_s': (recovery_seconds(timeline, began)
                               if event is not None else '-'),
                'errors': statuses,
                'bodies': self.client.error_bodies[errors_seen:]}


def _figures_line(figures, lost, duplicated, stranded):
    return ('galera %(step)s (%(seconds)ss, event %(event_s)ss): requests '
            '%(requests)d, '
            'acknowledged writes %(writes_acked)d, recovery %(recovery_s)ss, '
            'errors %(errors)s'
            % figures + ', lost %d, duplicated %d, stranded %d'
            % (lost, duplicated, stranded))


@pytest.mark.long(150)
def test_writer_killed_under_load(tmp_path, galera, database):
    if not shared.reachable('127.0.0.1', 5672):
        shared.unavailable('no RabbitMQ at %s' % shared.RABBIT_URL)
    scenario = Scenario(str(tmp_path), galera, database)
    writer, backup = galera.members[0], galera.members[1]
    load = None
    try:
        scenario.start()
        assert scenario.proxy.active('galera') == writer.name
        load = Load(scenario.client, threads=4, nodes_per_thread=2,
                    pace=0.02)
        load.start()
        phases = [scenario.phase(load, 'before', BEFORE)]
        phases.append(scenario.phase(load, 'kill', AFTER,
                                     lambda: galera.kill(writer)))
        assert scenario.proxy.active('galera') == backup.name
        phases.append(scenario.phase(load, 'rejoin', AFTER,
                                     lambda: galera.revive(writer)))
        procs.wait_for(lambda: scenario.proxy.active('galera') ==
                       writer.name, what='HAProxy back on the writer')
        load.pause()
        lost, retried = applied_by_retry(load.verify(),
                                         scenario.client.timeline)
        load.stop()
        settle(backup, database)
        duplicated, rows = ledger_problems(backup, database,
                                           load.ledger_ids)
        for figures in phases:
            print(_figures_line(figures, len(lost), len(duplicated), 0))
        print('deletes applied and answered 404 (retried after the answer '
              'was lost): %s' % retried)
        assert not lost, lost[:10]
        assert not duplicated, duplicated
        for figures in phases:
            bad = {s: n for s, n in figures['errors'].items()
                   if s not in workload.TOLERATED and s != 503}
            assert not bad, (figures['step'], figures['errors'],
                             [r.error for r in scenario.client.results
                              if r.failed][:10])
        unsafe = [(s, m, p, raw[:200]) for s, m, p, raw
                  in scenario.client.error_bodies if s >= 500 and
                  not faults.retry_safe(s, json.loads(raw))]
        assert not unsafe, unsafe[:10]
        leaks = faults.scan_error_bodies(scenario.client.error_bodies)
        assert not leaks, leaks[:10]
    finally:
        if load is not None:
            load.stop()
        scenario.stop()


def test_cluster_check_follows_sync(galera):
    """HAProxy's health check says 503 for a dead member, 200 again once
    it has rejoined and synced."""
    checks = galera_mod.ClusterCheck(galera.members)
    try:
        member = galera.members[2]

        def check():
            return procs.http('GET', 'http://127.0.0.1:%d/'
                              % checks.ports[member.name], version=None,
                              timeout=timeouts.HANG)[0]
        assert check() == 200
        galera.kill(member)
        assert check() == 503
        galera.revive(member)
        assert check() == 200
    finally:
        checks.stop()
