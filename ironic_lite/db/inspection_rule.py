"""Inspection rule queries (API 1.96), Ironic's functions.

A rule is one row of ``inspection_rules``, its conditions and actions
JSON lists in it.
"""

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


def _raise_duplicate(err, values):
    raise exception.InspectionRuleAlreadyExists(uuid=values.get('uuid'))


@api.retry_on_db_errors
def create_inspection_rule(values):
    return api.create_row(_M, values, _raise_duplicate)


@api.retry_on_db_errors
def update_inspection_rule(rule_uuid, values, known_version=None):
    return api.update_row(_M, 'inspection rule', rule_uuid, values,
                          known_version,
                          exception.InspectionRuleNotFound(rule=rule_uuid))


@api.retry_on_db_errors
def destroy_inspection_rule(rule_uuid):
    api.delete_row(_M, rule_uuid,
                   exception.InspectionRuleNotFound(rule=rule_uuid))
