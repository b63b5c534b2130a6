"""The contract of ``/v1/allocations`` (1.52) and
``/v1/nodes/<node>/allocation``."""

import copy

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as v
from ironic_lite.api import schemas as s
from ironic_lite.api.schemas import trait as trait_schema

SINCE = mv.MINOR_52_ALLOCATION

FIELDS = {
    'candidate_nodes': s.LIST_, 'extra': s.DICT, 'name': s.TEXT,
    'owner': s.TEXT, 'resource_class': s.TEXT, 'traits': s.LIST_,
    'uuid': s.TEXT,
}


def _body(fields):
    schema = s.body('allocations', fields, uuids=('uuid',))
    props = schema['properties']
    props['candidate_nodes']['items'] = {'type': 'string'}
    props['traits']['items'] = trait_schema.TRAIT
    return schema


BODY = _body(FIELDS)
# 1.58: ``node``, a node already deployed whose allocation is recorded.
BODY_58 = _body(dict(FIELDS, node=s.TEXT))
# What a PATCHed allocation must still be (Ironic's ALLOCATION_SCHEMA).
PATCHED = copy.deepcopy(BODY)
PATCH_ALLOWED = ('name', 'extra')   # in Ironic's order (its message)
READ_ONLY = ('uuid', 'node_uuid', 'state', 'last_error', 'created_at',
             'updated_at', 'links')

LIST_QUERY = s.PAGING + (
    s.fields_param(since=SINCE),
    v.Param('node', doc='node UUID or name'),
    v.Param('resource_class', doc='resource class'),
    v.Param('state', doc='allocating, active or error'),
    v.Param('owner', since=mv.MINOR_60_ALLOCATION_OWNER,
            doc='project owning the allocations'),
)
SHOW_QUERY = (s.fields_param(since=SINCE),)
