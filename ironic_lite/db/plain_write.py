"""Writes on PostgreSQL in Core statements, without the ORM: a row's
insert, and a node's update.

**A row's insert** (``create``): ``api.create_row`` added an instance to
a Session and flushed a unit of work, an ``INSERT ... RETURNING id``
between a BEGIN and a COMMIT; here it is one ``INSERT ... RETURNING`` of
every column in autocommit (a statement is its own transaction: one
round trip instead of three), each statement built once per table and
set of columns, its row the one the object is filled from.  Only on
PostgreSQL, outside another transaction block, with values that are all
columns of the table.

**A node's update**:

``db.node.update_node`` reads the row ``FOR UPDATE``, checks it and
writes the new values.  Through the ORM that took a Session, an
instance in its identity map and a unit-of-work flush: about three
quarters of the conductor's Python time in a node PATCH.  Here it is
two statements in autocommit, on a Core connection of the writer's
engine: a ``SELECT`` of the row with its ``xmin`` (the transaction that
wrote this version of the row), the same checks on the row read, then
an ``UPDATE ... WHERE id = ... AND xmin = <as read> RETURNING`` of the
columns written.  The update is made only if the row is still the
version that was checked: any write of the row since -- a task taking
the node's lock, another update -- gives it a new ``xmin``, and a write
in progress is waited for and the condition evaluated again on what it
committed (PostgreSQL's READ COMMITTED).  When the condition fails,
nothing was written and the update is made again the locking way: a
``SELECT ... FOR UPDATE``, the checks, the ``UPDATE ... RETURNING`` and
a ``COMMIT``, in one transaction.  Two round trips instead of four
(BEGIN, SELECT, UPDATE, COMMIT), with the same checks and refusals.

Only where nothing needs the ORM: PostgreSQL (``RETURNING``), outside
another transaction block, values that are all columns of ``nodes``, no
node history event to add and no instance removed (which deletes the
node's allocation); every other update goes through the ORM as before.
"""

import re

from oslo_db import exception as db_exc
from oslo_log import log as logging
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models
from ironic_lite.db import prepared

LOG = logging.getLogger(__name__)

_NODES = models.Node.__table__
_COLUMNS = frozenset(_NODES.c.keys())
# (column, its update default's function): what SQLAlchemy sets when an
# UPDATE does not give the column.
_ON_UPDATE = tuple((column.key, column.onupdate.arg) for column in _NODES.c
                   if column.onupdate is not None
                   and column.onupdate.is_callable)
_FOR_UPDATE = {
    column: sa.select(_NODES).where(
        _NODES.c[column] == sa.bindparam('ident')).with_for_update()
    for column in ('id', 'uuid')}
# The version of a row: the transaction that wrote it (as text: psycopg2
# has no type for xid).
_XMIN = sa.literal_column('xmin::text')
# Run as prepared statements (``prepared.execute``), as is the update
# that follows it: planning the read took as long as running it.
_READ = {
    column: sa.select(_NODES, _XMIN.label('row_xmin')).where(
        _NODES.c[column] == sa.bindparam('value'))
    for column in ('id', 'uuid')}
# Statements built once per table and set of columns: a statement object
# computes its cache key once (SQLAlchemy memoizes it on the object), and
# a node's 70 columns made that a third of a new statement's cost.
# (build, table, columns, extra) -> statement.
_STATEMENTS = {}


def _statement(build, table, names, *extra):
    """The statement ``build(table, {column: its bound parameter},
    *extra)`` for the columns ``names`` (a sorted tuple), built once per
    ``extra`` (hashable) too; its parameters are ``_params`` of their
    values."""
    key = (build, table, names, extra)
    statement = _STATEMENTS.get(key)
    if statement is None:
        if len(_STATEMENTS) > 256:  # a bound on the sets of columns kept
            _STATEMENTS.clear()
        statement = _STATEMENTS[key] = build(table, {
            name: sa.bindparam('v_' + name, type_=table.c[name].type)
            for name in names}, *extra)
    return statement


