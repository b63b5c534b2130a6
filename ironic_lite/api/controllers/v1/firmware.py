"""``/v1/nodes/<n>/firmware`` (1.86): the node's firmware components, as
its conductor last stored them (``conductor/firmware.py``); read only.

Ironic's body: ``{"firmware": [{component, initial_version,
current_version, last_version_flashed, created_at, updated_at}]}``; from
1.114 each also has ``vendor``, ``model`` and ``serial_number`` (which
``?fields=`` may not name below it).  ``?fields=`` picks fields (the times
are always there); ``?detail=true`` -- as Ironic answers it -- the times
only.  Policy ``baremetal:node:firmware:get``, checked against the node as
Ironic does.
"""

import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api.schemas import firmware as schema
from ironic_lite.common import exception
from ironic_lite import objects

RULE = 'baremetal:node:firmware:get'
DEFAULT_FIELDS = ('component', 'initial_version', 'current_version',
                  'last_version_flashed')
IDENTITY_FIELDS = ('vendor', 'model', 'serial_number')
_TIMES = ('created_at', 'updated_at')


def render(component, fields):
    """A component's body: its times and ``fields``."""
    body = {name: resource.isotime(getattr(component, name))
            for name in _TIMES}
    for name in fields:
        if name not in _TIMES:
            body[name] = getattr(component, name)
    return body


def _list_fields(fields, detail):
    """The fields each component shows (Ironic's
    ``get_request_return_fields``, with its 1.114 check)."""
    fields = utils.check_fields(fields, schema.SELECTABLE_FIELDS)
    if utils.allows(mv.MINOR_114_FIRMWARE_IDENTITY):
        default = DEFAULT_FIELDS + IDENTITY_FIELDS
    else:
        default = DEFAULT_FIELDS
        early = sorted(set(fields or ()) & set(IDENTITY_FIELDS))
        if early:
            raise exception.InvalidParameterValue(
                err='Fields %s are not allowed in this API version. They '
                    'require at least API version 1.%d.'
                    % (', '.join(early), mv.MINOR_114_FIRMWARE_IDENTITY))
    if utils.get_detail(detail, fields):
        return ()
    return default if fields is None else fields


class NodeFirmwareController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get_all(self, fields=None, detail=None):
        node = node_lookup.fetch_authorized(RULE, self.node_ident)
        fields = _list_fields(fields, detail)
        components = objects.FirmwareComponentList.get_by_node_id(
            pecan.request.context, node.id)
        return {'firmware': [render(c, fields) for c in components]}


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 175

ROUTES = [
    routes.Route('GET', '/v1/nodes/{node_ident}/firmware',
                 NodeFirmwareController.get_all, query=schema.LIST_QUERY,
                 unknown=q.UNKNOWN_SCHEMA,
                 since=mv.MINOR_86_FIRMWARE_INTERFACE,
                 doc="a node's firmware components"),
]
