"""``/v1/nodes/<n>/management/boot_device[/supported]``: the boot device
a node uses next, through the conductor (RPC 1.2; a pinned API refuses,
409); ``.../management/inject_nmi`` (1.29, RPC 1.6)."""

import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api import body_schema
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import management as schema


class NodeManagementController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get_boot_device(self):
        node = node_lookup.fetch_authorized('baremetal:node:get_boot_device',
                                            self.node_ident)
        return pecan.request.rpcapi.get_boot_device(pecan.request.context,
                                                    node)

    def set_boot_device(self, body):
        device = body['boot_device']
        persistent = body.get('persistent', False)
        node = node_lookup.fetch_authorized('baremetal:node:set_boot_device',
                                            self.node_ident)
        pecan.request.rpcapi.set_boot_device(pecan.request.context, node,
                                             device, persistent=persistent)
        pecan.response.status = 204
        return ''

    def supported(self):
        node = node_lookup.fetch_authorized('baremetal:node:get_boot_device',
                                            self.node_ident)
        return {'supported_boot_devices':
                pecan.request.rpcapi.get_supported_boot_devices(
                    pecan.request.context, node)}

    def inject_nmi(self, body=None):
        node = node_lookup.fetch_authorized('baremetal:node:inject_nmi',
                                            self.node_ident)
        pecan.request.rpcapi.inject_nmi(pecan.request.context, node)
        pecan.response.status = 204
        return ''


B = '/v1/nodes/{node_ident}/management/boot_device'
H = NodeManagementController

ROUTES = [
    routes.Route('GET', B, H.get_boot_device,
                 doc="a node's next boot device"),
    routes.Route('PUT', B, H.set_boot_device, body={1: schema.BOOT_DEVICE},
                 what=body_schema.ARGS, doc="set a node's next boot device"),
    routes.Route('GET', B + '/supported', H.supported,
                 doc='the boot devices it supports'),
    routes.Route('PUT', '/v1/nodes/{node_ident}/management/inject_nmi',
                 H.inject_nmi, since=mv.MINOR_29_INJECT_NMI,
                 body={mv.MINOR_29_INJECT_NMI: schema.INJECT_NMI},
                 what=body_schema.ARGS,
                 doc='inject a non-maskable interrupt (a crash dump)'),
]
