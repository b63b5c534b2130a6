from oslo_utils import uuidutils

from ironic_lite.common import exception
from ironic_lite.db import allocation as db_allocation
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class Allocation(base.CrudMixin, base.IronicObject):
    """A request for a node (release 4.0, API 1.52): what Ironic's
    Allocation 1.1 holds (its owner included)."""

    # Version 1.0: initial version (release 4.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=True),
        'name': fields.StringField(nullable=True),
        'node_id': fields.IntegerField(nullable=True),
        'state': fields.StringField(nullable=True),
        'last_error': fields.StringField(nullable=True),
        'resource_class': fields.StringField(nullable=True),
        'traits': fields.ListOfStringsField(nullable=True),
        'candidate_nodes': fields.ListOfStringsField(nullable=True),
        'extra': fields.FlexibleDictField(nullable=True),
        'conductor_affinity': fields.IntegerField(nullable=True),
        'owner': fields.StringField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'name', 'node_id',
                'state', 'last_error', 'resource_class', 'traits',
                'candidate_nodes', 'extra', 'conductor_affinity', 'owner'),
    }

    _db_create = staticmethod(db_allocation.create_allocation)
    _db_update = staticmethod(db_allocation.update_allocation)
    _db_destroy = staticmethod(db_allocation.destroy_allocation)
    _db_get_by_uuid = staticmethod(db_allocation.get_allocation_by_uuid)

    @classmethod
    def get(cls, context, ident):
        """By id, UUID or name."""
        if isinstance(ident, int):
            row = db_allocation.get_allocation_by_id(ident)
        elif uuidutils.is_uuid_like(ident):
            row = db_allocation.get_allocation_by_uuid(ident)
        else:
            row = db_allocation.get_allocation_by_name(ident)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_id(cls, context, allocation_id):
        return cls._from_db_object(
            context, cls(), db_allocation.get_allocation_by_id(allocation_id))

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(
            context, cls(), db_allocation.get_allocation_by_uuid(uuid))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = db_allocation.get_allocation_list(
            filters=filters, limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)

    def assign_node(self, node_id, state):
        """Reserve node ``node_id`` for this allocation (see
        ``db.allocation.assign_node``), now in ``state``."""
        if self.id is None:
            raise exception.AllocationNotFound(allocation=self.uuid)
        row = db_allocation.assign_node(
            self.id, node_id, {'node_id': node_id, 'state': state,
                               'last_error': None,
                               'version': type(self).VERSION})
        self._from_db_object(self._context, self, row)

    @classmethod
    def check_node_list(cls, context, idents, project=None):
        """{ident: node UUID} of candidate nodes (UUIDs or names)."""
        return db_allocation.node_uuids(idents, project)

    @classmethod
    def fail_allocating(cls, context, conductor_ids, error):
        """Allocations these conductors left ``allocating`` -> error."""
        return db_allocation.fail_allocating(conductor_ids, error)
