"""Options of ``[json_rpc]`` (Ironic's names and defaults): the JSON-RPC
transport between API and conductors (``[DEFAULT]rpc_transport =
json-rpc``, common/json_rpc_client.py and json_rpc_server.py).

Ironic registers keystoneauth's session and auth options in this group
too; ironic-lite implements the ones its HTTP client uses (TLS files,
``insecure``, ``timeout``, and ``username``/``password`` for HTTP basic
authentication).  The others are named at start as not implemented.
"""

from oslo_config import cfg

# Ironic's default port: a conductor on another port carries it in its
# host name ("<host>:<port>"), so that the API finds it.
DEFAULT_PORT = 8089

opts = [
    cfg.StrOpt('auth_strategy',
               choices=[('noauth', 'no authentication'),
                        ('keystone', 'not implemented by ironic-lite'),
                        ('http_basic', 'HTTP basic authentication')],
               help='Authentication strategy used by JSON RPC.  Defaults to '
                    'the global auth_strategy setting.  ironic-lite '
                    'implements noauth and http_basic.'),
    cfg.StrOpt('http_basic_auth_user_file',
               default='/etc/ironic/htpasswd-json-rpc',
               help='Path to the Apache format (bcrypt) user '
                    'authentication file the conductor checks callers '
                    'against when auth_strategy=http_basic.'),
    cfg.HostAddressOpt('host_ip',
                       default='::',
                       help='The IP address or hostname on which the '
                            'conductor\'s JSON RPC server listens.'),
    cfg.PortOpt('port',
                default=DEFAULT_PORT,
                help='The port to use for JSON RPC.  A conductor on '
                     'another port than 8089 registers itself as '
                     '"<host>:<port>".'),
    cfg.BoolOpt('use_ssl',
                default=False,
                help='Whether to use TLS for JSON RPC.  ironic-lite\'s '
                     'conductor does not terminate TLS itself and refuses '
                     'to start with this set: put a TLS proxy in front of '
                     'it and set client_use_ssl on the API services.'),
    cfg.BoolOpt('client_use_ssl',
                default=False,
                help='Set to True to force TLS connections in the client '
                     'even if use_ssl is set to False (server-side TLS '
                     'provided by a reverse proxy).'),
    cfg.StrOpt('cafile',
               help='PEM encoded Certificate Authority to use when '
                    'verifying HTTPs connections.'),
    cfg.StrOpt('certfile',
               help='PEM encoded client certificate cert file.'),
    cfg.StrOpt('keyfile',
               help='PEM encoded client certificate key file.'),
    cfg.BoolOpt('insecure',
                default=False,
                help='Do not verify the conductors\' HTTPS certificates.'),
    cfg.FloatOpt('timeout',
                 help='Timeout value for http requests; unset: '
                      '[DEFAULT]rpc_response_timeout.'),
    cfg.Opt('username',
            help='Username for HTTP basic authentication to the '
                 'conductors.'),
    cfg.Opt('password', secret=True,
            help='Password for HTTP basic authentication to the '
                 'conductors.'),
]


def register_opts(conf):
    conf.register_opts(opts, group='json_rpc')


def auth_strategy(conf):
    """The strategy in force: ``[json_rpc]auth_strategy``, else
    ``[DEFAULT]auth_strategy`` (as Ironic)."""
    return conf.json_rpc.auth_strategy or conf.auth_strategy
