"""``/v1/portgroups`` (1.23) and ``/v1/nodes/<n>/portgroups`` (1.24).

Created by the API, updated and deleted by the conductor of their node
(as Ironic), each as under the node's lock (see port.py).
"""

import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import port
from ironic_lite.api.controllers.v1 import portgroup_lookup
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import portgroup as schema
from ironic_lite.common import exception
from ironic_lite.common import utils as common_utils
from ironic_lite.conductor import rpcapi
from ironic_lite import conf
from ironic_lite import objects
from ironic_lite.objects import child_writes

CONF = conf.CONF

# The fields of a port group's body and the first microversion of each.
FIELD_MIN_VERSION = {
    'uuid': 23,
    'name': 23,
    'address': 23,
    'node_uuid': 23,
    'extra': 23,
    'internal_info': 23,               # read-only
    'standalone_ports_supported': 23,  # defaults to True
    'created_at': 23,
    'updated_at': 23,
    'links': 23,
    'ports': 23,       # sub-resource link to /v1/portgroups/<uuid>/ports
                       # (that endpoint itself needs 24)
    'mode': 26,        # defaults to [DEFAULT]default_portgroup_mode,
                       # which is 'active-backup'
    'properties': 26,
    'physical_network': mv.MINOR_102_PORTGROUP_PHYSICAL_NETWORK,
    'category': mv.MINOR_103_PORTGROUP_CATEGORY,
    # Read-only: true for a group a network flow made for a VIF.
    'dynamic_portgroup': mv.MINOR_111_DYNAMIC_PORTGROUP,
}
DEFAULT_LIST_FIELDS = ('uuid', 'address', 'name')
INVALID_SORT_KEYS = ('extra', 'internal_info', 'properties')


def to_object_values(values, ctx, action):
    values = dict(values)
    if values.get('address') is not None:
        values['address'] = common_utils.validate_and_normalize_mac(
            values['address'])
    name = values.get('name')
    if name is not None and not utils.is_valid_logical_name(name):
        raise exception.InvalidParameterValue(
            err="Cannot %s portgroup with invalid name '%s'" % (action, name))
    if 'node_uuid' in values:
        values['node_id'] = resource.get_parent_node(
            ctx, values.pop('node_uuid')).id
    if 'mode' in values and values['mode'] is None:
        values['mode'] = CONF.api.default_portgroup_mode
    if ('standalone_ports_supported' in values
            and values['standalone_ports_supported'] is None):
        values['standalone_ports_supported'] = True
    return values


def render(pg, fields=None, caches=None):
    """The JSON body of a port group at the request's version."""
    caches = caches if caches is not None else {}
    body = {
        'uuid': pg.uuid, 'address': pg.address, 'name': pg.name,
        'node_uuid': None,   # set below, when shown
        'extra': pg.extra or {}, 'internal_info': pg.internal_info or {},
        'mode': pg.mode, 'properties': pg.properties or {},
        'standalone_ports_supported': pg.standalone_ports_supported,
        'physical_network': pg.physical_network, 'category': pg.category,
        'dynamic_portgroup': bool(pg.dynamic_portgroup),
        'created_at': resource.isotime(pg.created_at),
        'updated_at': resource.isotime(pg.updated_at),
        'links': link.self_and_bookmark_at(resource.request_url(caches),
                                           'portgroups', pg.uuid),
    }
    # The node's UUID costs a lookup: only when the body shows it.
    table = FIELD_MIN_VERSION
    current = resource.request_minor(caches)
    if resource.shows(fields, 'node_uuid', table, current):
        body['node_uuid'] = resource.node_uuid(pg.node_id, caches)
    if not fields:
        body['ports'] = link.self_and_bookmark_at(
            resource.request_url(caches), 'portgroups', pg.uuid + '/ports')
    body = utils.hide_fields(body, table, current)
    return utils.select_fields(body, fields) if fields else body


# Updated and deleted by the conductor of the port group's node, like
# ports; created by the API (as Ironic's API does), under the same check
# of the node's lock: no RPC call for the most frequent write of a port
# group.
RES = resource.Resource(
    'portgroup', 'portgroups', objects.Portgroup, render,
    FIELD_MIN_VERSION,
    writer=writer.Writer(create=None,
                         update=rpcapi.ConductorAPI.update_portgroup,
                         destroy=rpcapi.ConductorAPI.destroy_portgroup,
                         version='1.3', older=writer.DIRECT),
    default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS,
    link_fields=('links', 'ports'), body_schema=schema.BODY,
    patch_allowed=schema.PATCH_ALLOWED)


