"""Two workers' HTTP servers (common/wsgi_shared.py) in one process, on
one listening socket and one Bounds, as two forked workers share them:
the limits hold over both together."""

import contextlib
import http.client
import socket
import threading
import time

from ironic_lite.common import worker_bounds
from ironic_lite.common import workers
from ironic_lite.common import wsgi
from tests import sockets
from tests import timeouts

RELEASE = threading.Event()


def _app(environ, start_response):
    if environ['PATH_INFO'] == '/slow':
        assert RELEASE.wait(timeouts.HANG)
    start_response('200 OK', [('Content-Type', 'text/plain'),
                              ('Content-Length', '5')])
    return [b'hello']


@contextlib.contextmanager
def _two_workers(**limits):
    RELEASE.clear()
    sock = workers.listen_socket('127.0.0.1', 0)
    bounds = worker_bounds.Bounds(
        2, limits.get('max_connections', 100),
        limits.get('max_connections_per_client', 0))
    services = [wsgi.WSGIService('test-api-%d' % i, _app, '127.0.0.1', 0,
                                 threads=4,
                                 client_socket_timeout=timeouts.NEVER,
                                 sock=sock.dup(),
                                 bounds=bounds.worker(i), **limits)
                for i in range(2)]
    sock.close()
    for service in services:
        service.start()
    try:
        yield services
    finally:
        RELEASE.set()
        for service in services:
            service.stop()


def _open(services):
    return sum(len(s.server.active_channels) for s in services)


def _connect(services):
    port = services[0].server.effective_port
    conn = http.client.HTTPConnection('127.0.0.1', port,
                                      timeout=timeouts.HANG)
    conn.connect()
    return conn


def _holder(services, before):
    """The index of the server whose connections grew since ``before``
    (a list of counts), once one has."""
    give_up = time.monotonic() + timeouts.HANG
    while time.monotonic() < give_up:
        for i, service in enumerate(services):
            if len(service.server.active_channels) > before[i]:
                return i
        time.sleep(0.01)
    raise AssertionError('no worker accepted the connection')


def _one_in_each(services):
    """A connection accepted by each worker (others closed)."""
    held = {}
    while len(held) < 2:
        before = [len(s.server.active_channels) for s in services]
        conn = _connect(services)
        index = _holder(services, before)
        if index in held:
            conn.close()
            while _open(services) > len(held):
                time.sleep(0.01)
        else:
            held[index] = conn
    return [held[0], held[1]]


def test_max_connections_counts_both_workers():
    """max_connections = 3 over two workers: clients keep every
    connection open; each newcomer is served (an idle one makes room),
    and never more than 3 are open, whichever worker holds them."""
    with _two_workers(max_connections=3) as services:
        conns = []
        try:
            for _ in range(8):
                conn = _connect(services)
                conn.request('GET', '/')
                assert conn.getresponse().read() == b'hello'
                conns.append(conn)
                assert _open(services) <= 3
            bounds = services[0].server.bounds
            assert bounds.total_connections() == _open(services) <= 3
        finally:
            for conn in conns:
                conn.close()


def test_the_per_client_cap_counts_both_workers():
    """Cap 2, one busy connection in each worker: every further
    connection of the address is closed, whichever worker takes it."""
    with _two_workers(max_connections_per_client=2) as services:
        busy = _one_in_each(services)
        for conn in busy:
            conn.request('GET', '/slow')
        for _ in range(6):
            with socket.create_connection(
                    ('127.0.0.1', services[0].server.effective_port),
                    timeouts.HANG) as sock:
                assert sockets.closed_by_server(sock, timeouts.HANG)
        RELEASE.set()
        for conn in busy:
            assert conn.getresponse().read() == b'hello'
            conn.close()


def _served_once(services):
    """A new connection's request answered (None: closed first)."""
    conn = _connect(services)
    try:
        conn.request('GET', '/')
        assert conn.getresponse().read() == b'hello'
    except (ConnectionError, http.client.HTTPException):
        conn.close()
        return None
    return conn


def test_at_the_per_client_cap_another_worker_s_idle_one_makes_room():
    """Cap 2: an idle connection in one worker, a busy one in the other.
    A third connection is served wherever it lands: the idle one is
    closed, by its own worker (asked by the other, when the third landed
    there), and the busy one is left alone."""
    with _two_workers(max_connections_per_client=2) as services:
        idle, busy = _one_in_each(services)
        idle.request('GET', '/')
        assert idle.getresponse().read() == b'hello'
        busy.request('GET', '/slow')
        # Until the workers have seen the idle one idle (they look every
        # IDLE_PUBLISH seconds), a third may be closed at once as if
        # every connection of the address were busy: try again.
        third = _until_served(lambda: _served_once(services))
        assert sockets.closed_by_server(idle.sock, timeouts.HANG)
        RELEASE.set()
        assert busy.getresponse().read() == b'hello'
        for conn in (idle, busy, third):
            conn.close()


def _until_served(attempt):
    give_up = time.monotonic() + timeouts.HANG
    while time.monotonic() < give_up:
        result = attempt()
        if result is not None:
            return result
        time.sleep(worker_bounds.IDLE_PUBLISH)
    raise AssertionError('never served')
