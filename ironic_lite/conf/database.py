from oslo_config import cfg
from oslo_db import options as db_options

opts = [
    cfg.StrOpt('mysql_engine', default='InnoDB',
               help='MySQL engine to use.'),
]

_DEFAULT_CONNECTION = 'sqlite:///$state_path/ironic-lite.sqlite'


def register_opts(conf):
    conf.register_opts(opts, group='database')
    db_options.set_defaults(conf, connection=_DEFAULT_CONNECTION)
