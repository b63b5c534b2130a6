"""``/v1/ports`` (and ``/v1/nodes/<n>/ports``, ``/v1/portgroups/<pg>/ports``).

Ports are written by the conductor of their node, under the node's lock
(RPC 1.3, the writer of ``RES``; while pinned below 1.3, by the API
under the same check of the node's lock); the database's unique
constraints make a duplicate MAC a 409 without a partial write.
"""

import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import portgroup_lookup
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import port as schema
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite.common import utils as common_utils
from ironic_lite.conductor import rpcapi
from ironic_lite import objects
from ironic_lite.objects import base as objects_base
from ironic_lite.objects import child_writes

# The vtep keys of local_link_connection (OVN VTEP switches) are known at
# every version, as in Ironic's schema; a port is created with them only
# at 1.90-1.104, and shown with them only there (ovn_vtep_served).
OVN_VTEP_KEYS = ('vtep-logical-switch', 'vtep-physical-switch')
LLC_KEYS = ('port_id', 'switch_id', 'switch_info', 'hostname',
            'network_type') + OVN_VTEP_KEYS
# The filters of a port or port group list repeated in its ``next`` link
# (Ironic repeats none): a consumer of a shard or of conductor groups
# (networking-baremetal) stays in them on the next page.
NEXT_FILTERS = ('shard', 'conductor_groups')

# The fields of a port's body and the first microversion of each (what
# ``?fields=``, sort keys and the body at each version follow).
FIELD_MIN_VERSION = {
    'uuid': 1,
    'address': 1,
    'node_uuid': 1,
    'extra': 1,
    'created_at': 1,
    'updated_at': 1,
    'links': 1,
    'internal_info': 18,          # read-only
    'local_link_connection': 19,
    'pxe_enabled': 19,
    'portgroup_uuid': 24,
    'physical_network': 34,
    'is_smartnic': 53,
    # local_link_connection may carry 'network_type' from 64, and the
    # OVN vtep keys at 1.90-1.104 only (OVN_VTEP_KEYS).
    'name': mv.MINOR_88_PORT_NAME,
    'description': mv.MINOR_97_PORT_DESCRIPTION,
    'vendor': mv.MINOR_100_PORT_VENDOR,
    'category': mv.MINOR_101_PORT_CATEGORY,
    'available_for_dynamic_portgroup': mv.MINOR_111_DYNAMIC_PORTGROUP,
}
DEFAULT_LIST_FIELDS = ('uuid', 'address')
INVALID_SORT_KEYS = ('extra', 'internal_info', 'local_link_connection')


def _check_llc(llc):
    unknown = set(llc or {}) - set(LLC_KEYS)
    if unknown:
        raise exception.InvalidParameterValue(
            err='Schema error for port: Additional properties are not '
                'allowed in local_link_connection (%s)'
                % ', '.join(sorted(unknown)))
    # Ironic's dependentRequired: both vtep switches or neither.
    for key, other in (OVN_VTEP_KEYS, reversed(OVN_VTEP_KEYS)):
        if key in (llc or {}) and other not in llc:
            raise exception.InvalidParameterValue(
                err='Schema error for port: %r is a dependency of %r'
                    % (other, key))


def ovn_vtep_served(current):
    """Whether the OVN vtep switches of local_link_connection are
    served at minor version ``current``: from 1.90, until 1.105 removed
    them."""
    return (mv.MINOR_90_OVN_VTEP <= current
            < mv.MINOR_105_REMOVE_OVN_VTEP)


