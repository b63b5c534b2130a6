"""Entry points for oslo-config-generator."""

from oslo_config import cfg
from oslo_middleware import sizelimit
import oslo_messaging
from oslo_policy import opts as policy_opts

from ironic_lite import conf as ir_conf
from ironic_lite.conf import api
from ironic_lite.conf import conductor
from ironic_lite.conf import default
from ironic_lite.conf import healthcheck
from ironic_lite.conf import inspection_rules
from ironic_lite.conf import json_rpc
from ironic_lite.conf import metrics
from ironic_lite.conf import redfish


def list_opts():
    return [
        ('DEFAULT', default.opts + default.interface_opts),
        ('api', api.opts),
        ('conductor', conductor.opts),
        ('fake', conductor.fake_opts),
        ('healthcheck', healthcheck.opts),
        ('inspection_rules', inspection_rules.opts),
        ('json_rpc', json_rpc.list_opts()),
        ('metrics', metrics.opts),
        ('redfish', redfish.opts),
    ]


def update_opt_defaults():
    oslo_messaging.set_transport_defaults(control_exchange='ironic')
    healthcheck.set_defaults()
    cfg.set_defaults(sizelimit.OPTS, max_request_body_size=(
        ir_conf.DEFAULT_MAX_REQUEST_BODY_SIZE))
    policy_opts.set_defaults(cfg.CONF, enforce_scope=True,
                             enforce_new_defaults=True)
