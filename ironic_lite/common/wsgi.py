"""The HTTP server of ironic-api and ironic-lite: waitress, drained on stop.

waitress reads every request in full (headers and body) in one event loop
before it hands it to a worker thread, and writes responses from that loop
too: a slow or idle client -- a connection that sends half a header and
waits, an idle keep-alive connection -- holds no worker, and is closed after
``[api]client_socket_timeout`` seconds without activity.  Connections are
HTTP/1.1 keep-alive.

Stopping an API behind a load balancer must not fail a request the server
has already accepted: the client may have sent it, and cannot tell whether
it was carried out.  So ``stop()``:

1. stops accepting, accepts every connection already waiting in the
   kernel's backlog, then closes the listening socket -- from now on
   connections are refused and a load balancer goes to another API;
2. answers the requests of every open connection (each response says
   ``Connection: close``) and closes idle keep-alive connections, up to
   ``shutdown_timeout`` seconds;
3. stops the event loop and the worker threads.

The access log is the application's (``ironic_lite.api.middleware``), so
that it is the same under any WSGI server.
"""

import socket
import threading
import time

from oslo_log import log as logging
from waitress import channel as w_channel
from waitress import server as w_server
from waitress import task as w_task

LOG = logging.getLogger(__name__)

# waitress refuses bodies above this itself (a plain 413, before the
# application sees the request) so that no client makes it spool gigabytes
# to disk; the application refuses far smaller bodies, with Ironic's error
# body ([oslo_middleware]max_request_body_size).
MAX_BODY_BYTES = 100 * 1024 * 1024

# Responses up to this size are buffered in memory, not in a temporary
# file (a detailed page of 1,000 nodes is about 2.7 MB).
OUTBUF_IN_MEMORY_BYTES = 16 * 1024 * 1024

# How often stop() looks at the open connections while it drains them.
_DRAIN_POLL = 0.05

# Set once a server of this process has begun to stop (the health check
# then answers 503 on the connections still open).
DRAINING = threading.Event()


def _capitalized(name):
    """A header name as waitress writes it ("X-Openstack-Request-Id")."""
    return '-'.join(part.capitalize() for part in name.split('-'))


class _Task(w_task.WSGITask):
    """A response that closes its connection once the server drains, and
    whose header names keep the application's spelling
    ("X-OpenStack-Ironic-API-Version", as Ironic sends it)."""

    def build_response_header(self):
        if self.channel.server.draining:
            self.set_close_on_finish()
        spelled = {_capitalized(k): k for k, _v in self.response_headers}
        lines = super().build_response_header().split(b'\r\n')
        for i, line in enumerate(lines[1:], 1):
            name, colon, rest = line.partition(b':')
            original = spelled.get(name.decode('latin-1')) if colon else None
            if original:
                lines[i] = original.encode('latin-1') + b':' + rest
        return b'\r\n'.join(lines)


class _Channel(w_channel.HTTPChannel):
    task_class = _Task


class _Server(w_server.TcpWSGIServer):
    channel_class = _Channel
    draining = False


def _busy(channel):
    """A connection with a request in progress, or data to send or read."""
    if channel.requests or channel.total_outbufs_len:
        return True
    if channel.request is not None:   # part of a request received
        return True
    try:   # the next request, sent but not read yet?
        return bool(channel.socket.recv(
            1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except OSError:   # nothing to read (or a dead connection)
        return False


class WSGIService(object):
    """Serves a WSGI app on host:port in a background thread."""

    def __init__(self, name, app, host, port, threads=8,
                 shutdown_timeout=60, client_socket_timeout=60,
                 max_connections=100):
        self.name = name
        self.shutdown_timeout = shutdown_timeout
        self.server = _Server(
            app, map={}, host=host, port=port, threads=threads,
            channel_timeout=client_socket_timeout,
            cleanup_interval=max(1, min(30, client_socket_timeout // 2)),
            connection_limit=max_connections, backlog=128,
            max_request_body_size=MAX_BODY_BYTES,
            # A response above waitress's default (1 MB: a detailed page
            # of 400 nodes) was spooled to a temporary file and read back;
            # the application holds the whole body in memory anyway.
            outbuf_overflow=OUTBUF_IN_MEMORY_BYTES,
            # waitress reads this option as an int: below 1 it is 0, a
            # poll() that returns at once, and the loop spins a core when
            # idle.  Work for the loop (stop's drain included) wakes it.
            asyncore_use_poll=True, asyncore_loop_timeout=1,
            clear_untrusted_proxy_headers=False, ident='ironic-lite')
        self._thread = None

    def start(self):
        LOG.info('%s serving on http://%s:%s', self.name,
                 self.server.effective_host, self.server.effective_port)
        self._thread = threading.Thread(target=self.server.run,
                                        name=self.name, daemon=True)
        self._thread.start()

    def _in_loop(self, func, timeout=10):
        """Run ``func`` in the server's event loop thread; its result."""
        done = threading.Event()
        result = []

        def thunk():
            try:
                result.append(func())
            finally:
                done.set()
        self.server.trigger.pull_trigger(thunk)
        if not done.wait(timeout):
            return None
        return result[0] if result else None

    def _close_listener(self):
        server = self.server
        server.draining = True
        DRAINING.set()
        server.accepting = False
        # What the kernel already queued for us is served, not reset.
        while True:
            try:
                accepted = server.accept()
            except OSError:
                accepted = None
            if accepted is None:
                break
            conn, addr = accepted
            server.set_socket_options(conn)
            server.channel_class(server, conn, server.fix_addr(addr),
                                 server.adj, map=server._map)
        server.del_channel()
        server.socket.close()

    def _close_idle(self):
        """Close the connections with nothing to do; how many are left."""
        left = 0
        for channel in list(self.server.active_channels.values()):
            if _busy(channel):
                left += 1
            elif not channel.will_close:
                channel.will_close = True
        return left + len([c for c in self.server.active_channels.values()
                           if c.will_close])

    def stop(self):
        if self._thread is None:
            return
        LOG.info('%s stopping: finishing requests in flight', self.name)
        self._in_loop(self._close_listener)
        deadline = time.monotonic() + self.shutdown_timeout
        while time.monotonic() < deadline:
            left = self._in_loop(self._close_idle)
            if not left:
                break
            time.sleep(_DRAIN_POLL)
        else:
            LOG.warning('%s stopped with requests still running after %ss',
                        self.name, self.shutdown_timeout)
        self._in_loop(self._close_all)
        self._thread.join(5)
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        self._thread = None

    def _close_all(self):
        for channel in list(self.server._map.values()):
            if channel is not self.server.trigger:
                channel.close()
        # With an empty socket map the event loop returns.
        self.server.trigger.close()

    def wait(self):
        if self._thread is not None:
            self._thread.join()
