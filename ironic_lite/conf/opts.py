"""Entry points for oslo-config-generator."""

import oslo_messaging

from ironic_lite.conf import api
from ironic_lite.conf import conductor
from ironic_lite.conf import database
from ironic_lite.conf import default


def list_opts():
    return [
        ('DEFAULT', default.opts),
        ('api', api.opts),
        ('conductor', conductor.opts),
        ('database', database.opts),
        ('fake', conductor.fake_opts),
    ]


def update_opt_defaults():
    oslo_messaging.set_transport_defaults(control_exchange='ironic')
