"""ironic-api: the REST API service.

One process when ``[api]api_workers`` is 1; otherwise a parent that
listens and supervises that many worker processes (common/workers.py),
the server's bounds shared among them (common/worker_bounds.py).
"""

import shutil
import sys
import tempfile

from ironic_lite.api import app
from ironic_lite.api import lanes
from ironic_lite.api import metrics as api_metrics
from ironic_lite.common import config
from ironic_lite.common import launcher
from ironic_lite.common import metrics
from ironic_lite.common import rpc
from ironic_lite.common import worker_bounds
from ironic_lite.common import workers
from ironic_lite.common import wsgi
from ironic_lite import conf
from ironic_lite.conf import api as api_conf
from ironic_lite.db import api as db_api
from ironic_lite import service_reporter

CONF = conf.CONF


def api_service(sock=None, bounds=None, processes=1):
    """The WSGI server; exits with a clear message if it cannot listen.
    ``sock`` and ``bounds``: a worker's (see wsgi.WSGIService), one of
    ``processes``."""
    try:
        service = wsgi.WSGIService(
            'ironic-api', app.setup_app(), CONF.api.host_ip, CONF.api.port,
            threads=CONF.api.threads,
            shutdown_timeout=CONF.graceful_shutdown_timeout,
            client_socket_timeout=CONF.api.client_socket_timeout,
            max_connections=CONF.api.max_connections,
            request_read_timeout=CONF.api.request_read_timeout,
            max_connections_per_client=api_conf.connections_per_client(CONF),
            proxy_addresses=CONF.api.proxy_addresses,
            lanes=lanes.server_lanes(processes), sock=sock, bounds=bounds)
    except OSError as err:
        sys.exit('ERROR: cannot listen on %s:%s ([api]host_ip, [api]port): '
                 '%s' % (CONF.api.host_ip, CONF.api.port, err.strerror or err))
    except ValueError as err:
        sys.exit('ERROR: [api]proxy_addresses: %s' % err)
    if api_metrics.enabled():
        api_metrics.provide_server(service)
    return service


def api_reporter():
    """The API's record in the services table: named host:port."""
    return service_reporter.ServiceReporter(
        'api', '%s:%s' % (CONF.host, CONF.api.port))


def serve_workers(count):
    """The parent of ``count`` API processes: it binds the socket and
    makes the shared bounds before the first fork, and nothing else
    (the workers open their own database and RPC connections)."""
    try:
        sock = workers.listen_socket(CONF.api.host_ip, CONF.api.port)
    except OSError as err:
        sys.exit('ERROR: cannot listen on %s:%s ([api]host_ip, [api]port): '
                 '%s' % (CONF.api.host_ip, CONF.api.port, err.strerror or err))
    bounds = worker_bounds.Bounds(
        count, CONF.api.max_connections,
        api_conf.connections_per_client(CONF),
        len(lanes.server_lanes(count)))

    shared_metrics = None
    if api_metrics.enabled():
        shared_metrics = tempfile.mkdtemp(prefix='ironic-api-metrics-')
        metrics.share_across_processes(shared_metrics)

    def run_worker(index):
        service = api_service(sock, bounds.worker(index), count)
        return launcher.serve([api_reporter(), service],
                              close=[db_api.reset])
    try:
        return workers.Supervisor(count, run_worker, sock).run()
    finally:
        if shared_metrics:
            shutil.rmtree(shared_metrics, ignore_errors=True)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    config.parse_args(argv, prog='ironic-api')
    rpc.check_remote_transport('ironic-api')
    rpc.poll_lazily()
    count = api_conf.worker_count(CONF)
    if count > 1:
        return serve_workers(count)
    return launcher.serve([api_reporter(), api_service()],
                          close=[db_api.reset])


if __name__ == '__main__':
    sys.exit(main())
