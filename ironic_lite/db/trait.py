"""Node trait queries (release 3.0), with Ironic's function names.

Every writer runs under the node's lock (in the conductor); the per-node
limit is checked in the same transaction as the write.  Writers run again
on a deadlock or a dropped connection, as every writer here: MariaDB's
next-key locks make two trait replacements on different nodes deadlock
now and then.
"""

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models

# Placement's limit of traits per resource provider (as Ironic's).
MAX_TRAITS_PER_NODE = 50


def _check_node(session, node_id):
    if not session.query(models.Node.id).filter_by(id=node_id).count():
        raise exception.NodeNotFound(node=node_id)


def _check_count(node_id, count):
    if count > MAX_TRAITS_PER_NODE:
        raise exception.InvalidParameterValue(
            err='Could not modify traits for node %(node)s as it would '
                'exceed the maximum number of traits per node (%(num)d vs. '
                '%(max)d)' % {'node': node_id, 'num': count,
                              'max': MAX_TRAITS_PER_NODE})


# A node's traits by name; built once, the node id a bound parameter.
_OF_NODE = (sa.select(models.NodeTrait)
            .where(models.NodeTrait.node_id == sa.bindparam('node_id'))
            .order_by(models.NodeTrait.trait))


def _rows(session, node_id):
    return session.execute(_OF_NODE, {'node_id': node_id}).scalars().all()


def get_node_traits_by_node_id(node_id):
    with api.reader() as session:
        return _rows(session, node_id)


def get_node_traits_for_nodes(node_ids):
    """{node_id: [rows]} of many nodes in one query (node lists)."""
    found = {node_id: [] for node_id in node_ids}
    if not found:
        return found
    with api.reader() as session:
        conn = session.connection()
        statement = _TRAITS_OF_ANY if conn.dialect.name == 'postgresql' \
            else _TRAITS_OF_IN
        for row in conn.execute(statement, {'ids': list(found)}):
            found[row.node_id].append(row)
    return found


# The traits of many nodes (Core rows), by name.  On PostgreSQL the ids
# are one array parameter (``= ANY``): a page's thousand ids rendered as
# a thousand placeholders took a third of the query's time.
_TRAITS = models.NodeTrait.__table__
_TRAITS_OF_IN = sa.select(_TRAITS).where(_TRAITS.c.node_id.in_(
    sa.bindparam('ids', expanding=True))).order_by(_TRAITS.c.trait)
_TRAITS_OF_ANY = sa.select(_TRAITS).where(_TRAITS.c.node_id == sa.any_(
    sa.bindparam('ids', type_=postgresql.ARRAY(sa.Integer)))).order_by(
        _TRAITS.c.trait)


@api.retry_on_db_errors
def set_node_traits(node_id, traits, version):
    """Replace every trait of a node; returns the new rows."""
    traits = set(traits)
    _check_count(node_id, len(traits))
    with api.writer() as session:
        _check_node(session, node_id)
        session.query(models.NodeTrait).filter_by(node_id=node_id).delete()
        for trait in sorted(traits):
            session.add(models.NodeTrait(node_id=node_id, trait=trait,
                                         version=version))
        session.flush()
        return _rows(session, node_id)


@api.retry_on_db_errors
def add_node_trait(node_id, trait, version):
    """Add one trait (adding one the node has is not an error)."""
    with api.writer() as session:
        _check_node(session, node_id)
        current = {row.trait for row in _rows(session, node_id)}
        if trait in current:
            return
        _check_count(node_id, len(current) + 1)
        session.add(models.NodeTrait(node_id=node_id, trait=trait,
                                     version=version))


@api.retry_on_db_errors
def unset_node_traits(node_id):
    with api.writer() as session:
        _check_node(session, node_id)
        session.query(models.NodeTrait).filter_by(node_id=node_id).delete()


@api.retry_on_db_errors
def delete_node_trait(node_id, trait):
    with api.writer() as session:
        _check_node(session, node_id)
        count = (session.query(models.NodeTrait)
                 .filter_by(node_id=node_id, trait=trait).delete())
        if not count:
            raise exception.NodeTraitNotFound(node_id=node_id, trait=trait)
