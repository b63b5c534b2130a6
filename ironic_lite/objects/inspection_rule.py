"""Inspection rules (API 1.96), as Ironic's InspectionRule.

The API writes them through this object directly (no conductor is
involved, as in Ironic); the conductor reads those of a phase when it
inspects a node (``conductor/inspection_rules.py``).  Never sent over
RPC (``DB_ONLY``).
"""

from ironic_lite.db import inspection_rule as db_rule
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class InspectionRule(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (API 1.96)
    VERSION = '1.0'
    DB_ONLY = True

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=False),
        'priority': fields.IntegerField(default=0),
        'description': fields.StringField(nullable=True),
        'sensitive': fields.BooleanField(default=False),
        'phase': fields.StringField(nullable=True, default='main'),
        'scope': fields.StringField(nullable=True),
        'actions': fields.ListOfFlexibleDictsField(nullable=False),
        'conditions': fields.ListOfFlexibleDictsField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'priority',
                'description', 'sensitive', 'phase', 'scope', 'actions',
                'conditions'),
    }

    _db_create = staticmethod(db_rule.create_inspection_rule)
    _db_update = staticmethod(db_rule.update_inspection_rule)
    _db_destroy = staticmethod(db_rule.destroy_inspection_rule)
    _db_get_by_uuid = staticmethod(db_rule.get_inspection_rule_by_uuid)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        row = db_rule.get_inspection_rule_by_uuid(uuid)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = db_rule.get_inspection_rule_list(
            limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir, filters=filters)
        return cls._from_db_object_list(context, rows)

    def as_rule(self):
        """The rule as the engine reads it: a dict of its fields."""
        return {'uuid': self.uuid, 'priority': self.priority or 0,
                'description': self.description,
                'sensitive': bool(self.sensitive),
                'phase': self.phase, 'conditions': self.conditions or [],
                'actions': self.actions or []}
