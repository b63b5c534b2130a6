"""The HTTP server of ironic-api: keep-alive, slow clients, the access log
and the request body size limit, on a real ironic-lite process."""

import http.client
import json
import os
import socket
import time

import pytest

from tests.functional import procs

# The idle timeout of the service below: short, so that the test sees the
# server close a silent connection.
IDLE_TIMEOUT = 2
TEN_MB = 10 * 1024 * 1024


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    """ironic-lite with a short [api]client_socket_timeout."""
    directory = str(tmp_path_factory.mktemp('http-server'))
    port = procs.free_port()
    config = procs.write_config(os.path.join(directory, 'ironic.conf'), {
        'DEFAULT': {'state_path': os.path.join(directory, 'state'),
                    'host': 'http-test'},
        'api': {'host_ip': '127.0.0.1', 'port': port, 'api_workers': 4,
                'client_socket_timeout': IDLE_TIMEOUT},
    })
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % port
    service.port = port
    procs.wait_http(service.base + '/v1', service)
    yield service
    assert service.stop() == 0, service.log()


def _conn(server, timeout=10):
    return http.client.HTTPConnection('127.0.0.1', server.port,
                                      timeout=timeout)


def _get(conn, path, headers=None):
    conn.request('GET', path, headers=dict(
        {'X-OpenStack-Ironic-API-Version': 'latest'}, **(headers or {})))
    resp = conn.getresponse()
    return resp, resp.read()


def _fault(raw):
    return json.loads(json.loads(raw)['error_message'])['faultstring']


def test_http11_keep_alive(server):
    conn = _conn(server)
    try:
        resp, _ = _get(conn, '/v1/nodes')
        assert resp.status == 200 and resp.version == 11
        assert not resp.will_close
        # Header names as Ironic spells them (waitress would capitalize).
        names = [name for name, _ in resp.getheaders()]
        assert 'X-OpenStack-Ironic-API-Version' in names, names
        first = conn.sock
        resp, _ = _get(conn, '/v1')
        assert resp.status == 200
        assert conn.sock is first, 'a new connection was opened'
    finally:
        conn.close()


def test_half_header_connections_do_not_stall_the_api(server):
    """8 clients that send half a header and wait hold no worker: other
    requests are answered at once (4 worker threads here); the silent
    connections are closed after [api]client_socket_timeout."""
    slow = []
    try:
        for _ in range(8):
            sock = socket.create_connection(('127.0.0.1', server.port), 5)
            sock.sendall(b'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Half: ')
            slow.append(sock)
        began = time.monotonic()
        for _ in range(8):
            conn = _conn(server, timeout=IDLE_TIMEOUT)
            try:
                resp, _ = _get(conn, '/v1/nodes')
            finally:
                conn.close()
            assert resp.status == 200
        # Generous for a loaded machine; a stalled server takes the
        # client timeout (2 s) per request.
        assert time.monotonic() - began < 8
        for sock in slow:
            sock.settimeout(IDLE_TIMEOUT + 15)
            assert sock.recv(100) == b'', 'a silent connection got an answer'
    finally:
        for sock in slow:
            sock.close()


def _access_lines(server, request_id):
    return [ln for ln in server.log().splitlines()
            if 'ironic_lite.api.access' in ln and request_id in ln]


def test_access_log_line_with_request_id(server):
    """One line, whose oslo.log context prefix and ``request_id`` field
    both hold the id the client received."""
    conn = _conn(server)
    try:
        resp, _ = _get(conn, '/v1/nodes?limit=3')
    finally:
        conn.close()
    request_id = resp.getheader('X-OpenStack-Request-Id')
    assert request_id and request_id.startswith('req-')
    line = procs.wait_for(
        lambda: next(iter(_access_lines(server, request_id)), None),
        timeout=10, what='the access log line')
    assert ' INFO ' in line
    assert '"GET /v1/nodes?limit=3" status: 200' in line
    prefix, _, message = line.partition('] ')
    ids = [word for word in prefix.split('[', 1)[1].split()
           if word.startswith('req-')]
    assert ids == [request_id], line
    assert message.endswith('request_id: %s' % request_id)
    assert len(_access_lines(server, request_id)) == 1, server.log()


