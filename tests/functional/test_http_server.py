"""The HTTP server of ironic-api: keep-alive, slow clients, the access log
and the request body size limit, on a real ironic-lite process.

No test times the server (tests/timeouts.py): what it must not wait for
-- an idle or half-sent connection's [api]client_socket_timeout, the
graceful_shutdown_timeout -- is NEVER long, so that waiting for it would
take a hang's time; the one test of the idle timeout itself has a server
of its own with a short one.
"""

import concurrent.futures
import http.client
import json
import os
import socket
import time

import pytest

from tests.functional import procs
from tests import sockets
from tests import timeouts

# The idle timeout of ``impatient_server``: short, so that the test sees
# the server close a silent connection.
IDLE_TIMEOUT = 2
TEN_MB = 10 * 1024 * 1024


def _start(directory, host, idle_timeout):
    port = procs.free_port()
    config = procs.write_config(os.path.join(directory, 'ironic.conf'), {
        'DEFAULT': {'state_path': os.path.join(directory, 'state'),
                    'host': host},
        'api': {'host_ip': '127.0.0.1', 'port': port, 'threads': 4,
                'client_socket_timeout': idle_timeout},
    })
    service = procs.Service('ironic-lite', config, directory)
    service.base = 'http://127.0.0.1:%d' % port
    service.port = port
    procs.wait_http(service.base + '/v1', service)
    return service


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    """ironic-lite that closes no idle connection while a test runs
    ([api]client_socket_timeout NEVER)."""
    service = _start(str(tmp_path_factory.mktemp('http-server')),
                     'http-test', timeouts.NEVER)
    yield service
    assert service.stop() == 0, service.log()


@pytest.fixture(scope='module')
def impatient_server(tmp_path_factory):
    """ironic-lite with a short [api]client_socket_timeout (2 s)."""
    service = _start(str(tmp_path_factory.mktemp('http-impatient')),
                     'http-impatient', IDLE_TIMEOUT)
    yield service
    assert service.stop() == 0, service.log()


def _conn(server, timeout=timeouts.HANG):
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


def _half_headers(server, count=8):
    """``count`` connections that sent half a header and go silent."""
    slow = []
    for _ in range(count):
        sock = socket.create_connection(('127.0.0.1', server.port),
                                        timeouts.HANG)
        sock.sendall(b'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Half: ')
        slow.append(sock)
    return slow