def _with_update_defaults(values):
    """``values`` (a copy) and the columns' update defaults
    (``updated_at``) for those not given: a prepared statement has no
    value computed when it runs."""
    values = dict(values)
    for name, default in _ON_UPDATE:
        values.setdefault(name, default(None))
    return values


def _params(values):
    """The bound parameters of ``values`` in a ``_statement``."""
    return {'v_' + name: value for name, value in values.items()}


def _update(table, columns):
    return (sa.update(table).where(table.c.id == sa.bindparam('row_id'))
            .values(columns).returning(*table.c))


def _update_if_unchanged(table, columns):
    return _update(table, columns).where(_XMIN == sa.bindparam('row_xmin'))


def _insert(table, columns):
    return sa.insert(table).values(columns).returning(*table.c)


def plain_update(values, history):
    """Whether an update of ``values`` (with node history events when
    ``history`` is not None) can take the Core statements."""
    return (history is None and _COLUMNS.issuperset(values)
            and 'uuid' not in values
            and not ('instance_uuid' in values
                     and values['instance_uuid'] is None)
            and _plain_database())


def _plain_database():
    return (api.writer_engine_name() == 'postgresql'
            and not api.in_transaction_block())


def plain_create(model, values):
    """Whether ``create`` can insert ``values`` into ``model``'s table."""
    return (set(model.__table__.c.keys()).issuperset(values)
            and _plain_database())


def _as_none(table):
    """The columns the ORM inserts as None when not given (SQLAlchemy's
    ``Mapper._insert_cols_as_none``)."""
    found = _AS_NONE.get(table)
    if found is None:
        found = _AS_NONE[table] = tuple(
            column.key for column in table.c
            if not (column.primary_key or column.server_default
                    or column.default or column.type.should_evaluate_none))
    return found


_AS_NONE = {}


def create(model, values):
    """Insert a row of ``model`` from ``values`` (whose keys are columns
    of its table; the columns' defaults fill the others, as the ORM's
    insert does) in a transaction of its own; returns it, every column
    (a Core row).  oslo.db's errors go up as they are."""
    table = model.__table__
    # As the ORM's insert: a column without a default that is not given
    # is written as None, through its type (a JSON column's None is
    # stored as ``{}``).
    values = _with_defaults(table, values)
    statement = _statement(_insert, table, tuple(sorted(values)))
    # One statement: on its own, in autocommit (one round trip),
    # prepared once per connection.
    with api.core_writer(single_statement=True) as conn:
        return prepared.execute_with(conn, statement, _params(values)).one()


def _with_defaults(table, values):
    """``values`` and what SQLAlchemy's insert adds to them: None for a
    column with no default (as the ORM's insert writes it, through its
    type: a JSON column's None is stored as ``{}``), the Python default
    of a column that has one -- given here, since a prepared statement
    has no value computed when it runs.  Columns with a server default
    only are left to the server."""
    found = dict(dict.fromkeys(_as_none(table)), **values)
    for column in table.c:
        default = column.default
        if default is None or column.key in found:
            continue
        found[column.key] = (default.arg(None) if default.is_callable
                             else default.arg)
    return found


def create_unless_node_locked(model, values):
    """Insert a row of ``model`` (a port or port group: a ``node_id``
    column) from ``values``, as ``create`` does, in one statement that
    reads its node's row ``FOR SHARE`` and inserts only while no task
    holds the node's lock (its ``reservation`` is NULL): the same
    guarantee as the transaction of ``node.write_if_unlocked`` -- a task
    taking the lock or a deletion of the node waits for the insert's
    commit, and one that committed first is seen -- in one round trip
    instead of four.  Returns the row inserted; None when none was (the
    node locked, or gone): the caller writes it the locking way, which
    says which (NodeLocked, NodeNotFound)."""
    table = model.__table__
    values = _with_defaults(table, values)
    statement = _statement(_insert_unless_node_locked, table,
                           tuple(sorted(values)))
    with api.core_writer(single_statement=True) as conn:
        return prepared.execute_with(conn, statement, dict(
            _params(values), unlocked_node=values['node_id'])).one_or_none()


