"""ironic-api and ironic-conductor as separate processes over RabbitMQ,
with the database on PostgreSQL: a node from enroll to active and back."""

import kombu
import pytest

from tests import conftest
from tests.functional import procs
from tests.functional import scenarios
from tests import timeouts


def _queue_consumers(name):
    """Consumers of a queue on the broker (fails if there is no queue)."""
    with kombu.Connection(conftest.RABBIT_URL.replace('rabbit://', 'amqp://'),
                          connect_timeout=timeouts.HANG) as conn:
        return conn.default_channel.queue_declare(
            name, passive=True).consumer_count


@pytest.mark.backend
def test_api_and_conductor_processes(tmp_path, postgresql_url, rabbit_url,
                                     rabbit_exchange):
    port = procs.free_port()
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'control_exchange': rabbit_exchange,
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
        'oslo_messaging_rabbit': conftest.RABBIT_TEST_OPTIONS,
    }
    # control_exchange alone keeps this deployment apart from any other on
    # the broker: the conductor's queues carry its name.
    topic = '%s.ironic.conductor_manager' % rabbit_exchange
    rabbit_exchange.queues.extend([topic, topic + '.conductor-1'])
    with procs.api_and_conductor(tmp_path, common, 'api-1',
                                 'conductor-1') as split:
        base = split.base
        assert _queue_consumers(topic + '.conductor-1') == 1
        conductors = procs.http('GET', base + '/v1/conductors')[2]
        assert [c['hostname'] for c in conductors['conductors']] == [
            'conductor-1']
        uuid = scenarios.node_lifecycle(base)
        node = procs.http('GET', '%s/v1/nodes/%s' % (base, uuid))[2]
        assert node['conductor'] == 'conductor-1'
    for service in (split.api, split.conductor):
        # alembic's plugin set-up (each imports alembic): not logged.
        assert 'alembic.runtime.plugins' not in service.log(), service.log()
    # A graceful stop unregisters the conductor.
    status = procs.run('ironic-status', '--config-file', split.api_conf,
                       'upgrade', 'check', check=False)
    assert status.returncode == 0, status.stdout + status.stderr
