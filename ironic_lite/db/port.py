"""Port queries."""

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import exact
from ironic_lite.db import models
from ironic_lite.db import node as db_node
from ironic_lite.db import page_version
from ironic_lite.db import plain_write


def _port_query(session, filters=None):
    """(query, whether it selects by the ports' nodes)."""
    query = session.query(models.Port)
    filters = filters or {}
    for key in ('node_id', 'portgroup_id', 'address', 'physical_network'):
        if filters.get(key) is not None:
            query = query.filter(getattr(models.Port, key) == filters[key])
    if filters.get('description_contains'):
        query = query.filter(
            models.Port.description.contains(filters['description_contains'],
                                             autoescape=True))
    condition = db_node.owned_by_nodes(session, models.Port, filters)
    if condition is not None:
        query = query.filter(condition)
    return query, condition is not None


def _page_query(session, filters, marker):
    """(query, marker row, whether it selects by the ports' nodes)."""
    marker_row = api.get_marker(session, models.Port, marker,
                                exception.PortNotFound(port=marker))
    query, by_nodes = _port_query(session, filters)
    return query, marker_row, by_nodes


def get_port_list(filters=None, limit=None, marker=None, sort_key=None,
                  sort_dir=None):
    with api.reader() as session:
        query, marker_row, by_nodes = _page_query(session, filters, marker)
        # Ports of a shard (or group, or project): the page's ids first,
        # from ports_shard_id_idx (ports_node_id_id_idx) alone, then its
        # rows (see paginate).
        return api.paginate(query, models.Port, limit, marker_row,
                            sort_key, sort_dir, plain=True,
                            ids_first=by_nodes)


def get_port_page_version(filters=None, limit=None, marker=None,
                          sort_key=None, sort_dir=None):
    """The version of the page ``get_port_list`` reads with the same
    arguments (``page_version.of_page``; None but on PostgreSQL)."""
    with api.reader() as session:
        query, marker_row, by_nodes = _page_query(session, filters, marker)
        return page_version.of_page(query, models.Port, limit, marker_row,
                                    sort_key, sort_dir, ids_first=by_nodes)


def _get_port(column, value):
    with api.reader() as session:
        row = (session.query(models.Port)
               .filter(getattr(models.Port, column) == value).one_or_none())
        if row is None:
            raise exception.PortNotFound(port=value)
        return row


def get_port_by_id(port_id):
    return _get_port('id', port_id)


def get_port_by_uuid(port_uuid):
    return _get_port('uuid', port_uuid)


def get_port_by_address(address):
    return _get_port('address', address)


def get_port_by_name(name):
    """The port of a name (1.88), byte for byte as port group names."""
    with api.reader() as session:
        row = (session.query(models.Port)
               .filter(exact.equals(models.Port.name, name)).one_or_none())
        if row is None:
            raise exception.PortNotFound(port=name)
        return row


def get_node_ids_by_port_addresses(addresses):
    """The ids of the nodes with a port of one of ``addresses``, at most
    two (one is the answer, two mean several): one statement, however
    many addresses (the agent's lookup; Ironic's
    ``get_node_by_port_addresses``)."""
    with api.reader() as session:
        query = (session.query(models.Port.node_id)
                 .filter(models.Port.address.in_(list(addresses)))
                 .distinct().limit(2))
        return [node_id for (node_id,) in query]


def _raise_duplicate(err, values):
    columns = api.duplicate_columns(err)
    if 'address' in columns:
        raise exception.MACAlreadyExists(mac=values.get('address'))
    if 'name' in columns:
        raise exception.PortDuplicateName(name=values.get('name'))
    raise exception.PortAlreadyExists(uuid=values.get('uuid'))


@api.retry_on_db_errors
def create_port(values):
    return api.create_row(models.Port, values, _raise_duplicate)


@api.retry_on_db_errors
def create_port_unless_node_locked(values):
    return plain_write.create_row_unless_node_locked(
        models.Port, values, _raise_duplicate)


@api.retry_on_db_errors
def update_port(port_id, values, known_version=None):
    return api.update_row(models.Port, 'port', port_id, values, known_version,
                          exception.PortNotFound(port=port_id),
                          on_duplicate=_raise_duplicate)


@api.retry_on_db_errors
def destroy_port(port_id):
    api.delete_row(models.Port, port_id, exception.PortNotFound(port=port_id))
