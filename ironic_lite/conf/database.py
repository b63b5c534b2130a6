"""[database]: oslo.db's options, with ironic-lite's default connection.

ironic-lite adds no option of its own: its tables are always created
with InnoDB and utf8mb4 on MySQL (``db/models.py`` and the migrations),
so Ironic's ``[database]mysql_engine`` would be read by nothing.
"""

from oslo_db import options as db_options

_DEFAULT_CONNECTION = 'sqlite:///$state_path/ironic-lite.sqlite'


def register_opts(conf):
    db_options.set_defaults(conf, connection=_DEFAULT_CONNECTION)
