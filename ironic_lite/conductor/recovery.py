"""Taking over after a conductor died: locks and half-done operations.

A conductor that stops abruptly leaves its nodes locked (``reservation`` =
its host) and maybe in a transitional state no one will finish.  Such
nodes are released and failed:

* by the conductor itself when it starts again (``recover_own_nodes``);
* by any live conductor once the dead one missed its heartbeats for
  ``[conductor]heartbeat_timeout`` seconds (``recover_dead_conductors``).
"""

from oslo_log import log as logging

from ironic_lite.common import exception
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


def _fail_if_stuck(context, node_uuid, host):
    """Lock the (released) node and fail it if it is half-way."""
    try:
        with task_manager.acquire(context, node_uuid, retry=False,
                                  load_driver=False,
                                  purpose='recovery') as task:
            node = task.node
            if (node.provision_state in states.STUCK_STATES_TREATED_AS_FAIL
                    or node.target_power_state):
                LOG.warning('Node %s was left in %s; failing it', node.uuid,
                            node.provision_state)
                utils.fail_stuck_node(task, _message(node, host))
    except (exception.NodeLocked, exception.NodeNotFound):
        pass  # someone else took it over, or it is gone


def recover_own_nodes(context, host):
    """At start: release the locks this host held in a previous life.

    :returns: the number of nodes released.
    """
    nodes = objects.Node.list_locked_by(context, [host])
    released = objects.Node.release_all_for_host(context, host)
    if released:
        LOG.warning('Released %d node lock(s) held by %s before it '
                    'restarted', released, host)
    for node in nodes:
        _fail_if_stuck(context, node.uuid, host)
    return released


def recover_dead_conductors(context, host):
    """Periodic: release and fail the nodes of conductors that died.

    :returns: the UUIDs of the nodes released.
    """
    offline = [h for h in objects.Conductor.offline_hostnames(
        CONF.conductor.heartbeat_timeout) if h != host]
    if not offline:
        return []
    released = []
    for node in objects.Node.list_locked_by(context, offline):
        try:
            objects.Node.release(context, node.reservation, node.uuid)
        except (exception.NodeLocked, exception.NodeNotLocked,
                exception.NodeNotFound):
            continue  # another conductor got there first
        LOG.warning('Released node %s held by offline conductor %s',
                    node.uuid, node.reservation)
        released.append(node.uuid)
        _fail_if_stuck(context, node.uuid, host)
    return released
