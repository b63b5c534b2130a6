"""Helpers shared by the conductor flows: failing a node, its message;
the rules of a node update that Ironic's conductor enforces."""

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import messages
from ironic_lite.common import states
from ironic_lite.conductor import hash_ring
from ironic_lite.drivers import power_flow

LOG = logging.getLogger(__name__)

# Transitional state -> the last_error a failure there leaves.
_FAIL_MESSAGES = {
    states.VERIFYING: 'Failed to verify node: %s',
    states.DEPLOYING: 'Failed to deploy: %s',
    states.DELETING: 'Failed to tear down: %s',
    states.CLEANING: 'Failed to clean node: %s',
    states.INSPECTING: 'Failed to inspect hardware. Reason: %s',
    states.ADOPTING: 'Error while attempting to adopt node: %s',
    states.RESCUING: 'Failed to rescue: %s',
    states.UNRESCUING: 'Failed to unrescue: %s',
}

# Transitional state -> what the operation is called, for messages.
OPERATIONS = {
    states.VERIFYING: 'verification',
    states.DEPLOYING: 'deployment',
    states.DELETING: 'tear down',
    states.CLEANING: 'cleaning',
    states.INSPECTING: 'inspection',
    states.ADOPTING: 'adoption',
    states.RESCUING: 'rescue',
    states.UNRESCUING: 'unrescue',
    states.SERVICING: 'servicing',
}


def is_owner(context, node, host):
    """Whether ``host`` is the node's conductor on the hash ring."""
    try:
        return hash_ring.RING_MANAGER.get_host(
            context, node.uuid, node.driver, node.conductor_group) == host
    except exception.IronicException:
        return False


def fail_node(exc, task):
    """Spawn error hook: move the node to its failed state, with why.

    The node goes through the ``fail`` event of its current state (deploy
    failed, clean failed, inspect failed, adopt failed, error, or back to
    enroll for verification), ``last_error`` says what went wrong, and a
    node that failed deploying is powered off.  The caller releases the
    lock.
    """
    node = task.node
    state = node.provision_state
    template = _FAIL_MESSAGES.get(state, 'Failed during %s: %%s'
                                  % task.purpose)
    # An error that carries its own last_error (Ironic's wording of a
    # deploy step failure) is recorded as it is.
    message = messages.safe(getattr(exc, 'last_error', None)
                            or template % exc, *messages.node_secrets(node))
    try:
        if state == states.DEPLOYING and task.driver is not None:
            _power_off_quietly(task)
        if states.is_actionable(state, 'fail'):
            task.process_event('fail', last_error=message,
                               target_state=failed_target(node))
        else:
            node.last_error = message
            node.save()
    except exception.NodeLockLost:
        raise   # the task stops: another conductor has the node
    except Exception:
        LOG.exception('Could not record the failure of node %s: %s',
                      node.uuid, message)


def fail_stuck_node(task, message):
    """Fail a node left in a transitional state by a conductor that died
    (or by this one, in a previous life)."""
    node = task.node
    node.target_power_state = None
    node.history_event_type = states.CONDUCTOR   # as Ironic records it
    if (node.provision_state in states.STUCK_STATES_TREATED_AS_FAIL
            and states.is_actionable(node.provision_state, 'fail')):
        task.process_event('fail', last_error=message,
                           target_state=failed_target(node))
    else:
        node.save()


def failed_target(node):
    """The target a failure keeps: a manual cleaning (RPC 1.6) heads back
    to manageable, as in Ironic; None: the failed state's own."""
    if (node.provision_state in (states.CLEANING, states.CLEANWAIT)
            and node.target_provision_state == states.MANAGEABLE):
        return states.MANAGEABLE
    return None


# Ironic's rules of a flag with a reason in a node update: {flag: (whether
# the node's provision state may take the flag, the 409's message)}.
_FLAG_RULES = {
    'protected': (
        lambda state: state in (states.ACTIVE, states.RESCUE),
        "Node %(node)s can only be made protected in provision states "
        "'active' or 'rescue', the current state is '%(state)s'"),
    # Not while available: the node would be offered to Nova meanwhile.
    'retired': (
        lambda state: state != states.AVAILABLE,
        "Node %(node)s can not have 'retired' set in provision state "
        "'available', the current state is '%(state)s'"),
}


def clear_flag_reasons(node_obj, delta):
    """A flag (``protected``, ``retired``) cleared in an update clears its
    reason, as in Ironic."""
    for flag in _FLAG_RULES:
        if flag in delta and not getattr(node_obj, flag):
            setattr(node_obj, flag + '_reason', None)


def check_update_flags(node_obj, delta, state):
    """Ironic's rules of ``protected`` and ``retired`` in a node update
    (``state``: the provision state read under the lock).  Setting the
    flag where the state does not allow it is a 409; clearing it clears
    its reason; a reason without the flag is a 400."""
    clear_flag_reasons(node_obj, delta)
    for flag, (allowed, refusal) in _FLAG_RULES.items():
        reason = flag + '_reason'
        if flag in delta:
            if getattr(node_obj, flag) and not allowed(state):
                raise exception.InvalidState(
                    refusal % {'node': node_obj.uuid, 'state': state})
        if (reason in delta and getattr(node_obj, reason)
                and not getattr(node_obj, flag)):
            raise exception.InvalidParameterValue(
                err='The %s field can only be set when %s is True'
                    % (reason, flag))


def _power_off_quietly(task):
    try:
        # As Ironic's: a node that must stay on is left as it is.
        power_flow.power_off_unless_disabled(task)
    except Exception as err:
        LOG.warning('Could not power off node %s after a failure: %s',
                    task.node.uuid, err)
