"""Node queries."""

import collections

from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa
from sqlalchemy import orm

from ironic_lite.common import exception
from ironic_lite.db import allocation as db_allocation
from ironic_lite.db import api
from ironic_lite.db import bios as db_bios
from ironic_lite.db import exact
from ironic_lite.db import firmware as db_firmware
from ironic_lite.db import inventory as db_inventory
from ironic_lite.db import models
from ironic_lite.db import node_history as db_history
from ironic_lite.db import plain_write
from ironic_lite.db import prepared

# Filters of get_node_list() and the column they compare for equality.
_EQUAL_FILTERS = ('driver', 'resource_class', 'fault', 'owner', 'lessee',
                  'maintenance', 'retired', 'protected', 'chassis_id',
                  'instance_uuid', 'reservation', 'power_state',
                  'parent_node', 'instance_name')
# Filters of get_node_list() (a list, or one string) and the column whose
# value must be in it.
_IN_FILTERS = {'provision_state': 'provision_state', 'id_in': 'id',
               'reserved_by_any_of': 'reservation'}
# Filters compared byte for byte on every backend (db/exact.py): names an
# operator types, whose case or trailing space makes another group.
_EXACT_FILTERS = ('conductor_group',)


def _equal(column, condition=sa.sql.operators.eq):
    def build(query, value, session):
        if value is None:
            return query
        return query.filter(condition(column, value))
    return build


def _in(column):
    """Values in a list; a string is a list of one."""
    def build(query, values, session):
        if values is None:
            return query
        if isinstance(values, str):
            values = [values]
        return query.filter(column.in_(values))
    return build


def _set_or_not(column):
    """True: the column is set; anything else: it is NULL."""
    def build(query, value, session):
        return query.filter(column.isnot(None) if value
                            else column.is_(None))
    return build


def _unless_none(build):
    def build_given(query, value, session):
        if value is None:
            return query
        return build(query, value, session)
    return build_given


def _project(query, project, session):
    if not project:
        return query
    return project_filter(query, project)


def project_filter(query, project):
    """Nodes ``project`` owns or leases."""
    return query.filter(sa.or_(models.Node.owner == project,
                               models.Node.lessee == project))


def _description_contains(query, text, session):
    if not text:
        return query
    return query.filter(models.Node.description.contains(text))


def _provision_unchanged_for(query, seconds, session):
    """Nodes whose provision state has not changed for ``seconds`` (or
    never recorded when: rows written by hand or by an old release)."""
    if seconds is None:
        return query
    limit = timeutils.utcnow() - timeutils.datetime.timedelta(
        seconds=seconds)
    return query.filter(sa.or_(models.Node.provision_updated_at.is_(None),
                               models.Node.provision_updated_at < limit))


def _chassis_uuid(query, chassis_uuid, session):
    if not chassis_uuid:
        return query
    chassis = session.query(models.Chassis.id).filter_by(
        uuid=chassis_uuid).scalar()
    return query.filter(models.Node.chassis_id == chassis)


def _shard(query, shards, session):
    if shards is None:
        return query
    return query.filter(shard_condition(shards))


# filter key -> function(query, value, session) returning the query with
# that filter applied (or unchanged for a value that means "no filter"),
# applied in this order.  Keys not listed are ignored.
_FILTERS = {
    **{key: _equal(getattr(models.Node, key)) for key in _EQUAL_FILTERS},
    **{key: _equal(getattr(models.Node, key), exact.equals)
       for key in _EXACT_FILTERS},
    **{key: _in(getattr(models.Node, column))
       for key, column in _IN_FILTERS.items()},
    'associated': _set_or_not(models.Node.instance_uuid),
    'reserved': _set_or_not(models.Node.reservation),
    'project': _project,
    'description_contains': _description_contains,
    'provision_unchanged_for': _provision_unchanged_for,
    'chassis_uuid': _chassis_uuid,
    'shard': _shard,
    'sharded': _unless_none(_set_or_not(models.Node.shard)),
    # True: child nodes only; False: top-level nodes only (what Ironic's
    # node list shows unless asked for children).
    'has_parent': _unless_none(_set_or_not(models.Node.parent_node)),
}


def _node_query(session, filters=None):
    """Nodes matching ``filters`` ({key: value}, see ``_FILTERS``)."""
    query = session.query(models.Node)
    filters = filters or {}
    for key, build in _FILTERS.items():
        if key in filters:
            query = build(query, filters[key], session)
    return query


