from oslo_utils import uuidutils

from ironic_lite.common import exception
from ironic_lite.db import port as db_port
from ironic_lite.objects import base
from ironic_lite.objects import fields
from ironic_lite.objects import portgroup as portgroup_obj


@base.IronicObjectRegistry.register
class Port(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 1.0)
    # Version 1.1: add name, description, vendor, category and
    #              available_for_dynamic_portgroup (release 6.0)
    VERSION = '1.1'

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
        # API 1.88, 1.97, 1.100, 1.101 and 1.111.
        'name': fields.StringField(nullable=True),
        'description': fields.StringField(nullable=True),
        'vendor': fields.StringField(nullable=True),
        'category': fields.StringField(nullable=True),
        'available_for_dynamic_portgroup': fields.BooleanField(default=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'node_id',
                'address', 'extra', 'local_link_connection', 'portgroup_id',
                'pxe_enabled', 'internal_info', 'physical_network',
                'is_smartnic'),
        '1.1': ('name', 'description', 'vendor', 'category',
                'available_for_dynamic_portgroup'),
    }

    _db_create = staticmethod(db_port.create_port)
    _db_create_unless_node_locked = staticmethod(
        db_port.create_port_unless_node_locked)
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
    def get_by_name(cls, context, name):
        return cls._from_db_object(context, cls(),
                                   db_port.get_port_by_name(name))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = db_port.get_port_list(filters=filters, limit=limit,
                                     marker=marker, sort_key=sort_key,
                                     sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)

    @classmethod
    def page_version(cls, context, limit=None, marker=None, sort_key=None,
                     sort_dir=None, filters=None):
        """The version of the page ``list`` returns for the same
        arguments: a text that changes whenever the page would (None
        where the database cannot tell; see db/page_version.py)."""
        return db_port.get_port_page_version(
            filters=filters, limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir)

    @classmethod
    def list_by_node_id(cls, context, node_id, **kwargs):
        filters = dict(kwargs.pop('filters', None) or {}, node_id=node_id)
        return cls.list(context, filters=filters, **kwargs)

    @classmethod
    def follow_portgroup_network(cls, context, portgroup):
        """Give ``portgroup``'s new physical network (API 1.102) to its
        ports, after its write and in its transaction, as Ironic's
        update_portgroup_physical_network does; nothing when the group's
        network is not among its changes."""
        if 'physical_network' not in portgroup.obj_what_changed():
            return
        for port in cls.list(context,
                             filters={'portgroup_id': portgroup.id}):
            if port.physical_network != portgroup.physical_network:
                port.physical_network = portgroup.physical_network
                port.save(context)

    def physnet_check_needed(self):
        """Whether ``check_physnet`` has anything to check: the port is
        in a group and its group or network changes."""
        return bool(self.obj_attr_is_set('portgroup_id') and self.portgroup_id
                    and self.obj_what_changed() & {'portgroup_id',
                                                   'physical_network'})

    def check_physnet(self, context):
        """Conflict (409) unless this port, about to be written, is on the
        physical network of the other ports of its port group.

        Ironic's rule (its conductor's ``validate_port_physnet`` on a port
        create or update): the ports of one group are bonded on one
        network, so they all carry the same ``physical_network`` (``None``
        included), the group's own when it has one and no other port
        (1.102); checked only when the port's group or network changes.
        Called by whoever writes the port: the conductor, in the write's
        transaction, or the API while pinned below RPC 1.3.
        """
        if not self.physnet_check_needed():
            return
        own_id = self.id if self.obj_attr_is_set('id') else None
        physnets = {p.physical_network for p in self.list(
            context, filters={'portgroup_id': self.portgroup_id})
            if p.id != own_id}
        group = portgroup_obj.Portgroup.get(context, self.portgroup_id)
        if not physnets and group.physical_network is not None:
            # A group without other ports, with its own network (1.102).
            physnets = {group.physical_network}
        if not physnets:
            return
        if len(physnets) > 1:
            # Only rows written before the rule was enforced.
            raise exception.Conflict(
                'Port group %s has member ports with inconsistent physical '
                'networks (%s). All ports in a port group must have the '
                'same physical network.'
                % (group.uuid, ', '.join(sorted(map(str, physnets)))))
        group_physnet = physnets.pop()
        own = (self.physical_network
               if self.obj_attr_is_set('physical_network') else None)
        if own != group_physnet:
            raise exception.Conflict(
                'Port with physical network %s cannot become a member of '
                'port group %s which has ports in physical network %s.'
                % (own, group.uuid, group_physnet))
