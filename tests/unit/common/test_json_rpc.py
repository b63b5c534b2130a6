"""The JSON-RPC server and client (common/json_rpc_server.py,
json_rpc_client.py) on loopback, with a small endpoint: what the server
answers to requests it cannot serve, HTTP basic authentication refused
with 401 before anything runs, casts, and how the client rebuilds a
conductor's error."""

import json

import oslo_messaging as messaging
import pytest
import urllib3

from ironic_lite.common import context as ir_context
from ironic_lite.common import exception
from ironic_lite.common import json_rpc_client
from ironic_lite.common import json_rpc_keystone
from ironic_lite.common import rpc
from tests.functional import procs


class _Echo(object):
    target = messaging.Target(version='1.2')

    def __init__(self):
        self.seen = []

    def echo(self, context, value):
        self.seen.append((context.request_id, value))
        return {'echo': value}

    def fail(self, context):
        raise exception.NodeLocked(node='n1', host='c1')

    def _private(self, context):
        return 'never'


@pytest.fixture
def server(conf_fixture, tmp_path):
    """An _Echo endpoint served over JSON-RPC: (endpoint, url, config)."""
    from ironic_lite import conf
    port = procs.free_port()
    conf.CONF([], project='ironic', default_config_files=[])
    rpc.response_timeout()  # registers oslo.messaging's options
    conf_fixture.config(rpc_transport='json-rpc', host='127.0.0.1',
                        rpc_response_timeout=30)
    conf_fixture.config(group='json_rpc', host_ip='127.0.0.1', port=port)
    endpoint = _Echo()

    def start():
        srv = rpc.get_server(messaging.Target(topic='t', server='s'),
                             [endpoint])
        srv.start()
        started.append(srv)
        return endpoint, 'http://127.0.0.1:%d/' % port
    started = []
    yield start, conf_fixture
    for srv in started:
        srv.stop()
        srv.wait()
    rpc.cleanup()


def _post(url, body, headers=None, raw=None):
    headers = dict(headers or {})
    headers.setdefault('Content-Type', 'application/json')
    response = urllib3.request('POST', url, headers=headers, retries=False,
                               body=raw if raw is not None
                               else json.dumps(body).encode())
    return response.status, (json.loads(response.data)
                             if response.data else None), response.headers


def _request(method, params, id_='1'):
    body = {'jsonrpc': '2.0', 'method': method, 'params': params}
    if id_ is not None:
        body['id'] = id_
    return body


CTXT = {'request_id': 'req-1', 'is_admin': True}


def test_a_call_answers_result_with_its_id(server):
    endpoint, url = server[0]()
    status, body, _ = _post(url, _request(
        'echo', {'context': CTXT, 'value': 3, 'rpc.version': '1.1'}))
    assert (status, body) == (200, {'jsonrpc': '2.0', 'id': '1',
                                    'result': {'echo': 3}})
    assert endpoint.seen == [('req-1', 3)]


def test_an_error_carries_its_class_code_and_arguments(server):
    _endpoint, url = server[0]()
    status, body, _ = _post(url, _request('fail', {'context': CTXT}))
    assert status == 200
    error = body['error']
    assert error['code'] == 409
    assert error['data']['class'] == 'ironic_lite.common.exception.NodeLocked'
    assert error['data']['kwargs'] == {'node': 'n1', 'host': 'c1'}
    rebuilt = json_rpc_client.remote_error(error)
    assert isinstance(rebuilt, exception.NodeLocked)
    assert (str(rebuilt), rebuilt.code) == (error['message'], 409)


def test_a_class_outside_the_allowed_modules_is_a_remote_error():
    error = {'code': 500, 'message': 'boom',
             'data': {'class': 'os.system', 'kwargs': {}}}
    rebuilt = json_rpc_client.remote_error(error)
    assert isinstance(rebuilt, messaging.RemoteError)
    assert rebuilt.exc_type == 'system'


@pytest.mark.parametrize('raw, code', [
    (b'{not json', -32700),
    (b'[' * 100000 + b']' * 100000, -32700),
    (b'[1, 2]', -32600),
    (json.dumps({'jsonrpc': '1.0', 'method': 'echo', 'id': 1}).encode(),
     -32600),
    (json.dumps({'jsonrpc': '2.0', 'method': 'echo', 'id': 1,
                 'params': [1]}).encode(), -32600),
], ids=['not-json', 'too-deep', 'a-batch', 'json-rpc-1.0', 'positional'])
def test_unreadable_requests_get_json_rpc_s_codes(server, raw, code):
    _endpoint, url = server[0]()
    status, body, _ = _post(url, None, raw=raw)
    assert status == 200
    assert body['error']['code'] == code


@pytest.mark.parametrize('method', ['del_host', 'init_host', '_private',
                                    'no_such_method'])
