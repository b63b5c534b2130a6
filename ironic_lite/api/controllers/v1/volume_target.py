"""``/v1/volume/targets`` (1.32; also listed under a node).

A target's ``properties`` may hold the credentials of its volume: their
secrets are masked, and a caller without
``baremetal:volume:view_target_properties`` gets Ironic's redaction
notice instead of the whole dict.
"""

import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import volume
from ironic_lite.api import microversions as mv
from ironic_lite.api.schemas import volume as schema
from ironic_lite.conductor import rpcapi
from ironic_lite.common import masking
from ironic_lite.common import policy
from ironic_lite import objects

RESOURCE = 'volume/targets'
REDACTED = {'redacted_contents': (
    '** Value redacted: Requires permission '
    'baremetal:volume:view_target_properties access. Permission denied. **')}

# The fields of a volume target's body (all from 1.32).
FIELD_MIN_VERSION = dict.fromkeys(
    ('uuid', 'volume_type', 'properties', 'boot_index', 'volume_id',
     'node_uuid', 'extra', 'created_at', 'updated_at', 'links'),
    mv.MINOR_32_VOLUME)
DEFAULT_LIST_FIELDS = ('uuid', 'node_uuid', 'volume_type', 'boot_index',
                       'volume_id')
INVALID_SORT_KEYS = ('extra', 'properties')


def _properties(target, caches):
    if 'view_properties' not in caches:
        ctx = pecan.request.context
        caches['view_properties'] = policy.check(
            'baremetal:volume:view_target_properties',
            policy.node_target(None, ctx), ctx)
    if not caches['view_properties']:
        return dict(REDACTED)
    properties = target.properties or {}
    return (masking.mask_dict_password(properties, '******')
            if properties else {})


def render(target, fields=None, caches=None):
    caches = caches if caches is not None else {}
    table = FIELD_MIN_VERSION
    body = {
        'uuid': target.uuid, 'volume_type': target.volume_type,
        'boot_index': target.boot_index, 'volume_id': target.volume_id,
        'node_uuid': None, 'properties': None,
        'extra': target.extra or {},
        'created_at': resource.isotime(target.created_at),
        'updated_at': resource.isotime(target.updated_at),
        'links': link.self_and_bookmark(RESOURCE, target.uuid),
    }
    if resource.shows(fields, 'node_uuid', table):
        body['node_uuid'] = resource.node_uuid(target.node_id, caches)
    if resource.shows(fields, 'properties', table):
        body['properties'] = _properties(target, caches)
    return utils.select_fields(body, fields) if fields else body


RES = volume.record(
    RESOURCE, objects.VolumeTarget, render, FIELD_MIN_VERSION,
    (rpcapi.ConductorAPI.create_volume_target,
     rpcapi.ConductorAPI.update_volume_target,
     rpcapi.ConductorAPI.destroy_volume_target), 'volume target',
    items_key='targets',
    default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS,
    body_schema=schema.TARGET_BODY,
    patch_allowed=schema.TARGET_PATCH_ALLOWED)


class VolumeTargetsController(volume.VolumeRecordController):
    RES = RES

    def editable_document(self, obj):
        # The stored properties, not what a GET shows (masked, redacted).
        doc = super().editable_document(obj)
        doc['properties'] = obj.properties or {}
        return doc

    def new_object(self, ctx, values):
        return objects.VolumeTarget(ctx, **self.parent_values(ctx, values))


# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 140

ROUTES = volume.record_routes(VolumeTargetsController, 'targets',
                              schema.TARGET_BODY, schema.TARGET_READ_ONLY,
                              'target')
