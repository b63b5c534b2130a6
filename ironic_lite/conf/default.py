import os
import socket

from oslo_config import cfg

from ironic_lite.common import interfaces
from ironic_lite.common import release_mappings

opts = [
    cfg.StrOpt('host',
               default=socket.gethostname(),
               sample_default='localhost',
               help='Name of this node: the conductor host name (the RPC '
                    'server and the hash ring member) and the name an API '
                    'service reports itself with.'),
    cfg.StrOpt('pin_release_version',
               choices=release_mappings.pin_choices(),
               help='Used during a rolling upgrade: the release the '
                    'services of the deployment are to stay compatible '
                    'with.  While set, RPC messages, objects written to '
                    'the database and sent over RPC, and the API maximum '
                    'microversion follow that release.  Leave unset once '
                    'every service runs the new release.  "auto": follow '
                    'the oldest service alive in the services table '
                    '(its release, or its pin if pinned), re-read every '
                    'report_interval and on SIGHUP; the caps rise by '
                    'themselves once no older service is alive.  '
                    'Changing the option takes a restart.'),
    cfg.StrOpt('auth_strategy',
               default='noauth',
               choices=[('noauth', 'no authentication'),
                        ('http_basic', 'HTTP basic authentication against '
                                       'an htpasswd file'),
                        ('keystone', 'Keystone tokens, validated by '
                                     'keystonemiddleware (options in '
                                     '[keystone_authtoken])')],
               help='Authentication strategy used by ironic-api.'),
    cfg.BoolOpt('rbac_service_role_elevated_access',
                default=False,
                help='Give users with the "service" role in the project '
                     'named by rbac_service_project_name the access of a '
                     'system reader/member in the default policy (rule '
                     '"service_role"): they see the nodes of every '
                     'project and every shard, as Nova\'s and '
                     'networking-baremetal\'s service users need.  When '
                     'disabled, a service role request is limited to the '
                     'nodes its project owns.'),
    cfg.StrOpt('rbac_service_project_name',
               default='service',
               help='The name of the project of the service users (used '
                    'with rbac_service_role_elevated_access).'),
    cfg.StrOpt('http_basic_auth_user_file',
               default='/etc/ironic/htpasswd',
               help='Path to the Apache format user authentication file '
                    'used when auth_strategy=http_basic.'),
    cfg.StrOpt('state_path',
               default=os.path.join(
                   os.environ.get('XDG_STATE_HOME')
                   or os.path.join(os.path.expanduser('~'), '.local',
                                   'state'), 'ironic-lite'),
               sample_default='$HOME/.local/state/ironic-lite',
               help='Top-level directory for the service state (the '
                    'default SQLite database lives here).  By default '
                    'ironic-lite under $XDG_STATE_HOME, or under '
                    '$HOME/.local/state when XDG_STATE_HOME is not set.'),
    cfg.BoolOpt('debug_tracebacks_in_api',
                default=False,
                help='Return server tracebacks in API error responses.'),
    cfg.IntOpt('hash_ring_reset_interval',
               default=15, min=1,
               help='Seconds a service keeps its hash rings before it '
                    'rebuilds them from the conductors table.  A '
                    'conductor that stops keeps serving this long (plus '
                    'one second) after it has left the rings.'),
    cfg.IntOpt('report_interval',
               default=10, min=1,
               help='Seconds between two reports of a running ironic-api '
                    'or ironic-conductor in the services table: its '
                    'heartbeat, with its release and pin.'),
    cfg.IntOpt('service_down_time',
               default=60, min=1,
               help='A service that has not reported for this many seconds '
                    'is considered stopped by ironic-status and by the '
                    'start-up checks.  Keep it well above '
                    'report_interval.'),
    cfg.BoolOpt('allow_unsafe_unpin',
                default=False,
                help='Let a service start with no pin_release_version '
                     'while services of an older release are still alive. '
                     'Unsafe: the older services cannot read what the '
                     'unpinned one writes or sends.  Meant only for '
                     'recovering from a stale services table.'),
    cfg.IntOpt('log_in_db_max_size',
               default=4096, min=256,
               help='Max number of characters of any node last_error/'
                    'maintenance_reason (and allocation last_error) pushed '
                    'to the database; the same bound applies to a BMC\'s '
                    'error text in the service log.  Credentials found in '
                    'such a text are masked as well.'),
    cfg.StrOpt('rpc_transport',
               default='oslo',
               choices=[('oslo', 'oslo.messaging ([DEFAULT]transport_url: '
                                 'RabbitMQ)'),
                        ('json-rpc', 'JSON-RPC over HTTP straight to the '
                                     'conductor, no message broker '
                                     '(options in [json_rpc])'),
                        ('none', 'no RPC: the conductor of this same '
                                 'process only (the all-in-one ironic '
                                 'command)')],
               help='How the API services reach the conductors (Ironic\'s '
                    'option).  The API and conductor services of a '
                    'deployment must use the same one.'),
    cfg.IntOpt('graceful_shutdown_timeout',
               default=60,
               help='Seconds a service may take to stop when it is asked '
                    'to (SIGTERM): the work in flight it waits for, the '
                    'drain of a conductor and its last database writes '
                    'included.  A stop still unfinished then ends the '
                    'process with exit code 3.  0: no bound.'),
]