def shard_condition(shards, model=models.Node):
    """Rows of ``model`` in any of ``shards``; None in the list means
    unsharded.

    Exact matches (case, trailing spaces: db/exact.py) answered by the
    column's index.  ``model`` may be a child of nodes (Port, Portgroup)
    with their own copy of the node's ``shard`` (db/child_shards.py): an
    unsharded one is then one with a node.
    """
    names = [s for s in shards if s is not None]
    conditions = []
    if names:
        conditions.append(exact.in_(model.shard, names))
    if len(names) < len(shards):
        unsharded = model.shard.is_(None)
        if model is not models.Node:
            unsharded = sa.and_(unsharded, model.node_id.isnot(None))
        conditions.append(unsharded)
    if not conditions:
        return sa.false()
    return sa.or_(*conditions)


def owned_by_nodes(session, child, filters):
    """Rows of ``child`` (a model with ``node_id``) whose node matches
    the node filters.

    ``filters`` may hold ``shard`` (a list, None meaning unsharded),
    ``conductor_groups`` (a list of groups, compared byte for byte as the
    node list's ``conductor_group``) and ``project`` (the node's owner or
    lessee).  Every one given must match.  Returns None when none is
    given.

    The shard of ports and port groups is their own column, which
    triggers keep equal to their node's (db/child_shards.py): a page of
    a shard's ports takes its ids from ``ports_shard_id_idx`` in id order
    (paginate's ``ids_first``: an index-only scan, which PostgreSQL's
    planner prefers to a walk of the primary key, as it does not prefer
    reading the rows through that index), whatever the size of the
    shard.  For the other filters (and the shard of volume connectors
    and targets) the node ids come from a sub-select on nodes and the
    rows from the child's node_id index: one statement, index scans on
    both tables, no per-row lookups.  On
    PostgreSQL the sub-select is wrapped in ``= ANY(ARRAY(...))``: with a
    plain ``IN (SELECT ...)`` or a JOIN the planner prefers a hash join
    over a full scan of the child table (measured at 100,000 nodes: 40 ms
    against 10-20 ms for the index plan, see
    doc/source/admin/performance.rst).
    """
    conditions = []
    by_node = []
    shards = filters.get('shard')
    if shards is not None and hasattr(child, 'shard'):
        conditions.append(shard_condition(shards, child))
    elif shards is not None:
        by_node.append(shard_condition(shards))
    if filters.get('conductor_groups'):
        by_node.append(exact.in_(models.Node.conductor_group,
                                 filters['conductor_groups']))
    if filters.get('project'):
        project = filters['project']
        by_node.append(sa.or_(models.Node.owner == project,
                              models.Node.lessee == project))
    if by_node:
        node_ids = sa.select(models.Node.id).where(*by_node)
        if session.get_bind().dialect.name == 'postgresql':
            conditions.append(child.node_id == sa.any_(
                sa.func.array(node_ids.scalar_subquery())))
        else:
            conditions.append(child.node_id.in_(node_ids))
    if not conditions:
        return None
    return sa.and_(*conditions)


def get_shard_list():
    """(shard, node count) pairs, biggest first, without the empty ones.

    Read from ``shard_counts`` (db/shard_counts.py), which triggers on
    the nodes keep: one row per shard, whatever the size of the fleet.
    """
    with api.reader() as session:
        return session.execute(_SHARD_LIST).all()


def count_by_provision_state():
    """(provision state, node count) pairs: one grouped read (the
    ``provision_state_idx`` index), for the metrics."""
    with api.reader() as session:
        return session.execute(
            sa.select(models.Node.provision_state, sa.func.count())
            .group_by(models.Node.provision_state)).all()


_COUNTS = models.ShardCount
# Ties: named shards by name, then the unsharded row, the same on every
# backend (they place NULL differently).
_SHARD_LIST = (sa.select(_COUNTS.shard, _COUNTS.nodes)
               .where(_COUNTS.nodes > 0)
               .order_by(_COUNTS.nodes.desc(), _COUNTS.shard.is_(None),
                         exact.key(_COUNTS.shard)))


