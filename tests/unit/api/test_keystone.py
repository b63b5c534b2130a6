"""Issue 20, item 6: with ``auth_strategy = keystone``, Keystone being
down is a retry-safe 503 that names the identity service, with Ironic's
error body; a token too long to be one is a 401, not a 503."""

from keystonemiddleware import auth_token
import pytest
import webob.exc

from ironic_lite.api import keystone
from ironic_lite.common import exception
from ironic_lite import conf
from tests.unit.api import utils

CONF = conf.CONF
# What auth_token raises when it cannot reach Keystone (fetch_token).
OUTAGE = webob.exc.HTTPServiceUnavailable(
    'The Keystone service is temporarily unavailable.')


@pytest.fixture
def real_client(make_client, monkeypatch):
    """The real auth_token, whose every token validation meets Keystone
    down (its identity server unreachable)."""
    def fetch_token(self, token, **kwargs):
        raise OUTAGE
    monkeypatch.setattr(auth_token.AuthProtocol, 'fetch_token', fetch_token)
    CONF.set_override('auth_strategy', 'keystone')
    for group, opts in auth_token.list_opts():
        CONF.register_opts(opts, group=group)
    CONF.set_override('www_authenticate_uri', 'http://keystone.example/v3',
                      group='keystone_authtoken')
    return make_client()


class FakeAuthProtocol(object):
    """auth_token stand-in: Keystone down, or a token that validates."""

    def __init__(self, app, conf):
        self.app = app

    def __call__(self, environ, start_response):
        if environ.get('HTTP_X_AUTH_TOKEN') == 'outage':
            return OUTAGE(environ, start_response)
        environ.update({'HTTP_X_IDENTITY_STATUS': 'Confirmed',
                        'HTTP_X_ROLES': 'admin,member,reader',
                        'HTTP_OPENSTACK_SYSTEM_SCOPE': 'all'})
        return self.app(environ, start_response)


@pytest.fixture
def fake_client(make_client, monkeypatch):
    monkeypatch.setattr(auth_token, 'AuthProtocol', FakeAuthProtocol)
    CONF.set_override('auth_strategy', 'keystone')
    return make_client()


def _unavailable(resp):
    assert resp.status_int == 503, resp.text
    assert utils.faultstring(resp) == keystone.UNAVAILABLE
    assert 'identity service (Keystone)' in keystone.UNAVAILABLE
    assert 'retry' in keystone.UNAVAILABLE


def test_keystone_down_is_a_503_naming_it(real_client):
    for method, path in (('get', '/v1/nodes'), ('post_json', '/v1/nodes')):
        args = ({'driver': 'fake-hardware'},) if method == 'post_json' else ()
        resp = getattr(real_client, method)(
            path, *args, headers={'X-Auth-Token': 'a-token'})
        _unavailable(resp)
        assert resp.headers['X-OpenStack-Ironic-API-Maximum-Version']


def test_public_routes_do_not_need_keystone(real_client):
    assert real_client.get('/v1').status_int == 200


def test_fake_outage_and_its_pass_through(fake_client, rpcapi, monkeypatch):
    _unavailable(fake_client.get('/v1/nodes',
                                 headers={'X-Auth-Token': 'outage'}))
    # A 503 of the API itself (the broker is down) is left as it is.

    def down(*args, **kwargs):
        raise exception.ServiceUnavailable(reason='broker down')
    monkeypatch.setattr(rpcapi, 'create_node', down)
    resp = fake_client.post_json('/v1/nodes', {'driver': 'fake-hardware'},
                                 headers={'X-Auth-Token': 'good'})
    assert resp.status_int == 503
    assert utils.faultstring(resp) == 'broker down'


@pytest.mark.parametrize('header', ['X-Auth-Token', 'X-Service-Token'])
def test_oversized_token_is_401(real_client, header):
    resp = real_client.get('/v1/nodes', headers={
        'X-Auth-Token': 'a-token', header: 'x' * 10240})
    assert resp.status_int == 401, resp.text
    assert utils.faultstring(resp) == (
        'The %s header is too long to be a token (at most 8192 bytes): '
        'please authenticate again.' % header)
    assert resp.headers['WWW-Authenticate'] == (
        'Keystone uri="http://keystone.example/v3"')


def test_token_of_the_limit_goes_to_keystone(real_client):
    resp = real_client.get('/v1/nodes', headers={'X-Auth-Token': 'x' * 8192})
    _unavailable(resp)