def test_half_header_connections_do_not_stall_the_api(server,
                                                      impatient_server):
    """8 clients that send half a header and wait hold no worker: other
    requests are answered at once (4 worker threads here); the silent
    connections are closed after [api]client_socket_timeout.

    ``server`` keeps its silent connections for NEVER: had they held its
    workers, no request would be answered within a hang's bound.  The
    closing is seen on ``impatient_server`` (2 s)."""
    slow = []
    try:
        slow = _half_headers(server)
        for _ in range(8):
            conn = _conn(server)
            try:
                resp, _ = _get(conn, '/v1/nodes')
            finally:
                conn.close()
            assert resp.status == 200
        silent = _half_headers(impatient_server)
        slow += silent
        for sock in silent:
            sock.settimeout(timeouts.HANG)
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
        what='the access log line')
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
    procs.wait_for(lambda: _access_lines(server, answered),
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
    conn = _conn(server)
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


# Issue 20: a request refused for its size is answered, not reset.

ONE_MB = 1024 * 1024


def _send_then_read(server, head, body_mb=0):
    """Send ``head`` and ``body_mb`` MB of body, all of it before reading
    (as http.client and requests do), then read the response to its end:
    (status, response).  A reset raises ConnectionResetError or
    BrokenPipeError."""
    sock = socket.create_connection(('127.0.0.1', server.port),
                                    timeouts.HANG)
    try:
        sock.sendall(head)
        for _ in range(body_mb):
            sock.sendall(b'x' * ONE_MB)
        response = b''
        while True:
            data = sock.recv(65536)
            if not data:
                break
            response += data
    finally:
        sock.close()
    status_line = response.split(b'\r\n', 1)[0]
    return int(status_line.split()[1]), response


def test_a_one_mb_header_is_answered_431_not_reset(server):
    """waitress stops reading at 256 KiB of headers and answers 431; the
    rest of the header must not make the kernel reset the connection
    before the client has read that answer."""
    head = (b'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Big: '
            + b'a' * ONE_MB + b'\r\n\r\n')
    status, response = _send_then_read(server, head)
    assert status == 431, response[:200]
    assert b'connection: close' in response.lower()
    conn = _conn(server)
    try:
        resp, _ = _get(conn, '/v1/nodes')
        assert resp.status == 200
    finally:
        conn.close()


def test_a_body_over_100_mb_is_answered_413_not_reset(server):
    """A Content-Length over waitress's 100 MiB is refused from the
    headers; the client, still sending the start of its body (8 MB),
    reads the 413."""
    head = (b'POST /v1/nodes HTTP/1.1\r\nHost: x\r\n'
            b'Content-Type: application/json\r\n'
            b'Content-Length: %d\r\n\r\n' % (101 * ONE_MB))
    status, response = _send_then_read(server, head, body_mb=8)
    assert status == 413, response[:200]


def test_stop_closes_idle_keep_alive_connections(tmp_path):
    """SIGTERM with an idle keep-alive connection open: the server closes
    it at once (not after client_socket_timeout or
    graceful_shutdown_timeout, both NEVER long here: waiting for either
    would outlast the hang's bound of the client and of the stop), and
    the process exits cleanly."""
    port = procs.free_port()
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'state_path': str(tmp_path / 'state'),
                    'host': 'drain-test',
                    'graceful_shutdown_timeout': timeouts.NEVER},
        'api': {'host_ip': '127.0.0.1', 'port': port,
                'client_socket_timeout': timeouts.NEVER},
    })
    service = procs.Service('ironic-lite', config, str(tmp_path))
    service.port = port
    procs.wait_http('http://127.0.0.1:%d/v1' % port, service)
    conn = _conn(service)
    try:
        resp, _ = _get(conn, '/v1/nodes')
        assert resp.status == 200 and not resp.will_close
        service.terminate()
        assert conn.sock.recv(100) == b''
        assert service.stop() == 0, service.log()
    finally:
        conn.close()
        service.stop()


# Issue 20: no client holds the API's connections for ever.

def _guarded(tmp_path, **api):
    """ironic-lite whose idle timeout is NEVER: a connection closed while
    a test runs was closed by one of the limits under test."""
    options = {'host_ip': '127.0.0.1', 'port': procs.free_port(),
               'threads': 4, 'client_socket_timeout': timeouts.NEVER}
    options.update(api)
    config = procs.write_config(str(tmp_path / 'ironic.conf'), {
        'DEFAULT': {'state_path': str(tmp_path / 'state'),
                    'host': 'guarded'},
        'api': options,
    })
    service = procs.Service('ironic-lite', config, str(tmp_path))
    service.port = options['port']
    service.base = 'http://127.0.0.1:%d' % service.port
    procs.wait_http(service.base + '/v1', service)
    return service


def _closed(sock, pace=0.2):
    """Whether the server has closed ``sock`` (within ``pace`` s)."""
    return sockets.closed_by_server(sock, pace)


def _trickle_until_closed(sock):
    """Send a header byte every 0.2 s until the server closes the
    connection; a hang (timeouts.HANG) if it never does."""
    sock.sendall(b'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Slow: ')
    give_up = time.monotonic() + timeouts.HANG
    while time.monotonic() < give_up:
        try:
            sock.sendall(b'x')
        except (BrokenPipeError, ConnectionResetError):
            return True
        if _closed(sock):
            return True
    return False


