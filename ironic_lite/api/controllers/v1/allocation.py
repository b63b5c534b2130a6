"""``/v1/allocations`` (1.52) and ``/v1/nodes/<node>/allocation``.

An allocation is created and deleted by a conductor (RPC 1.5: it looks
for the node and reserves it); its name and extra are changed here
(1.57), as Ironic does.  While this API is pinned to a release without
RPC 1.5, reads are served and every write is a 409 (nothing written).
"""

import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import allocation_create
from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import allocation as schema
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite.conductor import rpcapi
from ironic_lite import objects

NOT_ALLOWED = 'The API version does not allow allocations'
RPC_VERSION = '1.5'

# The fields of an allocation's body and the first microversion of each
# (Ironic lists every field by default).
FIELD_MIN_VERSION = {
    'uuid': 52,
    'name': 52,
    'node_uuid': 52,
    'state': 52,
    'last_error': 52,
    'resource_class': 52,
    'traits': 52,
    'candidate_nodes': 52,
    'extra': 52,
    'created_at': 52,
    'updated_at': 52,
    'links': 52,
    'owner': 60,
}
INVALID_SORT_KEYS = ('extra', 'candidate_nodes', 'traits')


def target(allocation):
    """The policy target of an allocation."""
    return {'allocation.owner': allocation.owner,
            'project_id': pecan.request.context.project_id}


def render(allocation, fields=None, caches=None):
    """The JSON body of an allocation at the request's version."""
    caches = caches if caches is not None else {}
    body = {
        'uuid': allocation.uuid, 'name': allocation.name,
        'node_uuid': None, 'state': allocation.state,
        'last_error': allocation.last_error,
        'resource_class': allocation.resource_class,
        'traits': allocation.traits or [],
        'candidate_nodes': allocation.candidate_nodes or [],
        'extra': allocation.extra or {}, 'owner': allocation.owner,
        'created_at': resource.isotime(allocation.created_at),
        'updated_at': resource.isotime(allocation.updated_at),
        'links': link.self_and_bookmark('allocations', allocation.uuid),
    }
    if (allocation.node_id is not None and resource.shows(
            fields, 'node_uuid', FIELD_MIN_VERSION)):
        try:
            body['node_uuid'] = resource.node_uuid(allocation.node_id,
                                                   caches)
        except exception.NodeNotFound:
            body['node_uuid'] = None
    body = utils.hide_fields(body, FIELD_MIN_VERSION)
    return utils.select_fields(body, fields) if fields else body


def lookup(ident):
    """An allocation by UUID or name (Ironic's get_rpc_allocation; below
    1.91 a final ``.json`` is dropped first, as there)."""
    return utils.get_without_json_suffix(_lookup, ident,
                                         exception.AllocationNotFound)


def _lookup(ident):
    ctx = pecan.request.context
    if uuidutils.is_uuid_like(ident):
        return objects.Allocation.get_by_uuid(ctx, ident)
    if not utils.is_valid_logical_name(ident):
        raise exception.InvalidUuidOrName(name=ident)
    return objects.Allocation.get(ctx, ident)


def fetch_authorized(rule, ident):
    """The allocation, after ``rule``: one the caller may not even see is
    a 404, as one that does not exist."""
    ctx = pecan.request.context
    allocation = lookup(ident)
    if not policy.check('baremetal:allocation:get', target(allocation),
                        ctx):
        raise exception.AllocationNotFound(allocation=ident)
    policy.authorize(rule, target(allocation), ctx)
    return allocation


def _check_node_access(node):
    """A node the caller may not see: 404 (as Ironic's bare NotFound)."""
    ctx = pecan.request.context
    if not policy.check('baremetal:node:get',
                        policy.node_target(node, ctx), ctx):
        raise exception.NotFound()


def _node_filter(ident):
    """The node of ``?node=`` or of the path (missing: Ironic's 400)."""
    try:
        node = node_lookup.get_node(ident)
    except exception.NodeNotFound as err:
        raise exception.NodeNotFound(str(err), code=400)
    _check_node_access(node)
    return node


def check_node_owner_change(node, changes):
    """A node reserved by an allocation that has an owner keeps its
    owner (Ironic's 409, its wording)."""
    if 'owner' not in changes or node.allocation_id is None:
        return
    try:
        allocation = objects.Allocation.get_by_id(pecan.request.context,
                                                  node.allocation_id)
    except exception.AllocationNotFound:
        return
    if allocation.owner is not None:
        raise exception.Conflict(
            'Cannot update owner of node "%s" while it is allocated to an '
            'allocation with an  owner.' % node.uuid)


# Created and deleted by a conductor, changed here (name, extra); every
# write refused while pinned below RPC 1.5.
RES = resource.Resource(
    'allocation', 'allocations', objects.Allocation, render,
    FIELD_MIN_VERSION,
    writer=writer.Writer(create=rpcapi.ConductorAPI.create_allocation,
                         destroy=rpcapi.ConductorAPI.destroy_allocation,
                         version=RPC_VERSION, older=writer.REFUSE,
                         what='{verb} an allocation'),
    invalid_sort_keys=INVALID_SORT_KEYS,
    body_schema=schema.PATCHED)


