"""The RBAC matrix (tests/unit/api/acl_matrix.yaml) against real tokens.

The unit test runs the matrix in-process with a stand-in for auth_token;
here each persona of the matrix is a real Keystone user with the persona's
role on the system or on a project, holding a real scoped token, and every
route of the matrix goes to ironic-lite processes that validate tokens with
keystonemiddleware: every policy, the shard ones included, meets a real
token.  ``rbac_service_role_elevated_access`` is a server setting: the
``service_elevated`` persona is checked against test_keystone's ironic-lite
(elevated), the others against one without it.  A module of its own, with
its own Keystone, so that it can run beside test_keystone.py.
"""

import os

import pytest

from tests.functional import keystone
from tests.functional import procs
from tests.functional.test_keystone import authtoken_section
from tests.functional.test_keystone import cloud  # noqa: F401 (fixture)
from tests.functional.test_keystone import lite  # noqa: F401 (fixture)
from tests.functional.test_keystone import PASSWORD
from tests.unit.api import test_acl

# The matrix's projects, as Keystone projects (the service project is the
# one rbac_service_project_name names by default).
PROJECT_NAMES = {'owner': 'acl-owner', 'lessee': 'acl-lessee',
                 'other': 'acl-other', 'service': 'service'}
ELEVATED = 'service_elevated'


class _Response(object):
    def __init__(self, status, body):
        self.status_int = status
        self.json = body
        self.text = str(body)


class TokenClient(object):
    """The webtest calls test_acl.World and test_acl._call make, over HTTP
    with the persona's real token instead of the stand-in's header."""

    def __init__(self, base, tokens):
        self.base, self.tokens = base, tokens

    def _request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        persona = headers.pop('X-Test-Persona', None)
        if persona is not None:
            headers['X-Auth-Token'] = self.tokens[persona]
        status, _h, parsed = procs.http(method, self.base + path, body,
                                        headers=headers)
        return _Response(status, parsed)

    def __getattr__(self, name):
        method = name[:-len('_json')] if name.endswith('_json') else name
        if method not in ('get', 'post', 'put', 'patch', 'delete'):
            raise AttributeError(name)

        def call(path, body=None, headers=None):
            return self._request(method.upper(), path, body, headers)
        return call


def _persona_user(ident, name, spec):
    """A Keystone user with the persona's strongest role (Keystone implies
    the weaker ones); its scope as keystoneauth takes it."""
    role = spec['roles'][0]
    user = 'acl-%s' % name
    if 'system' in spec:
        ident.user(user, PASSWORD, role)
        return user, {'system_scope': 'all'}
    project = PROJECT_NAMES[spec['project']]
    ident.user(user, PASSWORD, role, project)
    return user, {'project_id': ident.project(project)}


def _token(auth_url, user, scope):
    from keystoneauth1.identity import v3
    from keystoneauth1 import session
    auth = v3.Password(auth_url=auth_url, username=user, password=PASSWORD,
                       user_domain_id='default', **scope)
    return session.Session(auth=auth).get_token()


@pytest.fixture(scope='module')
def personas(cloud):  # noqa: F811 (the imported fixture)
    """{persona: token}, and the matrix's project ids in Keystone."""
    ident = keystone.Identity(cloud)
    tokens = {}
    for name, spec in test_acl.PERSONAS.items():
        if name == ELEVATED:
            continue        # the service_project identity, elevated server
        user, scope = _persona_user(ident, name, spec)
        tokens[name] = _token(cloud.url, user, scope)
    tokens[ELEVATED] = tokens['service_project']
    projects = {key: ident.project(name)
                for key, name in PROJECT_NAMES.items()}
    return tokens, projects


@pytest.fixture(scope='module')
def plain_lite(cloud, tmp_path_factory):  # noqa: F811
    """ironic-lite validating tokens, service role not elevated."""
    directory = str(tmp_path_factory.mktemp('lite-acl'))
    port = procs.free_port()
    config = procs.write_config(os.path.join(directory, 'ironic.conf'), {
        'DEFAULT': {'auth_strategy': 'keystone',
                    'rbac_service_role_elevated_access': False,
                    'state_path': os.path.join(directory, 'state'),
                    'host': 'lite-acl'},
        'api': {'host_ip': '127.0.0.1', 'port': port},
        'conductor': {'heartbeat_interval': 1},
        'keystone_authtoken': authtoken_section(cloud),
    })
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % port
    procs.wait_http(service.base + '/v1', service)
    yield service
    service.terminate()
    assert service.stop() == 0, service.log()


@pytest.mark.long(190)
def test_rbac_matrix_with_real_tokens(personas, plain_lite,
                                      lite,  # noqa: F811
                                      monkeypatch):
    tokens, projects = personas
    monkeypatch.setattr(test_acl, 'PROJECTS', projects)
    plain = TokenClient(plain_lite.base, tokens)
    elevated = TokenClient(lite.base, tokens)
    wrong = []
    worlds = None
    for route in test_acl.ROUTES:
        expected = test_acl._expected(route)
        # The objects the routes act on: made anew after a route that may
        # have changed them (GETs change nothing, so they share them).
        if worlds is None:
            worlds = test_acl.World(plain), test_acl.World(elevated)
        world, elevated_world = worlds
        got = {'(no token)': test_acl._call(plain, route, None,
                                            world).status_int}
        for persona in test_acl.PERSONAS:
            if persona != ELEVATED:
                got[persona] = test_acl._call(plain, route, persona,
                                              world).status_int
        got[ELEVATED] = test_acl._call(elevated, route, ELEVATED,
                                       elevated_world).status_int
        if route['method'] != 'GET':
            worlds = None
        expected = dict(expected, **{'(no token)': route.get('anonymous',
                                                             401)})
        if got != expected:
            wrong.append('%s: %s' % (route['route'], {
                p: 'got %s, expected %s' % (got[p], expected[p])
                for p in expected if got[p] != expected[p]}))
    assert not wrong, '\n'.join(wrong)
