from oslo_utils import uuidutils

from ironic_lite.db import chassis as db_chassis
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class Chassis(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 1.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'extra': fields.FlexibleDictField(nullable=True),
        'description': fields.StringField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'extra',
                'description'),
    }

    _db_create = staticmethod(db_chassis.create_chassis)
    _db_update = staticmethod(db_chassis.update_chassis)
    _db_destroy = staticmethod(db_chassis.destroy_chassis)
    _db_get_by_uuid = staticmethod(db_chassis.get_chassis_by_uuid)

    @classmethod
    def get(cls, context, chassis_id):
        if isinstance(chassis_id, int) or str(chassis_id).isdigit():
            row = db_chassis.get_chassis_by_id(int(chassis_id))
        elif uuidutils.is_uuid_like(chassis_id):
            row = db_chassis.get_chassis_by_uuid(chassis_id)
        else:
            from ironic_lite.common import exception
            raise exception.InvalidUUID(uuid=chassis_id)
        return cls._from_db_object(context, cls(), row)

    get_by_uuid = get

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None):
        rows = db_chassis.get_chassis_list(limit=limit, marker=marker,
                                           sort_key=sort_key,
                                           sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)
