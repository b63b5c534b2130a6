"""The contract of ``/v1/ports`` (also under a node or a port group)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api import validation as v

FIELDS = {
    'address': s.TEXT, 'node_uuid': s.TEXT, 'uuid': s.TEXT,
    'extra': s.DICT, 'local_link_connection': s.DICT, 'pxe_enabled': s.BOOL,
    'portgroup_uuid': s.TEXT, 'physical_network': s.TEXT,
    'is_smartnic': s.BOOL,
}
BODY = s.body('ports', FIELDS, required=('address', 'node_uuid'))
PATCH_ALLOWED = frozenset(FIELDS) - {'uuid'}
READ_ONLY = ('uuid', 'internal_info', 'created_at', 'updated_at', 'links')

LIST_QUERY = s.PAGING + (
    v.Param('node', doc='node UUID or name (a name needs 1.5)'),
    v.Param('node_uuid', v.UUID, doc='deprecated: use node'),
    v.Param('address', doc='MAC address'),
    s.fields_param(),
    v.Param('portgroup', since=mv.MINOR_24_PORTGROUPS_SUBCONTROLLERS,
            doc='port group UUID or name'),
    s.detail_param(),
    v.Param('shard', v.LIST, since=mv.MINOR_82_NODE_SHARD,
            gate=v.GATE_VERSION,
            doc="the shards of the ports' nodes (not with node, "
                "node_uuid or portgroup)"),
)


def list_routes(prefix, since=1):
    return [
        v.Route('GET', prefix, query=LIST_QUERY, since=since,
                doc='list ports'),
        v.Route('GET', prefix + '/detail', query=LIST_QUERY, since=since,
                doc='list ports with every field'),
    ]


P = '/v1/ports/{port_uuid}'

ROUTES = list_routes('/v1/ports') + [
    v.Route('POST', '/v1/ports', body={1: BODY}, what='port',
            doc='create a port'),
    v.Route('GET', P, query=(s.fields_param(),), doc='show a port'),
    v.Route('PATCH', P, body={1: s.PATCH}, what='patch',
            read_only=READ_ONLY, doc='update a port (JSON patch)'),
    v.Route('DELETE', P, doc='delete a port'),
]
