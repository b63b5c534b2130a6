"""All configuration options, registered on one global ``CONF``."""

from oslo_config import cfg
from oslo_middleware import sizelimit
from oslo_policy import opts as policy_opts

from ironic_lite.conf import api
from ironic_lite.conf import conductor
from ironic_lite.conf import database
from ironic_lite.conf import default
from ironic_lite.conf import healthcheck
from ironic_lite.conf import inspection_rules
from ironic_lite.conf import json_rpc
from ironic_lite.conf import metrics
from ironic_lite.conf import redfish

CONF = cfg.CONF

default.register_opts(CONF)
api.register_opts(CONF)
conductor.register_opts(CONF)
database.register_opts(CONF)
healthcheck.register_opts(CONF)
inspection_rules.register_opts(CONF)
json_rpc.register_opts(CONF)
metrics.register_opts(CONF)
redfish.register_opts(CONF)

# The request body size limit (oslo.middleware's sizelimit), in
# [oslo_middleware]: 1 MiB unless configured, rather than the library's
# 112 KiB, so that a node's documents and a config drive fit.
DEFAULT_MAX_REQUEST_BODY_SIZE = 1024 * 1024
cfg.set_defaults(sizelimit.OPTS,
                 max_request_body_size=DEFAULT_MAX_REQUEST_BODY_SIZE)
CONF.register_opts(sizelimit.OPTS, group='oslo_middleware')

# Secure RBAC as Ironic 39: scoped tokens and the new policy defaults are
# enforced unless the operator turns it off in [oslo_policy].
policy_opts.set_defaults(CONF, enforce_scope=True, enforce_new_defaults=True)
