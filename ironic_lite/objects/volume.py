"""Volume connectors and volume targets of a node (release 4.0)."""

from oslo_utils import uuidutils

from ironic_lite.db import volume as db_volume
from ironic_lite.objects import base
from ironic_lite.objects import fields


class _VolumeMixin(object):
    """get/list of a volume record; ``_db_get(column, value)`` and
    ``_db_list(**kwargs)`` are the class's query functions."""

    @classmethod
    def get(cls, context, ident):
        """Find one by database id or UUID (NotFound otherwise)."""
        if isinstance(ident, int):
            row = cls._db_get('id', ident)
        elif uuidutils.is_uuid_like(ident):
            row = cls._db_get('uuid', ident)
        else:
            raise cls.not_found(ident)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(context, cls(), cls._db_get('uuid', uuid))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = cls._db_list(filters=filters, limit=limit, marker=marker,
                            sort_key=sort_key, sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)

    @classmethod
    def list_by_node_id(cls, context, node_id, **kwargs):
        filters = dict(kwargs.pop('filters', None) or {}, node_id=node_id)
        return cls.list(context, filters=filters, **kwargs)


@base.IronicObjectRegistry.register
class VolumeConnector(_VolumeMixin, base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 4.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'node_id': fields.IntegerField(nullable=True),
        'type': fields.StringField(nullable=True),
        'connector_id': fields.StringField(nullable=True),
        'extra': fields.FlexibleDictField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'node_id',
                'type', 'connector_id', 'extra'),
    }

    _db_create = staticmethod(db_volume.create_connector)
    _db_update = staticmethod(db_volume.update_connector)
    _db_destroy = staticmethod(db_volume.destroy_connector)
    _db_get = staticmethod(db_volume.get_connector)
    _db_list = staticmethod(db_volume.get_connector_list)
    not_found = staticmethod(db_volume.connector_not_found)

    @staticmethod
    def _db_get_by_uuid(uuid):
        return db_volume.get_connector('uuid', uuid)


@base.IronicObjectRegistry.register
class VolumeTarget(_VolumeMixin, base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 4.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'node_id': fields.IntegerField(nullable=True),
        'volume_type': fields.StringField(nullable=True),
        'properties': fields.FlexibleDictField(nullable=True),
        'boot_index': fields.IntegerField(nullable=True),
        'volume_id': fields.StringField(nullable=True),
        'extra': fields.FlexibleDictField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'node_id',
                'volume_type', 'properties', 'boot_index', 'volume_id',
                'extra'),
    }

    _db_create = staticmethod(db_volume.create_target)
    _db_update = staticmethod(db_volume.update_target)
    _db_destroy = staticmethod(db_volume.destroy_target)
    _db_get = staticmethod(db_volume.get_target)
    _db_list = staticmethod(db_volume.get_target_list)
    not_found = staticmethod(db_volume.target_not_found)

    @staticmethod
    def _db_get_by_uuid(uuid):
        return db_volume.get_target('uuid', uuid)
