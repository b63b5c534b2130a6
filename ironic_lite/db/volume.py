"""Volume connector and volume target queries (release 4.0, API 1.32)."""

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models
from ironic_lite.db import node as db_node


def _query(session, model, filters):
    query = session.query(model)
    filters = filters or {}
    if filters.get('node_id') is not None:
        query = query.filter(model.node_id == filters['node_id'])
    condition = db_node.owned_by_nodes(session, model, filters)
    if condition is not None:
        query = query.filter(condition)
    return query


def _list(model, not_found, filters, limit, marker, sort_key, sort_dir):
    with api.reader() as session:
        marker_row = api.get_marker(session, model, marker, not_found)
        return api.paginate(_query(session, model, filters), model, limit,
                            marker_row, sort_key, sort_dir)


def _get(model, column, value, not_found):
    with api.reader() as session:
        row = (session.query(model)
               .filter(getattr(model, column) == value).one_or_none())
        if row is None:
            raise not_found
        return row


# -- connectors ---------------------------------------------------------------

def connector_not_found(ident):
    return exception.VolumeConnectorNotFound(connector=ident)


def get_connector_list(filters=None, limit=None, marker=None, sort_key=None,
                       sort_dir=None):
    return _list(models.VolumeConnector, connector_not_found(marker),
                 filters, limit, marker, sort_key, sort_dir)


def get_connector(column, value):
    """The connector whose ``column`` (id or uuid) is ``value``."""
    return _get(models.VolumeConnector, column, value,
                connector_not_found(value))


def _connector_duplicate(err, values):
    if 'connector_id' in api.duplicate_columns(err) or (
            'type' in api.duplicate_columns(err)):
        raise exception.VolumeConnectorTypeAndIdAlreadyExists(
            type=values.get('type'), connector_id=values.get('connector_id'))
    raise exception.VolumeConnectorAlreadyExists(uuid=values.get('uuid'))


@api.retry_on_db_errors
def create_connector(values):
    return api.create_row(models.VolumeConnector, values,
                          _connector_duplicate)


def _update(model, kind, ident, values, known_version, not_found,
            on_duplicate):
    """update_row, the duplicate error worded with the row's values
    merged with the changes (a patch may change one column of a unique
    pair)."""
    seen = {}

    def before_update(row):
        seen.update((c, getattr(row, c)) for c in
                    ('uuid', 'type', 'connector_id', 'boot_index')
                    if hasattr(row, c))

    def duplicate(err, written):
        on_duplicate(err, dict(seen, **written))

    return api.update_row(model, kind, ident, values, known_version,
                          not_found, on_duplicate=duplicate,
                          before_update=before_update)


@api.retry_on_db_errors
def update_connector(ident, values, known_version=None):
    return _update(models.VolumeConnector, 'volume connector', ident,
                   values, known_version, connector_not_found(ident),
                   _connector_duplicate)


@api.retry_on_db_errors
def destroy_connector(ident):
    api.delete_row(models.VolumeConnector, ident,
                   connector_not_found(ident))


# -- targets ------------------------------------------------------------------

def target_not_found(ident):
    return exception.VolumeTargetNotFound(target=ident)


def get_target_list(filters=None, limit=None, marker=None, sort_key=None,
                    sort_dir=None):
    return _list(models.VolumeTarget, target_not_found(marker), filters,
                 limit, marker, sort_key, sort_dir)


def get_target(column, value):
    """The target whose ``column`` (id or uuid) is ``value``."""
    return _get(models.VolumeTarget, column, value, target_not_found(value))


def _target_duplicate(err, values):
    if 'boot_index' in api.duplicate_columns(err) or (
            'node_id' in api.duplicate_columns(err)):
        raise exception.VolumeTargetBootIndexAlreadyExists(
            boot_index=values.get('boot_index'))
    raise exception.VolumeTargetAlreadyExists(uuid=values.get('uuid'))


@api.retry_on_db_errors
def create_target(values):
    return api.create_row(models.VolumeTarget, values, _target_duplicate)


@api.retry_on_db_errors
def update_target(ident, values, known_version=None):
    return _update(models.VolumeTarget, 'volume target', ident, values,
                   known_version, target_not_found(ident),
                   _target_duplicate)


@api.retry_on_db_errors
def destroy_target(ident):
    api.delete_row(models.VolumeTarget, ident, target_not_found(ident))