def get_node_list(filters=None, limit=None, marker=None, sort_key=None,
                  sort_dir=None, columns=None):
    """A page of nodes; ``marker`` is the UUID of the last node seen.

    Core rows (``api.paginate``'s ``plain``), not ORM instances.

    :param columns: if given, only these columns (and ``id``, ``version``)
        are read; the rows have no other.  Names that are not columns are
        ignored.
    """
    with api.reader() as session:
        marker_row = api.get_marker(session, models.Node, marker,
                                    exception.NodeNotFound(node=marker))
        query = _node_query(session, filters)
        # Core rows: an ORM instance costs more than the query on a page
        # of 1,000 (its state; with chosen columns, a loader per deferred
        # column per row).
        plain = True
        if columns is not None:
            # ``version`` always: the object converts the row from it.
            plain = sorted((set(columns) | {'id', 'version'}) & set(
                models.Node.__table__.c.keys()))
        return api.paginate(query, models.Node, limit, marker_row,
                            sort_key, sort_dir, plain=plain)


def get_nodeinfo_list(columns, filters=None, limit=None):
    """Tuples of the given columns for the matching nodes (periodics)."""
    with api.reader() as session:
        cols = [getattr(models.Node, c) for c in columns]
        query = _node_query(session, filters).with_entities(*cols)
        if limit:
            query = query.limit(limit)
        return query.all()


# One node by UUID (a refresh): built once, the UUID a bound parameter.
_NODE_BY_UUID = sa.select(models.Node).where(
    models.Node.uuid == sa.bindparam('uuid'))


# A node and its traits from one statement: (node, trait or None) rows,
# one per trait, the traits by name.
_NODE_AND_TRAITS_BY = {
    column: (sa.select(models.Node, models.NodeTrait)
             .outerjoin(models.NodeTrait,
                        models.NodeTrait.node_id == models.Node.id)
             .where(exact.equals(getattr(models.Node, column),
                                 sa.bindparam('value')))
             .order_by(models.NodeTrait.trait))
    for column in ('id', 'uuid', 'name')}


# A trait read with its node by a prepared statement (Core rows: the
# trait's columns follow the node's, its duplicates suffixed ``_1``).
_TraitRow = collections.namedtuple(
    '_TraitRow', 'node_id trait version created_at updated_at')


def get_node_and_traits(column, value):
    """(node row, [trait rows]) of the node whose ``column`` (id, uuid or
    name) is ``value``, read in one statement (a node shown by the API
    is read with its traits: one round trip, not two).  Outside a
    transaction on PostgreSQL, a statement prepared once per connection
    (``prepared.execute``)."""
    def read(conn):
        rows = prepared.execute(conn, _NODE_AND_TRAITS_BY[column],
                                value).all()
        if not rows:
            raise exception.NodeNotFound(node=value)
        return rows[0], [_TraitRow(r.node_id, r.trait, r.version_1,
                                   r.created_at_1, r.updated_at_1)
                         for r in rows if r.trait is not None]
    found = api.read_plainly(read)
    if found is not api.NOT_PLAIN:
        return found
    with api.reader() as session:
        rows = session.execute(_NODE_AND_TRAITS_BY[column],
                               {'value': value}).all()
    if not rows:
        raise exception.NodeNotFound(node=value)
    return rows[0][0], [trait for _node, trait in rows if trait is not None]


def get_node_by_uuid(node_uuid):
    with api.reader() as session:
        row = session.execute(_NODE_BY_UUID,
                              {'uuid': node_uuid}).scalar_one_or_none()
    if row is None:
        raise exception.NodeNotFound(node=node_uuid)
    return row


def _raise_duplicate(err, values):
    columns = api.duplicate_columns(err)
    if 'name' in columns:
        raise exception.DuplicateName(name=values.get('name'))
    if 'instance_uuid' in columns:
        raise exception.InstanceAssociated(
            instance_uuid=values.get('instance_uuid'),
            node=values.get('uuid', ''))
    raise exception.NodeAlreadyExists(uuid=values.get('uuid'))


@api.retry_on_db_errors
def create_node(values):
    return api.create_row(models.Node, values, _raise_duplicate)


def check_fence(row, fence):
    """NodeLockLost unless the node row is still reserved under ``fence``
    (``(host, token)``, as ``reserve_node`` took it); None: no check."""
    if fence is None:
        return
    host, token = fence
    if row.reservation != host or row.reservation_token != token:
        raise exception.NodeLockLost(node=row.uuid, host=host,
                                     holder=row.reservation or 'nobody')


def _check_unlocked(row, unlocked):
    """NodeLocked when a conductor holds the node (``row``, read FOR
    UPDATE), else ``unlocked(row)``; None: no check."""
    if unlocked is None:
        return
    if row.reservation is not None:
        raise exception.NodeLocked(node=row.uuid, host=row.reservation)
    unlocked(row)