class AllocationsController(resource.ResourceController):
    RES = RES

    def _authorized(self, action, ident):
        return fetch_authorized('baremetal:allocation:%s' % action, ident)

    def policy_target(self, obj):
        return target(obj)

    def rpc_node_of(self, obj):
        """The node of a backfill (read by ``post``), else None."""
        if obj.obj_attr_is_set('node_id') and obj.node_id is not None:
            return resource.request_node(obj.node_id)
        return None

    def project_filter(self, ctx):
        return None    # the owner filter of list_filters

    def list_filters(self, params):
        ctx = pecan.request.context
        owner = params.get('owner')
        project = policy.list_project_filter('allocation', ctx, owner)
        filters = {'owner': project if project is not None else owner}
        if params.get('node'):
            filters['node_id'] = _node_filter(params['node']).id
        for name in ('resource_class', 'state'):
            if params.get(name) is not None:
                filters[name] = params[name]
        return filters

    def list_objects(self, ctx, limit, marker, sort_key, sort_dir, filters):
        found = objects.Allocation.list(ctx, limit=limit, marker=marker,
                                        sort_key=sort_key, sort_dir=sort_dir,
                                        filters=filters)
        for allocation in found:
            policy.authorize('baremetal:allocation:get', target(allocation),
                             ctx)
        return found

    def post(self, body):
        allocation, node = allocation_create.prepare(body)
        if node is not None:
            resource.remember_node(node)
        allocation = self.write('create', pecan.request.context,
                                allocation)
        pecan.response.status = 201
        pecan.response.headers['Location'] = link.build_url(
            'allocations', allocation.uuid)
        return render(allocation)

    def check_patch(self, patch, ident):
        allocation_create.check_patch(patch)

    def editable_document(self, obj):
        return {'name': obj.name, 'extra': obj.extra or {}}


class NodeAllocationController(object):
    """``/v1/nodes/<node>/allocation``: the node's allocation."""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    def _find(self, node):
        found = objects.Allocation.list(pecan.request.context,
                                        filters={'node_id': node.id})
        if not found:
            raise exception.AllocationNotFound(
                'Allocation for node %s was not found' % self.node_ident)
        return found[0]

    def get(self, fields=None):
        ctx = pecan.request.context
        fields = utils.get_fields(fields, FIELD_MIN_VERSION,
                                  ('links',))
        node = _node_filter(self.node_ident)
        allocation = self._find(node)
        policy.authorize('baremetal:allocation:get', target(allocation), ctx)
        return render(allocation, fields)

    def delete(self):
        ctx = pecan.request.context
        node = node_lookup.fetch_authorized('baremetal:node:get',
                                            self.node_ident)
        allocation = self._find(node)
        policy.authorize('baremetal:allocation:delete', target(allocation),
                         ctx)
        AllocationsController().write('destroy', ctx, allocation)
        pecan.response.status = 204
        return ''


ROUTE = functools.partial(routes.Route, owner=AllocationsController)
R = ROUTE
C = AllocationsController
A = '/v1/allocations/{allocation_ident}'
SINCE = schema.SINCE
GATE_404 = routes.Gate(404, NOT_ALLOWED)
GATE_405 = routes.Gate(405, NOT_ALLOWED)
N = '/v1/nodes/{node_ident}/allocation'

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 110
# The links of GET /v1 to it.
V1_RESOURCES = ('allocations',)

ROUTES = [
    R('GET', '/v1/allocations', C.get_all, query=schema.LIST_QUERY,
      unknown=q.UNKNOWN_SCHEMA, since=SINCE, older=GATE_404,
      doc='list allocations'),
    R('POST', '/v1/allocations', C.post,
      body={SINCE: schema.BODY,
            mv.MINOR_58_ALLOCATION_BACKFILL: schema.BODY_58},
      # "Schema error: ...": Ironic checks it with api/validation.
      what=None, since=SINCE, older=GATE_405,
      doc='create an allocation (a conductor finds and reserves a node)'),
    R('GET', A, C.get_one, query=schema.SHOW_QUERY, unknown=q.UNKNOWN_SCHEMA,
      since=SINCE, older=GATE_404, doc='show an allocation'),
    R('PATCH', A, C.patch, body={SINCE: schemas.PATCH}, what=None,
      read_only=schema.READ_ONLY, since=mv.MINOR_57_ALLOCATION_UPDATE,
      older=routes.Gate(405, 'The API version does not allow updating '
                             'allocations'),
      doc='change the name or extra of an allocation (JSON patch)'),
    R('DELETE', A, C.delete, since=SINCE, older=GATE_405,
      doc='delete an allocation (its node is released)'),
    routes.Route('GET', N, NodeAllocationController.get,
                 query=(schemas.fields_param(since=SINCE),), since=SINCE,
                 older=GATE_404, doc="show the node's allocation"),
    routes.Route('DELETE', N, NodeAllocationController.delete, since=SINCE,
                 older=GATE_404, doc="delete the node's allocation"),
]
