"""ironic-api: the REST API service."""

import sys

from ironic_lite.api import app
from ironic_lite.api import lanes
from ironic_lite.api import metrics as api_metrics
from ironic_lite.common import config
from ironic_lite.common import launcher
from ironic_lite.common import rpc
from ironic_lite.common import wsgi
from ironic_lite import conf
from ironic_lite.conf import api as api_conf
from ironic_lite.db import api as db_api
from ironic_lite import service_reporter

CONF = conf.CONF


def api_service():
    """The WSGI server; exits with a clear message if it cannot listen."""
    try:
        service = wsgi.WSGIService(
            'ironic-api', app.setup_app(), CONF.api.host_ip, CONF.api.port,
            threads=CONF.api.api_workers,
            shutdown_timeout=CONF.graceful_shutdown_timeout,
            client_socket_timeout=CONF.api.client_socket_timeout,
            max_connections=CONF.api.max_connections,
            request_read_timeout=CONF.api.request_read_timeout,
            max_connections_per_client=api_conf.connections_per_client(CONF),
            proxy_addresses=CONF.api.proxy_addresses,
            lanes=lanes.server_lanes())
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


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    config.parse_args(argv, prog='ironic-api')
    rpc.check_remote_transport('ironic-api')
    return launcher.serve([api_reporter(), api_service()],
                          close=[db_api.reset])


if __name__ == '__main__':
    sys.exit(main())
