"""ironic-lite on a three-member MariaDB Galera cluster behind HAProxy.

* A certification conflict -- the same row written on two members at
  once -- reaches the writer as MariaDB's error 1213, which oslo.db
  raises as DBDeadlock, and ``db/api.py``'s ``retry_on_db_errors`` runs
  the whole transaction again: an update is applied (once), a node lock
  taken on the other member meanwhile is seen (NodeLocked), never
  overwritten.
* The writer killed (``kill -9``) under the steady load of
  tests/ha/scenario.py (its runner and ledger) through HAProxy (one
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
from tests.ha import scenario as ha
from tests import timeouts
from tests.upgrade import deployment

pytestmark = pytest.mark.backend

CONDUCTORS = ('conductor-1', 'conductor-2', 'conductor-3')
APIS = ('api-1', 'api-2')


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


class GaleraDeployment(deployment.Deployment):
    EXTRA_CONFIG = faults.EXTRA


class Scenario(object):
    """Galera + HAProxy (writer and APIs) + ironic-lite, started: a
    cluster for tests/ha/scenario.py's runner."""

    def __init__(self, workdir, galera, database):
        self.galera = galera
        self.database = database
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
        self.client = ha.watch(faults.Client(
            lambda: ['http://127.0.0.1:%d' % self.api_port]))

    def start(self):
        self.proxy.start()
        ha.start_services(self.dep, deployment.Release('this tree',
                                                       procs.BIN),
                          CONDUCTORS, APIS)
        procs.wait_for(lambda: set(self.proxy.servers('api').values()) == {
            'UP'}, what='both APIs up behind HAProxy')

    def stop(self):
        try:
            ha.kill_services(self.dep)
            self.dep.stop_all()
        finally:
            self.proxy.stop()
            self.checks.stop()

    def sql(self, statement):
        """Rows of ``statement`` on a live member (causal read)."""
        member = next(m for m in self.galera.members if m.alive())
        with member.connect(self.database) as conn, conn.cursor() as cur:
            cur.execute('SET SESSION wsrep_sync_wait = 15')
            cur.execute(statement)
            return list(cur)


@pytest.mark.ha_smoke
@pytest.mark.long(150)
def test_writer_killed_under_load(tmp_path, galera, database):
    if not shared.reachable('127.0.0.1', 5672):
        shared.unavailable('no RabbitMQ at %s' % shared.RABBIT_URL)
    cluster = Scenario(str(tmp_path), galera, database)
    writer, backup = galera.members[0], galera.members[1]
    moved = []
    try:
        cluster.start()
        assert cluster.proxy.active('galera') == writer.name

        def rejoin():
            # HAProxy moved the clients to the first backup; the writer
            # comes back (IST), HAProxy moves them back, the backup's
            # sessions cut.
            moved.append(cluster.proxy.active('galera'))
            began = time.monotonic()
            galera.revive(writer)
            procs.wait_for(lambda: cluster.proxy.active('galera') ==
                           writer.name, what='HAProxy back on the writer')
            return {'rejoined_s': round(time.monotonic() - began, 1)}

        figures = ha.run(cluster, lambda: galera.kill(writer),
                         'galera-writer-kill', threads=4,
                         then=[('rejoin', rejoin)])
    finally:
        cluster.stop()
    assert moved == [backup.name]
    assert figures.requests > ha.BEFORE + 2 * ha.AFTER
    assert figures.acknowledged > 0
    assert not figures.problems(), '\n'.join(figures.problems())


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
