from ironic_lite.db import conductor as db_conductor
from ironic_lite.db import models
from ironic_lite.objects import base
from ironic_lite.objects import fields


@base.IronicObjectRegistry.register
class Conductor(base.IronicObject):
    # Version 1.0: initial version (release 1.0)
    # Version 1.1: hardware_interfaces (release 7.0)
    VERSION = '1.1'

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'hostname': fields.StringField(),
        'drivers': fields.ListOfStringsField(nullable=True),
        'online': fields.BooleanField(),
        'conductor_group': fields.StringField(),
        'hardware_interfaces': fields.FlexibleDictField(nullable=True),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'hostname', 'drivers',
                'online', 'conductor_group'),
        '1.1': ('hardware_interfaces',),
    }

    def _convert_hook(self, from_version, to_version):
        # A registration made below 1.1 (an older release's, or one pinned
        # to it) published nothing: a value in the column is an earlier
        # registration's, not this one's configuration.
        if 'hardware_interfaces' not in self.fields_at(from_version):
            self._set_upgrade_default('hardware_interfaces')

    _interfaces_column = False

    @classmethod
    def _readable(cls):
        return cls._readable_once('_interfaces_column',
                                  models.Conductor.__tablename__,
                                  'hardware_interfaces', '1.0')

    @classmethod
    def get_by_hostname(cls, context, hostname, online=True):
        fields, columns = cls._readable()
        return cls._from_db_object(
            context, cls(), db_conductor.get_conductor(hostname, online,
                                                       columns), fields)

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None,
             sort_dir=None):
        fields, columns = cls._readable()
        rows = db_conductor.get_conductor_list(
            limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir,
            columns=columns)
        return cls._from_db_object_list(context, rows, fields)

    @classmethod
    def list_active(cls, context, interval):
        fields, columns = cls._readable()
        return cls._from_db_object_list(
            context, db_conductor.get_active_conductors(interval, columns),
            fields)

    @classmethod
    def register(cls, context, hostname, drivers, conductor_group,
                 update_existing=False, hardware_interfaces=None):
        """Register a conductor as online (a restart re-registers).
        ``hardware_interfaces``: what it publishes of its types'
        interfaces (``factory.published_interfaces``); written only at
        1.1 (pinned lower, NULL: the API then sends it every creation).
        """
        obj = cls(context, hostname=hostname, drivers=drivers,
                  conductor_group=conductor_group, online=True,
                  hardware_interfaces=hardware_interfaces)
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
