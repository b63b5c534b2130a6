"""A stop bounded by graceful_shutdown_timeout, whatever the database and
the broker do (issue 20).

A service of its own (not the shared cluster of the level) reaches
PostgreSQL and RabbitMQ through TCP proxies; both are cut silently
(``TcpProxy.blackhole``: connections stay open, nothing is answered, as
in a network partition), then the service gets SIGTERM.  Its stop has
steps that wait on the database and the broker with no bound of their
own -- the periodic tasks and the heartbeat it waits for are blocked on
the database, the services-table write and the RPC server's stop on
both -- so without the bound it never exits: ``service.stop`` then
kills it after a hang's bound (tests/timeouts.py) and the test fails.
"""

import os

import pytest

from ironic_lite.common import launcher
from tests.faults import cluster as cluster_mod

pytestmark = pytest.mark.backend

# Short: the stop gives up early; that it does is what the test checks
# (by the exit code and the log), not how long it took.
GRACEFUL = 3


class _Cluster(cluster_mod.Cluster):
    EXTRA_CONFIG = dict(cluster_mod.EXTRA, DEFAULT=dict(
        cluster_mod.EXTRA['DEFAULT'], graceful_shutdown_timeout=GRACEFUL))


@pytest.fixture
def deployment(tmp_path, postgresql_url, rabbit_url):
    workdir = str(tmp_path / 'deployment')
    os.makedirs(workdir)
    cluster = _Cluster(workdir, postgresql_url, rabbit_url)
    cluster.dbsync(cluster.release, 'upgrade')
    try:
        yield cluster
    finally:
        cluster.broker.down()
        cluster.database.down()
        cluster.stop_all()


@pytest.mark.long(30)
@pytest.mark.parametrize('kind', ['conductor', 'api'])
def test_stop_in_an_outage_gives_up_after_the_timeout(deployment, kind):
    label = '%s-1' % kind
    service = deployment.start(label, kind, deployment.release)
    deployment.broker.blackhole()
    deployment.database.blackhole()
    code = service.stop()     # SIGTERM, then at most a hang's bound
    log = service.log()
    assert code == launcher.EXIT_STOP_TIMED_OUT, (code, log[-8000:])
    assert ('The stop did not finish within [DEFAULT]'
            'graceful_shutdown_timeout (%ss); gave up waiting for '
            % GRACEFUL) in log, log[-8000:]
