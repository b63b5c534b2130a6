"""A threaded WSGI server with a graceful stop that drops no request.

Stopping an API behind a load balancer must not reset a connection the
server has already accepted: the client may have sent its request on it,
and cannot tell whether it was carried out.  So ``stop()``:

1. stops the accept loop;
2. accepts every connection already waiting in the kernel's backlog;
3. closes the listening socket -- from now on connections are refused,
   and a load balancer (or our round-robin client) goes to another API;
4. serves every accepted connection to the end, up to ``shutdown_timeout``
   seconds.

Requests run in a pool of ``threads`` workers; each connection carries one
request (the response says ``Connection: close``), so a worker is never
held by an idle keep-alive connection.
"""

from concurrent import futures
import socket
import threading
from wsgiref import simple_server

from oslo_log import log as logging

LOG = logging.getLogger(__name__)


class _Handler(simple_server.WSGIRequestHandler):
    def log_message(self, format, *args):
        LOG.debug('%s %s', self.address_string(), format % args)

    def get_stderr(self):
        return _LogWriter()


class _LogWriter(object):
    def write(self, text):
        LOG.error(text.rstrip())

    def flush(self):
        pass


class _Server(simple_server.WSGIServer):
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, app, threads):
        super().__init__(address, _Handler)
        self.set_app(app)
        self.pool = futures.ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix='wsgi')

    def process_request(self, request, client_address):
        self.pool.submit(self._serve, request, client_address)

    def _serve(self, request, client_address):
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)

    def handle_error(self, request, client_address):
        LOG.exception('Error serving a request from %s', client_address)


class WSGIService(object):
    """Serves a WSGI app on host:port in a background thread."""

    def __init__(self, name, app, host, port, threads=8,
                 shutdown_timeout=60):
        self.name = name
        self.shutdown_timeout = shutdown_timeout
        self.server = _Server((host, port), app, threads)
        self._thread = None

    @property
    def bound_port(self):
        return self.server.server_address[1]

    def start(self):
        host, port = self.server.server_address[:2]
        LOG.info('%s serving on http://%s:%s', self.name, host, port)
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={'poll_interval': 0.2},
            name=self.name, daemon=True)
        self._thread.start()

    def stop(self):
        LOG.info('%s stopping: finishing requests in flight', self.name)
        self.server.shutdown()
        self._drain_backlog()
        self.server.socket.close()
        # Every accepted connection is queued or running in the pool.
        waiter = threading.Thread(target=self.server.pool.shutdown,
                                  kwargs={'wait': True}, daemon=True)
        waiter.start()
        waiter.join(self.shutdown_timeout)
        if waiter.is_alive():
            LOG.warning('%s stopped with requests still running after %ss',
                        self.name, self.shutdown_timeout)

    def _drain_backlog(self):
        """Accept (and serve) what the kernel already queued for us."""
        sock = self.server.socket
        sock.setblocking(False)
        while True:
            try:
                request, address = sock.accept()
            except (BlockingIOError, socket.timeout, OSError):
                return
            request.setblocking(True)
            self.server.process_request(request, address)

    def wait(self):
        if self._thread is not None:
            self._thread.join()
