"""What ``POST /v1/allocations`` and its PATCH check before a write:
Ironic's rules on the owner, the name, the node of a backfill (1.58) and
the candidate nodes (names turned into UUIDs), in Ironic's order."""

import json

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers.v1 import node_lookup
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import json_patch
from ironic_lite.api import microversions as mv
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects
from ironic_lite.objects import base as objects_base


def _checks(rule):
    ctx = pecan.request.context
    return policy.check(rule, {'project_id': ctx.project_id}, ctx)


def _check_owner_version(values):
    if 'owner' in values and not utils.allows(
            mv.MINOR_60_ALLOCATION_OWNER):
        raise exception.NotAcceptable()


def _authorize(values):
    """Ironic's _authorize_create_allocation: a caller who may not create
    allocations for anyone creates them for its own project, if allowed
    (baremetal:allocation:create_restricted)."""
    ctx = pecan.request.context
    if _checks('baremetal:allocation:create'):
        _check_owner_version(values)
        return
    project = ctx.project_id
    if project and values.get('owner') and project != values['owner']:
        raise exception.HTTPForbidden(resource='baremetal:allocation:create')
    policy.authorize('baremetal:allocation:create_restricted',
                     {'project_id': project}, ctx)
    _check_owner_version(values)
    values['owner'] = project


def _apply_owner(values):
    """A project-scoped caller's allocation belongs to its project; only
    create_restricted may name another owner."""
    ctx = pecan.request.context
    if getattr(ctx, 'system_scope', None) == 'all':
        return
    project = ctx.project_id
    owner = values.get('owner')
    if not owner:
        values['owner'] = project
    elif (owner != project
          and not _checks('baremetal:allocation:create_restricted')):
        raise exception.NotAuthorized(
            'Cannot create allocation with an owner Project ID value %s not '
            'matching the requester Project ID %s. Policy '
            'baremetal:allocation:create_restricted is required for this '
            'capability.' % (owner, project))


def _backfill_node(values):
    ident = values.pop('node', None)
    if not ident:
        return None
    if not utils.allows(mv.MINOR_58_ALLOCATION_BACKFILL):
        raise exception.Invalid('Cannot set node when creating an '
                                'allocation in this API version')
    try:
        return node_lookup.fetch_authorized('baremetal:node:get', ident)
    except exception.NodeNotFound as err:
        # One answer, Ironic's 400, for a node that does not exist and for
        # one the caller may not see: no existence oracle.
        raise exception.NodeNotFound(str(err), code=400)


def _candidates(values):
    """The candidate nodes as UUIDs, in the order given (400 naming the
    idents that are no node, or no node of the caller's project)."""
    idents = values.get('candidate_nodes')
    if not idents:
        return
    project = None
    if not _checks('baremetal:allocation:create_restricted'):
        project = pecan.request.context.project_id
    mapping = objects.Allocation.check_node_list(
        pecan.request.context, idents, project)
    # In the order given, as Ironic (a node named twice stays twice).
    # What is stored must fit its column: short names turned into UUIDs
    # can outgrow what the body's own limit let through (a 400, never
    # the database's refusal).
    uuids = [mapping[i] for i in idents]
    _kind, limit = objects_base.column_limits('allocations')[
        'candidate_nodes']
    size = len(json.dumps(uuids).encode('utf-8'))
    if size > limit:
        raise exception.Invalid(
            'candidate_nodes is too large: %d nodes take %d bytes as UUIDs, '
            'at most %d are stored' % (len(uuids), size, limit))
    values['candidate_nodes'] = uuids


def prepare(body):
    """(the Allocation to create, the node of a backfill or None)."""
    values = dict(body)
    _authorize(values)
    name = values.get('name')
    if name and not utils.is_valid_logical_name(name):
        raise exception.Invalid("Cannot create allocation with invalid name "
                                "'%s'" % name)
    _apply_owner(values)
    node = _backfill_node(values)
    if not values.get('resource_class'):
        if node is None:
            raise exception.Invalid('The resource_class field is mandatory '
                                    'when not backfilling')
        values['resource_class'] = node.resource_class
    _candidates(values)
    if not values.get('uuid'):
        values['uuid'] = ((node.instance_uuid if node is not None else None)
                          or uuidutils.generate_uuid())
    values = {k: v for k, v in values.items() if v is not None}
    allocation = objects.Allocation(pecan.request.context, **values)
    if node is not None:
        allocation.node_id = node.id
    return allocation, node


def check_patch(patch):
    """Only name and extra (Ironic's message names them in its order);
    a new name must be a logical name."""
    allowed = ('name', 'extra')
    for op in patch:
        for pointer in (op['path'], op.get('from')):
            if pointer is None:
                continue
            if (not isinstance(pointer, str)
                    or json_patch.root_field(pointer) not in allowed):
                raise exception.Invalid(
                    'Cannot patch %s. Only the following can be updated: '
                    '%s' % (pointer, ', '.join(allowed)))
        if (op['path'] == '/name' and op.get('value')
                and not utils.is_valid_logical_name(op['value'])):
            raise exception.Invalid("Cannot update allocation with invalid "
                                    "name '%s'" % op['value'])
