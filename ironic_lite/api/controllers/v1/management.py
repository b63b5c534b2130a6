"""``/v1/nodes/<n>/management/boot_device[/supported]``: the boot device
a node uses next, through the conductor (RPC 1.2; a pinned API refuses,
409)."""

import pecan

from ironic_lite.api.controllers import base
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import utils


class NodeManagementController(base.RoutedController):
    ROUTES = (
        ('GET', ('boot_device',), 'get_boot_device'),
        ('PUT', ('boot_device',), 'set_boot_device'),
        ('GET', ('boot_device', 'supported'), 'supported'),
    )

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_boot_device(self, **kwargs):
        node = node_lookup.fetch_authorized('baremetal:node:get_boot_device',
                                            self.node_ident)
        return pecan.request.rpcapi.get_boot_device(pecan.request.context,
                                                    node)

    @pecan.expose(content_type='application/json')
    def set_boot_device(self, **kwargs):
        body = utils.json_body()    # checked by api/schemas/management.py
        device = body['boot_device']
        persistent = body.get('persistent', False)
        node = node_lookup.fetch_authorized('baremetal:node:set_boot_device',
                                            self.node_ident)
        pecan.request.rpcapi.set_boot_device(pecan.request.context, node,
                                             device, persistent=persistent)
        pecan.response.status = 204
        return ''

    @pecan.expose('json')
    def supported(self, **kwargs):
        node = node_lookup.fetch_authorized('baremetal:node:get_boot_device',
                                            self.node_ident)
        return {'supported_boot_devices':
                pecan.request.rpcapi.get_supported_boot_devices(
                    pecan.request.context, node)}
