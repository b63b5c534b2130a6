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


def register_opts(conf):
    conf.register_opts(opts, group='healthcheck')
    # oslo.middleware's own ([healthcheck]detailed, backends,
    # disable_by_file_path ...), as Ironic registers them.
    for opt_list in (hc_opts.HEALTHCHECK_OPTS, hc_opts.DISABLE_BY_FILE_OPTS,
                     hc_opts.DISABLE_BY_FILES_OPTS,
                     hc_opts.ENABLE_BY_FILES_OPTS):
        conf.register_opts(opt_list, group='healthcheck')
