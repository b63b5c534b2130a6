"""The HA level (``tox -e ha``): real clustered engines on this host.

Each test starts its own cluster (own ports, data under its tmp_path) and
tears it down afterwards, also when it fails.  The README's test command
runs the ``ha_smoke`` scenarios only (``SMOKE_ONLY`` below).  A missing engine
package skips the test with the reason -- or fails it with CI=true
(tests/conftest.py: ``unavailable``).
"""

import os

import pytest

from tests import conftest as shared
from tests.ha import rabbit


def pytest_configure(config):
    config.addinivalue_line(
        'markers', 'ha: clustered engines with a member killed (tests/ha)')


# Set by tools/run-tests.sh for its functional+upgrade level: the
# README's test command runs the one scenario per engine marked
# ``ha_smoke`` (the engine's failover: RabbitMQ's queue leader, the
# Galera writer, the PostgreSQL primary); tox -e ha and a run naming
# tests/ha run them all.
SMOKE_ONLY = 'IRONIC_LITE_HA_SMOKE_ONLY'


def pytest_collection_modifyitems(config, items):
    smoke_only = os.environ.get(SMOKE_ONLY) == '1'
    deselected = []
    for item in items:
        if '/ha/' in '/' + item.nodeid:
            item.add_marker(pytest.mark.ha)
            item.add_marker(pytest.mark.backend)
            if smoke_only and not item.get_closest_marker('ha_smoke'):
                deselected.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [i for i in items if i not in deselected]


@pytest.fixture
def rabbit_cluster(tmp_path):
    """A started three-node RabbitMQ cluster, killed after the test."""
    why = rabbit.missing()
    if why:
        shared.unavailable(why)
    cluster = rabbit.RabbitCluster(str(tmp_path / 'rabbitmq'))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop_all()
