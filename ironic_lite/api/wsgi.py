"""The API as a WSGI application, for uwsgi, gunicorn, mod_wsgi ...

``ironic_lite.api.wsgi:application`` is ironic-api's application with the
configuration read at import time, as ``ironic-api`` reads it:

* ``IRONIC_LITE_CONFIG``: the configuration files to read, separated by
  commas (later files win), for example
  ``/etc/ironic/ironic.conf,/etc/ironic/api-1.conf``;
* when it is not set, the usual places, as every command reads them: the
  first ``ironic.conf`` of ``~/.ironic/``, ``~/``, ``/etc/ironic/`` and
  ``/etc/``, and the files of ``/etc/ironic/ironic.conf.d/``.

The server's own command line (``sys.argv`` of uwsgi or gunicorn) is not
parsed.  The HTTP server, its threads and timeouts are then the WSGI
server's business; ``[api]host_ip``, ``[api]port``, ``[api]api_workers``,
``[api]threads``, ``[api]client_socket_timeout``,
``[api]request_read_timeout``, ``[api]max_connections``,
``[api]max_connections_per_client`` and ``[api]proxy_addresses`` are not
used.
"""

import os

from ironic_lite.api import app
from ironic_lite.common import config

CONFIG_ENV = 'IRONIC_LITE_CONFIG'


def config_files(environ=None):
    """The configuration files named by ``IRONIC_LITE_CONFIG``, or None
    (the usual places)."""
    value = (os.environ if environ is None else environ).get(CONFIG_ENV)
    if not value:
        return None
    return [path.strip() for path in value.split(',') if path.strip()]


def initialize_wsgi_app(argv=None):
    """Parse the configuration (not the command line); the application."""
    config.parse_args([] if argv is None else argv, prog='ironic-api-wsgi',
                      default_config_files=config_files())
    return app.setup_app()


application = initialize_wsgi_app()