@api.retry_on_db_errors
def update_node(node_id, values, known_version=None, fence=None,
                history=None, unlocked=None, as_read=None):
    """Update the columns given; ``node_id`` is an id or a UUID.

    :param fence: ``(host, token)`` of the task writing under the node's
        lock: the row is read FOR UPDATE and written only if it is still
        reserved with that host and token (NodeLockLost otherwise,
        nothing written).  The row lock keeps the reservation from
        changing until the write commits.
    :param history: ``history(row, values)``, the node history events
        (column dicts) the update makes, given the row as it was: they
        are written in the update's transaction (``db/node_history.py``).
    :param unlocked: ``unlocked(row)``, for a write made while no task
        holds the node's lock: the row read FOR UPDATE once, NodeLocked
        when a conductor holds it (its ``reservation``), else given to
        ``unlocked``, which may refuse the write (raise) before anything
        is written.  One read of the row where ``write_if_unlocked`` and
        a read of the node inside it took three.
    :param as_read: {column: value} on which the caller made its checks
        (the node as it, or another, read it): the update is first made
        in one statement, without reading the row, only if no task holds
        the node and the row still has those values
        (``plain_write.update_node_as_read``; PostgreSQL only); when it is
        not, as above with ``unlocked``, else nothing is written (None).
    """
    # The row is detached (and expired) once a failed flush rolled the
    # transaction back: keep what the error message needs beforehand.
    seen = {'uuid': node_id}
    before_update = _before_update(values, fence, unlocked, history, seen)

    def on_duplicate(err, written):
        _raise_duplicate(err, dict(written, uuid=seen['uuid']))

    plain = plain_write.plain_update(values, history)
    if as_read is not None:
        written = None
        if fence is not None:
            raise ValueError('a fenced write is not made on values as read')
        if plain and 'provision_state' not in values:
            written = plain_write.update_node_as_read(
                node_id, values, known_version, as_read, on_duplicate)
        if written is not None or unlocked is None:
            return written
    if plain:
        return plain_write.update_node(node_id, values, known_version,
                                       before_update, on_duplicate)
    return api.update_row(models.Node, 'node', node_id, values, known_version,
                          exception.NodeNotFound(node=node_id),
                          on_duplicate=on_duplicate, lock=True,
                          before_update=before_update)


def _before_update(values, fence, unlocked, history, seen):
    """``before_update(row)`` of ``update_node``: its checks of the row
    read (the fence, the lock, ``unlocked``), then what the row makes it
    add to ``values`` (the state's time, the allocation's removal, the
    history events); the row's UUID noted in ``seen``."""
    def before_update(row):
        seen['uuid'] = row.uuid
        check_fence(row, fence)
        _check_unlocked(row, unlocked)
        if 'provision_state' in values and (
                values['provision_state'] != row.provision_state):
            values.setdefault('provision_updated_at', timeutils.utcnow())
        if ('instance_uuid' in values and values['instance_uuid'] is None
                and row.allocation_id is not None):
            # A node losing its instance (tear down, a PATCH) loses its
            # allocation with it, as in Ironic.
            db_allocation.delete_for_node(orm.object_session(row), row)
            values['allocation_id'] = None
        if history is not None:
            db_history.add_events(orm.object_session(row),
                                  history(row, values))
    return before_update


def _delete_children(session, row):
    db_allocation.delete_for_node(session, row)
    session.query(models.Port).filter_by(node_id=row.id).delete()
    session.query(models.Portgroup).filter_by(node_id=row.id).delete()
    session.query(models.NodeTrait).filter_by(node_id=row.id).delete()
    session.query(models.VolumeConnector).filter_by(node_id=row.id).delete()
    session.query(models.VolumeTarget).filter_by(node_id=row.id).delete()
    db_bios.delete_for_node(session, row.id)
    db_firmware.delete_for_node(session, row.id)
    db_history.delete_for_node(session, row.id)
    db_inventory.delete_for_node(session, row.id)


@api.retry_on_db_errors
def destroy_node(node_id):
    """Delete a node with its ports, port groups, traits, volume
    connectors and targets, BIOS settings, history and inventory (as
    Ironic)."""
    api.delete_row(models.Node, node_id, exception.NodeNotFound(node=node_id),
                   before_delete=_delete_children)


