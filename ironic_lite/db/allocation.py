"""Allocation queries (release 4.0).

An allocation and the node it reserved point at each other
(``allocations.node_id``, ``nodes.allocation_id`` and the node's
``instance_uuid`` = the allocation's UUID): every function that changes
one side changes the other in the same transaction.
"""

from oslo_utils import uuidutils

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import exact
from ironic_lite.db import models

_EQUAL_FILTERS = ('node_id', 'resource_class', 'state', 'owner',
                  'conductor_affinity')


def _allocation_query(session, filters=None):
    query = session.query(models.Allocation)
    filters = filters or {}
    for key in _EQUAL_FILTERS:
        if filters.get(key) is not None:
            query = query.filter(
                getattr(models.Allocation, key) == filters[key])
    if filters.get('id_in') is not None:
        query = query.filter(models.Allocation.id.in_(filters['id_in']))
    return query


def get_allocation_list(filters=None, limit=None, marker=None,
                        sort_key=None, sort_dir=None):
    with api.reader() as session:
        marker_row = api.get_marker(
            session, models.Allocation, marker,
            exception.AllocationNotFound(allocation=marker))
        return api.paginate(_allocation_query(session, filters),
                            models.Allocation, limit, marker_row, sort_key,
                            sort_dir)


def _get_allocation(column, value):
    with api.reader() as session:
        row = (session.query(models.Allocation)
               .filter(exact.equals(getattr(models.Allocation, column),
                                    value))
               .one_or_none())
        if row is None:
            raise exception.AllocationNotFound(allocation=value)
        return row


def get_allocation_by_id(allocation_id):
    return _get_allocation('id', allocation_id)


def get_allocation_by_uuid(allocation_uuid):
    return _get_allocation('uuid', allocation_uuid)


def get_allocation_by_name(name):
    return _get_allocation('name', name)


def _raise_duplicate(err, values):
    if 'name' in api.duplicate_columns(err):
        raise exception.AllocationDuplicateName(name=values.get('name'))
    raise exception.AllocationAlreadyExists(uuid=values.get('uuid'))


@api.retry_on_db_errors
def create_allocation(values):
    values = dict(values)
    values.setdefault('state', 'allocating')
    return api.create_row(models.Allocation, values, _raise_duplicate)


@api.retry_on_db_errors
def update_allocation(allocation_id, values, known_version=None):
    """Update the columns given (never the node link: ``assign_node``)."""
    return api.update_row(
        models.Allocation, 'allocation', allocation_id, values,
        known_version, exception.AllocationNotFound(allocation=allocation_id),
        on_duplicate=_raise_duplicate)


def assign_node(allocation_id, node_id, values):
    """Reserve node ``node_id`` (an id) for an allocation: the node gets
    the allocation's id, its UUID as ``instance_uuid`` and its traits in
    ``instance_info``, the allocation
    ``values`` (its node_id, state) -- one transaction (run it inside the
    node's fenced write, ``write_if_held``, to join that one).

    :raises: NodeAssociated when the node already has an instance or
        another allocation; InstanceAssociated when another node has the
        allocation's UUID as its instance.
    """
    with api.writer() as session:
        row = (session.query(models.Allocation)
               .filter(models.Allocation.id == allocation_id)
               .with_for_update().one_or_none())
        if row is None:
            raise exception.AllocationNotFound(allocation=allocation_id)
        node = (session.query(models.Node).filter_by(id=node_id)
                .with_for_update().one_or_none())
        if node is None:
            raise exception.NodeNotFound(node=node_id)
        if (node.instance_uuid and node.instance_uuid != row.uuid) or (
                node.allocation_id and node.allocation_id != row.id):
            raise exception.NodeAssociated(
                node=node.uuid,
                instance=node.instance_uuid or node.allocation_id)
        other = (session.query(models.Node.uuid)
                 .filter(models.Node.instance_uuid == row.uuid,
                         models.Node.id != node_id).first())
        if other is not None:
            raise exception.InstanceAssociated(instance_uuid=row.uuid,
                                               node=other.uuid)
        # As Ironic: the traits asked for go to the node's instance_info
        # (what deploy templates are matched against).
        info = dict(node.instance_info or {}, traits=list(row.traits or []))
        node.update({'allocation_id': row.id, 'instance_uuid': row.uuid,
                     'instance_info': info})
        row.update(values)
        session.flush()
        return row


def _unlink_nodes(session, allocation_id):
    """Nodes reserved by an allocation lose the reservation."""
    (session.query(models.Node)
     .filter(models.Node.allocation_id == allocation_id)
     .update({'allocation_id': None, 'instance_uuid': None},
             synchronize_session=False))


@api.retry_on_db_errors
def destroy_allocation(allocation_id):
    """Delete an allocation (id or UUID); its node, if any, is free again
    (no allocation_id, no instance_uuid), in the same transaction."""
    with api.writer() as session:
        query = api.add_identity_filter(session.query(models.Allocation),
                                        models.Allocation, allocation_id)
        row = query.with_for_update().one_or_none()
        if row is None:
            raise exception.AllocationNotFound(allocation=allocation_id)
        _unlink_nodes(session, row.id)
        session.delete(row)


def delete_for_node(session, node_row):
    """Delete the allocations of a node being deleted or released (the
    node's ``update_node``/``destroy_node`` transaction)."""
    query = session.query(models.Allocation)
    condition = models.Allocation.node_id == node_row.id
    if node_row.allocation_id is not None:
        condition = condition | (models.Allocation.id
                                 == node_row.allocation_id)
    query.filter(condition).delete(synchronize_session=False)


@api.retry_on_db_errors
def fail_allocating(conductor_ids, error):
    """Allocations left ``allocating`` by these conductors (dead, or this
    one before a restart) become ``error``; returns how many.  Retried as
    every writer: a conductor takes over a dead one's allocations while a
    database failover may be dropping its connections."""
    with api.writer() as session:
        return (session.query(models.Allocation)
                .filter(models.Allocation.state == 'allocating',
                        models.Allocation.conductor_affinity.in_(
                            list(conductor_ids)))
                .update({'state': 'error', 'last_error': error,
                         'node_id': None},
                        synchronize_session=False))


def node_uuids(idents, project=None):
    """{ident: node UUID} of candidate nodes given by UUID or name (of
    ``project``, as owner or lessee, when given).

    :raises: NodeNotFound (400) naming the idents that match no node.
    """
    from ironic_lite.db import node as db_node
    idents = set(idents)
    uuids = {i for i in idents if uuidutils.is_uuid_like(i)}
    names = idents - uuids
    mapping = {}
    with api.reader() as session:
        query = session.query(models.Node.uuid, models.Node.name).filter(
            models.Node.uuid.in_(uuids) | exact.in_(models.Node.name, names))
        if project:
            query = db_node.project_filter(query, project)
        for uuid, name in query:
            if uuid in idents:
                mapping[uuid] = uuid
            if name in idents:
                mapping[name] = uuid
    missing = idents - set(mapping)
    if missing:
        raise exception.NodeNotFound(
            'Nodes cannot be found: %s' % ', '.join(sorted(missing)),
            code=400)
    return mapping
