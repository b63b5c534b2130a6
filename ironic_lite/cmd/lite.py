"""ironic-lite (also ``ironic``, Ironic's name for its all-in-one
command): API and conductor in one process (the embedded default).

Unless configured otherwise it uses SQLite under ``[DEFAULT]/state_path``
and the in-process ``fake://`` transport, listens on 127.0.0.1 only (it
has no authentication by default), and it brings the database schema up
to date at start, so it runs with no setup at all.  ``--host`` and
``--port`` choose where the API listens, ``--state-path`` where the state
is kept, without a configuration file.
"""

import os
import sys

from oslo_config import cfg

from ironic_lite.cmd import api
from ironic_lite.common import config
from ironic_lite.common import launcher
from ironic_lite.common import metrics
from ironic_lite.common import rpc
from ironic_lite import conf
from ironic_lite.conductor import manager
from ironic_lite.conductor import rpc_service
from ironic_lite.db import api as db_api
from ironic_lite.db import migration
from ironic_lite import service_reporter

CONF = conf.CONF

# The embedded default serves no one but this machine unless told to.
DEFAULT_HOST_IP = '127.0.0.1'
CLI_OPTS = [
    cfg.HostAddressOpt('host', dest='listen_host', metavar='ADDRESS',
                       help='The address the API listens on (overrides '
                            '[api]host_ip; default %s).' % DEFAULT_HOST_IP),
    cfg.PortOpt('port', dest='listen_port', metavar='PORT',
                help='The TCP port the API listens on (overrides '
                     '[api]port; default 6385).'),
    cfg.StrOpt('state-path', dest='cli_state_path', metavar='DIR',
               help='The directory of the service state, the SQLite '
                    'database of the embedded default included '
                    '(overrides [DEFAULT]state_path).'),
]


def _cli_overrides():
    """The command line's --host, --port and --state-path win."""
    for name, opt, group in (('listen_host', 'host_ip', 'api'),
                             ('listen_port', 'port', 'api'),
                             ('cli_state_path', 'state_path', None)):
        value = CONF[name]
        if value is not None:
            CONF.set_override(opt, value, group=group)


def _prog():
    """The command's name: ``ironic`` or ``ironic-lite``."""
    name = os.path.basename(sys.argv[0] if sys.argv else '')
    return name if name in ('ironic', 'ironic-lite') else 'ironic-lite'


def parse_args(argv):
    """Parse ironic-lite's command line and configuration files."""
    rpc.set_default_transport_url('fake://')
    CONF.set_default('host_ip', DEFAULT_HOST_IP, group='api')
    if 'listen_host' not in CONF:
        CONF.register_cli_opts(CLI_OPTS)
    config.parse_args(argv, prog=_prog(), overrides=_cli_overrides)
    rpc.use_in_process()
    rpc.set_conductor_host()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parse_args(argv)
    migration.upgrade()
    conductor = rpc_service.RPCService(manager.ConductorManager())
    # The conductor starts first and stops last: the API never routes a
    # request to a conductor that is not listening.  Each is recorded in
    # the services table before it starts and marked offline after it
    # stops.
    listener = metrics.conductor_listener('ironic-lite')
    return launcher.serve([
        service_reporter.ServiceReporter('conductor', conductor.host),
        conductor,
        api.api_reporter(), api.api_service()]
        + ([listener] if listener else []), close=[db_api.reset])


if __name__ == '__main__':
    sys.exit(main())
