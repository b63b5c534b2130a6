"""All configuration options, registered on one global ``CONF``."""

from oslo_config import cfg

from ironic_lite.conf import api
from ironic_lite.conf import conductor
from ironic_lite.conf import database
from ironic_lite.conf import default

CONF = cfg.CONF

default.register_opts(CONF)
api.register_opts(CONF)
conductor.register_opts(CONF)
database.register_opts(CONF)
