import os

import pytest

from tests.functional import procs

CONDUCTOR_HOST = 'lite-test'
AUTH_MODES = ('noauth', 'http_basic')
# The http_basic users: name -> (password, ironic-lite's htpasswd suffix
# ":roles:project").  "admin" has no suffix, which makes it a system-scoped
# admin, as Ironic treats every http_basic user; "member" is a member of
# project "proj-a", so the policy limits it to the nodes that project owns.
BASIC_USERS = {
    'admin': ('admin-secret', ''),
    'member': ('member-secret', ':member:proj-a'),
}


def start_lite(directory, auth='noauth', options=None):
    """ironic-lite (API + conductor, SQLite, fake://) on a free port.

    ``options``: more ``[DEFAULT]`` options of its configuration.

    The returned service has ``base`` (its URL), ``auth`` (the strategy),
    ``users`` ({name: Credentials}, empty with noauth) and ``credentials``
    (who the tests act as by default: the admin, or nobody with noauth).
    """
    port = procs.free_port()
    default = {'state_path': os.path.join(directory, 'state'),
               'host': CONDUCTOR_HOST}
    default.update(options or {})
    users = {}
    if auth == 'http_basic':
        default['auth_strategy'] = 'http_basic'
        default['http_basic_auth_user_file'] = procs.write_htpasswd(
            os.path.join(directory, 'htpasswd'), BASIC_USERS)
        users = {name: procs.Credentials(name, password)
                 for name, (password, _suffix) in BASIC_USERS.items()}
    config = procs.write_config(os.path.join(directory, 'ironic.conf'), {
        'DEFAULT': default,
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
    })
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % port
    service.auth = auth
    service.users = users
    service.credentials = users.get('admin', procs.NOAUTH)
    # /v1 is public in both modes: it only tells that the API is up.
    procs.wait_http(service.base + '/v1', service)
    return service


def stop_lite(*services):
    """Stop the services side by side; each must exit cleanly."""
    for service in services:
        service.terminate()
    codes = [(service, service.stop()) for service in services]
    for service, code in codes:
        assert code == 0, 'ironic-lite exited %s:\n%s' % (code, service.log())


@pytest.fixture
def lite_service(tmp_path):
    """ironic-lite with noauth, for one test."""
    service = start_lite(str(tmp_path))
    yield service
    stop_lite(service)


@pytest.fixture(scope='module')
def lite_services(tmp_path_factory):
    """The module's ironic-lite services, one per strategy, started on
    first use: ``lite_services('http_basic')``."""
    started = {}

    def get(auth):
        if auth not in started:
            directory = tmp_path_factory.mktemp('lite-' + auth)
            started[auth] = start_lite(str(directory), auth)
        return started[auth]
    yield get
    stop_lite(*started.values())


@pytest.fixture(scope='module', params=AUTH_MODES)
def lite_api(request, lite_services):
    """The module's ironic-lite, once with each authentication strategy;
    tests act as ``lite_api.credentials`` (the admin with http_basic)."""
    return lite_services(request.param)


@pytest.fixture(scope='module')
def lite_noauth(lite_services):
    """The module's ironic-lite with noauth (the embedded default)."""
    return lite_services('noauth')


@pytest.fixture(scope='module')
def lite_basic(lite_services):
    """The module's ironic-lite with http_basic (users: BASIC_USERS)."""
    return lite_services('http_basic')


@pytest.fixture
def cli_env():
    env = dict(os.environ)
    for key in list(env):
        if key.startswith('OS_'):
            del env[key]
    return env
