"""Options of ``[json_rpc]`` (Ironic's names and defaults): the JSON-RPC
transport between API and conductors (``[DEFAULT]rpc_transport =
json-rpc``, common/json_rpc_client.py and json_rpc_server.py).

keystoneauth's session and auth options are registered in this group
too, as Ironic does: with ``auth_strategy = keystone`` the API services
take a token with them (``auth_type``, ``auth_url``, ``username``...),
and with ``http_basic`` they send ``username`` and ``password``; the TLS
files, ``insecure`` and ``timeout`` serve every strategy.
"""

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

# Ironic's default port: a conductor on another port carries it in its
# host name ("<host>:<port>"), so that the API finds it.
DEFAULT_PORT = 8089
# keystoneauth's plugin when [json_rpc]auth_type is unset (Ironic makes
# it the option's default).
DEFAULT_AUTH_TYPE = 'password'

opts = [
    cfg.StrOpt('auth_strategy',
               choices=[('noauth', 'no authentication'),
                        ('keystone', 'Keystone tokens, checked by '
                                     'keystonemiddleware, and one of '
                                     'allowed_roles'),
                        ('http_basic', 'HTTP basic authentication')],
               help='Authentication strategy used by JSON RPC.  Defaults to '
                    'the global auth_strategy setting.'),
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
    cfg.ListOpt('allowed_roles',
                default=['admin'],
                help='List of roles allowed to use JSON RPC when '
                     'auth_strategy is keystone: the caller\'s token must '
                     'carry at least one of them.'),
]


def _optional(opt):
    """``opt`` not required: keystoneauth marks a plugin's essential
    options required, which only means something once that plugin is
    chosen (and checked then, when the plugin is loaded)."""
    opt.required = False
    return opt


def keystone_opts():
    """keystoneauth's options in ``[json_rpc]``, as Ironic registers
    them: the session's (TLS files, ``insecure``, ``timeout``...), the
    plugin's name (``auth_type``) and the options of its default plugin,
    ``password`` (``auth_url``, ``username``, ``password``,
    ``project_name``, the domains...).  Another plugin's own options are
    registered when it is loaded (common/json_rpc_keystone.py)."""
    return ([_optional(o) for o in ks_loading.get_session_conf_options()]
            + [o for o in ks_loading.get_auth_common_conf_options()
               if o.dest == 'auth_type']
            + [_optional(o) for o in
               ks_loading.get_auth_plugin_conf_options(DEFAULT_AUTH_TYPE)])


def list_opts():
    """Every option of the group, for the sample and the docs."""
    return opts + keystone_opts()


def register_opts(conf):
    conf.register_opts(list_opts(), group='json_rpc')


def auth_strategy(conf):
    """The strategy in force: ``[json_rpc]auth_strategy``, else
    ``[DEFAULT]auth_strategy`` (as Ironic)."""
    return conf.json_rpc.auth_strategy or conf.auth_strategy
