"""GET /v1/nodes and /v1/nodes/detail: query checks, filters, paging."""

import pecan

from ironic_lite.api.controllers.v1 import collection
from ironic_lite.api.controllers.v1 import node_provision
from ironic_lite.api.controllers.v1 import node_render
from ironic_lite.api.controllers.v1 import shard
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import large_pages
from ironic_lite.api import microversions as mv
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects

# Query parameters passed to Node.list() as they are.
_PLAIN_FILTERS = ('driver', 'resource_class', 'conductor_group', 'owner',
                  'lessee', 'description_contains', 'instance_name')
_BOOL_FILTERS = ('maintenance', 'associated', 'retired')
# Boolean filters Ironic repeats in the ``next`` link (only when true).
_NEXT_TRUE_FILTERS = ('associated', 'maintenance', 'retired')


def _filters(params, chassis_uuid):
    """Node.list() filters from the query (values checked)."""
    filters = {name: params[name] for name in _PLAIN_FILTERS
               if params.get(name) is not None}
    for name in _BOOL_FILTERS:
        value = params.get(name)
        if value is not None:
            filters[name] = value
    state = params.get('provision_state')
    if state is not None:
        if state not in node_provision.ALL_STATES:
            raise exception.InvalidParameterValue(
                err='Provision state "%s" is not valid' % state)
        filters['provision_state'] = state
    fault = params.get('fault')
    if fault is not None:
        if fault not in node_provision.VALID_FAULTS:
            raise exception.InvalidParameterValue(
                err='Unrecognized fault "%s" is specified, allowed faults '
                    'are %s' % (fault, list(node_provision.VALID_FAULTS)))
        filters['fault'] = fault
    for name in ('instance_uuid', 'chassis_uuid'):
        if params.get(name) is not None:
            filters[name] = params[name]
    if chassis_uuid is not None:
        objects.Chassis.get(pecan.request.context, chassis_uuid)
        filters['chassis_uuid'] = chassis_uuid
    if params.get('project') is not None:
        filters['project'] = params['project']
    _add_children_filters(params, filters)
    return shard.add_query_filters(params, filters)


def _add_children_filters(params, filters):
    """Child nodes (1.83) are left out of a node list at every version,
    as in Ironic; ``?parent_node=`` lists the children of one node (its
    UUID as stored: a name matches nothing, as in Ironic);
    ``?include_children=true`` lists every node, and then (as Ironic)
    ``?parent_node=`` is ignored."""
    if params.get('include_children'):
        return
    if params.get('parent_node') is not None:
        filters['parent_node'] = params['parent_node']
    else:
        filters['has_parent'] = False


def _by_conductor(nodes, conductor):
    """The nodes the hash ring maps to ``conductor``."""
    return [n for n in nodes if node_render.field_value(n, 'conductor')
            == conductor]


# API fields computed from other node fields (the rest read their own).
_DERIVED_FROM = {
    'chassis_uuid': ('chassis_id',),
    'conductor': ('driver', 'conductor_group'),
    'allocation_uuid': ('allocation_id',),
}


def _fields_to_read(fields, params):
    """The object fields a list rendering ``fields`` needs, for
    ``Node.list(fields=...)`` (None: all of them, for a detailed list).

    Besides the fields shown: ``uuid`` (links, the ``next`` marker) and
    what the ``?conductor=`` filter computes the conductor from.
    """
    if fields is None:
        return None
    needed = {'uuid'}
    for name in fields:
        needed.update(_DERIVED_FROM.get(name, (name,)))
    if params.get('conductor'):
        needed.update(_DERIVED_FROM['conductor'])
    return sorted(needed)


def list_nodes(params, resource, detail=False, chassis_uuid=None):
    """The body of a node list request.

    :param resource: "nodes" or "nodes/detail" (for the ``next`` link).
    :param detail: True for /v1/nodes/detail.
    """
    ctx = pecan.request.context
    fields = utils.get_fields(params.get('fields'), mv.NODE_FIELD_MIN_VERSION,
                              not_fields=mv.NODE_LINK_FIELDS,
                              per_field_message=True)
    detail = detail or utils.get_detail(params.get('detail'), fields)
    limit = utils.get_limit(params.get('limit'))
    sort_key, sort_dir = utils.get_sort(params, mv.NODE_FIELD_MIN_VERSION,
                                        mv.NODE_INVALID_SORT_KEYS)
    marker = params.get('marker')
    filters = _filters(params, chassis_uuid)
    project = policy.list_project_filter('node', ctx, params.get('owner'))
    if project is not None:
        filters['project'] = project
    explicit_fields = fields is not None
    if fields is None and not detail:
        fields = list(mv.NODE_DEFAULT_LIST_FIELDS)
    # A lookup by instance (nova's, for every instance action) finds one
    # node at most: never a large page, never queued behind the big ones.
    at_most = 1 if 'instance_uuid' in filters else limit
    with large_pages.page(pecan.request.environ, 'nodes', at_most, detail,
                          explicit_fields) as rendered:
        nodes, items = _read_and_render(ctx, params, limit, marker,
                                        (sort_key, sort_dir), filters,
                                        fields)
        rendered(len(items))
    if 'instance_uuid' in filters:
        limit = 0
    return collection.make('nodes', items, limit, resource,
                           nodes[-1].uuid if nodes else None,
                           _next_params(params, sort_key, sort_dir, fields))


def _read_and_render(ctx, params, limit, marker, sort, filters, fields):
    """The nodes of the page, and their API renderings."""
    # A plain or ?fields= list reads only the columns it renders.
    nodes = objects.Node.list(ctx, limit=limit, marker=marker,
                              sort_key=sort[0], sort_dir=sort[1],
                              filters=filters,
                              fields=_fields_to_read(fields, params))
    if params.get('conductor'):
        nodes = _by_conductor(nodes, params['conductor'])
    cache = {}
    if (fields is None or 'allocation_uuid' in fields) and utils.allows(
            mv.NODE_FIELD_MIN_VERSION['allocation_uuid']):
        node_render.prefetch_allocations(ctx, nodes, cache)
    return nodes, [node_render.render(n, fields, sub_links=True,
                                      chassis_cache=cache) for n in nodes]


def _next_params(params, sort_key, sort_dir, fields):
    """What Ironic repeats in ``next``: sort_key, sort_dir, the true ones of
    associated/maintenance/retired, detail when given, then the fields
    returned (the default ones for a plain list)."""
    pairs = [('sort_key', sort_key), ('sort_dir', sort_dir)]
    for name in _NEXT_TRUE_FILTERS:
        if params.get(name):
            pairs.append((name, True))
    detail = params.get('detail')
    if detail is not None:
        pairs.append(('detail', detail))
    if fields:
        pairs.append(('fields', fields))
    # Unlike Ironic, the shard filters are kept in ``next``: a consumer
    # paging through its shard must not get the whole fleet on page two.
    return pairs + shard.next_params(params, ('shard', 'sharded'))
