"""A node's update on PostgreSQL in two Core statements.

``db.node.update_node`` reads the row ``FOR UPDATE``, checks it and
writes the new values.  Through the ORM that took a Session, an
instance in its identity map and a unit-of-work flush: about three
quarters of the conductor's Python time in a node PATCH.  Here the same
transaction is a ``SELECT ... FOR UPDATE`` of the table's columns, the
same checks on the row read, and an ``UPDATE ... RETURNING`` of the
columns written, on a Core connection of the writer's engine.

Only where nothing needs the ORM: PostgreSQL (``RETURNING``), outside
another transaction block, values that are all columns of ``nodes``, no
node history event to add and no instance removed (which deletes the
node's allocation); every other update goes through the ORM as before.
"""

from oslo_db import exception as db_exc
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models

_NODES = models.Node.__table__
_COLUMNS = frozenset(_NODES.c.keys())
_FOR_UPDATE = {
    column: sa.select(_NODES).where(
        _NODES.c[column] == sa.bindparam('ident')).with_for_update()
    for column in ('id', 'uuid')}
# The UPDATE of each set of columns, built once: a statement object
# computes its cache key once (SQLAlchemy memoizes it on the object),
# and a node's 70 columns made that a third of a new statement's cost.
_UPDATES = {}


def _update_of(names):
    statement = _UPDATES.get(names)
    if statement is None:
        if len(_UPDATES) > 256:  # a bound on the sets of columns kept
            _UPDATES.clear()
        statement = _UPDATES[names] = (
            sa.update(_NODES).where(_NODES.c.id == sa.bindparam('row_id'))
            .values({name: sa.bindparam('v_' + name,
                                        type_=_NODES.c[name].type)
                     for name in names})
            .returning(*_NODES.c))
    return statement


def plain(values, history):
    """Whether an update of ``values`` (with node history events when
    ``history`` is not None) can take the Core statements."""
    return (history is None and _COLUMNS.issuperset(values)
            and 'uuid' not in values
            and not ('instance_uuid' in values
                     and values['instance_uuid'] is None)
            and api.writer_engine_name() == 'postgresql'
            and not api.in_transaction_block())


def update(ident, values, known_version, before_update, on_duplicate):
    """Update node ``ident`` (an id or a UUID) with ``values``, in one
    transaction: the row read FOR UPDATE, its version checked
    (``api.check_known_version``), ``before_update(row)`` called with the
    row read (it may refuse, or add to ``values``), then the columns
    whose values differ written.  Returns the row as written (a Core
    row of every column); NodeNotFound when there is none."""
    column = 'id' if (isinstance(ident, int) or (
        isinstance(ident, str) and ident.isdigit())) else 'uuid'
    try:
        with api.core_writer() as conn:
            row = conn.execute(_FOR_UPDATE[column], {
                'ident': int(ident) if column == 'id' else ident
            }).one_or_none()
            if row is None:
                raise exception.NodeNotFound(node=ident)
            api.check_known_version(row, known_version, kind='Node')
            before_update(row)
            current = row._mapping
            changed = {name: value for name, value in values.items()
                       if current[name] != value}
            if not changed:  # as the ORM's flush: no UPDATE at all
                return row
            params = {'v_' + name: value for name, value in changed.items()}
            params['row_id'] = row.id
            return conn.execute(_update_of(tuple(sorted(changed))),
                                params).one()
    except db_exc.DBDuplicateEntry as err:
        on_duplicate(err, values)
    except db_exc.DBError as err:
        raise api.refused(err, 'node', ident) from None
