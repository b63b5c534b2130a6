from oslo_utils import uuidutils

from ironic_lite.db import port as db_port
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class Port(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 1.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'node_id': fields.IntegerField(nullable=True),
        'address': fields.MACAddressField(nullable=True),
        'extra': fields.FlexibleDictField(nullable=True),
        'local_link_connection': fields.FlexibleDictField(nullable=True),
        'portgroup_id': fields.IntegerField(nullable=True),
        'pxe_enabled': fields.BooleanField(),
        'internal_info': fields.FlexibleDictField(nullable=True),
        'physical_network': fields.StringField(nullable=True),
        'is_smartnic': fields.BooleanField(nullable=True, default=False),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'node_id',
                'address', 'extra', 'local_link_connection', 'portgroup_id',
                'pxe_enabled', 'internal_info', 'physical_network',
                'is_smartnic'),
    }

    _db_create = staticmethod(db_port.create_port)
    _db_update = staticmethod(db_port.update_port)
    _db_destroy = staticmethod(db_port.destroy_port)
    _db_get_by_uuid = staticmethod(db_port.get_port_by_uuid)

    @classmethod
    def get(cls, context, port_id):
        """Find a port by id, UUID or MAC address."""
        if isinstance(port_id, int) or str(port_id).isdigit():
            row = db_port.get_port_by_id(int(port_id))
        elif uuidutils.is_uuid_like(port_id):
            row = db_port.get_port_by_uuid(port_id)
        else:
            row = db_port.get_port_by_address(port_id)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(context, cls(),
                                   db_port.get_port_by_uuid(uuid))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = db_port.get_port_list(filters=filters, limit=limit,
                                     marker=marker, sort_key=sort_key,
                                     sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)

    @classmethod
    def list_by_node_id(cls, context, node_id, **kwargs):
        filters = dict(kwargs.pop('filters', None) or {}, node_id=node_id)
        return cls.list(context, filters=filters, **kwargs)
