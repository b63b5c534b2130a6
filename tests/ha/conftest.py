"""The HA level (``tox -e ha``): real clustered engines on this host.

Each test starts its own cluster (own ports, data under its tmp_path) and
tears it down afterwards, also when it fails.  Not part of the README's
test command (tools/run-tests.sh has no ha level).  A missing engine
package skips the test with the reason -- or fails it with CI=true
(tests/conftest.py: ``unavailable``).
"""

import pytest

from tests import conftest as shared
from tests.ha import rabbit


def pytest_configure(config):
    config.addinivalue_line(
        'markers', 'ha: clustered engines with a member killed (tests/ha)')


def pytest_collection_modifyitems(config, items):
    for item in items:
        if '/ha/' in '/' + item.nodeid:
            item.add_marker(pytest.mark.ha)
            item.add_marker(pytest.mark.backend)


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