def create_row_unless_node_locked(model, values, on_duplicate):
    """``api.create_row`` of a row with a ``node_id`` (a port, a port group)
    in one statement made only while no task holds its node's lock
    (``plain_write.create_unless_node_locked``).  Returns the row; None
    when nothing was written: the node locked or gone, or a database
    where the statement is not used (not PostgreSQL, or inside a
    transaction block) -- the caller then writes it under the node's row
    lock (``node.write_if_unlocked``)."""
    values = dict(values)
    values.setdefault('uuid', uuidutils.generate_uuid())
    if not plain_create(model, values):
        return None
    try:
        return create_unless_node_locked(model, values)
    except db_exc.DBDuplicateEntry as err:
        on_duplicate(err, values)
    except db_exc.DBError as err:
        raise api.refused(err, model.__name__.lower(),
                          values['uuid']) from None


def _insert_unless_node_locked(table, columns):
    """INSERT INTO <table> (columns) SELECT <their values> FROM nodes
    WHERE nodes.id = :unlocked_node AND nodes.reservation IS NULL
    FOR SHARE OF nodes RETURNING <table>.*.  (Each value is cast to its
    column's type: a SELECT's untyped parameters would be text.)"""
    names = sorted(columns)
    source = sa.select(*[
        sa.cast(columns[name], table.c[name].type).label(name)
        for name in names]).where(
            _NODES.c.id == sa.bindparam('unlocked_node'),
            _NODES.c.reservation.is_(None)).with_for_update(
                read=True, of=_NODES)
    return (sa.insert(table).from_select(names, source)
            .returning(*table.c))


def update_node(ident, values, known_version, before_update, on_duplicate):
    """Update node ``ident`` (an id or a UUID) with ``values``: the row
    read, its version checked (``api.check_known_version``),
    ``before_update(row)`` called with the row read (it may refuse, or
    add to ``values``), then the columns whose values differ written --
    if the row is still as read, else all of it again under the row's
    lock (see the module's docstring).  Returns the row as written (a
    Core row of every column); NodeNotFound when there is none."""
    column = 'id' if api.is_id(ident) else 'uuid'
    ident = int(ident) if column == 'id' else ident
    asked = dict(values)
    try:
        written = _write_if_unchanged(column, ident, values, known_version,
                                      before_update)
        if written is None:  # written by another since it was read
            values.clear()
            values.update(asked)  # without what before_update added
            written = _write_under_lock(column, ident, values,
                                        known_version, before_update)
        return written
    except db_exc.DBDuplicateEntry as err:
        on_duplicate(err, values)
    except db_exc.DBError as err:
        raise api.refused(err, 'node', ident) from None


def update_node_as_read(ident, values, known_version, as_read,
                        on_duplicate):
    """Update node ``ident`` with ``values`` in one statement, without
    reading it: ``UPDATE ... WHERE <ident> AND reservation IS NULL AND
    <a version the writer knows> AND <each column of as_read> =
    <its value> RETURNING``.  ``as_read`` ({column: value}) are the
    values of the node as the caller read it, which its checks passed on:
    the row is written only if it still has them and no task holds its
    lock, so the checks hold for the row written as for the row read.
    Returns the row written; None when none was (the row differs, is
    locked, at a version the writer does not know, or gone): the caller
    then reads it and writes it as ``update_node`` does, which refuses,
    or not, on what it finds."""
    versions = _known_versions(known_version)
    if versions is None or not _COLUMNS.issuperset(as_read):
        return None
    column = 'id' if api.is_id(ident) else 'uuid'
    ident = int(ident) if column == 'id' else ident
    values = _with_update_defaults(values)
    nulls = frozenset(name for name, value in as_read.items()
                      if value is None)
    statement = _statement(_update_as_read, _NODES, tuple(sorted(values)),
                           column, tuple(sorted(as_read)), nulls, versions)
    params = dict(_params(values), ident=ident)
    params.update(('r_' + name, value) for name, value in as_read.items()
                  if value is not None)
    try:
        with api.core_writer(single_statement=True) as conn:
            return prepared.execute_with(conn, statement,
                                         params).one_or_none()
    except db_exc.DBDuplicateEntry as err:
        on_duplicate(err, values)
    except (db_exc.DBError, sa.exc.StatementError) as err:
        # Nothing was written: the reading path decides (and refuses the
        # values themselves, if that is what failed).
        LOG.debug('Node %s updated by reading it: %s', ident, err)
        return None


