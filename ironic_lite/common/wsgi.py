"""The HTTP server of ironic-api and ironic-lite: waitress, drained on stop.

waitress reads every request in full (headers and body) in one event loop
before it hands it to a worker thread, and writes responses from that loop
too: a slow or idle client -- a connection that sends half a header and
waits, an idle keep-alive connection -- holds no worker, and is closed after
``[api]client_socket_timeout`` seconds without activity.  Connections are
HTTP/1.1 keep-alive.

A client must not be able to hold connections for ever either (issue
20), and a protection must not refuse a legitimate client (issue 34):
many connections from one address are normal (an openstacksdk process
keeps a pool per ``Connection``, devstack and NAT put a whole cloud
behind one address).  So the server makes room by closing what costs
the least to close, and refuses nobody merely for being many:

* a request's headers and body must arrive within
  ``[api]request_read_timeout`` seconds of its first byte, however busy
  the client keeps the connection (one byte every few seconds is
  activity, and never reaches ``client_socket_timeout``);
* at ``[api]max_connections``, a client waiting to connect makes room:
  first the keep-alive connection idle the longest (no request in
  progress) is closed -- its client opens a new one when it needs it,
  as after any idle timeout; when none is idle, the connection still
  reading its request with the slowest progress (bytes per second since
  its first byte, after READ_GRACE seconds of reading) is closed: a
  request that trickles in is an attacker's or a dead link's, and a
  distributed slow attack (one trickling connection per address) cannot
  make new clients wait for the read deadline;
* ``[api]max_connections_per_client`` (0, no cap, by default) caps one
  address; at the cap a new connection of that address closes the
  address's own longest-idle connection first, and is itself closed
  only when all of the address's connections are busy.  The addresses
  of ``[api]proxy_addresses`` (load balancers) are not capped.

Requests of a class the application names -- large list pages, calls
that wait for a BMC: ``lanes=`` -- are admitted by a Lane each
(common/admission.py): at most its ``running`` of them are handed to the
worker threads at once, the others wait in line holding no thread (only
their parsed request) for up to ``wait`` seconds.  One that waited longer
is handed over marked expired (``environ[LANE_KEY] == 'expired'``, the
lane's words for it in ``environ[LANE_REFUSAL_KEY]``) and the
application answers it at once.  A burst of large pages is thus served
in turn instead of refused, its memory is bounded by the pages rendered
at once, BMCs that never answer hold a bounded number of threads, and
the other threads stay free for light requests.

A response that closes its connection (an error such as ``431`` for
headers over 256 KiB or ``413`` for a body over 100 MiB, or
``Connection: close``) is followed by a lingering close: the server
shuts down its sending side and reads and discards what the client still
sends for up to LINGER_SECONDS, then closes.  Closing a socket with
unread input makes the kernel answer with a reset, and a client still
sending its request would see "connection reset" instead of the
response.  A client that keeps sending is cut off after LINGER_SECONDS.

waitress has no plug-in interface for any of this: it is built by
subclassing its server, channel and task (the server's
``channel_class`` and the channel's ``task_class`` are there for that;
webtest subclasses its server too), overriding the methods its event
loop calls (``readable``, ``writable``, ``handle_read``, ``handle_write``,
``handle_close``, ``maintenance``, ``received``,
``build_response_header``).  What they read is waitress's, none of it
with a leading underscore: a channel's ``request`` (being read),
``requests`` (being served), ``will_close``, ``close_when_flushed``,
``total_outbufs_len``, ``last_activity``, ``addr``, ``socket``, and the
server's ``active_channels``, ``accepting``, ``adj``, ``trigger``,
``task_dispatcher`` and ``handle_accept()``.  The socket map the server
runs on is ours (``map=``), so we count and close its connections
without reaching into the server.  tests/unit/common/test_wsgi.py and
tests/functional/test_http_server.py exercise each of these, so a
waitress release that changes one fails them.

Header names keep the application's spelling
(``X-OpenStack-Ironic-API-Version``, ``WWW-Authenticate``), as Ironic's
servers send them: waitress capitalizes each word
(``X-Openstack-Ironic-Api-Version``).  HTTP header names are
case-insensitive and python-ironicclient, openstacksdk and keystoneauth
read them so, but a client that matches the name as Ironic writes it
(a shell script's ``grep``, a plain dict) must find it.  The task's
``build_response_header`` maps each name waitress wrote back to the
application's.

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

import ipaddress
import select
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

# A connection closed after its response reads and discards what its
# client still sends for at most this long (a lingering close).
LINGER_SECONDS = 5
_LINGER_READ = 64 * 1024

# A connection reading its request for less than this many seconds is
# never closed to make room (a legitimate request arrives within
# milliseconds; one still arriving after READ_GRACE is measured by its
# progress).
READ_GRACE = 1.0

# The WSGI environ key that tells the application how its request went
# through its lane: 'slot' (admitted) or 'expired' (waited past the lane's
# deadline: answer it at once, doing nothing).
LANE_KEY = 'ironic_lite.lane'
LANE_REFUSAL_KEY = 'ironic_lite.lane_refusal'

# Set once a server of this process has begun to stop (the health check
# then answers 503 on the connections still open).
DRAINING = threading.Event()


def _capitalized(name):
    """A header name as waitress writes it ("X-Openstack-Request-Id")."""
    return '-'.join(part.capitalize() for part in name.split('-'))


class _Task(w_task.WSGITask):
    """A response that closes its connection once the server drains, and
    whose header names keep the application's spelling."""

    def get_environment(self):
        environ = super().get_environment()
        state = getattr(self.request, 'lane_state', None)
        if state is not None:
            environ[LANE_KEY] = state
            environ[LANE_REFUSAL_KEY] = self.request.lane.refusal
        return environ

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
    # time.monotonic() when the first byte of the request being read
    # (self.request, not complete yet) arrived; None between requests;
    # and how many bytes of it have arrived since.
    read_began = None
    read_bytes = 0
    # Whether the connection closes after a response (lingering).
    closes_after_response = False
    # time.monotonic() until which a closing connection's input is read
    # and discarded; None while the connection serves.
    linger_until = None

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        server.channel_opened(self)
        if server.over_client_cap(self) and not server.room_elsewhere(self):
            # Closed by the event loop's next turn (a channel that will
            # close is writable, and neither read nor served): the
            # address's own connection idle the longest, or this one.
            idle = _longest_idle(server.same_address(self))
            if idle is not None:
                LOG.debug('At [api]max_connections_per_client: closing '
                          'the connection of %s idle longest', addr[0])
                idle.will_close = True
            else:
                LOG.warning('Closing a connection from %s: it already '
                            'holds [api]max_connections_per_client (%s) '
                            'busy connections', addr[0], server.per_client)
                self.will_close = True

    def del_channel(self, map=None):
        if self._fileno is not None:
            self.server.channel_closed(self)
        super().del_channel(map)

    def received(self, data):
        partial = self.request
        now = time.monotonic()
        began = self.read_began if partial is not None else now
        result = super().received(data)
        if self.request is None:
            self.read_began = None
        elif self.request is partial:   # the rest of a request
            self.read_began = began
            self.read_bytes += len(data)
        else:   # the start of the next one
            self.read_began = now
            self.read_bytes = len(data)
        return result

    def service(self):
        # The request served now: an admitted one frees its lane's slot
        # once answered (the next request of a pipelining client, if
        # any, has been given to add_task meanwhile).
        request = self.requests[0] if self.requests else None
        try:
            super().service()
        finally:
            lane = getattr(request, 'lane', None)
            if lane is not None:
                lane.done(request)

    def read_rate(self, now):
        """Bytes per second of the request being read, once it has been
        read for READ_GRACE seconds; None otherwise."""
        began = self.read_began
        if (began is None or self.requests or self.will_close
                or now - began < READ_GRACE):
            return None
        return self.read_bytes / (now - began)

    # -- the lingering close ------------------------------------------------

    def handle_write(self):
        # waitress closes (handle_close) once a response that ends the
        # connection is flushed.
        if self.close_when_flushed:
            self.closes_after_response = True
        super().handle_write()

    def handle_close(self):
        if (self.closes_after_response and self.linger_until is None
                and self.connected and self._stop_sending()):
            self.linger_until = time.monotonic() + LINGER_SECONDS
            self.will_close = False
            return
        super().handle_close()

    def _stop_sending(self):
        """Send the client our FIN (after the response); whether done."""
        try:
            self.socket.shutdown(socket.SHUT_WR)
        except OSError:
            return False
        return True

    def readable(self):
        if self.linger_until is None:
            return super().readable()
        if time.monotonic() < self.linger_until:
            return True
        self.will_close = True   # time is up: the next turn closes
        return False

    def handle_read(self):
        if self.linger_until is None:
            return super().handle_read()
        # Discarded; the end of the input (or a reset) closes.
        self.recv(_LINGER_READ)


