"""Conductor registration and liveness queries."""

import datetime

from oslo_utils import timeutils

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import migration
from ironic_lite.db import models


def _alive_since(interval):
    return timeutils.utcnow() - datetime.timedelta(seconds=interval)


@api.retry_on_db_errors
def register_conductor(values, update_existing=False):
    """Register (or re-register) a conductor as online."""
    with api.writer() as session:
        row = (session.query(models.Conductor)
               .filter_by(hostname=values['hostname']).one_or_none())
        if row is not None and row.online and not update_existing:
            raise exception.ConductorAlreadyRegistered(
                conductor=values['hostname'])
        if row is None:
            row = models.Conductor()
            session.add(row)
        # A registration pinned below Conductor 1.1 publishes nothing: an
        # earlier one's hardware interfaces are not left behind.
        fresh = {'hardware_interfaces': None}
        fresh.update(values, online=True)
        row.update(fresh)
        # updated_at is the heartbeat: a fresh registration is alive now.
        row.updated_at = timeutils.utcnow()
        session.flush()
        return row


@api.retry_on_db_errors
def touch_conductor(hostname, online=True):
    with api.writer() as session:
        count = (session.query(models.Conductor)
                 .filter_by(hostname=hostname)
                 .update({'updated_at': timeutils.utcnow(),
                          'online': online},
                         synchronize_session=False))
        if count == 0:
            raise exception.ConductorNotFound(conductor=hostname)


@api.retry_on_db_errors
def unregister_conductor(hostname):
    with api.writer() as session:
        count = (session.query(models.Conductor)
                 .filter_by(hostname=hostname, online=True)
                 .update({'online': False}, synchronize_session=False))
        if count == 0:
            raise exception.ConductorNotFound(conductor=hostname)


def get_conductor(hostname, online=True, columns=None):
    with api.reader() as session:
        query = (migration.query_columns(session, models.Conductor, columns)
                 .filter_by(hostname=hostname))
        if online is not None:
            query = query.filter_by(online=online)
        row = query.one_or_none()
        if row is None:
            raise exception.ConductorNotFound(conductor=hostname)
        return row


def get_conductor_list(limit=None, marker=None, sort_key=None,
                       sort_dir=None, columns=None):
    with api.reader() as session:
        marker_row = None
        if marker is not None:
            marker_row = (session.query(models.Conductor)
                          .filter_by(hostname=marker).one_or_none())
            if marker_row is None:
                raise exception.ConductorNotFound(conductor=marker)
        return api.paginate(
            migration.query_columns(session, models.Conductor, columns),
            models.Conductor, limit, marker_row, sort_key, sort_dir)


def get_active_conductors(interval, columns=None):
    """Rows of the conductors that are online and heartbeated lately
    (only ``columns`` when given)."""
    with api.reader() as session:
        return (migration.query_columns(session, models.Conductor, columns)
                .filter(models.Conductor.online.is_(True))
                .filter(models.Conductor.updated_at >= _alive_since(interval))
                .all())


def get_offline_conductors(interval):
    """Host names of conductors that stopped or missed their heartbeat."""
    with api.reader() as session:
        rows = (session.query(models.Conductor.hostname)
                .filter((models.Conductor.online.is_(False))
                        | (models.Conductor.updated_at
                           < _alive_since(interval)))
                .all())
        return [r[0] for r in rows]
