from ironic_lite.db import conductor as db_conductor
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class Conductor(base.IronicObject):
    # Version 1.0: initial version (release 1.0)
    VERSION = '1.0'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'hostname': fields.StringField(),
        'drivers': fields.ListOfStringsField(nullable=True),
        'online': fields.BooleanField(),
        'conductor_group': fields.StringField(),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'hostname', 'drivers',
                'online', 'conductor_group'),
    }

    @classmethod
    def get_by_hostname(cls, context, hostname, online=True):
        return cls._from_db_object(
            context, cls(), db_conductor.get_conductor(hostname, online))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None):
        rows = db_conductor.get_conductor_list(
            limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir)
        return cls._from_db_object_list(context, rows)

    @classmethod
    def list_active(cls, context, interval):
        return cls._from_db_object_list(
            context, db_conductor.get_active_conductors(interval))

    @classmethod
    def register(cls, context, hostname, drivers, conductor_group,
                 update_existing=False):
        """Register a conductor as online (a restart re-registers)."""
        obj = cls(context, hostname=hostname, drivers=drivers,
                  conductor_group=conductor_group, online=True)
        values = obj.do_version_changes_for_db()
        row = db_conductor.register_conductor(
            values, update_existing=update_existing)
        return cls._from_db_object(context, cls(), row)

    def touch(self, online=True):
        """The heartbeat."""
        db_conductor.touch_conductor(self.hostname, online=online)

    def unregister(self):
        db_conductor.unregister_conductor(self.hostname)

    @staticmethod
    def offline_hostnames(interval):
        return db_conductor.get_offline_conductors(interval)
