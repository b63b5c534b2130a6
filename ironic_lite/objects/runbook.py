"""Runbooks (release 6.0, API 1.92; traits and description 1.112), as
Ironic's Runbook.

A runbook is a named list of steps (``interface``, ``step``, ``args``,
``order``) that a node may run when asked to clean (or service) with it,
if one of the node's traits is the runbook's name (below API 1.112) or one
of the runbook's traits (from 1.112).  The API writes runbooks through
this object directly (no conductor is involved, as in Ironic) and resolves
a runbook to its steps before it asks a conductor: never sent over RPC
(``DB_ONLY``).
"""

from oslo_utils import uuidutils

from ironic_lite.db import runbook as db_runbook
from ironic_lite.objects import base
from ironic_lite.objects import fields


def _step_dict(row):
    return {'interface': row.interface, 'step': row.step,
            'args': dict(row.args or {}), 'order': row.order}


@base.IronicObjectRegistry.register
class Runbook(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 6.0), Ironic's Runbook 1.2
    VERSION = '1.0'
    DB_ONLY = True
    STORED_ELSEWHERE = ('steps', 'traits')

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=False),
        'name': fields.StringField(nullable=False),
        'description': fields.StringField(nullable=True),
        'steps': fields.ListOfFlexibleDictsField(nullable=False),
        'disable_ramdisk': fields.BooleanField(default=False),
        'extra': fields.FlexibleDictField(nullable=True),
        'public': fields.BooleanField(default=False),
        'owner': fields.StringField(nullable=True),
        'traits': fields.ListOfStringsField(nullable=False, default=[]),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'name',
                'description', 'steps', 'disable_ramdisk', 'extra',
                'public', 'owner', 'traits'),
    }

    _db_create = staticmethod(db_runbook.create_runbook)
    _db_update = staticmethod(db_runbook.update_runbook)
    _db_destroy = staticmethod(db_runbook.destroy_runbook)
    _db_get_by_uuid = staticmethod(db_runbook.get_runbook_by_uuid)

    @staticmethod
    def _from_db_object(context, obj, db_object, fields=None):
        names = [n for n in obj.fields if n not in obj.STORED_ELSEWHERE
                 and (fields is None or n in fields)]
        base.IronicObject._from_db_object(context, obj, db_object, names)
        loaded = []
        if fields is None or 'steps' in fields:
            obj.steps = [_step_dict(row) for row in db_object.steps]
            loaded.append('steps')
        if fields is None or 'traits' in fields:
            obj.traits = [row.trait for row in db_object.traits]
            loaded.append('traits')
        obj.obj_reset_changes(loaded)
        return obj

    @classmethod
    def get(cls, context, ident):
        """By UUID or name (the API's ``runbook_ident``)."""
        if uuidutils.is_uuid_like(ident):
            return cls.get_by_uuid(context, ident)
        return cls.get_by_name(context, ident)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(context, cls(),
                                   db_runbook.get_runbook_by_uuid(uuid))

    @classmethod
    def get_by_name(cls, context, name):
        return cls._from_db_object(context, cls(),
                                   db_runbook.get_runbook_by_name(name))

    @classmethod
    def get_by_id(cls, context, runbook_id):
        return cls._from_db_object(context, cls(),
                                   db_runbook.get_runbook_by_id(runbook_id))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = db_runbook.get_runbook_list(
            limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir, filters=filters)
        return cls._from_db_object_list(context, rows)

    def _set_traits(self, row):
        self.traits = [t.trait for t in row.traits]
        self.updated_at = row.updated_at
        self.obj_reset_changes(['traits', 'updated_at'])

    def set_traits(self, traits):
        """Replace the runbook's traits (1.112)."""
        self._set_traits(db_runbook.set_runbook_traits(
            self.uuid, traits, self.get_target_version()))

    def add_trait(self, trait):
        self._set_traits(db_runbook.add_runbook_trait(
            self.uuid, trait, self.get_target_version()))

    def remove_trait(self, trait):
        self._set_traits(db_runbook.delete_runbook_trait(self.uuid, trait))
