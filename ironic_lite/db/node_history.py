"""Node history queries (release 5.0, API 1.78), with Ironic's names.

Events are written by ``db/node.py``'s ``update_node`` in the node
update's own transaction (``add_events``), so an event is stored exactly
when the change it tells of is; its insert runs in a savepoint, so that a
failure to store the event never undoes the change.  The conductor's
periodic cleanup deletes the oldest events of nodes over
``[conductor]node_history_max_entries``.
"""

import datetime

from oslo_db import exception as db_exc
from oslo_log import log as logging
import sqlalchemy as sa

from ironic_lite.common import exception
from ironic_lite.db import api
from ironic_lite.db import models

LOG = logging.getLogger(__name__)

_MODEL = models.NodeHistory


def _not_found(ident):
    return exception.NodeHistoryNotFound(history=ident)


def get_node_history_by_uuid(uuid):
    with api.reader() as session:
        row = session.query(_MODEL).filter_by(uuid=uuid).one_or_none()
    if row is None:
        raise _not_found(uuid)
    return row


def get_node_history_by_node_id(node_id, limit=None, marker=None,
                                sort_key=None, sort_dir=None):
    """A page of the node's events; ``marker`` is an event's UUID (of
    this node: another node's is not found)."""
    with api.reader() as session:
        query = session.query(_MODEL).filter(_MODEL.node_id == node_id)
        marker_row = None
        if marker is not None:
            marker_row = (query.filter(_MODEL.uuid == marker)
                          .one_or_none())
            if marker_row is None:
                raise _not_found(marker)
        return api.paginate(query, _MODEL, limit, marker_row,
                            sort_key or 'created_at', sort_dir)


def add_events(session, events):
    """Insert ``events`` (column dicts) in ``session``'s transaction, in a
    savepoint: a failure is logged and leaves the transaction as it was
    (the node update it belongs to goes on)."""
    if not events:
        return
    try:
        with session.begin_nested():
            session.add_all([_MODEL(**values) for values in events])
    except (db_exc.DBDeadlock, db_exc.DBConnectionError):
        raise   # the whole transaction is gone: the update is retried
    except db_exc.DBError as err:
        LOG.warning('Could not record the history of node %s: %s',
                    events[0].get('node_id'), err)


def delete_for_node(session, node_id):
    """Delete the node's events (inside the node's deletion)."""
    session.query(_MODEL).filter_by(node_id=node_id).delete()


def nodes_over(max_entries):
    """The ids of the nodes with more than ``max_entries`` events."""
    with api.reader() as session:
        rows = (session.query(_MODEL.node_id)
                .filter(_MODEL.node_id.isnot(None))
                .group_by(_MODEL.node_id)
                .having(sa.func.count(_MODEL.id) > max_entries))
        return [row.node_id for row in rows]


@api.retry_on_db_errors
def purge_node_history(node_id, max_entries, minimum_days=0):
    """Delete the node's events beyond its newest ``max_entries``, except
    those younger than ``minimum_days``; returns how many went."""
    with api.writer() as session:
        ids = [row.id for row in
               session.query(_MODEL.id, _MODEL.created_at)
               .filter(_MODEL.node_id == node_id)
               .order_by(_MODEL.created_at.desc(), _MODEL.id.desc())
               .offset(max_entries)]
        if ids and minimum_days:
            since = api.utcnow() - datetime.timedelta(days=minimum_days)
            ids = [row.id for row in session.query(_MODEL.id)
                   .filter(_MODEL.id.in_(ids), _MODEL.created_at < since)]
        if ids:
            (session.query(_MODEL).filter(_MODEL.id.in_(ids))
             .delete(synchronize_session=False))
        return len(ids)
