"""A threaded WSGI server (cheroot) with a graceful stop."""

import threading

from cheroot import wsgi as cheroot_wsgi
from oslo_log import log as logging

LOG = logging.getLogger(__name__)


class WSGIService(object):
    """Serves a WSGI app on host:port in a background thread.

    ``stop()`` closes the listening socket first (new connections are
    refused, so a load balancer moves on to another API) and then lets the
    requests in flight finish, up to ``shutdown_timeout`` seconds.
    """

    def __init__(self, name, app, host, port, threads=8,
                 shutdown_timeout=60):
        self.name = name
        self.server = cheroot_wsgi.Server((host, port), app,
                                          numthreads=threads,
                                          server_name=name,
                                          shutdown_timeout=shutdown_timeout)
        self._thread = None

    @property
    def bound_port(self):
        return self.server.bind_addr[1]

    def start(self):
        self.server.prepare()
        host, port = self.server.bind_addr[:2]
        LOG.info('%s serving on http://%s:%s', self.name, host, port)
        self._thread = threading.Thread(target=self.server.serve,
                                        name=self.name, daemon=True)
        self._thread.start()

    def stop(self):
        LOG.info('%s stopping: finishing requests in flight', self.name)
        self.server.stop()

    def wait(self):
        if self._thread is not None:
            self._thread.join()
