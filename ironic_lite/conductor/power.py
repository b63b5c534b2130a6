"""Power actions, their RPC endpoint (``PowerMixin``, RPC 1.0), and the
periodic power state sync."""

import collections
import time

from futurist import waiters
from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import messages
from ironic_lite.common import rpc
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import boot_mode
from ironic_lite.conductor import task_manager
from ironic_lite.conductor import utils
from ironic_lite.conductor import worker_pool
from ironic_lite import objects

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def node_power_action(task, new_state, timeout=None):
    """Worker: change the power state; records the outcome on the node.

    A failure leaves ``power_state`` as it was, clears
    ``target_power_state`` and sets ``last_error`` (as in Ironic, a failed
    power action changes neither the provision state nor maintenance).
    """
    node = task.node
    target = states.power_target(new_state)
    power = task.driver.power
    if new_state in (states.SOFT_REBOOT, states.SOFT_POWER_OFF):
        # Ironic's: a soft action may take the OS a while.
        timeout = timeout or CONF.conductor.soft_power_off_timeout
    try:
        if new_state in states.POWER_OFF_STATES and node.disable_power_off:
            # Ironic's refusal (API 1.95): the node must stay on.
            LOG.error('Refusing to power off node %s with disable_power_off '
                      'flag set', node.uuid)
            raise exception.PowerStateFailure(pstate=new_state)
        if new_state == states.REBOOT:
            power.reboot(task, timeout=timeout)
        elif new_state == states.SOFT_REBOOT:
            # As Ironic: a soft reboot is asked for as a power state.
            power.set_power_state(task, new_state, timeout=timeout)
        elif power.get_power_state(task) == target:
            LOG.info('Node %s is already in power state %s', node.uuid,
                     target)
        else:
            power.set_power_state(task, new_state, timeout=timeout)
    except Exception as err:
        error = messages.safe(err, *messages.node_secrets(node))
        LOG.error('Power action %s on node %s failed: %s', new_state,
                  node.uuid, error)
        node.last_error = ("Failed to change power state to '%(target)s' "
                           "by '%(new)s'. Error: %(err)s"
                           % {'target': target, 'new': new_state,
                              'err': error})
        node.target_power_state = states.NOSTATE
        node.save()
        return
    node.power_state = target
    node.target_power_state = states.NOSTATE
    node.last_error = None
    node.save()
    LOG.info('Successfully set node %s power state to %s by %s.',
             node.uuid, target, new_state)


def power_state_error_handler(exc, task, power_state):
    """Spawn error hook of a power action: put the old state back."""
    node = task.node
    node.power_state = power_state
    node.target_power_state = states.NOSTATE
    node.last_error = ("Failed to change power state of node %s: %s"
                       % (node.uuid, exc))
    node.save()


def sync_power_states(context, host, pool=None):
    """Periodic: read the power state of the nodes this host owns.

    A node whose ``power_state`` is unknown gets the one read; a node whose
    hardware disagrees with the recorded state is set back to it (Ironic's
    ``force_power_state_during_sync``).  Nodes in maintenance, locked, in a
    power action or in a state excluded from sync are skipped.

    Up to ``[conductor]sync_power_state_workers`` nodes are synced at once,
    in workers of ``pool`` (the conductor's, outside its reserved part; a
    pool of its own when None).  A node whose sync has not ended within
    ``rpc.hardware_call_timeout()`` (a BMC that never answers) is left
    behind: its worker finishes on its own, keeping the node's lock, and
    the sync goes on with the other nodes.
    """
    nodes = [node for node in objects.Node.list(
        context, filters={'maintenance': False, 'reserved': False})
        if node.provision_state not in states.SYNC_EXCLUDED_STATES
        and not node.target_power_state
        and utils.is_owner(context, node, host)]
    if not nodes:
        return
    own = pool is None
    if own:
        pool = worker_pool.WorkerPool(
            CONF.conductor.sync_power_state_workers + 2)
    try:
        _sync_in_batches(context, nodes, pool)
    finally:
        if own:
            pool.shutdown(wait=False)


def _left_behind(running, timeout):
    """Drop from ``running`` ({future: (node, deadline)}) the syncs that
    ended, and those past their deadline (logged)."""
    now = time.monotonic()
    for future, (uuid, at) in list(running.items()):
        if future.done():
            del running[future]
        elif now >= at:
            del running[future]
            LOG.warning('Power state sync of node %s did not end within %g '
                        'seconds (its BMC does not answer); going on without '
                        'it', uuid, timeout)


def _sync_in_batches(context, nodes, pool):
    timeout = rpc.hardware_call_timeout()
    width = CONF.conductor.sync_power_state_workers
    pending = collections.deque(nodes)
    running = {}
    while pending or running:
        _left_behind(running, timeout)
        while pending and len(running) < width:
            uuid = pending.popleft().uuid
            try:
                future = pool.submit_bounded(timeout, _sync_node, context,
                                             uuid, reserved=False)
            except exception.NoFreeConductorWorker:
                LOG.warning('No free conductor worker for the power state '
                            'sync: %d node(s) left for its next run',
                            len(pending) + 1)
                pending.clear()
                break
            running[future] = (uuid, time.monotonic() + timeout)
        if running:
            first = min(at for _uuid, at in running.values())
            waiters.wait_for_any(
                list(running), timeout=max(0.01, first - time.monotonic()))


