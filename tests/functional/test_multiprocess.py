"""ironic-api and ironic-conductor as separate processes over RabbitMQ,
with the database on PostgreSQL: a node from enroll to active and back."""

import pytest

from tests.functional import procs
from tests.functional import scenarios


@pytest.mark.backend
def test_api_and_conductor_processes(tmp_path, postgresql_url, rabbit_url):
    port = procs.free_port()
    common = {
        'DEFAULT': {'transport_url': rabbit_url,
                    'state_path': str(tmp_path)},
        'database': {'connection': postgresql_url},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
    }
    api_conf = procs.write_config(
        str(tmp_path / 'api.conf'),
        dict(common, DEFAULT=dict(common['DEFAULT'], host='api-1')))
    cond_conf = procs.write_config(
        str(tmp_path / 'conductor.conf'),
        dict(common, DEFAULT=dict(common['DEFAULT'], host='conductor-1')))

    procs.run('ironic-dbsync', '--config-file', api_conf, 'upgrade')
    conductor = procs.Service('ironic-conductor', cond_conf, str(tmp_path))
    api = procs.Service('ironic-api', api_conf, str(tmp_path))
    base = 'http://127.0.0.1:%d' % port
    try:
        procs.wait_http(base + '/v1', api)
        procs.wait_for(
            lambda: procs.http('GET', base + '/v1/conductors')[2]
            .get('conductors'), what='conductor registered')
        conductors = procs.http('GET', base + '/v1/conductors')[2]
        assert [c['hostname'] for c in conductors['conductors']] == [
            'conductor-1']
        uuid = scenarios.node_lifecycle(base)
        node = procs.http('GET', '%s/v1/nodes/%s' % (base, uuid))[2]
        assert node['conductor'] == 'conductor-1'
    finally:
        api_code = api.stop()
        cond_code = conductor.stop()
    assert api_code == 0, api.log()
    assert cond_code == 0, conductor.log()
    # A graceful stop unregisters the conductor.
    status = procs.run('ironic-status', '--config-file', api_conf,
                       'upgrade', 'check', check=False)
    assert status.returncode == 0, status.stdout + status.stderr