def _known_versions(known_version):
    """The object versions ``api.check_known_version`` lets a writer of
    ``known_version`` overwrite (a row with no version too): the same
    major, a minor up to its own.  None for a version not of that form
    (the row is then read and checked)."""
    if known_version is None or not _VERSION.match(known_version):
        return None
    major, minor = known_version.split('.')
    return tuple('%s.%d' % (major, number)
                 for number in range(int(minor) + 1))


_VERSION = re.compile(r'^\d+\.\d+$')


def _update_as_read(table, columns, column, read, nulls, versions):
    """UPDATE <table> SET <columns> WHERE <column> = :ident AND
    reservation IS NULL AND <a version of ``versions``, or none> AND
    <each column of ``read`` = :r_<column>, or IS NULL if in ``nulls``>
    RETURNING <table>.*."""
    conditions = [
        table.c[column] == sa.bindparam('ident'),
        table.c.reservation.is_(None),
        sa.or_(table.c.version.is_(None),
               table.c.version == sa.literal_column("''"),
               table.c.version.in_([sa.literal_column("'%s'" % number)
                                    for number in versions]))]
    conditions += [
        table.c[name].is_(None) if name in nulls else
        table.c[name] == sa.bindparam('r_' + name, type_=table.c[name].type)
        for name in read]
    return (sa.update(table).where(*conditions).values(columns)
            .returning(*table.c))


def _changes(row, ident, values, known_version, before_update):
    """The checks on ``row`` (None: NodeNotFound), then the values that
    differ from it."""
    if row is None:
        raise exception.NodeNotFound(node=ident)
    api.check_known_version(row, known_version, kind='Node')
    before_update(row)
    current = row._mapping
    return {name: value for name, value in values.items()
            if current[name] != value}


def _write_if_unchanged(column, ident, values, known_version,
                        before_update):
    """Two statements, each its own transaction: the row read, then
    written only if no other write made it since.  The row written (or
    read, when nothing differs), or None when the row had changed."""
    with api.core_writer(single_statement=True) as conn:
        row = prepared.execute(conn, _READ[column], ident).one_or_none()
        changed = _changes(row, ident, values, known_version, before_update)
        if not changed:  # as the ORM's flush: no UPDATE at all
            return row
        changed = _with_update_defaults(changed)
        statement = _statement(_update_if_unchanged, _NODES,
                               tuple(sorted(changed)))
        return prepared.execute_with(conn, statement, dict(
            _params(changed), row_id=row.id,
            row_xmin=row.row_xmin)).one_or_none()


def _write_under_lock(column, ident, values, known_version, before_update):
    """One transaction: the row read FOR UPDATE, then written."""
    with api.core_writer() as conn:
        row = conn.execute(_FOR_UPDATE[column],
                           {'ident': ident}).one_or_none()
        changed = _changes(row, ident, values, known_version, before_update)
        if not changed:
            return row
        statement = _statement(_update, _NODES, tuple(sorted(changed)))
        return conn.execute(statement, dict(_params(changed),
                                            row_id=row.id)).one()
