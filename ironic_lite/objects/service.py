"""A running ironic-api or ironic-conductor process, as it reports itself.

Every process records its type, name, host, release and effective pin
(with ``pin_release_version = auto``, the pin it computed, and
``auto_pin``) in the ``services`` table and refreshes the row as its heartbeat
(``[DEFAULT]/report_interval``).  ``ironic-status upgrade check`` reads the
rows to tell where a rolling upgrade stands, and a service starting
unpinned reads them to refuse while an older release is still alive.

Releases before 3.0 did not report: their conductors are seen through the
conductors table only (release unknown), their API services not at all.
"""

from ironic_lite.common import release_pin
from ironic_lite.common import upgrade_state
from ironic_lite import conf
from ironic_lite.db import conductor as db_conductor
from ironic_lite.db import migration as db_migration
from ironic_lite.db import models
from ironic_lite.db import service as db_service
from ironic_lite.objects import base
from ironic_lite.objects import fields
from ironic_lite import version

CONF = conf.CONF


@base.IronicObjectRegistry.register
class Service(base.IronicObject):
    # Version 1.0: initial version (release 3.0)
    # Version 1.1: add auto_pin (release 4.0)
    VERSION = '1.1'
    # Never sent over RPC: a service pinned to a release without this
    # object still records itself (see IronicObject.get_target_version).
    DB_ONLY = True
    # An auto service writes its row at 1.0 while it is pinned to 3.0, and
    # that is when the other auto services must see the flag (else each
    # would hold the others at 3.0: common/release_pin.py).  Release 3.0's
    # model maps no auto_pin column: it reads such a row as the 1.0 row
    # it is.
    WRITTEN_AT_ANY_VERSION = ('auto_pin',)

    fields = dict(base.IronicObject.fields, **{
        'id': fields.IntegerField(),
        'service_type': fields.StringField(),
        'name': fields.StringField(),
        'host': fields.StringField(),
        'release': fields.StringField(),
        'pin': fields.StringField(nullable=True),
        'auto_pin': fields.BooleanField(default=False),
        'online': fields.BooleanField(),
    })

    field_history = {
        '1.0': ('created_at', 'updated_at', 'id', 'service_type', 'name',
                'host', 'release', 'pin', 'online'),
        '1.1': ('auto_pin',),
    }

    @classmethod
    def report(cls, context, service_type, name, host):
        """Record this process (its release, the pin in force and whether
        it is ``auto``) and refresh its heartbeat."""
        obj = cls(context, service_type=service_type, name=name, host=host,
                  release=version.RELEASE, pin=release_pin.effective(),
                  auto_pin=release_pin.is_auto(), online=True)
        row = db_service.report_service(obj.do_version_changes_for_db())
        return cls._from_db_object(context, cls(), row)

    def stop(self):
        """Mark this process offline (a graceful stop)."""
        db_service.stop_service(self.service_type, self.name)

    @classmethod
    def list_alive(cls, context, interval=None):
        """Services that reported within ``[DEFAULT]/service_down_time``."""
        if interval is None:
            interval = CONF.service_down_time
        fields, columns = cls._readable()
        rows = db_service.get_alive_services(interval, columns=columns)
        return cls._from_db_object_list(context, rows, fields)

    _auto_pin_column = False

    @classmethod
    def _readable(cls):
        return cls._readable_once('_auto_pin_column',
                                  models.Service.__tablename__, 'auto_pin',
                                  '1.0')

    @classmethod
    def get_by_names(cls, context, service_type, names=None):
        """{name: Service} of the given names (missing ones left out);
        every one of ``service_type`` when ``names`` is None."""
        fields, columns = cls._readable()
        rows = db_service.get_services_by_name(service_type, names, columns)
        return {row.name: cls._from_db_object(context, cls(), row, fields)
                for row in rows}

    @staticmethod
    def table_exists():
        """Whether the schema has the services table: not yet on the
        schema of a release before 3.0 (before "ironic-dbsync upgrade")."""
        return db_migration.has_table(models.Service.__tablename__)

    @staticmethod
    def silent_conductor_hosts(interval=None):
        """Host names of alive conductors that have no services row: they
        run a release older than 3.0, which did not report itself."""
        if interval is None:
            interval = CONF.conductor.heartbeat_timeout
        alive = {row.hostname for row in db_conductor.get_active_conductors(
            interval, columns=['hostname'])}
        reported = {row.name for row in db_service.get_services_by_name(
            upgrade_state.CONDUCTOR, alive, columns=['name'])}
        return sorted(alive - reported)
