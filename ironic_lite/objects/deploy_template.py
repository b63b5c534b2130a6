"""Deploy templates (release 4.0, API 1.55), as Ironic's DeployTemplate.

The API writes them through this object directly (no conductor is
involved, as in Ironic); the conductor reads those whose names are in a
node's ``instance_info['traits']`` when it deploys the node.  Never sent
over RPC (``DB_ONLY``).
"""

from oslo_utils import uuidutils

from ironic_lite.db import deploy_template as db_template
from ironic_lite.objects import base
from ironic_lite.objects import fields


def _step_dict(row):
    return {'interface': row.interface, 'step': row.step,
            'args': dict(row.args or {}), 'priority': row.priority}


@base.IronicObjectRegistry.register
class DeployTemplate(base.CrudMixin, base.IronicObject):
    # Version 1.0: initial version (release 4.0)
    VERSION = '1.0'
    DB_ONLY = True
    STORED_ELSEWHERE = ('steps',)

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'uuid': fields.UUIDField(nullable=False),
        'name': fields.StringField(nullable=False),
        'steps': fields.ListOfFlexibleDictsField(nullable=False),
        'extra': fields.FlexibleDictField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'uuid', 'name', 'steps',
                'extra'),
    }

    _db_create = staticmethod(db_template.create_deploy_template)
    _db_update = staticmethod(db_template.update_deploy_template)
    _db_destroy = staticmethod(db_template.destroy_deploy_template)
    _db_get_by_uuid = staticmethod(db_template.get_deploy_template_by_uuid)

    @staticmethod
    def _from_db_object(context, obj, db_object, fields=None):
        names = [n for n in obj.fields if n != 'steps'
                 and (fields is None or n in fields)]
        base.IronicObject._from_db_object(context, obj, db_object, names)
        if fields is None or 'steps' in fields:
            obj.steps = [_step_dict(row) for row in db_object.steps]
            obj.obj_reset_changes(['steps'])
        return obj

    @classmethod
    def get(cls, context, ident):
        """By UUID or name (the API's ``template_ident``)."""
        if uuidutils.is_uuid_like(ident):
            return cls.get_by_uuid(context, ident)
        return cls.get_by_name(context, ident)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        row = db_template.get_deploy_template_by_uuid(uuid)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_name(cls, context, name):
        row = db_template.get_deploy_template_by_name(name)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_id(cls, context, template_id):
        row = db_template.get_deploy_template_by_id(template_id)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None, filters=None):
        rows = db_template.get_deploy_template_list(
            limit=limit, marker=marker, sort_key=sort_key,
            sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)

    @classmethod
    def list_by_names(cls, context, names):
        """The templates named in ``names`` (a node's instance traits)."""
        rows = db_template.get_deploy_template_list_by_names(names)
        return cls._from_db_object_list(context, rows)