def test_version_negotiation_is_not_logged_at_info(server):
    """A client asking for a version that is too new (every ``baremetal``
    command does, first) gets its 406; the service logs at INFO, and the
    line of a 406 answered by the negotiation is at DEBUG."""
    conn = _conn(server)
    try:
        resp, _ = _get(conn, '/v1/nodes',
                       headers={'X-OpenStack-Ironic-API-Version': '1.999'})
        assert resp.status == 406
        refused = resp.getheader('X-OpenStack-Request-Id')
        resp, _ = _get(conn, '/v1/nodes')
        assert resp.status == 200
        answered = resp.getheader('X-OpenStack-Request-Id')
    finally:
        conn.close()
    # The 406's line would have been written before its response was.
    procs.wait_for(lambda: _access_lines(server, answered), timeout=10,
                   what='the access log line of the second request')
    assert _access_lines(server, refused) == []


def _node_names(server):
    status, _, body = procs.http('GET', server.base + '/v1/nodes')
    assert status == 200
    return [n['name'] for n in body['nodes']]


def test_ten_mb_bodies_are_refused_and_nothing_is_written(server):
    big = 'x' * TEN_MB
    status, _, body = procs.http('POST', server.base + '/v1/nodes', {
        'driver': 'fake-hardware', 'name': 'too-big', 'extra': {'b': big}})
    assert status == 413, body
    faultstring = json.loads(body['error_message'])['faultstring']
    assert 'too large' in faultstring.lower()
    assert 'too-big' not in _node_names(server)

    status, _, node = procs.http('POST', server.base + '/v1/nodes', {
        'driver': 'fake-hardware', 'name': 'small', 'extra': {'k': 1}})
    assert status == 201, node
    status, _, body = procs.http(
        'PATCH', server.base + '/v1/nodes/small',
        [{'op': 'add', 'path': '/extra/b', 'value': big}])
    assert status == 413, body
    status, _, node = procs.http('GET', server.base + '/v1/nodes/small')
    assert node['extra'] == {'k': 1}


def test_chunked_ten_mb_body_is_refused(server):
    """No Content-Length: the limit holds while the body is read."""
    def chunks():
        yield b'{"driver": "fake-hardware", "name": "chunked", "extra": '
        yield b'{"b": "'
        for _ in range(10):
            yield b'x' * (1024 * 1024)
        yield b'"}}'
    conn = _conn(server, timeout=60)
    try:
        conn.request('POST', '/v1/nodes', body=chunks(), headers={
            'Content-Type': 'application/json',
            'X-OpenStack-Ironic-API-Version': 'latest'},
            encode_chunked=True)
        resp = conn.getresponse()
        raw = resp.read()
    finally:
        conn.close()
    assert resp.status == 413, raw
    assert 'too large' in _fault(raw).lower()
    assert 'chunked' not in _node_names(server)


def test_stop_closes_idle_keep_alive_connections(tmp_path):
    """SIGTERM with an idle keep-alive connection open: the server closes
    it at once (not after client_socket_timeout or
    graceful_shutdown_timeout), and the process exits cleanly."""
    port = procs.free_port()
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'state_path': str(tmp_path / 'state'),
                    'host': 'drain-test', 'graceful_shutdown_timeout': 60},
        'api': {'host_ip': '127.0.0.1', 'port': port,
                'client_socket_timeout': 60},
    })
    service = procs.Service('ironic-lite', config, str(tmp_path))
    service.port = port
    procs.wait_http('http://127.0.0.1:%d/v1' % port, service)
    conn = _conn(service, timeout=30)
    try:
        resp, _ = _get(conn, '/v1/nodes')
        assert resp.status == 200 and not resp.will_close
        began = time.monotonic()
        service.terminate()
        conn.sock.settimeout(30)
        assert conn.sock.recv(100) == b''
        assert time.monotonic() - began < 10
        assert service.stop(timeout=60) == 0, service.log()
    finally:
        conn.close()
        service.stop()