def _networks(addresses):
    return [ipaddress.ip_network(a, strict=False) for a in addresses]


class _Server(w_server.TcpWSGIServer):
    channel_class = _Channel
    draining = False
    socket_map = None     # the map given to waitress (ours)
    read_timeout = None   # [api]request_read_timeout
    per_client = 0        # [api]max_connections_per_client, 0: off
    uncapped = ()         # networks of [api]proxy_addresses
    lanes = ()            # admission.Lane, the first that fits

    def add_task(self, channel):
        """A channel's next request is ready: to the worker threads, or
        in its lane's line."""
        request = channel.requests[0] if channel.requests else None
        if request is not None:
            for lane in self.lanes:
                if lane.belongs(request):
                    if not lane.take(channel, request):
                        return   # in line
                    break
        super().add_task(channel)

    # -- hooks of several API processes (common/wsgi_shared.py) ---------

    def channel_opened(self, channel):
        pass

    def channel_closed(self, channel):
        pass

    def room_elsewhere(self, channel):
        """Whether another worker makes room for ``channel``'s address
        (one process: there is no other)."""
        return False

    def open_connections(self):
        """Client connections open now (metrics)."""
        return len(self.active_channels)

    def connection_count(self):
        """Open connections, counted as waitress does (its socket map)."""
        return len(self.socket_map)

    def connection_limit(self):
        """[api]max_connections, as connection_count counts."""
        return self.adj.connection_limit

    def same_address(self, channel):
        """The other open connections of ``channel``'s address."""
        host = channel.addr[0]
        return [c for c in self.active_channels.values()
                if c is not channel and c.addr and c.addr[0] == host
                and not c.will_close]

    def over_client_cap(self, channel):
        """Whether ``channel`` takes its address over the cap."""
        return self.client_cap_applies(channel) and len(
            self.same_address(channel)) >= self.per_client

    def client_cap_applies(self, channel):
        """Whether ``channel``'s address is capped at all."""
        host = channel.addr[0] if channel.addr else None
        if not self.per_client or not host:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return not any(address in net for net in self.uncapped)

    def maintenance(self, now):
        """waitress's idle timeout, then the read deadline: a request
        whose headers and body are not in after read_timeout seconds
        closes its connection, whatever trickled in meanwhile."""
        super().maintenance(now)
        if not self.read_timeout:
            return
        cutoff = time.monotonic() - self.read_timeout
        for channel in list(self.active_channels.values()):
            began = getattr(channel, 'read_began', None)
            if began is not None and began < cutoff and not (
                    channel.requests or channel.will_close):
                LOG.info('Closing a connection from %s: its request was '
                         'not received within [api]request_read_timeout '
                         '(%ss)', channel.addr[0], self.read_timeout)
                channel.will_close = True

    def readable(self):
        # Called once a turn of the event loop (at least once a second).
        for lane in self.lanes:
            lane.expire()
        # waitress stops accepting at the connection limit (counted in
        # its socket map, as here).  A client waiting to connect then
        # makes a connection close instead (_make_room).  It is marked,
        # not closed here: the loop is building its poll set from a copy
        # of the map, and the socket's number could be reused by an
        # accept in this very turn.  The next turn closes it (the
        # trigger wakes the loop), the one after accepts.
        if (self.accepting and not self.draining
                and self.connection_count() >= self.connection_limit()):
            if any(c.will_close for c in self.active_channels.values()):
                return False   # closing: accept once closed
            if self.someone_waits() and self._make_room():
                self.trigger.pull_trigger()
                return False
        return super().readable()

    def someone_waits(self):
        """Whether a connection waits to be accepted."""
        poller = select.poll()
        poller.register(self.socket, select.POLLIN)
        return bool(poller.poll(0))

    def _make_room(self):
        """Mark a connection to close for a newcomer: the one idle the
        longest, else the slowest still reading its request; whether
        one was."""
        channels = list(self.active_channels.values())
        victim = _longest_idle(channels)
        if victim is not None:
            LOG.debug('At [api]max_connections: closing the connection '
                      'idle longest, from %s', victim.addr[0])
        else:
            victim = _slowest_reader(channels)
            if victim is None:
                return False
            LOG.info('At [api]max_connections: closing the connection '
                     'from %s, still reading its request at %.0f bytes/s',
                     victim.addr[0], victim.read_rate(time.monotonic()))
        victim.will_close = True
        return True