def test_life_cycle_private_and_unknown_methods_are_refused(server, method):
    endpoint, url = server[0]()
    status, body, _ = _post(url, _request(method, {'context': CTXT}))
    assert status == 200
    assert 'error' in body and 'result' not in body
    assert endpoint.seen == []


def test_an_rpc_version_above_the_endpoint_s_is_unsupported(server):
    _endpoint, url = server[0]()
    body = _post(url, _request('echo', {'context': CTXT, 'value': 1,
                                        'rpc.version': '1.3'}))[1]
    assert body['error']['data']['class'].endswith('.UnsupportedVersion')


def test_a_notification_is_carried_out_and_answered_204(server):
    endpoint, url = server[0]()
    status, body, _ = _post(url, _request(
        'echo', {'context': CTXT, 'value': 7}, id_=None))
    assert (status, body) == (204, None)
    assert endpoint.seen == [('req-1', 7)]


def test_only_post(server):
    _endpoint, url = server[0]()
    response = urllib3.request('GET', url, retries=False)
    assert response.status == 405


def test_the_client_casts_and_calls(server):
    endpoint, url = server[0]()
    client = rpc.get_client(messaging.Target(topic='t', version='1.0'))
    host = url.split('//')[1].rstrip('/')
    ctxt = ir_context.RequestContext(request_id='req-2')
    cctxt = client.prepare(server=host, version='1.1')
    assert cctxt.call(ctxt, 'echo', value='a') == {'echo': 'a'}
    assert cctxt.cast(ctxt, 'echo', value='b') is None
    assert endpoint.seen == [('req-2', 'a'), ('req-2', 'b')]


@pytest.fixture
def basic_auth(server, tmp_path):
    start, conf_fixture = server
    path = procs.write_htpasswd(str(tmp_path / 'htpasswd'),
                                {'ironic': ('secret', '')})
    conf_fixture.config(group='json_rpc', auth_strategy='http_basic',
                        http_basic_auth_user_file=path)
    return start, conf_fixture


@pytest.mark.parametrize('headers', [
    {}, urllib3.make_headers(basic_auth='ironic:wrong'),
    urllib3.make_headers(basic_auth='nobody:secret')])
def test_http_basic_refuses_with_401_before_anything_runs(basic_auth,
                                                          headers):
    endpoint, url = basic_auth[0]()
    status, body, response_headers = _post(
        url, _request('echo', {'context': CTXT, 'value': 1}),
        headers=headers)
    assert status == 401
    assert 'Basic' in response_headers['WWW-Authenticate']
    assert 'result' not in body
    assert endpoint.seen == []


def test_http_basic_lets_the_client_s_credentials_in(basic_auth):
    start, conf_fixture = basic_auth
    endpoint, url = start()
    conf_fixture.config(group='json_rpc', username='ironic',
                        password='secret')
    client = rpc.get_client(messaging.Target(topic='t', version='1.0'))
    host = url.split('//')[1].rstrip('/')
    ctxt = ir_context.RequestContext(request_id='req-3')
    for value in (1, 2):  # the second is let in from the cache
        assert client.prepare(server=host).call(
            ctxt, 'echo', value=value) == {'echo': value}
    assert [v for _r, v in endpoint.seen] == [1, 2]


def test_wrong_client_credentials_fail_the_call(basic_auth):
    start, conf_fixture = basic_auth
    _endpoint, url = start()
    conf_fixture.config(group='json_rpc', username='ironic',
                        password='wrong')
    client = rpc.get_client(messaging.Target(topic='t', version='1.0'))
    host = url.split('//')[1].rstrip('/')
    with pytest.raises(json_rpc_keystone.AuthMisconfigured,
                       match='refused the credentials'):
        client.prepare(server=host).call(
            ir_context.RequestContext(), 'echo', value=1)


@pytest.mark.parametrize('version, cap, allowed', [
    ('1.3', '1.10', True), ('1.10', '1.9', False), ('2.0', '1.10', False),
    ('1.0', None, True), (None, '1.0', True)])
def test_can_send_version(version, cap, allowed):
    assert json_rpc_client.can_send_version(version, cap) is allowed


@pytest.mark.parametrize('host, tls, url', [
    ('192.0.2.5', False, 'http://192.0.2.5:8089/'),
    ('192.0.2.5:8090', False, 'http://192.0.2.5:8090/'),
    ('conductor.example.com', True, 'https://conductor.example.com:8089/'),
    ('2001:db8::5', False, 'http://[2001:db8::5]:8089/'),
    ('[2001:db8::5]:8090', True, 'https://[2001:db8::5]:8090/'),
])
def test_the_url_of_a_conductor_host(conf_fixture, host, tls, url):
    from ironic_lite import conf
    conf_fixture.config(group='json_rpc', client_use_ssl=tls)
    assert json_rpc_client.Client(conf.CONF, None, server=host).url() == url