class PortgroupsController(resource.ResourceController):
    RES = RES

    def get_object(self, ident):
        ctx = pecan.request.context
        ident = utils.without_json_suffix(ident)
        return portgroup_lookup.lookup(ctx, ident)

    def list_filters(self, params):
        ctx = pecan.request.context
        filters = {}
        node_ident = self.node_ident or params.get('node')
        if self.node_ident is not None:
            # As Ironic: the node of the path first (a missing or hidden
            # one is its 404), the rule on the filters next.
            filters['node_id'] = resource.get_node_for_filter(
                ctx, node_ident, True).id
        # As Ironic: a node, an address, shards and conductor groups are
        # alternatives (its message does not name conductor_groups).
        given = [node_ident, params.get('address'), params.get('shard'),
                 resource.conductor_groups(params)]
        if len([g for g in given if g]) > 1:
            raise exception.InvalidParameterValue(
                err='Filtering by node, address, or shard simultaneously is '
                    'not supported.')
        if node_ident and 'node_id' not in filters:
            filters['node_id'] = resource.get_node_for_filter(
                ctx, node_ident, False).id
        return self.common_filters(params, filters)

    def next_filters(self, params):
        return resource.next_params(params, port.NEXT_FILTERS)

    def new_object(self, ctx, values):
        if not utils.allows(mv.MINOR_26_PORTGROUP_MODE_PROPERTIES):
            for name in ('mode', 'properties'):
                if name in values:
                    raise exception.NotAcceptable()
        values = to_object_values(values, ctx, 'create')
        values.setdefault('mode', CONF.api.default_portgroup_mode)
        values.setdefault('standalone_ports_supported', True)
        values.setdefault('dynamic_portgroup', False)
        values.setdefault('uuid', uuidutils.generate_uuid())
        return objects.Portgroup(ctx, **values)

    def apply_changes(self, ctx, obj, changes):
        for name, value in to_object_values(changes, ctx, 'update').items():
            setattr(obj, name, value)

    def write_here(self, ctx, obj, action):
        """A creation (and, pinned below RPC 1.3, every write) made here
        under the node's lock, as the conductor makes it: an update's
        ports follow the group's network in the same transaction
        (conductor/ports.py)."""
        after = (objects.Port.follow_portgroup_network
                 if action == 'update' else None)
        return child_writes.write_here(ctx, obj, writer.SAVES[action],
                                       after=after)


SINCE = mv.PORTGROUP_MIN_VERSION


# Routes of the handlers PortgroupsController inherits.
ROUTE = functools.partial(routes.Route, owner=PortgroupsController)


def list_routes(prefix, since=SINCE):
    """GET <prefix> and <prefix>/detail: a port group list (also under a
    node, where one port group is Ironic's 403)."""
    sub = resource.refused_routes(prefix, since) \
        if prefix != '/v1/portgroups' else []
    return [
        ROUTE('GET', prefix, PortgroupsController.get_all,
              query=schema.LIST_QUERY, since=since,
              unknown=q.UNKNOWN_SCHEMA, doc='list port groups'),
        ROUTE('GET', prefix + '/detail', PortgroupsController.detail,
              query=schema.LIST_QUERY, since=since,
              unknown=q.UNKNOWN_SCHEMA,
              doc='list port groups with every field'),
    ] + sub


PG = '/v1/portgroups/{portgroup_ident}'
R = ROUTE
C = PortgroupsController
# Ironic checks the port group of the path with its parameter schema.
IDENT_ARG = {'portgroup_ident': utils.schema_uuid_or_name_arg}

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 60
# The links of GET /v1 to it.
V1_RESOURCES = ('portgroups',)

ROUTES = list_routes('/v1/portgroups') + [
    R('POST', '/v1/portgroups', C.post, body={SINCE: schema.BODY},
      what='portgroup', since=SINCE, doc='create a port group'),
    R('GET', PG, C.get_one, query=(schemas.fields_param(since=SINCE),),
      since=SINCE, unknown=q.UNKNOWN_SCHEMA, path_args=IDENT_ARG,
      doc='show a port group'),
    R('PATCH', PG, C.patch, body={SINCE: schemas.PATCH}, what='patch',
      read_only=schema.READ_ONLY, since=SINCE, path_args=IDENT_ARG,
      doc='update a port group (JSON patch)'),
    R('DELETE', PG, C.delete, since=SINCE, path_args=IDENT_ARG,
      doc='delete a port group'),
] + port.list_routes(PG + '/ports',
                     since=mv.MINOR_24_PORTGROUPS_SUBCONTROLLERS)
