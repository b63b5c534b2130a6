"""Runbook queries (release 6.0, API 1.92 and its traits 1.112), Ironic's
functions.

A runbook is a row of ``runbooks``, its steps rows of ``runbook_steps``
and its traits rows of ``runbook_traits``, read together (the model loads
steps and traits with a second SELECT ... IN each).  A write replaces the
steps with those given, in the same transaction as the runbook's row; the
traits are written by their own functions (the ``/traits`` sub-resource)
and, on create, with the runbook.
"""

from oslo_db import exception as db_exc

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import exact
from ironic_lite.db import models

_STEP_FIELDS = ('interface', 'step', 'args', 'order')


def _step_rows(steps, version):
    return [models.RunbookStep(version=version,
                               **{k: step[k] for k in _STEP_FIELDS})
            for step in steps]


def _trait_rows(traits, version):
    return [models.RunbookTrait(trait=trait, version=version)
            for trait in dict.fromkeys(traits or ())]


def _raise_duplicate(err, values):
    if 'name' in api.duplicate_columns(err):
        raise exception.RunbookDuplicateName(name=values.get('name'))
    raise exception.RunbookAlreadyExists(uuid=values.get('uuid'))


def _get(column, value):
    with api.reader() as session:
        row = (session.query(models.Runbook)
               .filter(exact.equals(getattr(models.Runbook, column), value))
               .one_or_none())
        if row is None:
            raise exception.RunbookNotFound(runbook=value)
        return row


def get_runbook_by_id(runbook_id):
    with api.reader() as session:
        row = session.get(models.Runbook, runbook_id)
        if row is None:
            raise exception.RunbookNotFound(runbook=runbook_id)
        return row


def get_runbook_by_uuid(runbook_uuid):
    return _get('uuid', runbook_uuid)


def get_runbook_by_name(name):
    return _get('name', name)


def get_runbook_list(limit=None, marker=None, sort_key=None, sort_dir=None,
                     filters=None):
    """A page of runbooks; ``filters['project']``: those the project owns
    and the public ones (Ironic's filter of a project-scoped list)."""
    filters = filters or {}
    with api.reader() as session:
        query = session.query(models.Runbook)
        if filters.get('project') is not None:
            query = query.filter(
                (models.Runbook.owner == filters['project'])
                | models.Runbook.public.is_(True))
        marker_row = api.get_marker(
            session, models.Runbook, marker,
            exception.RunbookNotFound(runbook=marker))
        return api.paginate(query, models.Runbook, limit, marker_row,
                            sort_key, sort_dir)


@api.retry_on_db_errors
def create_runbook(values):
    values = dict(values)
    steps = values.pop('steps', None) or []
    traits = values.pop('traits', None) or []
    row = models.Runbook()
    row.update(values)
    row.steps = _step_rows(steps, values.get('version'))
    row.traits = _trait_rows(traits, values.get('version'))
    try:
        with api.writer() as session:
            session.add(row)
            session.flush()
    except db_exc.DBDuplicateEntry as err:
        _raise_duplicate(err, values)
    return row


def _locked(session, runbook_uuid):
    row = (session.query(models.Runbook).filter_by(uuid=runbook_uuid)
           .with_for_update().one_or_none())
    if row is None:
        raise exception.RunbookNotFound(runbook=runbook_uuid)
    return row


@api.retry_on_db_errors
def update_runbook(runbook_uuid, values, known_version=None):
    """Update a runbook; ``steps``, when given, replace its steps (its
    traits are not written here)."""
    values = dict(values)
    values.pop('traits', None)
    if 'uuid' in values:
        raise exception.InvalidParameterValue(
            err='Cannot overwrite UUID for an existing runbook.')
    steps = values.pop('steps', None)
    try:
        with api.writer() as session:
            row = _locked(session, runbook_uuid)
            api.check_known_version(row, known_version)
            row.update(values)
            if steps is not None:
                row.steps = _step_rows(steps, values.get('version'))
                # The row itself may not change: its time still does.
                row.updated_at = api.utcnow().replace(microsecond=0)
            session.flush()
    except db_exc.DBDuplicateEntry as err:
        _raise_duplicate(err, values)
    return row


@api.retry_on_db_errors
def destroy_runbook(runbook_uuid):
    with api.writer() as session:
        row = (session.query(models.Runbook)
               .filter_by(uuid=runbook_uuid).one_or_none())
        if row is None:
            raise exception.RunbookNotFound(runbook=runbook_uuid)
        session.delete(row)


@api.retry_on_db_errors
def set_runbook_traits(runbook_uuid, traits, version):
    """Replace the runbook's traits (duplicates given once); returns the
    runbook."""
    with api.writer() as session:
        row = _locked(session, runbook_uuid)
        row.traits = []
        session.flush()
        row.traits = _trait_rows(traits, version)
        session.flush()
    return row


@api.retry_on_db_errors
def add_runbook_trait(runbook_uuid, trait, version):
    """Add one trait (nothing when the runbook has it already)."""
    with api.writer() as session:
        row = _locked(session, runbook_uuid)
        if trait not in [t.trait for t in row.traits]:
            row.traits.append(models.RunbookTrait(trait=trait,
                                                  version=version))
        session.flush()
    return row


@api.retry_on_db_errors
def delete_runbook_trait(runbook_uuid, trait):
    """Remove one trait (nothing when the runbook does not have it)."""
    with api.writer() as session:
        row = _locked(session, runbook_uuid)
        row.traits = [t for t in row.traits if t.trait != trait]
        session.flush()
    return row
