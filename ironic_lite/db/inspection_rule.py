"""Inspection rule queries (API 1.96), Ironic's functions.

A rule is one row of ``inspection_rules``, its conditions and actions
JSON lists in it.
"""

from oslo_db import exception as db_exc

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import exact
from ironic_lite.db import models

_M = models.InspectionRule


def get_inspection_rule_by_uuid(rule_uuid):
    with api.reader() as session:
        row = (session.query(_M).filter(exact.equals(_M.uuid, rule_uuid))
               .one_or_none())
        if row is None:
            raise exception.InspectionRuleNotFound(rule=rule_uuid)
        return row


def get_inspection_rule_list(limit=None, marker=None, sort_key=None,
                             sort_dir=None, filters=None):
    """The rules, paged; ``filters``: {'phase': ...}."""
    with api.reader() as session:
        marker_row = api.get_marker(
            session, _M, marker, exception.InspectionRuleNotFound(
                rule=marker))
        query = session.query(_M)
        phase = (filters or {}).get('phase')
        if phase is not None:
            query = query.filter(exact.equals(_M.phase, phase))
        return api.paginate(query, _M, limit, marker_row, sort_key,
                            sort_dir)


@api.retry_on_db_errors
def create_inspection_rule(values):
    row = _M()
    row.update(values)
    try:
        with api.writer() as session:
            session.add(row)
            session.flush()
    except db_exc.DBDuplicateEntry:
        raise exception.InspectionRuleAlreadyExists(uuid=values.get('uuid'))
    return row


@api.retry_on_db_errors
def update_inspection_rule(rule_uuid, values, known_version=None):
    values = dict(values)
    if 'uuid' in values:
        raise exception.InvalidParameterValue(
            err='Cannot overwrite UUID for an existing inspection rule.')
    with api.writer() as session:
        row = session.query(_M).filter_by(uuid=rule_uuid).one_or_none()
        if row is None:
            raise exception.InspectionRuleNotFound(rule=rule_uuid)
        api.check_known_version(row, known_version)
        row.update(values)
        session.flush()
    return row


@api.retry_on_db_errors
def destroy_inspection_rule(rule_uuid):
    with api.writer() as session:
        row = session.query(_M).filter_by(uuid=rule_uuid).one_or_none()
        if row is None:
            raise exception.InspectionRuleNotFound(rule=rule_uuid)
        session.delete(row)