_NODE_FOR_WRITE = (sa.select(models.Node.uuid, models.Node.reservation,
                             models.Node.reservation_token)
                   .where(models.Node.id == sa.bindparam('node_id'))
                   .with_for_update())


def _locked_row(session, node_id):
    row = session.execute(_NODE_FOR_WRITE,
                          {'node_id': node_id}).one_or_none()
    if row is None:
        raise exception.NodeNotFound(node=node_id)
    return row


@api.retry_on_db_errors
def write_if_unlocked(node_id, write):
    """Run ``write()`` in one transaction with the node's row locked,
    unless a conductor holds the node's lock (its ``reservation``).

    The row lock (``SELECT ... FOR UPDATE``; SQLite's writers are
    serialized by BEGIN IMMEDIATE) keeps any other writer from reserving
    or deleting the node until this transaction commits, so the write is
    made under the same guarantee as under the node's lock -- in one
    commit instead of three (reserve, write, release).  The DB calls of
    ``write`` join this transaction.

    :raises: NodeNotFound; NodeLocked naming the holder.
    """
    with api.writer() as session:
        row = _locked_row(session, node_id)
        if row.reservation is not None:
            raise exception.NodeLocked(node=row.uuid, host=row.reservation)
        return write()


@api.retry_on_db_errors
def write_if_held(node_id, fence, write):
    """Run ``write()`` (ports, port groups, traits of a locked node; its
    deletion) in one transaction with the node's row locked, only if the
    node is still reserved under ``fence`` (``(host, token)``).

    The row lock keeps the reservation from being broken until the write
    commits: a write whose task lost the lock is never applied.

    :param node_id: the node's integer id.
    :raises: NodeNotFound; NodeLockLost (nothing written).
    """
    with api.writer() as session:
        check_fence(_locked_row(session, node_id), fence)
        return write()


@api.retry_on_db_errors
def reserve_node(tag, node_id):
    """Lock a node for host ``tag``, atomically; return the locked row.

    Each reservation gets a fresh random ``reservation_token`` (the row's
    ``reservation_token`` as returned): the fence of the task holding it.
    """
    token = uuidutils.generate_uuid()
    with api.writer() as session:
        query = api.add_identity_filter(session.query(models.Node),
                                        models.Node, node_id)
        # The holder may release between the UPDATE and the SELECT (each
        # statement sees the latest commit): then the lock is free, try
        # again rather than answer "locked by host None".
        for _attempt in range(3):
            count = (query.filter(models.Node.reservation.is_(None))
                     .update({'reservation': tag,
                              'reservation_token': token},
                             synchronize_session=False))
            row = query.populate_existing().one_or_none()
            if row is None:
                raise exception.NodeNotFound(node=node_id)
            if count == 1:
                return row
            if row.reservation is not None:
                raise exception.NodeLocked(node=row.uuid,
                                           host=row.reservation)
        raise exception.NodeLocked(node=row.uuid, host='another conductor')


_UNLOCKED = {'reservation': None, 'reservation_token': None}


@api.retry_on_db_errors
def release_node(tag, node_id, token=None):
    """Release the lock host ``tag`` holds on a node.

    :param token: the reservation's token (the task's own release): only
        that reservation is released, not a newer one the same host took
        after this one was broken.  None: whatever ``tag`` holds (a stale
        lock broken by its own host or a live one).
    """
    with api.writer() as session:
        query = api.add_identity_filter(session.query(models.Node),
                                        models.Node, node_id)
        mine = query.filter(models.Node.reservation == tag)
        if token is not None:
            mine = mine.filter(models.Node.reservation_token == token)
        if mine.update(_UNLOCKED, synchronize_session=False) == 1:
            return
        row = query.one_or_none()
        if row is None:
            raise exception.NodeNotFound(node=node_id)
        if row.reservation is None:
            raise exception.NodeNotLocked(node=row.uuid, host=tag)
        raise exception.NodeLocked(node=row.uuid, host=row.reservation)


@api.retry_on_db_errors
def clear_node_reservations_for_conductor(hostname):
    """Drop every lock a (dead or restarting) conductor held."""
    with api.writer() as session:
        return (session.query(models.Node)
                .filter_by(reservation=hostname)
                .update(_UNLOCKED, synchronize_session=False))


def get_uuids_by_ids(ids):
    """{id: uuid} of the nodes among ``ids``."""
    return api.uuids_by_id(models.Node, ids)
