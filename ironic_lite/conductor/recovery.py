"""Taking over interrupted work: locks and half-done operations.

A conductor that stops abruptly leaves its nodes locked (``reservation`` =
its host) and maybe in a transitional state no one will finish; a worker
whose last write or release failed (the database dropped) leaves a stale
lock, or a transitional state with no lock at all.  Whoever finds such a
node releases it and fails it (``utils.fail_stuck_node``: the matching
failed state, ``last_error`` saying what happened), so that no node stays
in ``deploying``, ``cleaning``, ... for good:

* the conductor itself when it starts again (``recover_own_nodes``);
* any live conductor once the dead one missed its heartbeats for
  ``[conductor]heartbeat_timeout`` seconds (``recover_dead_conductors``);
* the conductor whose lock no task of its own holds any more
  (``reclaim_stale_locks``);
* the conductor owning the node (hash ring) when it is in a transitional
  state with no lock for ``[conductor]interrupted_work_grace`` seconds
  (``recover_interrupted``), periodically and once at start.

A conductor taken for dead that was only frozen cannot undo this when it
wakes up: its writes are fenced by its reservation (task_manager).
"""

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import metrics
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def _message(node, host):
    operation = utils.OPERATIONS.get(node.provision_state, 'operation')
    return ("The %s can't be resumed by conductor %s. Moving to fail state."
            % (operation, host))


def _interrupted_message(node, host):
    operation = utils.OPERATIONS.get(node.provision_state, 'operation')
    return ("The %s was interrupted: the node was left in %s with no "
            "conductor working on it (its last write or lock release "
            "failed). Moving to fail state (conductor %s)."
            % (operation, node.provision_state, host))


def _fail_if_stuck(context, node_uuid, host, message=_message):
    """Lock the (released) node and fail it if it is half-way.

    :param message: ``message(node, host)``, the node's ``last_error``.
    :returns: True if the node was failed.
    """
    try:
        with task_manager.acquire(context, node_uuid, retry=False,
                                  load_driver=False,
                                  purpose='recovery') as task:
            node = task.node
            if (node.provision_state in states.STUCK_STATES_TREATED_AS_FAIL
                    or node.target_power_state):
                LOG.warning('Node %s was left in %s; failing it', node.uuid,
                            node.provision_state)
                utils.fail_stuck_node(task, message(node, host))
                return True
    except (exception.NodeLocked, exception.NodeNotFound):
        pass  # someone else took it over, or it is gone
    return False


def recover_own_nodes(context, host):
    """At start: release the locks this host held in a previous life.

    :returns: the number of nodes released.
    """
    nodes = objects.Node.list_locked_by(context, [host])
    released = objects.Node.release_all_for_host(context, host)
    if released:
        metrics.LOCK_TAKEOVERS.labels('restart').inc(released)
        LOG.warning('Released %d node lock(s) held by %s before it '
                    'restarted', released, host)
    for node in nodes:
        _fail_if_stuck(context, node.uuid, host)
    fail_orphan_allocations(context, [host], host)
    return released


def recover_dead_conductors(context, host):
    """Periodic: release and fail the nodes of conductors that died.

    :returns: the UUIDs of the nodes released.
    """
    offline = [h for h in objects.Conductor.offline_hostnames(
        CONF.conductor.heartbeat_timeout) if h != host]
    if not offline:
        return []
    fail_orphan_allocations(context, offline, host)
    released = []
    for node in objects.Node.list_locked_by(context, offline):
        try:
            objects.Node.release(context, node.reservation, node.uuid)
        except (exception.NodeLocked, exception.NodeNotLocked,
                exception.NodeNotFound):
            continue  # another conductor got there first
        metrics.LOCK_TAKEOVERS.labels('dead_conductor').inc()
        LOG.warning('Released node %s held by offline conductor %s',
                    node.uuid, node.reservation)
        released.append(node.uuid)
        _fail_if_stuck(context, node.uuid, host)
    return released


def reclaim_stale_locks(context, host):
    """Periodic: release the locks of this host no task of it holds, and
    fail the nodes their operations left half-way.

    :returns: the UUIDs of the nodes released.
    """
    released = task_manager.reclaim_stale_locks(context, host)
    if released:
        metrics.LOCK_TAKEOVERS.labels('stale').inc(len(released))
    for uuid in released:
        _fail_if_stuck(context, uuid, host, _interrupted_message)
    return released


def recover_interrupted(context, host):
    """Periodic (and at start): fail the nodes this host owns that are in
    a transitional state with no lock since
    ``[conductor]interrupted_work_grace`` seconds.

    A task holds the node's lock through a whole operation, so such a node
    has no one working on it: its worker's last write or release failed.
    Locked under the lock again before anything is written.

    :returns: the UUIDs of the nodes failed.
    """
    failed = []
    for node in objects.Node.list_interrupted(
            context, states.STUCK_STATES_TREATED_AS_FAIL,
            CONF.conductor.interrupted_work_grace):
        if not utils.is_owner(context, node, host):
            continue
        if _fail_if_stuck(context, node.uuid, host, _interrupted_message):
            failed.append(node.uuid)
    return failed


def fail_orphan_allocations(context, hosts, host):
    """Allocations that conductors ``hosts`` (dead, or this one in a
    previous life) left ``allocating`` become ``error``: their worker is
    gone (Ironic's conductor takes them over; here the client retries,
    as after any failed allocation).  Returns how many."""
    ids = []
    for name in hosts:
        try:
            ids.append(objects.Conductor.get_by_hostname(
                context, name, online=None).id)
        except exception.ConductorNotFound:
            continue
    if not ids:
        return 0
    count = objects.Allocation.fail_allocating(
        context, ids, 'The conductor processing the allocation stopped '
                      'before it was done (seen by conductor %s); create '
                      'it again.' % host)
    if count:
        LOG.warning('%d allocation(s) of conductor(s) %s left allocating '
                    'moved to error', count, ', '.join(hosts))
    return count
