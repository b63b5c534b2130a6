"""Chassis queries."""

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


def _raise_duplicate(_err, values):
    raise exception.ChassisAlreadyExists(uuid=values['uuid'])


@api.retry_on_db_errors
def create_chassis(values):
    return api.create_row(models.Chassis, values, _raise_duplicate)


@api.retry_on_db_errors
def update_chassis(chassis_id, values, known_version=None):
    return api.update_row(models.Chassis, 'chassis', chassis_id, values,
                          known_version,
                          exception.ChassisNotFound(chassis=chassis_id))


def _refuse_if_nodes(session, row):
    if session.query(models.Node).filter_by(chassis_id=row.id).count():
        raise exception.ChassisNotEmpty(chassis=row.uuid)


@api.retry_on_db_errors
def destroy_chassis(chassis_id):
    api.delete_row(models.Chassis, chassis_id,
                   exception.ChassisNotFound(chassis=chassis_id),
                   before_delete=_refuse_if_nodes)
