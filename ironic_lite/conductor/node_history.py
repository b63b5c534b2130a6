"""The node history cleanup (release 5.0), a periodic task as Ironic's.

Events are recorded by ``Node.save()`` (``objects/node_history.py``);
this only trims them: each conductor deletes, for the nodes the hash ring
gives it, the oldest events beyond ``[conductor]node_history_max_entries``
(keeping those younger than ``node_history_minimum_days``), about
``node_history_cleanup_batch_count`` at most per run.
"""

from oslo_config import cfg
from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.conductor import utils
from ironic_lite import objects

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


def _owned(context, node_ids, host):
    for node_id in node_ids:
        try:
            node = objects.Node.get_by_id(context, node_id)
        except exception.NodeNotFound:
            continue
        if utils.is_owner(context, node, host):
            yield node_id


def cleanup_node_history(context, host):
    """One run of the cleanup; returns how many events were deleted."""
    opts = CONF.conductor
    if not opts.node_history_cleanup_batch_count:
        return 0
    candidates = objects.NodeHistory.nodes_over(
        opts.node_history_max_entries)
    purged = objects.NodeHistory.purge_excess(
        list(_owned(context, candidates, host)),
        opts.node_history_max_entries, opts.node_history_minimum_days,
        opts.node_history_cleanup_batch_count)
    if purged:
        LOG.info('Deleted %d node history events beyond [conductor]'
                 'node_history_max_entries', purged)
    return purged
