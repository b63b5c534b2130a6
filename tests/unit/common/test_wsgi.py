"""The HTTP server (ironic_lite.common.wsgi), on a loopback port."""

import http.client
import resource
import socket
import time
from unittest import mock

from ironic_lite.common import wsgi
from tests import timeouts


def _hello(environ, start_response):
    start_response('200 OK', [('Content-Type', 'text/plain'),
                              ('Content-Length', '5')])
    return [b'hello']


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def test_idle_server_does_not_spin():
    """An idle server waits in poll(): its event loop once ran with a
    timeout of 0 (waitress takes the option as an int, and 0.5 became 0)
    and burnt a whole core with no request in sight."""
    service = wsgi.WSGIService('test-api', _hello, '127.0.0.1', 0)
    service.start()
    try:
        port = service.server.effective_port
        conn = http.client.HTTPConnection('127.0.0.1', port,
                                          timeout=timeouts.HANG)
        conn.request('GET', '/')
        assert conn.getresponse().read() == b'hello'
        conn.close()
        before = _cpu_seconds()
        time.sleep(1.0)
        used = _cpu_seconds() - before
    finally:
        service.stop()
    # A spinning loop uses ~1 s of CPU in that second; an idle one ~0.
    assert used < 0.3, 'idle server used %.2f s of CPU in 1 s' % used


def test_stop_closes_an_idle_keep_alive_connection_promptly():
    """With the loop waiting in poll(), stop() still drains at once: its
    work is handed to the loop through the trigger, which wakes it.

    The loop's poll() timeout (a second in service), the idle timeout
    of the connection and the drain's shutdown_timeout are NEVER long
    here: a stop() that waited for any of them would take a hang's time
    -- and leave the loop running, or log that it gave up on the
    connection -- rather than end cleanly."""
    service = wsgi.WSGIService('test-api', _hello, '127.0.0.1', 0,
                               shutdown_timeout=timeouts.NEVER,
                               client_socket_timeout=timeouts.NEVER)
    service.server.adj.asyncore_loop_timeout = timeouts.NEVER
    service.start()
    loop = service._thread
    conn = http.client.HTTPConnection(
        '127.0.0.1', service.server.effective_port, timeout=timeouts.HANG)
    conn.request('GET', '/')
    assert conn.getresponse().read() == b'hello'
    with mock.patch.object(wsgi.LOG, 'warning') as warning:
        service.stop()
    loop.join(timeouts.HANG)
    try:
        assert not loop.is_alive(), 'the event loop still runs'
        assert not warning.called, warning.call_args
        # The server closed the idle connection.
        assert conn.sock.recv(1) == b''
    finally:
        conn.close()


def test_large_responses_are_buffered_in_memory():
    """A multi-megabyte body (a detailed node page) is not spooled to a
    temporary file on its way out (waitress's default above 1 MB)."""
    body = b'x' * (3 * 1024 * 1024)

    def big(environ, start_response):
        start_response('200 OK', [('Content-Length', str(len(body)))])
        return [body]
    service = wsgi.WSGIService('test-api', big, '127.0.0.1', 0)
    assert service.server.adj.outbuf_overflow >= len(body)
    service.start()
    try:
        conn = http.client.HTTPConnection(
            '127.0.0.1', service.server.effective_port,
            timeout=timeouts.HANG)
        conn.request('GET', '/')
        assert conn.getresponse().read() == body
        conn.close()
    finally:
        service.stop()


def _keep_alive(service):
    """A connection with one request answered, kept open."""
    conn = http.client.HTTPConnection(
        '127.0.0.1', service.server.effective_port, timeout=timeouts.HANG)
    conn.request('GET', '/')
    assert conn.getresponse().read() == b'hello'
    return conn


def test_proxy_addresses_are_not_capped():
    """The balancer's connections are not counted against
    max_connections_per_client: with a cap of 1, a second connection
    from a proxy address is served."""
    service = wsgi.WSGIService('test-api', _hello, '127.0.0.1', 0,
                               max_connections_per_client=1,
                               proxy_addresses=['127.0.0.0/8'])
    service.start()
    conns = []
    try:
        conns = [_keep_alive(service), _keep_alive(service)]
        conns[0].request('GET', '/')
        assert conns[0].getresponse().read() == b'hello'
    finally:
        for conn in conns:
            conn.close()
        service.stop()


