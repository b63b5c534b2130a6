"""The contract of ``/v1/portgroups`` (1.23; under a node from 1.24)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api.schemas import port
from ironic_lite.api import validation as v

FIELDS = {
    'node_uuid': s.TEXT, 'address': s.TEXT, 'name': s.TEXT,
    'extra': s.DICT, 'mode': s.TEXT, 'properties': s.DICT,
    'standalone_ports_supported': s.BOOL, 'uuid': s.TEXT,
}
BODY = s.body('portgroups', FIELDS, required=('node_uuid',))
PATCH_ALLOWED = frozenset(FIELDS) - {'uuid'}
READ_ONLY = ('uuid', 'internal_info', 'created_at', 'updated_at', 'links',
             'ports')
SINCE = mv.PORTGROUP_MIN_VERSION

LIST_QUERY = s.PAGING + (
    v.Param('node', doc='node UUID or name'),
    v.Param('address', doc='MAC address'),
    s.fields_param(since=SINCE),
    s.detail_param(),
    v.Param('shard', v.LIST, since=mv.MINOR_82_NODE_SHARD,
            gate=v.GATE_VERSION,
            doc="the shards of the port groups' nodes (not with node)"),
)


def list_routes(prefix, since=SINCE):
    return [
        v.Route('GET', prefix, query=LIST_QUERY, since=since,
                unknown=v.UNKNOWN_SCHEMA, doc='list port groups'),
        v.Route('GET', prefix + '/detail', query=LIST_QUERY, since=since,
                unknown=v.UNKNOWN_SCHEMA,
                doc='list port groups with every field'),
    ]


PG = '/v1/portgroups/{portgroup_ident}'

ROUTES = list_routes('/v1/portgroups') + [
    v.Route('POST', '/v1/portgroups', body={SINCE: BODY},
            what='portgroup', since=SINCE, doc='create a port group'),
    v.Route('GET', PG, query=(s.fields_param(since=SINCE),), since=SINCE,
            unknown=v.UNKNOWN_SCHEMA, doc='show a port group'),
    v.Route('PATCH', PG, body={SINCE: s.PATCH}, what='patch',
            read_only=READ_ONLY, since=SINCE,
            doc='update a port group (JSON patch)'),
    v.Route('DELETE', PG, since=SINCE, doc='delete a port group'),
] + port.list_routes(PG + '/ports',
                     since=mv.MINOR_24_PORTGROUPS_SUBCONTROLLERS)
