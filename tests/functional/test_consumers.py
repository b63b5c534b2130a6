"""The shard consumers end to end (issue 11): nova-compute's and
networking-baremetal's calls through openstacksdk and the ``baremetal``
CLI against ``ironic-lite`` (SQLite), and through openstacksdk against an
API and a conductor as separate processes on PostgreSQL and RabbitMQ (the
CLI sends the same requests: a dozen more CLI processes there would test
the client again, not the RPC path)."""

import pytest

from tests.functional import consumers
from tests.functional import procs


@pytest.mark.long(60)
def test_consumers_on_lite(lite_service, cli_env):
    bm = consumers.connect(lite_service).baremetal
    consumers.enroll(bm, 'compute-1', '52:54:00:c0:00:01', 'c1-node')
    consumers.compute_sdk(bm, 'compute-1')
    consumers.enroll(bm, 'compute-2', '52:54:00:c0:00:02', 'c2-node')
    consumers.compute_cli(lite_service, cli_env, 'c2-node')


class _Base(object):
    """What consumers.connect and procs.baremetal need of a service."""

    def __init__(self, base, api):
        self.base = base
        self.credentials = procs.NOAUTH
        self._api = api

    def log(self):
        return self._api.log()


@pytest.mark.long(40)
@pytest.mark.backend
def test_consumers_on_processes(tmp_path, postgresql_url, rabbit_url):
    port = procs.free_port()
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
        'fake': {'power_delay': 0, 'deploy_delay': 0, 'clean_delay': 0},
    }
    with procs.api_and_conductor(tmp_path, common, 'api-c',
                                 'cond-c') as split:
        service = _Base(split.base, split.api)
        bm = consumers.connect(service).baremetal
        consumers.enroll(bm, 'compute-1', '52:54:00:c1:00:01', 'p1-node')
        consumers.compute_sdk(bm, 'compute-1')
