"""Options of ``[healthcheck]`` (Ironic's), besides oslo.middleware's."""

from oslo_config import cfg
from oslo_middleware.healthcheck import opts as hc_opts

opts = [
    cfg.BoolOpt('enabled', default=False,
                help='Enable the health check endpoint at /healthcheck. '
                     'Note that this is unauthenticated. More information '
                     'is available at '
                     'https://docs.openstack.org/oslo.middleware/latest/'
                     'reference/healthcheck_plugins.html.'),
]


# ironic-lite's own health check backends (oslo.middleware plugins,
# setup.cfg's oslo.middleware.healthcheck entry points): the default of
# [healthcheck]backends.  An operator who sets the option lists them
# beside the others (e.g. "ironic_lite_draining, ironic_lite_database,
# disable_by_file").
DEFAULT_BACKENDS = ['ironic_lite_draining', 'ironic_lite_database']


def register_opts(conf):
    conf.register_opts(opts, group='healthcheck')
    # oslo.middleware's own ([healthcheck]detailed, backends,
    # disable_by_file_path ...), as Ironic registers them.
    for opt_list in (hc_opts.HEALTHCHECK_OPTS, hc_opts.DISABLE_BY_FILE_OPTS,
                     hc_opts.DISABLE_BY_FILES_OPTS,
                     hc_opts.ENABLE_BY_FILES_OPTS):
        conf.register_opts(opt_list, group='healthcheck')
    set_defaults()


def set_defaults():
    """ironic-lite's defaults of oslo.middleware's [healthcheck] options
    (also for the sample configuration, through conf/opts.py)."""
    cfg.set_defaults(hc_opts.HEALTHCHECK_OPTS, backends=DEFAULT_BACKENDS)