def _sync_node(context, uuid):
    try:
        with task_manager.acquire(context, uuid, retry=False,
                                  purpose='power state sync') as task:
            _sync_one(task)
    except (exception.NodeLocked, exception.NodeNotFound):
        pass
    except Exception:
        LOG.exception('Power state sync of node %s failed', uuid)


# Node UUID -> failed reads of its power state in a row (Ironic keeps the
# same count in its conductor's memory).
_SYNC_FAILURES = {}


def _read_power_state(task):
    """The hardware's power state, or None after a failed read: the
    ``[conductor]power_state_sync_max_retries``-th failure in a row puts
    the node in maintenance with Ironic's fault ``power failure``."""
    node = task.node
    try:
        actual = task.driver.power.get_power_state(task)
    except Exception as err:
        count = _SYNC_FAILURES.get(node.uuid, 0) + 1
        _SYNC_FAILURES[node.uuid] = count
        LOG.warning('During sync_power_state, could not get power state '
                    'for node %s, attempt %d of %d. Error: %s', node.uuid,
                    count, CONF.conductor.power_state_sync_max_retries, err)
        if count >= CONF.conductor.power_state_sync_max_retries:
            _SYNC_FAILURES.pop(node.uuid, None)
            node.maintenance = True
            node.fault = 'power failure'
            node.maintenance_reason = (
                "During sync_power_state, max retries exceeded for node "
                "%s, node state None does not match expected state '%s'. "
                "Updating DB state to 'None' Switching node to maintenance "
                "mode. Error: %s" % (node.uuid, node.power_state, err))
            LOG.error(node.maintenance_reason)
            node.power_state = None
            node.save()
        return None
    _SYNC_FAILURES.pop(node.uuid, None)
    return actual


def _sync_one(task):
    node = task.node
    if node.maintenance or node.target_power_state:
        return
    actual = _read_power_state(task)
    if actual is None:
        return
    # As Ironic's sync: the boot mode and secure boot state are read too,
    # and the hardware's health.
    boot_mode.node_cache_boot_mode(task)
    node_cache_health(task)
    if node.power_state is None or (actual != node.power_state
                                    and node.disable_power_off):
        # A node that must stay on is never switched by the sync (as
        # Ironic's): its state is recorded as found.
        LOG.info('Node %s power state is now known: %s', node.uuid, actual)
        node.power_state = actual
        node.save()
    elif actual != node.power_state:
        LOG.warning('Node %s is %s, expected %s: setting it back', node.uuid,
                    actual, node.power_state)
        task.driver.power.set_power_state(task, node.power_state)


def node_cache_health(task):
    """Store the hardware's health as the node's management interface
    reads it (API 1.109), when it changed: Ironic's
    ``node_cache_health``.  A driver that cannot tell is skipped; a
    failure is logged, the stored health stays."""
    if not CONF.conductor.enable_health_monitoring:
        return
    node = task.node
    try:
        health = task.driver.management.get_node_health(task)
    except exception.UnsupportedDriverExtension:
        return
    except Exception as err:
        LOG.warning('Could not retrieve health status for node %s: %s',
                    node.uuid, messages.safe(err, *messages.node_secrets(
                        node)))
        return
    if health is not None and health not in states.HEALTH_STATES:
        LOG.warning("Node %s reports invalid health value '%s', ignoring",
                    node.uuid, health)
        return
    if health == node.health:
        return
    if health in ('Warning', 'Critical'):
        LOG.warning('Node %s health status indicates a problem: health=%s',
                    node.uuid, health)
    node.health = health
    node.save()


class PowerMixin(object):
    """The power method of ``ConductorManager``."""

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.NoFreeConductorWorker,
                                   exception.NodeLocked)
    def change_node_power_state(self, context, node_id, new_state,
                                timeout=None):
        """Start a power action; returns once it is handed to a worker."""
        LOG.debug('RPC change_node_power_state called for node %s: %s',
                  node_id, new_state)
        with task_manager.acquire(context, node_id,
                                  purpose='changing node power state') as task:
            task.driver.power.validate(task)
            supported = task.driver.power.get_supported_power_states(task)
            if new_state not in supported:
                raise exception.InvalidParameterValue(
                    err='The driver %(driver)s does not support the power '
                        'state, %(state)s' % {'driver': task.node.driver,
                                              'state': new_state})
            task.spawn_after(self._pool, node_power_action, task,
                             new_state, timeout=timeout)
            task.set_spawn_error_hook(power_state_error_handler, task,
                                      task.node.power_state)
            task.node.target_power_state = states.power_target(new_state)
            task.node.last_error = None
            task.node.save()