def test_trickling_client_is_closed_by_the_read_deadline(tmp_path):
    """A client that sends a header byte every 0.2 s is active all along
    (client_socket_timeout, NEVER here, is never reached) and is closed
    by [api]request_read_timeout (2 s); meanwhile others are served."""
    service = _guarded(tmp_path, request_read_timeout=2)
    sock = socket.create_connection(('127.0.0.1', service.port),
                                    timeouts.HANG)
    try:
        conn = _conn(service)
        try:
            resp, _ = _get(conn, '/v1/nodes')
            assert resp.status == 200
            assert _trickle_until_closed(sock), 'never closed'
            resp, _ = _get(conn, '/v1/nodes')
            assert resp.status == 200
        finally:
            conn.close()
        assert 'request_read_timeout' in service.log()
    finally:
        sock.close()
        assert service.stop() == 0, service.log()


def _served(service):
    conn = _conn(service)
    resp, _ = _get(conn, '/v1/nodes')
    assert resp.status == 200 and not resp.will_close
    return conn


def test_idle_keep_alive_connections_make_way_at_max_connections(
        tmp_path):
    """With every connection held idle by keep-alive clients (their idle
    timeout NEVER), each new client is served: the connection idle the
    longest is closed for it, rather than the newcomer waiting in the
    backlog for a hang's time."""
    service = _guarded(tmp_path, max_connections=4,
                       max_connections_per_client=0)
    conns = []
    try:
        for _ in range(6):
            conns.append(_served(service))
        assert _closed(conns[0].sock, timeouts.HANG), 'oldest not closed'
        assert not _closed(conns[-1].sock, 0)
    finally:
        for conn in conns:
            conn.close()
        assert service.stop() == 0, service.log()


def _from(service, address):
    """A keep-alive connection to ``service`` from the loopback address
    ``address`` (127.0.0.x: a client host of its own)."""
    return http.client.HTTPConnection(
        '127.0.0.1', service.port, timeout=timeouts.HANG,
        source_address=(address, 0))


def _half_header(service, address):
    """A connection from ``address`` with half a request sent."""
    sock = socket.create_connection(('127.0.0.1', service.port),
                                    timeouts.HANG, (address, 0))
    sock.sendall(b'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Slow: ')
    return sock


def test_the_per_address_cap_closes_the_address_idle_connection_first(
        tmp_path):
    """[api]max_connections_per_client = 2: a third connection from an
    address whose two connections are idle keep-alive ones is served,
    and one of the two makes way; when both are busy (a request being
    read), the third is closed unanswered."""
    service = _guarded(tmp_path, max_connections_per_client=2)
    conns, socks = [], []
    try:
        conns = [_from(service, '127.0.0.2') for _ in range(3)]
        for conn in conns:
            resp, _ = _get(conn, '/v1/nodes')
            assert resp.status == 200
        # The one the server has seen idle the longest: the first --
        # unless the worker that answered it had not yet finished with it
        # when the third came (a client reads its answer before then; on
        # a loaded machine a worker may wait for a core meanwhile), then
        # the second.  Which one is the unit tests' (test_wsgi.py).
        procs.wait_for(lambda: [c for c in conns[:2] if _closed(c.sock)],
                       what='one of the idle connections closed')
        socks = [_half_header(service, '127.0.0.3') for _ in range(2)]
        third = _from(service, '127.0.0.3')
        conns.append(third)
        with pytest.raises((http.client.RemoteDisconnected,
                            ConnectionResetError, BrokenPipeError)):
            _get(third, '/v1/nodes')
        assert not any(_closed(sock, 0) for sock in socks)
        assert 'max_connections_per_client' in service.log()
    finally:
        for conn in conns:
            conn.close()
        for sock in socks:
            sock.close()
        assert service.stop() == 0, service.log()