def test_connections_per_client_as_it_applies(conf_fixture):
    from ironic_lite import conf
    from ironic_lite.conf import api as api_conf
    # No cap by default (issue 34: one openstacksdk process, devstack or
    # a NAT gateway holds more than a quarter of max_connections).
    conf_fixture.config(max_connections=100, group='api')
    assert api_conf.connections_per_client(conf.CONF) == 0
    conf_fixture.config(max_connections_per_client=7, group='api')
    assert api_conf.connections_per_client(conf.CONF) == 7
    # Behind a balancer every connection comes from it: no cap.
    conf_fixture.config(enable_proxy_headers_parsing=True,
                        group='oslo_middleware')
    assert api_conf.connections_per_client(conf.CONF) == 0


def test_a_request_read_in_part_is_timed_from_its_first_byte():
    """read_began is set by a request's first byte, kept while the rest
    trickles in, and cleared once it is complete."""
    service = wsgi.WSGIService('test-api', _hello, '127.0.0.1', 0)
    channel = wsgi._Channel.__new__(wsgi._Channel)
    channel.request = None
    channel.requests = []
    channel.adj = service.server.adj
    channel.server = mock.Mock()
    channel.will_close = channel.close_when_flushed = False
    channel.sent_continue = False
    channel.requests_lock = mock.MagicMock()
    channel.received(b'GET / HTTP/1.1\r\n')
    began = channel.read_began
    assert began is not None
    channel.received(b'Host: x\r\n')
    assert channel.read_began == began
    channel.received(b'\r\n')
    assert channel.read_began is None and len(channel.requests) == 1
    service.server.close()


def _closes_while_sending(sock):
    """Send until the server closes the connection: True, or False if
    it is still open after a hang's time."""
    give_up = time.monotonic() + timeouts.HANG
    while time.monotonic() < give_up:
        try:
            sock.sendall(b'x' * 65536)
        except (BrokenPipeError, ConnectionResetError):
            return True
    return False


def test_a_client_that_keeps_sending_after_a_431_is_cut_off():
    """The lingering close after a refused request reads what the client
    still sends for LINGER_SECONDS only: a client that never stops is
    disconnected (LINGER_SECONDS made short here)."""
    service = wsgi.WSGIService('test-api', _hello, '127.0.0.1', 0,
                               client_socket_timeout=timeouts.NEVER,
                               request_read_timeout=0)
    service.start()
    sock = socket.create_connection(
        ('127.0.0.1', service.server.effective_port), timeouts.HANG)
    try:
        with mock.patch.object(wsgi, 'LINGER_SECONDS', 0.5):
            sock.sendall(b'GET / HTTP/1.1\r\nHost: x\r\nX-Big: ')
            assert _closes_while_sending(sock), 'still lingering'
    finally:
        sock.close()
        service.stop()


class _Quiet(object):
    """A socket with nothing to read."""

    def recv(self, size, flags=0):
        raise BlockingIOError()


class _Channel(object):
    """What _longest_idle and _busy read of a waitress channel."""

    linger_until = None
    request = None
    total_outbufs_len = 0

    def __init__(self, last_activity, requests=()):
        self.last_activity = last_activity
        self.requests = list(requests)
        self.socket = _Quiet()


def test_the_connection_idle_longest_is_the_one_to_close():
    first, second = _Channel(10.0), _Channel(20.0)
    assert wsgi._longest_idle([second, first]) is first


def test_a_connection_whose_answer_is_still_being_finished_is_busy():
    """A worker still in its request (waitress clears ``requests`` and
    stamps ``last_activity`` only when it is done, after the client may
    have read the answer) holds its connection: the other one is closed,
    though it was active more recently; none when both are busy."""
    finishing, idle = _Channel(10.0, requests=['GET']), _Channel(20.0)
    assert wsgi._longest_idle([finishing, idle]) is idle
    assert wsgi._longest_idle([finishing]) is None
