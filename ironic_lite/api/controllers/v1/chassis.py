"""``/v1/chassis`` and ``/v1/chassis/<uuid>/nodes``."""

import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import node
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import chassis as schema
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects

MAX_DESCRIPTION = 255

# The fields of a chassis' body and the first microversion of each.
FIELD_MIN_VERSION = {
    'uuid': 1,
    'description': 1,
    'extra': 1,
    'created_at': 1,
    'updated_at': 1,
    'links': 1,
    'nodes': 1,  # sub-resource link to /v1/chassis/<uuid>/nodes
}
DEFAULT_LIST_FIELDS = ('uuid', 'description')
INVALID_SORT_KEYS = ('extra',)


def render(chassis, fields=None, caches=None):
    body = {
        'uuid': chassis.uuid, 'description': chassis.description,
        'extra': chassis.extra or {},
        'created_at': resource.isotime(chassis.created_at),
        'updated_at': resource.isotime(chassis.updated_at),
        'links': link.self_and_bookmark('chassis', chassis.uuid),
    }
    if not fields:
        body['nodes'] = link.self_and_bookmark('chassis',
                                               chassis.uuid + '/nodes')
    body = utils.hide_fields(body, FIELD_MIN_VERSION)
    return utils.select_fields(body, fields) if fields else body


def _check_description(values):
    if len(values.get('description') or '') > MAX_DESCRIPTION:
        raise exception.InvalidParameterValue(
            err='Chassis description exceeds %d characters'
                % MAX_DESCRIPTION)


# Written to the database by the API (no conductor is involved).
RES = resource.Resource(
    'chassis', 'chassis', objects.Chassis, render,
    FIELD_MIN_VERSION, writer=writer.Writer(),
    default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS,
    link_fields=('links', 'nodes'), body_schema=schema.BODY,
    patch_allowed=schema.PATCH_ALLOWED)


class ChassisController(resource.ResourceController):
    RES = RES

    def policy_target(self, obj):
        return {'project_id': pecan.request.context.project_id}

    def project_filter(self, ctx):
        policy.authorize('baremetal:chassis:get', {}, ctx)
        return None

    def get_object(self, ident):
        # A UUID: each route checks its path segment (``path_args``).
        return objects.Chassis.get(pecan.request.context, ident)

    def list_filters(self, params):
        return {}

    def list_objects(self, ctx, limit, marker, sort_key, sort_dir, filters):
        return objects.Chassis.list(ctx, limit=limit, marker=marker,
                                    sort_key=sort_key, sort_dir=sort_dir)

    def new_object(self, ctx, values):
        _check_description(values)
        values.setdefault('uuid', uuidutils.generate_uuid())
        return objects.Chassis(ctx, **values)

    def apply_changes(self, ctx, obj, changes):
        _check_description(changes)
        super().apply_changes(ctx, obj, changes)


# Routes of the handlers ChassisController inherits.
ROUTE = functools.partial(routes.Route, owner=ChassisController)

C = '/v1/chassis/{chassis_uuid}'
R = ROUTE
H = ChassisController
# Ironic checks the chassis of the path with args.uuid, but its PATCH with
# the parameter schema (a jsonschema message).
UUID_ARG = {'chassis_uuid': utils.uuid_arg('chassis_uuid')}

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 70
# The links of GET /v1 to it.
V1_RESOURCES = ('chassis',)

ROUTES = [
    R('GET', '/v1/chassis', H.get_all, query=schema.LIST_QUERY,
      unknown=q.UNKNOWN_SCHEMA, doc='list chassis'),
    R('GET', '/v1/chassis/detail', H.detail, query=schema.LIST_QUERY,
      unknown=q.UNKNOWN_SCHEMA, doc='list chassis with every field'),
    R('POST', '/v1/chassis', H.post, body={1: schema.BODY}, what='chassis',
      doc='create a chassis'),
    R('GET', C, H.get_one, query=(schemas.fields_param(),),
      unknown=q.UNKNOWN_SCHEMA, path_args=UUID_ARG, doc='show a chassis'),
    R('PATCH', C, H.patch, body={1: schemas.PATCH}, what='patch',
      read_only=schema.READ_ONLY,
      path_args={'chassis_uuid': utils.schema_uuid_arg},
      doc='update a chassis (JSON patch)'),
    R('DELETE', C, H.delete, path_args=UUID_ARG, doc='delete a chassis'),
] + node.list_routes(C + '/nodes', path_args=UUID_ARG) + (
    resource.refused_routes(C + '/nodes'))
