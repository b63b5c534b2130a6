"""The services table: which process runs which release, with which pin."""

import datetime

from oslo_db import exception as db_exc
from oslo_utils import timeutils

from ironic_lite.db import api
from ironic_lite.db import migration
from ironic_lite.db import models


@api.retry_on_db_errors
def report_service(values):
    """Insert or refresh the row of (service_type, name); a heartbeat.

    :returns: the row.
    """
    key = {'service_type': values['service_type'], 'name': values['name']}
    for _attempt in range(2):
        try:
            with api.writer() as session:
                row = (session.query(models.Service).filter_by(**key)
                       .one_or_none())
                if row is None:
                    row = models.Service()
                    session.add(row)
                row.update(dict(values, online=True))
                row.updated_at = timeutils.utcnow()
                session.flush()
                return row
        except db_exc.DBDuplicateEntry:
            # Another process of the same name inserted first (a restart
            # racing its predecessor's last heartbeat): update that row.
            continue
    raise RuntimeError('could not record service %(service_type)s '
                       '%(name)s' % key)


@api.retry_on_db_errors
def stop_service(service_type, name):
    """Mark a service offline (a graceful stop)."""
    with api.writer() as session:
        (session.query(models.Service)
         .filter_by(service_type=service_type, name=name)
         .update({'online': False, 'updated_at': timeutils.utcnow()},
                 synchronize_session=False))


def get_alive_services(interval, columns=None):
    """Rows of the services online that reported in the last ``interval``
    seconds (only ``columns`` when given)."""
    since = timeutils.utcnow() - datetime.timedelta(seconds=interval)
    with api.reader() as session:
        return (migration.query_columns(session, models.Service, columns)
                .filter(models.Service.online.is_(True))
                .filter(models.Service.updated_at >= since)
                .order_by(models.Service.service_type, models.Service.name)
                .all())


def get_services_by_name(service_type, names=None, columns=None):
    """Rows of ``service_type`` whose name is in ``names`` (all of them
    when ``names`` is None; only ``columns`` when given)."""
    if names is not None and not names:
        return []
    with api.reader() as session:
        query = (migration.query_columns(session, models.Service, columns)
                 .filter(models.Service.service_type == service_type))
        if names is not None:
            query = query.filter(models.Service.name.in_(list(names)))
        return query.all()
