"""Chassis queries."""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models


def get_chassis_list(limit=None, marker=None, sort_key=None, sort_dir=None):
    with api.reader() as session:
        marker_row = api.get_marker(
            session, models.Chassis, marker,
            exception.ChassisNotFound(chassis=marker))
        return api.paginate(session.query(models.Chassis), models.Chassis,
                            limit, marker_row, sort_key, sort_dir)


def _get_chassis(column, value):
    with api.reader() as session:
        row = (session.query(models.Chassis)
               .filter(getattr(models.Chassis, column) == value)
               .one_or_none())
        if row is None:
            raise exception.ChassisNotFound(chassis=value)
        return row


def get_chassis_by_id(chassis_id):
    return _get_chassis('id', chassis_id)


def get_chassis_by_uuid(chassis_uuid):
    return _get_chassis('uuid', chassis_uuid)


@api.retry_on_db_errors
def create_chassis(values):
    values = dict(values)
    values.setdefault('uuid', uuidutils.generate_uuid())
    row = models.Chassis()
    row.update(values)
    try:
        with api.writer() as session:
            session.add(row)
            session.flush()
    except db_exc.DBDuplicateEntry:
        raise exception.ChassisAlreadyExists(uuid=values['uuid'])
    return row


@api.retry_on_db_errors
def update_chassis(chassis_id, values, known_version=None):
    if 'uuid' in values:
        raise exception.InvalidParameterValue(
            err='Cannot overwrite UUID for an existing chassis.')
    with api.writer() as session:
        query = api.add_identity_filter(session.query(models.Chassis),
                                        models.Chassis, chassis_id)
        row = query.one_or_none()
        if row is None:
            raise exception.ChassisNotFound(chassis=chassis_id)
        api.check_known_version(row, known_version)
        row.update(values)
        session.flush()
        return row


@api.retry_on_db_errors
def destroy_chassis(chassis_id):
    with api.writer() as session:
        query = api.add_identity_filter(session.query(models.Chassis),
                                        models.Chassis, chassis_id)
        row = query.one_or_none()
        if row is None:
            raise exception.ChassisNotFound(chassis=chassis_id)
        if session.query(models.Node).filter_by(chassis_id=row.id).count():
            raise exception.ChassisNotEmpty(chassis=row.uuid)
        session.delete(row)