def _longest_idle(channels):
    """Of ``channels``, the keep-alive connection idle the longest (None
    if all are busy)."""
    idle = [c for c in channels if not _busy(c)]
    return min(idle, key=lambda c: c.last_activity) if idle else None


def _slowest_reader(channels):
    """Of ``channels``, the one reading its request with the slowest
    progress (None if none has been reading for READ_GRACE seconds)."""
    now = time.monotonic()
    rates = [(rate, c.read_began, i, c) for i, c in enumerate(channels)
             for rate in [c.read_rate(now)] if rate is not None]
    return min(rates)[-1] if rates else None


def _busy(channel):
    """A connection with a request in progress, or data to send or read
    (not one that lingers after its last response)."""
    if channel.linger_until is not None:
        return False
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
                 max_connections=100, request_read_timeout=30,
                 max_connections_per_client=0, proxy_addresses=(),
                 lanes=(), sock=None, bounds=None):
        """``sock``: a listening socket to serve (a worker of several
        API processes) instead of binding host:port; ``bounds``: that
        worker's WorkerBounds (common/worker_bounds.py)."""
        self.name = name
        self.shutdown_timeout = shutdown_timeout
        shortest = min(client_socket_timeout,
                       request_read_timeout or client_socket_timeout)
        socket_map = {}
        server_class, listen = _Server, {}
        if sock is not None:
            from ironic_lite.common import wsgi_shared
            server_class = wsgi_shared.server_class(bounds)
            listen = {'_sock': sock, 'bind_socket': False}
        self.server = server_class(
            app, map=socket_map, host=host, port=port, threads=threads,
            channel_timeout=client_socket_timeout,
            cleanup_interval=max(1, min(30, shortest // 2)),
            # A worker's own waitress counts its listening socket and
            # trigger, and must not stop before the workers' sum does.
            connection_limit=max_connections + (0 if sock is None else 2),
            backlog=128,
            max_request_body_size=MAX_BODY_BYTES,
            # A response above waitress's default (1 MB: a detailed page
            # of 400 nodes) was spooled to a temporary file and read back;
            # the application holds the whole body in memory anyway.
            outbuf_overflow=OUTBUF_IN_MEMORY_BYTES,
            # waitress reads this option as an int: below 1 it is 0, a
            # poll() that returns at once, and the loop spins a core when
            # idle.  Work for the loop (stop's drain included) wakes it.
            asyncore_use_poll=True, asyncore_loop_timeout=1,
            clear_untrusted_proxy_headers=False, ident='ironic-lite',
            **listen)
        self.server.socket_map = socket_map
        self.server.read_timeout = request_read_timeout
        self.server.per_client = max_connections_per_client
        self.server.uncapped = _networks(proxy_addresses)
        for number, lane in enumerate(lanes):
            lane.dispatch = self.server.task_dispatcher.add_task
            if bounds is not None:
                lane.share(bounds, bounds.lane_cells(number))
        self.server.lanes = tuple(lanes)
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
        # What the kernel already queued for us is served, not reset
        # (at most a backlog's worth: each accept takes one).
        for _ in range(server.adj.backlog):
            if not server.someone_waits():
                break
            server.handle_accept()
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
        for channel in list(self.server.socket_map.values()):
            if channel is not self.server.trigger:
                channel.close()
        # With an empty socket map the event loop returns.
        self.server.trigger.close()

    def wait(self):
        if self._thread is not None:
            self._thread.join()
