"""Deploy template queries (release 4.0, API 1.55), Ironic's functions.

A template is a row of ``deploy_templates`` and its steps rows of
``deploy_template_steps``, read together (the model loads the steps with
a second SELECT ... IN).  A write replaces the steps with those given, in
the same transaction as the template's row.
"""

from oslo_db import exception as db_exc

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import exact
from ironic_lite.db import models

_STEP_FIELDS = ('interface', 'step', 'args', 'priority')


def _step_rows(steps, version):
    return [models.DeployTemplateStep(
        version=version, **{k: step[k] for k in _STEP_FIELDS})
        for step in steps]


def _raise_duplicate(err, values):
    if 'name' in api.duplicate_columns(err):
        raise exception.DeployTemplateDuplicateName(name=values.get('name'))
    raise exception.DeployTemplateAlreadyExists(uuid=values.get('uuid'))


def _get(column, value):
    with api.reader() as session:
        row = (session.query(models.DeployTemplate)
               .filter(exact.equals(getattr(models.DeployTemplate, column),
                                    value))
               .one_or_none())
        if row is None:
            raise exception.DeployTemplateNotFound(template=value)
        return row


def get_deploy_template_by_id(template_id):
    with api.reader() as session:
        row = session.get(models.DeployTemplate, template_id)
        if row is None:
            raise exception.DeployTemplateNotFound(template=template_id)
        return row


def get_deploy_template_by_uuid(template_uuid):
    return _get('uuid', template_uuid)


def get_deploy_template_by_name(name):
    return _get('name', name)


def get_deploy_template_list(limit=None, marker=None, sort_key=None,
                             sort_dir=None):
    with api.reader() as session:
        marker_row = api.get_marker(
            session, models.DeployTemplate, marker,
            exception.DeployTemplateNotFound(template=marker))
        return api.paginate(session.query(models.DeployTemplate),
                            models.DeployTemplate, limit, marker_row,
                            sort_key, sort_dir)


def get_deploy_template_list_by_names(names):
    """The templates whose names are in ``names`` (ordered by id)."""
    names = [n for n in names or () if isinstance(n, str)]
    if not names:
        return []
    with api.reader() as session:
        return (session.query(models.DeployTemplate)
                .filter(exact.in_(models.DeployTemplate.name, names))
                .order_by(models.DeployTemplate.id).all())


@api.retry_on_db_errors
def create_deploy_template(values):
    values = dict(values)
    steps = values.pop('steps', None) or []
    row = models.DeployTemplate()
    row.update(values)
    row.steps = _step_rows(steps, values.get('version'))
    try:
        with api.writer() as session:
            session.add(row)
            session.flush()
    except db_exc.DBDuplicateEntry as err:
        _raise_duplicate(err, values)
    return row


@api.retry_on_db_errors
def update_deploy_template(template_uuid, values, known_version=None):
    """Update a template; ``steps``, when given, replace its steps."""
    values = dict(values)
    if 'uuid' in values:
        raise exception.InvalidParameterValue(
            err='Cannot overwrite UUID for an existing deploy template.')
    steps = values.pop('steps', None)
    try:
        with api.writer() as session:
            row = (session.query(models.DeployTemplate)
                   .filter_by(uuid=template_uuid).one_or_none())
            if row is None:
                raise exception.DeployTemplateNotFound(
                    template=template_uuid)
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
def destroy_deploy_template(template_uuid):
    with api.writer() as session:
        row = (session.query(models.DeployTemplate)
               .filter_by(uuid=template_uuid).one_or_none())
        if row is None:
            raise exception.DeployTemplateNotFound(template=template_uuid)
        session.delete(row)
