import os

import pytest

from tests.functional import procs


@pytest.fixture
def lite_service(tmp_path):
    """ironic-lite (API + conductor, SQLite, fake://) on a free port."""
    port = procs.free_port()
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'state_path': str(tmp_path / 'state'),
                    'host': 'lite-test'},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
    })
    service = procs.Service('ironic-lite', config, str(tmp_path))
    base = 'http://127.0.0.1:%d' % port
    procs.wait_http(base + '/v1', service)
    service.base = base
    yield service
    code = service.stop()
    assert code == 0, 'ironic-lite exited %s:\n%s' % (code, service.log())


@pytest.fixture
def cli_env():
    env = dict(os.environ)
    for key in list(env):
        if key.startswith('OS_'):
            del env[key]
    return env
