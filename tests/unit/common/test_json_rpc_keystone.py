"""JSON-RPC with ``auth_strategy = keystone`` (common/json_rpc_keystone.py)
on loopback: the conductor's server behind keystonemiddleware's
auth_token, whose token validation is keystonemiddleware's own test
fixture (AuthTokenFixture: the tokens it was given, with their roles);
the client's token from a real keystoneauth plugin loaded from
``[json_rpc]``.  Nothing runs on a refused call."""

import socket

from keystonemiddleware import auth_token
from keystonemiddleware import fixture as ksm_fixture
import oslo_messaging as messaging
import pytest
import webob.exc

from ironic_lite.common import context as ir_context
from ironic_lite.common import json_rpc_keystone
from ironic_lite.common import exception
from ironic_lite.common import json_rpc_client
from ironic_lite.common import rpc
from ironic_lite.conductor import rpc_errors
from tests.functional import procs
from tests.unit.common.test_json_rpc import _post
from tests.unit.common.test_json_rpc import _request
from tests.unit.common.test_json_rpc import CTXT
from tests.unit.common.test_json_rpc import server  # noqa: F401

ADMIN_TOKEN = 'token-of-an-admin'
MEMBER_TOKEN = 'token-of-a-member'
SERVICE_TOKEN = 'token-of-a-service'


@pytest.fixture
def keystone(server):  # noqa: F811
    """The JSON-RPC server with [DEFAULT]auth_strategy = keystone (none
    in [json_rpc], as an Ironic deployment) and three known tokens."""
    start, conf_fixture = server
    for group, opts in auth_token.list_opts():
        conf_fixture.register_opts(opts, group=group)
    conf_fixture.config(auth_strategy='keystone')
    conf_fixture.config(group='keystone_authtoken',
                        www_authenticate_uri='http://keystone.example/v3')
    tokens = ksm_fixture.AuthTokenFixture()
    tokens.setUp()
    tokens.add_token_data(token_id=ADMIN_TOKEN, project_id='p',
                          role_list=['admin', 'member'])
    tokens.add_token_data(token_id=MEMBER_TOKEN, project_id='p',
                          role_list=['member', 'reader'])
    tokens.add_token_data(token_id=SERVICE_TOKEN, project_id='p',
                          role_list=['service'])
    yield start, conf_fixture
    tokens.cleanUp()


def _call_with(url, token=None, extra=None):
    headers = dict(extra or {})
    if token is not None:
        headers['X-Auth-Token'] = token
    return _post(url, _request('echo', {'context': CTXT, 'value': 1}),
                 headers=headers)


@pytest.mark.parametrize('token', [None, 'not-a-known-token'])
def test_no_valid_token_is_a_401_and_nothing_runs(keystone, token):
    endpoint, url = keystone[0]()
    # Roles a caller claims itself are auth_token's to drop.
    status, body, headers = _call_with(url, token, {'X-Roles': 'admin'})
    assert status == 401
    assert body['error']['code'] == 401
    assert 'result' not in body
    assert headers['WWW-Authenticate'].startswith('Keystone uri=')
    assert endpoint.seen == []


def test_a_token_without_an_allowed_role_is_a_403(keystone):
    endpoint, url = keystone[0]()
    status, body, _headers = _call_with(url, MEMBER_TOKEN)
    assert status == 403
    assert body == {'error': {'code': 403, 'message': 'Forbidden'}}
    assert endpoint.seen == []


def test_a_token_with_an_allowed_role_is_served(keystone):
    endpoint, url = keystone[0]()
    status, body, _headers = _call_with(url, ADMIN_TOKEN)
    assert (status, body['result']) == (200, {'echo': 1})
    assert endpoint.seen == [('req-1', 1)]


def test_allowed_roles_is_the_rule(keystone):
    start, conf_fixture = keystone
    conf_fixture.config(group='json_rpc', allowed_roles=['service'])
    endpoint, url = start()
    assert _call_with(url, ADMIN_TOKEN)[0] == 403
    assert _call_with(url, SERVICE_TOKEN)[0] == 200
    assert endpoint.seen == [('req-1', 1)]


def test_keystone_down_at_the_conductor(keystone, monkeypatch):
    """auth_token's 503: the client's IdentityUnavailable, nothing ran."""
    start, conf_fixture = keystone
    endpoint, url = start()

    def fetch_token(self, token, **kwargs):
        raise webob.exc.HTTPServiceUnavailable('Keystone is down')
    monkeypatch.setattr(auth_token.AuthProtocol, 'fetch_token', fetch_token)
    _admin_token_client(conf_fixture, ADMIN_TOKEN)
    with pytest.raises(json_rpc_keystone.IdentityUnavailable):
        _call(url)
    assert endpoint.seen == []