def to_object_values(values, ctx):
    """API values -> Port object values (node/portgroup UUIDs -> ids)."""
    values = dict(values)
    if 'address' in values:
        values['address'] = common_utils.validate_and_normalize_mac(
            values['address'])
    if 'physical_network' in values and values['physical_network'] and len(
            values['physical_network']) > 64:
        raise exception.InvalidParameterValue(
            err='physical_network is longer than 64 characters')
    _check_llc(values.get('local_link_connection'))
    node = None
    if 'node_ident' in values:
        # 1.94: the node by UUID or name, instead of node_uuid (one of
        # them, the schema says).
        ident = values.pop('node_ident')
        if ident and not utils.allows(mv.MINOR_94_PORT_NODENAME):
            raise exception.NotAcceptable()
        node = resource.get_parent_node(ctx, ident, by_name=True)
    elif 'node_uuid' in values:
        node = resource.get_parent_node(ctx, values.pop('node_uuid'))
    if node is not None:
        values['node_id'] = node.id
    if 'portgroup_uuid' in values:
        pg_uuid = values.pop('portgroup_uuid')
        values['portgroup_id'] = None
        if pg_uuid is not None:
            try:
                # A UUID or a name (the baremetal CLI sends the name given
                # to --port-group), as Ironic; never a database id.
                pg = portgroup_lookup.lookup(ctx, pg_uuid)
            except (exception.PortgroupNotFound,
                    exception.InvalidUuidOrName):
                raise exception.PortgroupNotFound(portgroup=pg_uuid,
                                                  code=400)
            if node is not None and pg.node_id != node.id:
                raise exception.InvalidParameterValue(
                    err='Port can not be added to a portgroup belonging to '
                        'a different node.')
            values['portgroup_id'] = pg.id
    for name, default in (('pxe_enabled', True), ('is_smartnic', False),
                          ('available_for_dynamic_portgroup', True)):
        if name in values and values[name] is None:
            values[name] = default
    return values


# The fields a body shows, read from where the object keeps them
# (objects_base.field_attr) rather than through each field's property: a
# page renders 1,000 ports, and the properties were a tenth of its cost.
_SHOWN = ('uuid', 'address', 'extra', 'internal_info',
          'local_link_connection', 'pxe_enabled', 'physical_network',
          'is_smartnic', 'name', 'description', 'vendor', 'category',
          'available_for_dynamic_portgroup', 'created_at', 'updated_at',
          'node_id', 'portgroup_id')
_STORED_AT = tuple(objects_base.field_attr(name) for name in _SHOWN)


def render(port, fields=None, caches=None):
    """The JSON body of a port at the request's version."""
    caches = caches if caches is not None else {}
    stored = port.__dict__
    v = dict(zip(_SHOWN, [stored[attr] for attr in _STORED_AT]))
    body = {
        'uuid': v['uuid'], 'address': v['address'],
        'node_uuid': None, 'portgroup_uuid': None,   # set below
        'extra': v['extra'] or {}, 'internal_info': v['internal_info'] or {},
        'local_link_connection': v['local_link_connection'] or {},
        'pxe_enabled': v['pxe_enabled'],
        'physical_network': v['physical_network'],
        'is_smartnic': bool(v['is_smartnic']),
        'name': v['name'], 'description': v['description'],
        'vendor': v['vendor'], 'category': v['category'],
        'available_for_dynamic_portgroup':
            v['available_for_dynamic_portgroup'],
        'created_at': resource.isotime(v['created_at']),
        'updated_at': resource.isotime(v['updated_at']),
        'links': link.self_and_bookmark_at(resource.request_url(caches),
                                           'ports', v['uuid']),
    }
    # The parents' UUIDs cost a lookup: only when the body shows them.
    table = FIELD_MIN_VERSION
    current = resource.request_minor(caches)
    if resource.shows(fields, 'node_uuid', table, current):
        body['node_uuid'] = resource.node_uuid(v['node_id'], caches)
    if resource.shows(fields, 'portgroup_uuid', table, current):
        body['portgroup_uuid'] = resource.portgroup_uuid(
            v['portgroup_id'], caches)
    if (not ovn_vtep_served(current) and any(
            k in body['local_link_connection'] for k in OVN_VTEP_KEYS)):
        # As Ironic: the whole connection shown empty outside 1.90-1.104.
        body['local_link_connection'] = {}
    body = utils.hide_fields(body, table, current)
    return utils.select_fields(body, fields) if fields else body


