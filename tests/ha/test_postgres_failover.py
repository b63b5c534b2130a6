"""The PostgreSQL primary dies under load; Patroni promotes the standby.

Two ironic-api and three ironic-conductor processes (the shared
RabbitMQ) on a Patroni cluster (tests/ha/patroni.py: pg1 primary, pg2
its synchronous standby), reaching it through HAProxy checking Patroni's
``/primary`` (or libpq's multi-host URL with
``target_session_attrs=read-write``): no process is told which member is
the primary, nor reconfigured after the failover.  Under the load of
tests/ha/scenario.py (its runner and ledger: operators and computes) the
primary's host dies (kill -9 of Patroni, PostgreSQL and its backends),
or its PostgreSQL alone, or its Patroni alone (``KILLS``).  Then the
runner's checks hold: nothing acknowledged lost (the synchronous
standby had each acknowledged commit), nothing applied twice, no node
stranded, every error a retry-safe 503 or a 4xx the workload expects,
no leaking body, every request answered; the expected member leads,
and requests succeed again by themselves (the recovery seconds are
printed, never asserted: tests/timeouts.py).

Skipped without PostgreSQL 15, Patroni or etcd (failed with CI=true).
"""

import pytest
import sqlalchemy as sa

from tests import conftest as shared
from tests.faults import cluster as cluster_mod
from tests.ha import patroni
from tests.ha import scenario as ha


class PatroniDeployment(cluster_mod.Cluster):
    """api-1, api-2, conductor-1..3 on the Patroni cluster."""

    CONDUCTORS = ('conductor-1', 'conductor-2', 'conductor-3')

    def __init__(self, workdir, db_url, rabbit_url):
        super().__init__(workdir, db_url, rabbit_url)
        # The fault level's relays are for the shared servers: the
        # broker's is kept, the database's (127.0.0.1:5432) is not used.
        self.database.down()
        self.db_url = self.direct_db_url = db_url
        self.client = ha.watch(cluster_mod.Client(self.api_urls))

    def start_all(self):
        ha.start_services(self, self.release, self.CONDUCTORS,
                          ('api-1', 'api-2'))

    def stop_all(self):
        ha.kill_services(self)
        super().stop_all()


@pytest.fixture
def pg_cluster(tmp_path):
    reason = patroni.missing()
    if reason:
        shared.unavailable(reason)
    cluster = patroni.PatroniCluster(str(tmp_path))
    try:
        cluster.start()
        admin = sa.create_engine(cluster.member_url(cluster.primary()),
                                 isolation_level='AUTOCOMMIT')
        try:
            with admin.connect() as conn:
                conn.execute(sa.text('CREATE DATABASE ironic'))
        finally:
            admin.dispose()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def deployment(tmp_path, pg_cluster, rabbit_url, route):
    if route == 'haproxy':
        patroni.start_haproxy(pg_cluster)
        url = patroni.haproxy_url(pg_cluster, 'ironic')
    else:
        url = pg_cluster.db_url('ironic')
    started = PatroniDeployment(str(tmp_path), url, rabbit_url)
    try:
        started.start_all()
        yield started
    finally:
        started.stop_all()


# What each run kills, and the member that is the primary afterwards.
KILLS = {
    # The primary's host dies: Patroni's leader key expires, the
    # synchronous standby takes it and is promoted.
    'host': 'kill -9 of the primary\'s Patroni, PostgreSQL and backends',
    # PostgreSQL alone dies: its Patroni, still holding the leader key,
    # starts it again (crash recovery) on the same member.
    'postgres': 'kill -9 of the primary\'s PostgreSQL (Patroni lives)',
    # Patroni alone dies: its PostgreSQL runs on, unmanaged; the leader
    # key expires and the standby is promoted, HAProxy's /primary check
    # of the dead Patroni takes the old primary out of service first.
    'patroni': 'kill -9 of the primary\'s Patroni (PostgreSQL lives)',
}
PRIMARY_AFTER = {'host': 'pg2', 'postgres': 'pg1', 'patroni': 'pg2'}
# (route, kill) of each run.  The route: HAProxy with Patroni's
# /primary check (the deployment the HA guide recommends), or libpq's
# multi-host URL with target_session_attrs=read-write (no proxy; not for
# a Patroni dying alone: see the guide).
RUNS = [('haproxy', 'host'), ('haproxy', 'postgres'),
        ('haproxy', 'patroni'), ('libpq', 'host')]


# The run that best proves the failover: the primary's host dies, the
# services reach the new primary through HAProxy.
SMOKE = ('haproxy', 'host')


@pytest.mark.parametrize('route,kill', [
    pytest.param(*run, marks=[pytest.mark.ha_smoke, pytest.mark.long(90)]
                 if run == SMOKE else [])
    for run in RUNS])
def test_primary_killed_under_load_nothing_lost(deployment, pg_cluster,
                                                route, kill):
    expected_primary = PRIMARY_AFTER[kill]
    old_primary = pg_cluster.primary()
    assert old_primary == 'pg1'
    assert pg_cluster.sync_standby() == 'pg2'
    killer = {'host': pg_cluster.kill_member,
              'postgres': pg_cluster.kill_postgres,
              'patroni': pg_cluster.kill_patroni}[kill]
    # A create sent while the old primary's PostgreSQL still runs (its
    # Patroni dead) may succeed there and say nothing of the recovery:
    # the probe counts once the expected member leads (Patroni's view).
    figures = ha.run(
        deployment, lambda: killer(old_primary),
        'postgresql-%s-kill-via-%s' % (kill, route), threads=4,
        recovered=lambda: pg_cluster.primary() == expected_primary)
    new_primary = pg_cluster.primary()
    print('%s via %s: primary %s -> %s' % (KILLS[kill], route, old_primary,
                                           new_primary))
    assert new_primary == expected_primary
    assert figures.requests > ha.BEFORE + ha.AFTER
    assert figures.acknowledged > 0
    assert not figures.problems(), '\n'.join(figures.problems())