def _admin_token_client(conf_fixture, token):
    """The client's plugin: keystoneauth's admin_token (a fixed token),
    a plugin other than the default whose options it registers."""
    conf_fixture.config(group='json_rpc', auth_type='admin_token')
    rpc.cleanup()
    json_rpc_keystone.Tokens(conf_fixture.conf, 5)  # registers options
    conf_fixture.config(group='json_rpc', token=token,
                        endpoint='http://keystone.example/v3')


def _call(url, value=1):
    client = rpc.get_client(messaging.Target(topic='t', version='1.0'))
    host = url.split('//')[1].rstrip('/')
    return client.prepare(server=host).call(
        ir_context.RequestContext(request_id='req-2'), 'echo', value=value)


def test_the_client_sends_its_token(keystone):
    start, conf_fixture = keystone
    endpoint, url = start()
    _admin_token_client(conf_fixture, ADMIN_TOKEN)
    assert _call(url, 1) == {'echo': 1}
    assert _call(url, 2) == {'echo': 2}
    assert endpoint.seen == [('req-2', 1), ('req-2', 2)]
    # Both calls on one kept-alive connection.
    pool = json_rpc_client.POOLS.get(conf_fixture.conf).connection_from_url(
        url)
    assert pool.num_connections == 1


def test_a_token_refused_once_is_fetched_anew(keystone, monkeypatch):
    """A token the conductor no longer takes (revoked): invalidated,
    a new one fetched, the call sent once more and served once."""
    start, conf_fixture = keystone
    endpoint, url = start()
    _admin_token_client(conf_fixture, ADMIN_TOKEN)
    tokens = ['revoked-token', ADMIN_TOKEN]
    invalidated = []
    monkeypatch.setattr(json_rpc_keystone.Tokens, 'headers',
                        lambda self: {'X-Auth-Token': tokens[0]})
    monkeypatch.setattr(json_rpc_keystone.Tokens, 'invalidate',
                        lambda self: invalidated.append(tokens.pop(0)))
    assert _call(url) == {'echo': 1}
    assert invalidated == ['revoked-token']
    assert endpoint.seen == [('req-2', 1)]


@pytest.mark.parametrize('token', [MEMBER_TOKEN, 'not-a-known-token'])
def test_a_refused_token_is_a_misconfiguration(keystone, token, caplog):
    start, conf_fixture = keystone
    endpoint, url = start()
    _admin_token_client(conf_fixture, token)
    with pytest.raises(json_rpc_keystone.AuthMisconfigured):
        _call(url)
    assert endpoint.seen == []
    assert 'refused the credentials' in caplog.text


def test_missing_client_options_are_a_misconfiguration(keystone, caplog):
    start, conf_fixture = keystone
    endpoint, url = start()
    rpc.cleanup()   # the password plugin, without auth_url
    with pytest.raises(json_rpc_keystone.AuthMisconfigured):
        _call(url)
    assert endpoint.seen == []
    assert '[json_rpc]auth_type, auth_url' in caplog.text


@pytest.mark.parametrize('path', ['/v3', ''])
def test_keystone_unreachable_from_the_client(keystone, path):
    """No connection to Keystone: an outage (with or without a version
    in auth_url: without one, keystoneauth's discovery fails first)."""
    start, conf_fixture = keystone
    endpoint, url = start()
    rpc.cleanup()
    conf_fixture.config(
        group='json_rpc', username='ironic', password='secret',
        project_name='service', user_domain_name='Default',
        project_domain_name='Default',
        auth_url='http://127.0.0.1:%d%s' % (procs.free_port(), path))
    with pytest.raises(json_rpc_keystone.IdentityUnavailable):
        _call(url)
    assert endpoint.seen == []


@pytest.mark.parametrize('err, words', [
    (json_rpc_keystone.IdentityUnavailable('x'), 'Keystone'),
    (json_rpc_keystone.AuthMisconfigured('x'), 'cannot authenticate')])
def test_auth_failures_are_retry_safe_503s(err, words):
    translated = rpc_errors._error_for(err, '1.0')
    assert isinstance(translated, exception.ServiceUnavailable)
    assert words in str(translated)
    assert 'not carried out' in str(translated)


def test_keystone_that_never_answers_is_an_outage(keystone):
    """A Keystone that accepts the connection and stays silent: the
    token request gives up after [json_rpc]timeout (keystoneauth alone
    would wait for ever)."""
    start, conf_fixture = keystone
    endpoint, url = start()
    rpc.cleanup()
    with socket.socket() as silent:
        silent.bind(('127.0.0.1', 0))
        silent.listen(8)
        conf_fixture.config(
            group='json_rpc', username='ironic', password='secret',
            project_name='service', user_domain_name='Default',
            project_domain_name='Default', timeout=0.5,
            auth_url='http://127.0.0.1:%d/v3' % silent.getsockname()[1])
        with pytest.raises(json_rpc_keystone.IdentityUnavailable):
            _call(url)
    assert endpoint.seen == []
