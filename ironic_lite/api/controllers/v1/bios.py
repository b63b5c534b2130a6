"""``/v1/nodes/<n>/bios`` (1.40): the node's BIOS settings, as its
conductor last cached them (``conductor/bios.py``); read only.

From 1.74 a setting also has its registry fields (``attribute_type``,
``allowable_values``...): a list shows them with ``?detail=True`` (or the
ones ``?fields=`` names), a setting always.  Policy
``baremetal:node:bios:get``, checked against the node as Ironic does.
"""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api.schemas import bios as schema
from ironic_lite.common import exception
from ironic_lite import objects

RULE = 'baremetal:node:bios:get'
DEFAULT_FIELDS = ('name', 'value')
REGISTRY_FIELDS = ('attribute_type', 'allowable_values', 'lower_bound',
                   'max_length', 'min_length', 'read_only', 'reset_required',
                   'unique', 'upper_bound')
DETAIL_FIELDS = DEFAULT_FIELDS + REGISTRY_FIELDS
# Shown whatever the fields (Ironic's object_to_dict).
_ALWAYS = ('created_at', 'updated_at', 'links')


def render(setting, node_ident, node_uuid, fields):
    """A setting's body: ``fields``, its times and its links (under
    ``node_ident``, the node as the path named it)."""
    body = {'created_at': resource.isotime(setting.created_at),
            'updated_at': resource.isotime(setting.updated_at),
            'links': link.self_and_bookmark(
                'nodes', '%s/bios/%s' % (node_ident, setting.name))}
    for name in fields:
        if name == 'node_uuid':
            body[name] = node_uuid
        elif name not in _ALWAYS:
            body[name] = getattr(setting, name)
    return body


def _list_fields(fields, detail):
    utils.get_detail(detail, fields)
    if fields is not None:
        return utils.check_fields(fields, schema.SELECTABLE_FIELDS)
    return DETAIL_FIELDS if detail else DEFAULT_FIELDS


class NodeBiosController(object):
    def __init__(self, node_ident):
        self.node_ident = node_ident

    def get_all(self, fields=None, detail=None):
        node = node_lookup.fetch_authorized(RULE, self.node_ident)
        fields = _list_fields(fields, detail)
        settings = objects.BIOSSettingList.get_by_node_id(
            pecan.request.context, node.id)
        return {'bios': [render(s, self.node_ident, node.uuid, fields)
                         for s in settings]}

    def get_one(self, setting_name):
        node = node_lookup.fetch_authorized(RULE, self.node_ident)
        try:
            setting = objects.BIOSSetting.get(pecan.request.context,
                                              node.id, setting_name)
        except exception.BIOSSettingNotFound:
            raise exception.BIOSSettingNotFound(node=node.uuid,
                                                name=setting_name)
        fields = (DETAIL_FIELDS if utils.allows(mv.MINOR_74_BIOS_REGISTRY)
                  else DEFAULT_FIELDS)
        return {setting_name: render(setting, node.uuid, node.uuid,
                                     fields)}


B = '/v1/nodes/{node_ident}/bios'
SINCE = mv.MINOR_40_BIOS_INTERFACE

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 170

ROUTES = [
    routes.Route('GET', B, NodeBiosController.get_all,
                 query=schema.LIST_QUERY, unknown=q.UNKNOWN_SCHEMA,
                 since=SINCE, doc="a node's BIOS settings"),
    routes.Route('GET', B + '/{setting_name}', NodeBiosController.get_one,
                 query=schema.SHOW_QUERY, unknown=q.UNKNOWN_SCHEMA,
                 since=SINCE, doc="one of a node's BIOS settings"),
]
