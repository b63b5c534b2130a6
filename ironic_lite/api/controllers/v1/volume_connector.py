"""``/v1/volume/connectors`` (1.32; also listed under a node)."""

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import volume
from ironic_lite.api import microversions as mv
from ironic_lite.api.schemas import volume as schema
from ironic_lite.conductor import rpcapi
from ironic_lite import objects

RESOURCE = 'volume/connectors'

# The fields of a volume connector's body (all from 1.32).
FIELD_MIN_VERSION = dict.fromkeys(
    ('uuid', 'type', 'connector_id', 'node_uuid', 'extra', 'created_at',
     'updated_at', 'links'), mv.MINOR_32_VOLUME)
DEFAULT_LIST_FIELDS = ('uuid', 'node_uuid', 'type', 'connector_id')
INVALID_SORT_KEYS = ('extra',)


def render(connector, fields=None, caches=None):
    caches = caches if caches is not None else {}
    table = FIELD_MIN_VERSION
    body = {
        'uuid': connector.uuid, 'type': connector.type,
        'connector_id': connector.connector_id, 'node_uuid': None,
        'extra': connector.extra or {},
        'created_at': resource.isotime(connector.created_at),
        'updated_at': resource.isotime(connector.updated_at),
        'links': link.self_and_bookmark(RESOURCE, connector.uuid),
    }
    if resource.shows(fields, 'node_uuid', table):
        body['node_uuid'] = resource.node_uuid(connector.node_id, caches)
    return utils.select_fields(body, fields) if fields else body


RES = volume.record(
    RESOURCE, objects.VolumeConnector, render, FIELD_MIN_VERSION,
    (rpcapi.ConductorAPI.create_volume_connector,
     rpcapi.ConductorAPI.update_volume_connector,
     rpcapi.ConductorAPI.destroy_volume_connector), 'volume connector',
    items_key='connectors',
    default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS,
    body_schema=schema.CONNECTOR_BODY,
    patch_allowed=schema.CONNECTOR_PATCH_ALLOWED)


class VolumeConnectorsController(volume.VolumeRecordController):
    RES = RES

    def new_object(self, ctx, values):
        return objects.VolumeConnector(ctx,
                                       **self.parent_values(ctx, values))


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 130

ROUTES = volume.record_routes(VolumeConnectorsController, 'connectors',
                              schema.CONNECTOR_BODY,
                              schema.CONNECTOR_READ_ONLY, 'connector')
