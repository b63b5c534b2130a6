"""Options of ``[redfish]``: how the redfish hardware type reaches BMCs.

The names and meanings are Ironic's; the defaults too, so that a
production BMC that answers slowly is not given up on early.  Tests set
them small so that an unreachable BMC fails fast.
"""

from oslo_config import cfg

opts = [
    cfg.IntOpt('connection_attempts', min=1, default=5,
               help='Maximum number of attempts to try to connect to '
                    'Redfish.'),
    cfg.IntOpt('connection_retry_interval', min=1, default=4,
               help='Number of seconds to wait between attempts to connect '
                    'to Redfish.'),
    cfg.IntOpt('connect_timeout', min=1, default=30,
               help='TCP connection timeout in seconds when connecting to '
                    'the Redfish BMC.  A lower value makes an unreachable '
                    'BMC fail sooner.'),
    cfg.IntOpt('read_timeout', min=1, default=60,
               help='HTTP read timeout in seconds when waiting for an '
                    'answer of the Redfish BMC.  It also bounds how long a '
                    'conductor worker waits for a connected BMC that does '
                    'not answer.'),
    cfg.IntOpt('connection_cache_size', min=0, default=1000,
               help='Maximum number of Redfish client connections (one per '
                    'BMC address and credentials) kept for reuse; the '
                    'oldest is dropped beyond it.  0 disables the cache.'),
    cfg.StrOpt('auth_type', default='auto',
               choices=[('basic', 'Use HTTP basic authentication'),
                        ('session', 'Use HTTP session authentication'),
                        ('auto', 'Try HTTP session authentication first, '
                                 'fall back to basic HTTP authentication')],
               help='Redfish HTTP client authentication method.'),
    cfg.IntOpt('boot_mode_config_timeout', min=0, default=900,
               help='Seconds to wait for a boot mode change to show on the '
                    'BMC (some apply it only at the next boot); 0 does not '
                    'wait.'),
    # Ironic's names and defaults; the firmware interface's update step
    # (release 6.0) waits in its worker for the BMC's update task.
    cfg.IntOpt('firmware_update_bmc_timeout', min=0, default=300,
               help='Seconds the firmware update step waits for the BMC '
                    'to finish updating its own firmware (a setting\'s '
                    '"wait" overrides it).'),
    cfg.IntOpt('firmware_update_reboot_delay', min=0, default=300,
               help='Seconds the firmware update step waits for the BMC '
                    'to finish updating the firmware of another component '
                    '(the BIOS; a setting\'s "wait" overrides it) before '
                    'it goes on -- rebooting the node after a BIOS image.'),
]


def register_opts(conf):
    conf.register_opts(opts, group='redfish')
