"""The contract of ``/v1/ports`` (also under a node or a port group)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import schemas as s
from ironic_lite.api import query as v

FIELDS = {
    'address': s.TEXT, 'node_uuid': ('string',), 'uuid': s.TEXT,
    'extra': s.DICT, 'local_link_connection': s.DICT, 'pxe_enabled': s.BOOL,
    'portgroup_uuid': s.TEXT, 'physical_network': s.TEXT,
    'is_smartnic': s.BOOL,
    # 1.88, 1.97, 1.100, 1.101, 1.111 (api/controllers/v1/port.py).
    'name': s.TEXT, 'description': s.TEXT, 'vendor': s.TEXT,
    'category': s.TEXT, 'available_for_dynamic_portgroup': ('boolean',),
    # 1.94: the node by UUID or name, instead of node_uuid.
    'node_ident': ('string',),
}
# Ironic's PORT_SCHEMA: an address, and the node as node_uuid or as
# node_ident (one of them); then its PORT_VALIDATOR_EXTRA (args.uuid), in
# its order.
BODY = dict(s.body('ports', FIELDS, required=('address',),
                   uuids=('node_uuid', 'portgroup_uuid', 'uuid')),
            oneOf=[{'required': ['node_ident']},
                   {'required': ['node_uuid']}])
PATCH_ALLOWED = frozenset(FIELDS) - {'uuid'}
READ_ONLY = ('uuid', 'internal_info', 'created_at', 'updated_at', 'links')

# Ironic serves it at every version (its 1.99 only records it).
CONDUCTOR_GROUPS = v.Param(
    'conductor_groups', v.LIST,
    doc="the conductor groups of the ports' nodes, case-insensitive (not "
        "with node, node_uuid, portgroup or address)")

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
    CONDUCTOR_GROUPS,
    # Ironic takes it at every version, as the description (1.97).
    v.Param('description_contains',
            doc='ports whose description contains this text'),
)
