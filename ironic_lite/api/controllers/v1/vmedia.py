"""``/v1/nodes/<n>/vmedia``: attach (POST) and detach (DELETE) a virtual
media device (1.89), list the devices (GET, 1.93) -- through the
conductor (RPC 1.12; a pinned API refuses, 409, nothing sent).  Attach
and detach answer 204 once the conductor has locked the node; the BMC
work goes on there, a failure being the node's ``last_error``.
"""

from urllib import parse

import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api.schemas import vmedia as schema
from ironic_lite.common import exception


def _device_types(values):
    """Ironic's string_list: stripped, lower-cased, each once, in order;
    every one a virtual media device."""
    items = []
    for value in values:
        value = value.strip().lower()
        if value and value not in items:
            items.append(value)
    invalid = [item for item in items if item not in schema.DEVICES]
    if invalid:
        raise exception.Invalid(
            'Invalid device type(s) %s (valid are %s)'
            % (', '.join(invalid), ', '.join(schema.DEVICES)))
    return items


class NodeVmediaController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get(self):
        node = node_lookup.fetch_authorized('baremetal:node:vmedia:get',
                                            self.node_ident)
        return pecan.request.rpcapi.get_virtual_media(
            pecan.request.context, node)

    def post(self, body):
        scheme = parse.urlparse(body['image_url']).scheme
        if scheme not in schema.URL_SCHEMES:
            raise exception.Invalid(
                'Unsupported or missing URL scheme: %s' % scheme)
        node = node_lookup.fetch_authorized('baremetal:node:vmedia:attach',
                                            self.node_ident)
        pecan.request.rpcapi.attach_virtual_media(
            pecan.request.context, node, body['device_type'],
            body['image_url'],
            image_download_source=body.get('image_download_source',
                                           'local'))
        pecan.response.status = 204
        return ''

    def delete(self, device_types=None):
        if device_types is not None:
            device_types = _device_types(device_types)
        node = node_lookup.fetch_authorized('baremetal:node:vmedia:detach',
                                            self.node_ident)
        pecan.request.rpcapi.detach_virtual_media(
            pecan.request.context, node, device_types=device_types)
        pecan.response.status = 204
        return ''


V = '/v1/nodes/{node_ident}/vmedia'
H = NodeVmediaController
SINCE = mv.MINOR_89_ATTACH_DETACH_VMEDIA

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 207

ROUTES = [
    routes.Route('GET', V, H.get, since=mv.MINOR_93_GET_VMEDIA,
                 doc="a node's virtual media devices"),
    routes.Route('POST', V, H.post, body={SINCE: schema.ATTACH},
                 what='vmedia', since=SINCE, empty=True,
                 doc='attach a virtual media device'),
    routes.Route('DELETE', V, H.delete, query=schema.DETACH_QUERY,
                 since=SINCE, doc='detach virtual media devices'),
]
