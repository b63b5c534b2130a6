"""Port group queries."""

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import exact
from ironic_lite.db import models
from ironic_lite.db import node as db_node
from ironic_lite.db import plain_write


def _portgroup_query(session, filters=None):
    """(query, whether it selects by the port groups' nodes)."""
    query = session.query(models.Portgroup)
    filters = filters or {}
    for key in ('node_id', 'address', 'name'):
        if filters.get(key) is not None:
            # Byte-exact (db/exact.py): a name differing in case or a
            # trailing space is another port group's.
            query = query.filter(exact.equals(
                getattr(models.Portgroup, key), filters[key]))
    condition = db_node.owned_by_nodes(session, models.Portgroup, filters)
    if condition is not None:
        query = query.filter(condition)
    return query, condition is not None


def get_portgroup_list(filters=None, limit=None, marker=None, sort_key=None,
                       sort_dir=None):
    with api.reader() as session:
        marker_row = api.get_marker(
            session, models.Portgroup, marker,
            exception.PortgroupNotFound(portgroup=marker))
        query, by_nodes = _portgroup_query(session, filters)
        # Core rows, as a port page's (paginate's ``plain``).
        return api.paginate(query, models.Portgroup, limit, marker_row,
                            sort_key, sort_dir, plain=True,
                            ids_first=by_nodes)


def _get_portgroup(column, value):
    with api.reader() as session:
        row = (session.query(models.Portgroup)
               .filter(exact.equals(getattr(models.Portgroup, column),
                                    value))
               .one_or_none())
        if row is None:
            raise exception.PortgroupNotFound(portgroup=value)
        return row


def get_portgroup_by_id(portgroup_id):
    return _get_portgroup('id', portgroup_id)


def get_portgroup_by_uuid(portgroup_uuid):
    return _get_portgroup('uuid', portgroup_uuid)


def get_portgroup_by_name(name):
    return _get_portgroup('name', name)


def get_portgroup_by_address(address):
    return _get_portgroup('address', address)


def _raise_duplicate(err, values):
    columns = api.duplicate_columns(err)
    if 'name' in columns:
        raise exception.PortgroupDuplicateName(name=values.get('name'))
    if 'address' in columns:
        raise exception.PortgroupMACAlreadyExists(mac=values.get('address'))
    raise exception.PortgroupAlreadyExists(uuid=values.get('uuid'))


@api.retry_on_db_errors
def create_portgroup(values):
    return api.create_row(models.Portgroup, values, _raise_duplicate)


@api.retry_on_db_errors
def create_portgroup_unless_node_locked(values):
    return plain_write.create_row_unless_node_locked(
        models.Portgroup, values, _raise_duplicate)


@api.retry_on_db_errors
def update_portgroup(portgroup_id, values, known_version=None):
    return api.update_row(
        models.Portgroup, 'portgroup', portgroup_id, values, known_version,
        exception.PortgroupNotFound(portgroup=portgroup_id),
        on_duplicate=_raise_duplicate)


def _refuse_if_ports(session, row):
    if session.query(models.Port).filter_by(portgroup_id=row.id).count():
        raise exception.PortgroupNotEmpty(portgroup=row.uuid)


@api.retry_on_db_errors
def destroy_portgroup(portgroup_id):
    api.delete_row(models.Portgroup, portgroup_id,
                   exception.PortgroupNotFound(portgroup=portgroup_id),
                   before_delete=_refuse_if_ports)


def get_uuids_by_ids(ids):
    """{id: uuid} of the port groups among ``ids``."""
    return api.uuids_by_id(models.Portgroup, ids)
