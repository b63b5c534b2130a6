"""The contract of ``/v1/portgroups`` (1.23; under a node from 1.24)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api import query as v

FIELDS = {
    'node_uuid': s.TEXT, 'address': s.TEXT, 'name': s.TEXT,
    'extra': s.DICT, 'mode': s.TEXT, 'properties': s.DICT,
    'standalone_ports_supported': s.BOOL, 'uuid': s.TEXT,
    # 1.102, 1.103 (api/controllers/v1/portgroup.py); dynamic_portgroup
    # (1.111) is read-only, as in Ironic's schema.
    'physical_network': s.TEXT, 'category': s.TEXT,
}
# Ironic's PORTGROUP_VALIDATOR_EXTRA (args.uuid), in its order.
BODY = s.body('portgroups', FIELDS, required=('node_uuid',),
              uuids=('node_uuid', 'uuid'))
PATCH_ALLOWED = frozenset(FIELDS) - {'uuid'}
READ_ONLY = ('uuid', 'internal_info', 'created_at', 'updated_at', 'links',
             'ports', 'dynamic_portgroup')
SINCE = mv.PORTGROUP_MIN_VERSION

LIST_QUERY = s.PAGING + (
    v.Param('node', doc='node UUID or name'),
    v.Param('address', doc='MAC address'),
    s.fields_param(since=SINCE),
    s.detail_param(),
    # Ironic's 1.106; here with the rest of the shards (1.82), see
    # doc/source/api/differences.rst.
    v.Param('shard', v.LIST, since=mv.MINOR_82_NODE_SHARD,
            gate=v.GATE_VERSION,
            doc="the shards of the port groups' nodes (not with node)"),
    # As for ports, at every version (Ironic's 1.99 only records it).
    v.Param('conductor_groups', v.LIST,
            doc="the conductor groups of the port groups' nodes, "
                "case-insensitive (not with node, address or shard)"),
)
