"""Node BIOS settings (release 5.0, API 1.40 and 1.74), as Ironic's
BIOSSetting and BIOSSettingList.

The settings are what the node's bios interface last reported
(``conductor/bios.py``); the conductor writes them, under the node's lock,
with ``BIOSSettingList.sync``; the API reads them.  Never sent over RPC
(``DB_ONLY``).
"""

from oslo_versionedobjects import base as ovo_base

from ironic_lite.db import bios as db_bios
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class BIOSSetting(base.IronicObject):
    # Version 1.0: initial version (release 5.0), with the registry
    #              fields of Ironic's BIOSSetting 1.1
    VERSION = '1.0'
    DB_ONLY = True

    fields = dict(base.IronicObject.fields, **{
        'node_id': fields.IntegerField(nullable=False),
        'name': fields.StringField(nullable=False),
        'value': fields.StringField(nullable=True),
        'attribute_type': fields.StringField(nullable=True),
        'allowable_values': fields.ListOfStringsField(nullable=True),
        'lower_bound': fields.IntegerField(nullable=True),
        'max_length': fields.IntegerField(nullable=True),
        'min_length': fields.IntegerField(nullable=True),
        'read_only': fields.BooleanField(nullable=True),
        'reset_required': fields.BooleanField(nullable=True),
        'unique': fields.BooleanField(nullable=True),
        'upper_bound': fields.IntegerField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'node_id', 'name', 'value',
                'attribute_type', 'allowable_values', 'lower_bound',
                'max_length', 'min_length', 'read_only', 'reset_required',
                'unique', 'upper_bound'),
    }

    @classmethod
    def get(cls, context, node_id, name):
        """One setting; BIOSSettingNotFound if the node has none so
        named."""
        return cls._from_db_object(context, cls(),
                                   db_bios.get_bios_setting(node_id, name))


@base.IronicObjectRegistry.register
class BIOSSettingList(ovo_base.ObjectListBase, base.IronicObject):
    # Version 1.0: initial version (release 5.0)
    VERSION = '1.0'
    DB_ONLY = True

    fields = dict(base.IronicObject.fields, **{
        'objects': fields.ListOfObjectsField('BIOSSetting'),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'objects'),
    }

    @classmethod
    def get_by_node_id(cls, context, node_id):
        """The node's settings, by name."""
        settings = cls(context)
        settings.objects = BIOSSetting._from_db_object_list(
            context, db_bios.get_bios_setting_list(node_id))
        settings.obj_reset_changes()
        return settings

    @classmethod
    def sync(cls, context, node_id, settings):
        """Make the node's stored settings equal ``settings`` (dicts with
        ``name``, ``value`` and optional registry keys) in one
        transaction; returns the (created, updated, deleted) names.

        Nothing is written (and three empty lists returned) while pinned
        to a release that has no BIOS settings."""
        if not BIOSSetting.known_to_pin():
            return [], [], []
        return db_bios.sync_bios_settings(
            node_id, settings, BIOSSetting.get_target_version())
