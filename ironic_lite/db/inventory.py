"""Node inventory queries (release 5.0), with Ironic's function names.

A node has at most one inventory: storing one replaces the previous one
in the same transaction.  The conductor writes it under the node's lock
(``task.fenced``); deleting the node deletes it (``db/node.py``).
"""

import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models


def _delete(session, node_id):
    session.execute(sa.delete(models.NodeInventory)
                    .where(models.NodeInventory.node_id == node_id))


@api.retry_on_db_errors
def create_node_inventory(values):
    """Store a node's inventory (replacing any older one); the row."""
    with api.writer() as session:
        _delete(session, values['node_id'])
        row = models.NodeInventory(**values)
        session.add(row)
        session.flush()
        return row


def delete_for_node(session, node_id):
    """Within a node delete's transaction."""
    _delete(session, node_id)


@api.retry_on_db_errors
def destroy_node_inventory_by_node_id(node_id):
    with api.writer() as session:
        _delete(session, node_id)


def get_node_inventory_by_node_id(node_id):
    """The row; NodeInventoryNotFound when the node has none."""
    with api.reader() as session:
        row = session.execute(
            sa.select(models.NodeInventory)
            .where(models.NodeInventory.node_id == node_id)
        ).scalars().first()
    if row is None:
        raise exception.NodeInventoryNotFound(node=node_id)
    return row
