"""Node firmware components (release 6.0, API 1.86 and 1.114), as
Ironic's FirmwareComponent and FirmwareComponentList.

The components are what the node's firmware interface last reported
(``conductor/firmware.py``); the conductor writes them, under the node's
lock, with ``FirmwareComponentList.sync``; the API reads them.  Never
sent over RPC (``DB_ONLY``).
"""

from oslo_versionedobjects import base as ovo_base

from ironic_lite.db import firmware as db_firmware
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class FirmwareComponent(base.IronicObject):
    # Version 1.0: initial version (release 6.0), with the identity
    #              fields of Ironic's FirmwareComponent 1.2
    VERSION = '1.0'
    DB_ONLY = True

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'node_id': fields.IntegerField(nullable=False),
        'component': fields.StringField(nullable=False),
        'initial_version': fields.StringField(nullable=False),
        'current_version': fields.StringField(nullable=True),
        'last_version_flashed': fields.StringField(nullable=True),
        'vendor': fields.StringField(nullable=True),
        'model': fields.StringField(nullable=True),
        'serial_number': fields.StringField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'node_id', 'component',
                'initial_version', 'current_version',
                'last_version_flashed', 'vendor', 'model', 'serial_number'),
    }


@base.IronicObjectRegistry.register
class FirmwareComponentList(ovo_base.ObjectListBase, base.IronicObject):
    # Version 1.0: initial version (release 6.0)
    VERSION = '1.0'
    DB_ONLY = True

    fields = dict(base.IronicObject.fields, **{
        'objects': fields.ListOfObjectsField('FirmwareComponent'),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'objects'),
    }

    @classmethod
    def get_by_node_id(cls, context, node_id):
        """The node's components, in the order they were first
        stored (Ironic's)."""
        found = cls(context)
        found.objects = FirmwareComponent._from_db_object_list(
            context, db_firmware.get_firmware_component_list(node_id))
        found.obj_reset_changes()
        return found

    @classmethod
    def sync(cls, context, node_id, components):
        """Store ``components`` (dicts with ``component``,
        ``current_version`` and the optional ``vendor``, ``model`` and
        ``serial_number``) in one transaction; returns the (created,
        updated, unchanged) names.

        Nothing is written (and three empty lists returned) while pinned
        to a release that has no firmware components."""
        if not FirmwareComponent.known_to_pin():
            return [], [], []
        return db_firmware.sync_firmware_components(
            node_id, components, FirmwareComponent.get_target_version())
