"""``/v1/conductors`` (1.49): the conductors and whether they are alive."""

import datetime
import functools

from oslo_utils import timeutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import conductor as schema
from ironic_lite.common import policy
from ironic_lite import conf
from ironic_lite import objects

CONF = conf.CONF

# The fields of a conductor's body and the first microversion of each.
FIELD_MIN_VERSION = {
    'hostname': 49,
    'conductor_group': 49,
    'alive': 49,       # computed: heartbeat newer than
                       # [conductor]heartbeat_timeout
    'drivers': 49,     # list of hardware type names; show/detail only
    'created_at': 49,
    'updated_at': 49,
    'links': 49,       # /v1/conductors/<hostname>
    # ironic-lite only, and only when asked for with ?fields= (no body
    # changes shape): the release the conductor runs and its pin, from the
    # services table (null for a release before 3.0, which did not
    # report).  See doc/source/api/differences.rst.
    'release': 49,
    'pin': 49,
}
OPT_IN_FIELDS = ('release', 'pin')
DEFAULT_LIST_FIELDS = ('hostname', 'conductor_group', 'alive')
INVALID_SORT_KEYS = ('alive', 'drivers', 'release', 'pin')


def is_alive(cond):
    """Online and heartbeated within [conductor]heartbeat_timeout."""
    if not cond.online or cond.updated_at is None:
        return False
    limit = timeutils.utcnow(with_timezone=True) - datetime.timedelta(
        seconds=CONF.conductor.heartbeat_timeout)
    updated = cond.updated_at
    if updated.tzinfo is None:
        updated = updated.replace(tzinfo=datetime.timezone.utc)
    return updated >= limit


def _service_of(hostname, caches):
    """The services row of a conductor (None for a release before 3.0);
    a list loads every conductor's row in one query."""
    ctx = pecan.request.context
    if caches is None:
        return objects.Service.get_by_names(
            ctx, 'conductor', [hostname]).get(hostname)
    if 'service' not in caches:
        caches['service'] = objects.Service.get_by_names(ctx, 'conductor')
    return caches['service'].get(hostname)


def render(cond, fields=None, caches=None):
    body = {
        'hostname': cond.hostname,
        'conductor_group': cond.conductor_group or '',
        'alive': is_alive(cond),
        'drivers': list(cond.drivers or []),
        'created_at': resource.isotime(cond.created_at),
        'updated_at': resource.isotime(cond.updated_at),
        'links': link.self_and_bookmark('conductors', cond.hostname),
    }
    if fields and any(f in fields for f in OPT_IN_FIELDS):
        service = _service_of(cond.hostname, caches)
        body['release'] = service.release if service else None
        body['pin'] = service.pin if service else None
    return utils.select_fields(body, fields) if fields else body


# Read-only: no writer.
RES = resource.Resource(
    'conductor', 'conductors', objects.Conductor, render, FIELD_MIN_VERSION,
    default_fields=DEFAULT_LIST_FIELDS, invalid_sort_keys=INVALID_SORT_KEYS)


class ConductorsController(resource.ResourceController):
    RES = RES

    def policy_target(self, obj):
        return {'project_id': pecan.request.context.project_id}

    def project_filter(self, ctx):
        policy.authorize('baremetal:conductor:get', {}, ctx)
        return None

    def marker_of(self, obj):
        return obj.hostname

    def get_object(self, ident):
        return objects.Conductor.get_by_hostname(pecan.request.context,
                                                 ident, online=None)

    def list_filters(self, params):
        return {}

    def list_objects(self, ctx, limit, marker, sort_key, sort_dir, filters):
        return objects.Conductor.list(ctx, limit=limit, marker=marker,
                                      sort_key=sort_key, sort_dir=sort_dir)


# Routes of the handlers ConductorsController inherits.
ROUTE = functools.partial(routes.Route, owner=ConductorsController)

SINCE = mv.CONDUCTOR_MIN_VERSION

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 80
# The links of GET /v1 to it.
V1_RESOURCES = ('conductors',)

ROUTES = [
    ROUTE('GET', '/v1/conductors', ConductorsController.get_all,
                 query=schema.LIST_QUERY, since=SINCE,
                 unknown=q.UNKNOWN_SCHEMA, doc='list conductors'),
    ROUTE('GET', '/v1/conductors/{hostname}',
                 ConductorsController.get_one,
                 query=(schemas.fields_param(since=SINCE),), since=SINCE,
                 unknown=q.UNKNOWN_SCHEMA, doc='show a conductor'),
]
