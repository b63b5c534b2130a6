"""The contract of ``/v1/volume``, its connectors and targets (1.32; also
under a node)."""

from ironic_lite.api import microversions as mv
from ironic_lite.api import query as v
from ironic_lite.api import schemas as s

SINCE = mv.MINOR_32_VOLUME
STRING = ('string',)

# Ironic's CONNECTOR_SCHEMA and CONNECTOR_VALIDATOR_EXTRA (args.uuid).
CONNECTOR_FIELDS = {
    'connector_id': STRING, 'extra': s.DICT, 'node_uuid': STRING,
    'type': STRING, 'uuid': s.TEXT,
}
CONNECTOR_BODY = s.body('volume_connectors', CONNECTOR_FIELDS,
                        required=('connector_id', 'node_uuid', 'type'),
                        uuids=('node_uuid', 'uuid'))
CONNECTOR_PATCH_ALLOWED = frozenset(('connector_id', 'extra', 'node_uuid',
                                     'type'))
CONNECTOR_READ_ONLY = ('uuid', 'created_at', 'updated_at', 'links')

# Ironic's TARGET_SCHEMA and TARGET_VALIDATOR_EXTRA.
TARGET_FIELDS = {
    'boot_index': ('integer',), 'extra': s.DICT, 'node_uuid': STRING,
    'properties': s.DICT, 'volume_id': STRING, 'volume_type': STRING,
    'uuid': s.TEXT,
}
TARGET_BODY = s.body('volume_targets', TARGET_FIELDS,
                     required=('boot_index', 'node_uuid', 'volume_id',
                               'volume_type'),
                     uuids=('node_uuid', 'uuid'))
# A boot index the database's INTEGER column holds (Ironic has no bound:
# a larger one is a database error there).
TARGET_BODY['properties']['boot_index'].update(minimum=-2 ** 31,
                                               maximum=2 ** 31 - 1)
TARGET_PATCH_ALLOWED = frozenset(('boot_index', 'extra', 'node_uuid',
                                  'properties', 'volume_id', 'volume_type'))
TARGET_READ_ONLY = CONNECTOR_READ_ONLY

LIST_QUERY = s.PAGING + (
    v.Param('node', doc='node UUID or name'),
    s.fields_param(),
    v.Param('detail', v.BOOL, doc='return every field'),
)
SHOW_QUERY = (s.fields_param(),)