# Ironic's [DEFAULT] driver options: the hardware types a conductor loads,
# and per interface the implementations it enables and the one a node gets
# when it names none (drivers/factory.py applies Ironic's rules).
enabled_hardware_types_opt = cfg.ListOpt(
    'enabled_hardware_types', default=['fake-hardware'],
    deprecated_group='conductor',
    help='Hardware types this conductor loads: fake-hardware and redfish '
         'are available.  A hardware type listed here that this code does '
         'not have keeps ironic-conductor from starting.  (Ironic\'s '
         'default is "ipmi,redfish"; ironic-lite has no ipmi hardware '
         'type.  Until 7.0 also read from [conductor], deprecated.)')

# Ironic's defaults of enabled_<interface>_interfaces.  Names ironic-lite
# does not implement (ipxe, direct, ipmitool ...) are ignored (with a
# warning when the operator sets them).  "fake" is added where Ironic's
# default lacks it: ironic-lite enables fake-hardware by default, whose
# boot, deploy, inspect, raid and vendor interfaces are the fake ones.
# None (Ironic's for management and power): the first implementation
# each enabled hardware type supports.
ENABLED_DEFAULTS = {
    'bios': ['no-bios', 'redfish'],
    'boot': ['ipxe', 'pxe', 'redfish-virtual-media', 'fake'],
    'console': ['no-console'],
    'deploy': ['autodetect', 'direct', 'ramdisk', 'bootc', 'fake'],
    # Ironic's default (release 6.0, API 1.86): a node gets "fake" or
    # "redfish" only where the operator enables it.
    'firmware': ['no-firmware'],
    'inspect': ['no-inspect', 'redfish', 'fake'],
    'management': None,
    'network': ['flat', 'noop'],
    'power': None,
    'raid': ['agent', 'no-raid', 'redfish', 'fake'],
    'rescue': ['no-rescue'],
    'storage': ['cinder', 'noop'],
    'vendor': ['ipmitool', 'redfish', 'no-vendor', 'fake'],
}

_ENABLED_IFACE_HELP = (
    'The {0} interfaces this service loads (Ironic\'s option).  A node '
    'may only name one of these, and one its hardware type supports; one '
    'that names none gets default_{0}_interface, else the first of its '
    'hardware type\'s supported {0} interfaces that is enabled here.  '
    'Every enabled hardware type must find one here, or ironic-conductor '
    'does not start.  Unset or empty: the first {0} interface of each '
    'enabled hardware type.  Names ironic-lite does not implement are '
    'ignored, with a warning at start.  Keep it the same on every '
    'service.')

_DEFAULT_IFACE_HELP = (
    'Default {0} interface of the nodes created without {0}_interface '
    '(or whose interfaces a change of driver resets).  Unset: the first '
    'of the hardware type\'s supported {0} interfaces that is in '
    'enabled_{0}_interfaces.  It must be enabled, and supported by every '
    'hardware type of enabled_hardware_types, or ironic-conductor does '
    'not start.  Keep it the same on every service (GET /v1/drivers shows '
    'the API service\'s).')


def _interface_opts():
    found = [enabled_hardware_types_opt]
    for iface in interfaces.ALL_INTERFACES:
        found.append(cfg.ListOpt(
            'enabled_%s_interfaces' % iface,
            default=ENABLED_DEFAULTS[iface],
            help=_ENABLED_IFACE_HELP.format(iface)))
        # Ironic's default: none but storage's "noop".
        found.append(cfg.StrOpt(
            'default_%s_interface' % iface,
            default='noop' if iface == 'storage' else None,
            help=_DEFAULT_IFACE_HELP.format(iface)))
    return found


interface_opts = _interface_opts()


def register_opts(conf):
    conf.register_opts(opts)
    conf.register_opts(interface_opts)
