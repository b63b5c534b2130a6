"""The fault level: one two-API, two-conductor cluster per test process.

Started on first use and shared by the tests of the level (each test
leaves the cluster whole: a process it kills, it starts again).  Needs
PostgreSQL and RabbitMQ: skipped with the reason without them, failed
with CI=true.
"""

import pytest

from tests import conftest as shared
from tests.faults import cluster as cluster_mod


@pytest.fixture(scope='session')
def cluster(tmp_path_factory):
    if not shared.reachable('127.0.0.1', 5672):
        shared.unavailable('no RabbitMQ at %s' % shared.RABBIT_URL)
    with shared.temp_database(shared.POSTGRESQL_URL, 5432) as url:
        started = cluster_mod.started(tmp_path_factory.mktemp('faults'),
                                      url, shared.RABBIT_URL)
        try:
            yield started
        finally:
            started.stop_all()


@pytest.fixture
def scanned(cluster):
    """The cluster; after the test, no error body it received may carry
    a traceback, a file path or SQL."""
    seen = len(cluster.client.error_bodies)
    yield cluster
    leaks = cluster_mod.scan_error_bodies(cluster.client.error_bodies[seen:])
    assert not leaks, '\n'.join(leaks[:10])