def test_forty_keep_alive_connections_of_one_client_are_served(tmp_path):
    """The default configuration: one client host (an openstacksdk
    process's pools, devstack, a NAT gateway) with 40 keep-alive
    connections has every request of every connection served, twice,
    none reset (the first per-address cap, a quarter of max_connections,
    reset the 26th)."""
    service = _guarded(tmp_path)
    conns = []
    try:
        conns = [_from(service, '127.0.0.4') for _ in range(40)]
        for _ in range(2):
            for conn in conns:
                resp, _ = _get(conn, '/v1/nodes')
                assert resp.status == 200 and not resp.will_close
        assert not any(_closed(conn.sock, 0) for conn in conns)
    finally:
        for conn in conns:
            conn.close()
        assert service.stop() == 0, service.log()


def test_trickling_connections_from_many_addresses_make_way(tmp_path):
    """A distributed slow attack: 105 connections from 105 addresses
    each trickle a header byte now and then, more than max_connections
    (100), and the read deadline is off (0), so none would ever be
    closed by it.  Probes from another address are still served: at the
    limit, the connection reading its request with the slowest progress
    makes way for the newcomer (before, the probes waited for
    request_read_timeout)."""
    service = _guarded(tmp_path, request_read_timeout=0)
    tricklers = []
    try:
        for i in range(105):
            sock = socket.socket()
            sock.bind(('127.0.1.%d' % (i + 1), 0))
            sock.settimeout(timeouts.HANG)
            sock.connect(('127.0.0.1', service.port))
            sock.sendall(b'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-S: ')
            tricklers.append(sock)
        time.sleep(1.5)   # reading for over READ_GRACE: may make way
        for sock in tricklers:
            try:
                sock.sendall(b'x')
            except OSError:
                pass   # already made way
        for _ in range(11):
            conn = _from(service, '127.0.0.5')
            try:
                resp, _ = _get(conn, '/v1/nodes')
                assert resp.status == 200
            finally:
                conn.close()
        assert 'still reading its request' in service.log()
    finally:
        for sock in tricklers:
            sock.close()
        assert service.stop() == 0, service.log()


def _memory_mb(pid):
    """{'VmHWM': peak RSS, 'VmRSS': RSS} of process ``pid``, in MB."""
    sizes = {}
    with open('/proc/%d/status' % pid) as status:
        for line in status:
            name, _, value = line.partition(':')
            if name in ('VmHWM', 'VmRSS'):
                sizes[name] = int(value.split()[0]) / 1024
    return sizes


def _pages_at_once(service, count, path='/v1/nodes/detail'):
    """``count`` GETs of ``path`` sent together: their statuses."""
    def get(_):
        conn = _conn(service)
        try:
            resp, _ = _get(conn, path)
            return resp.status
        finally:
            conn.close()
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        return list(pool.map(get, range(count)))


@pytest.mark.long(25)
def test_twenty_large_pages_together_are_served_with_memory_bounded(
        tmp_path):
    """The default bound on large pages, on a server with 16 worker
    threads: 20 detailed pages of 500 nodes asked for together are all
    served (none refused: the first bound answered the fifth 503), and
    the peak memory grows no more than 4 times what 2 pages at once took
    -- only 2 are rendered at once, the others wait holding nothing but
    their request (measured: 1.6 to 2.4 times).  With no bound, 16 were
    rendered at once and the peak grew 7 to 8 times that."""
    service = _guarded(tmp_path, threads=16)
    try:
        body = {'driver': 'fake-hardware', 'driver_info': {'x': 'y' * 200},
                'properties': {'cpus': 8, 'memory_mb': 4096}}
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            created = list(pool.map(lambda _: procs.http(
                'POST', service.base + '/v1/nodes', body)[0], range(500)))
        assert created == [201] * 500
        pid = service.proc.pid
        base = _memory_mb(pid)['VmRSS']
        assert _pages_at_once(service, 2) == [200] * 2
        two = _memory_mb(pid)['VmHWM'] - base
        assert _pages_at_once(service, 20) == [200] * 20
        twenty = _memory_mb(pid)['VmHWM'] - base
        print('peak growth: 2 pages %.0f MB, 20 pages %.0f MB'
              % (two, twenty))
        assert twenty <= 4 * two, (two, twenty)
    finally:
        assert service.stop() == 0, service.log()