def _check_parent_portgroup(ctx, pg, ident):
    """/v1/portgroups/<pg>/ports: a port group whose node the caller may
    not see is a 404, as Ironic's check_port_list_policy answers."""
    node = resource.request_node(pg.node_id)
    if not policy.check('baremetal:node:get',
                        policy.node_target(node, ctx), ctx):
        raise exception.PortgroupNotFound(portgroup=ident)


def _refuse_groups_with(params, others):
    """Ironic's 400 for ?conductor_groups= with a node, a port group or an
    address (given in the query or as the path's parent)."""
    if resource.conductor_groups(params) and any(others):
        raise exception.InvalidParameterValue(
            err='Filtering by conductor_groups cannot be combined with '
                'node_ident, portgroup_ident, or node address filters.')


# Written by the conductor of the port's node, under the node's lock (RPC
# 1.3), but for a creation it would only write (written here, in its
# statement: ``written_as_the_conductor_would``); pinned below 1.3,
# directly, as release 2.0 did.
RES = resource.Resource(
    'port', 'ports', objects.Port, render, FIELD_MIN_VERSION,
    writer=writer.Writer(create=rpcapi.ConductorAPI.create_port,
                         update=rpcapi.ConductorAPI.update_port,
                         destroy=rpcapi.ConductorAPI.destroy_port,
                         version='1.3', older=writer.DIRECT),
    default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS, body_schema=schema.BODY,
    patch_allowed=schema.PATCH_ALLOWED)


class PortsController(resource.ResourceController):
    """CRUD of ports; also the sub-collection of a node or port group."""

    RES = RES

    def __init__(self, node_ident=None, portgroup_ident=None):
        super().__init__(node_ident)
        self.portgroup_ident = portgroup_ident

    def get_object(self, ident):
        """The port of a UUID or a name (names from 1.88; as Ironic, a
        name finds its port at every version)."""
        if uuidutils.is_uuid_like(ident):
            return objects.Port.get_by_uuid(pecan.request.context, ident)
        return objects.Port.get_by_name(pecan.request.context, ident)

    def list_filters(self, params):
        ctx = pecan.request.context
        filters = {}
        node_ident = (self.node_ident or params.get('node')
                      or params.get('node_uuid'))
        pg_ident = self.portgroup_ident or params.get('portgroup')
        # As Ironic: a node, a port group and shards are alternatives.
        given = [node_ident, pg_ident, params.get('shard')]
        if len([g for g in given if g]) > 1:
            raise exception.NotAuthorized('Operation not permitted.')
        # Ironic refuses conductor groups with the others before it looks
        # up ?node= or ?portgroup=, but after the parent of the path (a
        # missing or hidden one is its 404).
        from_path = (self.node_ident, self.portgroup_ident) != (None, None)
        others = (node_ident, pg_ident, params.get('address'))
        if not from_path:
            _refuse_groups_with(params, others)
        if node_ident:
            filters['node_id'] = resource.get_node_for_filter(
                ctx, node_ident, self.node_ident is not None).id
        if pg_ident:
            pg = portgroup_lookup.lookup(ctx, pg_ident)
            if self.portgroup_ident is not None:
                _check_parent_portgroup(ctx, pg, pg_ident)
            filters['portgroup_id'] = pg.id
        _refuse_groups_with(params, others)
        return self.common_filters(params, filters)

    def next_filters(self, params):
        return resource.next_params(params, NEXT_FILTERS)

    def page_version(self, ctx, limit, marker, sort_key, sort_dir, filters):
        # A port's body shows its own row and the UUIDs of its node and
        # port group, which never change: the page is as new as its rows.
        return objects.Port.page_version(ctx, limit=limit, marker=marker,
                                         sort_key=sort_key,
                                         sort_dir=sort_dir, filters=filters)

    def new_object(self, ctx, values):
        values = dict(values)
        llc = values.get('local_link_connection') or {}
        if (isinstance(llc, dict) and 'vtep-logical-switch' in llc
                and not ovn_vtep_served(utils.minor())):
            raise exception.NotAcceptable()
        values = to_object_values(values, ctx)
        values.setdefault('pxe_enabled', True)
        values.setdefault('is_smartnic', False)
        values.setdefault('available_for_dynamic_portgroup', True)
        values.setdefault('uuid', uuidutils.generate_uuid())
        return objects.Port(ctx, **values)

    def apply_changes(self, ctx, obj, changes):
        for name, value in to_object_values(changes, ctx).items():
            setattr(obj, name, value)

    def written_as_the_conductor_would(self, ctx, obj, action, node):
        """A port's creation with no network to check, written here in
        the statement its node's conductor would make first
        (``conductor/ports.py``): made only while no task holds the
        node's lock, once a conductor is known to serve the node, as for
        a creation sent to it.  None otherwise, or when that statement
        wrote nothing (the node locked or gone, a database without it):
        the conductor writes it, or says why it cannot."""
        if action != 'create' or obj.physnet_check_needed():
            return None
        pecan.request.rpcapi.get_conductor_for(ctx, node)
        return child_writes.created_in_one_statement(ctx, obj, 'create')

    def write_here(self, ctx, obj, action):
        """Pinned below RPC 1.3: written here with the conductor's check
        of the network and under the node's lock, as it writes."""
        check = (obj.check_physnet if action != 'destroy'
                 and obj.physnet_check_needed() else None)
        return child_writes.write_here(ctx, obj, writer.SAVES[action],
                                       check)

    def check_changes(self, obj, changes, new_doc):
        super().check_changes(obj, changes, new_doc)
        # From 1.102 a port group has its own physical network, which its
        # ports follow (conductor/ports.py): theirs is not changed alone.
        if ('physical_network' in changes and new_doc.get('portgroup_uuid')
                and utils.allows(mv.MINOR_102_PORTGROUP_PHYSICAL_NETWORK)):
            raise exception.Invalid(
                'physical_network cannot be changed while the port belongs '
                'to a portgroup.')


