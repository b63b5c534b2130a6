from oslo_utils import uuidutils

from ironic_lite.common import utils
from ironic_lite.db import portgroup as db_portgroup
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class Portgroup(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 1.0)
    # Version 1.1: add physical_network, category and dynamic_portgroup
    #              (release 6.0)
    VERSION = '1.1'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'name': fields.StringField(nullable=True),
        'node_id': fields.IntegerField(nullable=True),
        'address': fields.MACAddressField(nullable=True),
        'extra': fields.FlexibleDictField(nullable=True),
        'internal_info': fields.FlexibleDictField(nullable=True),
        'standalone_ports_supported': fields.BooleanField(),
        'mode': fields.StringField(nullable=True),
        'properties': fields.FlexibleDictField(nullable=True),
        # API 1.102, 1.103 and 1.111.
        'physical_network': fields.StringField(nullable=True),
        'category': fields.StringField(nullable=True),
        'dynamic_portgroup': fields.BooleanField(nullable=True,
                                                 default=False),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'name', 'node_id',
                'address', 'extra', 'internal_info',
                'standalone_ports_supported', 'mode', 'properties'),
        '1.1': ('physical_network', 'category', 'dynamic_portgroup'),
    }

    _db_create = staticmethod(db_portgroup.create_portgroup)
    _db_create_unless_node_locked = staticmethod(
        db_portgroup.create_portgroup_unless_node_locked)
    _db_update = staticmethod(db_portgroup.update_portgroup)
    _db_destroy = staticmethod(db_portgroup.destroy_portgroup)
    _db_get_by_uuid = staticmethod(db_portgroup.get_portgroup_by_uuid)

    @classmethod
    def get(cls, context, portgroup_id):
        """Find a port group by id, UUID, MAC address or name."""
        if isinstance(portgroup_id, int) or str(portgroup_id).isdigit():
            row = db_portgroup.get_portgroup_by_id(int(portgroup_id))
        elif uuidutils.is_uuid_like(portgroup_id):
            row = db_portgroup.get_portgroup_by_uuid(portgroup_id)
        elif utils.is_valid_mac(portgroup_id):
            row = db_portgroup.get_portgroup_by_address(portgroup_id)
        else:
            row = db_portgroup.get_portgroup_by_name(portgroup_id)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(
            context, cls(), db_portgroup.get_portgroup_by_uuid(uuid))

    @classmethod
    def get_by_name(cls, context, name):
        return cls._from_db_object(
            context, cls(), db_portgroup.get_portgroup_by_name(name))

    @classmethod
    def uuids_by_id(cls, context, ids):
        """{id: uuid} of the port groups among ``ids``."""
        return db_portgroup.get_uuids_by_ids(sorted(ids))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = db_portgroup.get_portgroup_list(
            filters=filters, limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)

    @classmethod
    def list_by_node_id(cls, context, node_id, **kwargs):
        filters = dict(kwargs.pop('filters', None) or {}, node_id=node_id)
        return cls.list(context, filters=filters, **kwargs)