# Routes of the handlers PortsController inherits.
ROUTE = functools.partial(routes.Route, owner=PortsController)


def list_routes(prefix, since=1):
    """GET <prefix> and <prefix>/detail: a port list (also under a node or
    a port group, where one port is Ironic's 403)."""
    sub = resource.refused_routes(prefix, since) if prefix != '/v1/ports' \
        else []
    return [
        ROUTE('GET', prefix, PortsController.get_all,
              query=schema.LIST_QUERY, since=since, doc='list ports'),
        ROUTE('GET', prefix + '/detail', PortsController.detail,
              query=schema.LIST_QUERY, since=since,
              doc='list ports with every field'),
    ] + sub


P = '/v1/ports/{port_uuid}'
# Ironic's args.validate of the port in the path (its names differ).
IDENT_ARG = {'port_uuid': utils.uuid_or_name_arg('port_ident')}

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 50
# The links of GET /v1 to it.
V1_RESOURCES = ('ports',)

ROUTES = list_routes('/v1/ports') + [
    ROUTE('POST', '/v1/ports', PortsController.post,
          body={1: schema.BODY}, what='port', doc='create a port'),
    ROUTE('GET', P, PortsController.get_one, path_args=IDENT_ARG,
          query=(schemas.fields_param(),), doc='show a port'),
    ROUTE('PATCH', P, PortsController.patch, body={1: schemas.PATCH},
          what='patch', read_only=schema.READ_ONLY, path_args=IDENT_ARG,
          doc='update a port (JSON patch)'),
    ROUTE('DELETE', P, PortsController.delete,
          path_args={'port_uuid': utils.uuid_arg('port_uuid')},
          doc='delete a port'),
]
