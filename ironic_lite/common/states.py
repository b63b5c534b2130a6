"""Node provision and power states, and the provision state machine.

The values, the verbs the REST API accepts and the transitions are
Ironic's (``ironic/common/states.py``), so clients that wait for a state
(``baremetal node deploy --wait``, openstacksdk) behave the same.

The machine is an ``automaton.FiniteMachine``.  Transitional states have a
*target*: the stable state the node is heading to, exposed as the node's
``target_provision_state`` (``None`` once a stable state is reached).
"""

from automaton import exceptions as automaton_exc
from automaton import machines

from ironic_lite.common import exception

#####################
# Provisioning states
#####################

NOSTATE = None
ENROLL = 'enroll'
VERIFYING = 'verifying'
MANAGEABLE = 'manageable'
AVAILABLE = 'available'
ACTIVE = 'active'
DEPLOYING = 'deploying'
DEPLOYWAIT = 'wait call-back'
DEPLOYFAIL = 'deploy failed'
DEPLOYDONE = 'deploy complete'
DEPLOYHOLD = 'deploy hold'
DELETING = 'deleting'
DELETED = 'deleted'
CLEANING = 'cleaning'
CLEANWAIT = 'clean wait'
CLEANFAIL = 'clean failed'
CLEANHOLD = 'clean hold'
ERROR = 'error'
REBUILD = 'rebuild'
INSPECTING = 'inspecting'
INSPECTWAIT = 'inspect wait'
INSPECTFAIL = 'inspect failed'
ADOPTING = 'adopting'
ADOPTFAIL = 'adopt failed'
RESCUE = 'rescue'
RESCUING = 'rescuing'
RESCUEWAIT = 'rescue wait'
RESCUEFAIL = 'rescue failed'
UNRESCUING = 'unrescuing'
UNRESCUEFAIL = 'unrescue failed'
# servicing (API 1.87): service steps run on an active node
SERVICING = 'servicing'
SERVICEWAIT = 'service wait'
SERVICEFAIL = 'service failed'
SERVICEHOLD = 'service hold'

# Node history event types (Ironic's names; API 1.78).
PROVISIONING = 'provisioning'
INTROSPECTION = 'introspection'
CONDUCTOR = 'conductor'
UNPROVISION = 'unprovision'
ADOPTION = 'adoption'
CONSOLE = 'console'
VERIFY = 'verify'
POWER = 'power'
# A change of the hardware's health (release 6.0, API 1.109).
MONITORING = 'monitoring'

VERBS = {
    'active': 'deploy',
    'deploy': 'deploy',
    'deleted': 'delete',
    'undeploy': 'delete',
    'manage': 'manage',
    'provide': 'provide',
    'inspect': 'inspect',
    'abort': 'abort',
    'clean': 'clean',
    'adopt': 'adopt',
    'rescue': 'rescue',
    'unrescue': 'unrescue',
    'rebuild': 'rebuild',
    'unhold': 'unhold',
    'service': 'service',
}
"""Target of ``PUT /v1/nodes/<id>/states/provision`` -> state machine event.
"""

UPDATE_ALLOWED_STATES = (DEPLOYFAIL, INSPECTING, INSPECTFAIL, INSPECTWAIT,
                         CLEANFAIL, ERROR, VERIFYING, ADOPTFAIL, RESCUEFAIL,
                         UNRESCUEFAIL, SERVICEHOLD, SERVICEFAIL)
"""Transitional states in which updating a node is allowed."""

DELETE_ALLOWED_STATES = (MANAGEABLE, ENROLL, ADOPTFAIL)
"""States in which deleting a node is allowed (plus ``available`` when
``[conductor]allow_deleting_available_nodes``, and any in maintenance)."""

STABLE_STATES = (ENROLL, MANAGEABLE, AVAILABLE, ACTIVE, ERROR, RESCUE)
"""States that do not change unless a request comes."""

UNSTABLE_STATES = (DEPLOYING, DEPLOYWAIT, CLEANING, CLEANWAIT, VERIFYING,
                   DELETING, INSPECTING, INSPECTWAIT, ADOPTING, RESCUING,
                   RESCUEWAIT, UNRESCUING, SERVICING, SERVICEWAIT)
"""States a conductor moves a node out of by itself."""

STUCK_STATES_TREATED_AS_FAIL = (DEPLOYING, CLEANING, VERIFYING, INSPECTING,
                                ADOPTING, RESCUING, UNRESCUING, DELETING,
                                SERVICING)
"""States that cannot be resumed once the conductor working on them died:
such nodes move to the matching failed state."""

FAILURE_STATES = frozenset((DEPLOYFAIL, CLEANFAIL, INSPECTFAIL, RESCUEFAIL,
                            UNRESCUEFAIL, ADOPTFAIL, SERVICEFAIL))

SYNC_EXCLUDED_STATES = (DEPLOYWAIT, CLEANWAIT, ENROLL, ADOPTFAIL)
"""States in which the periodic power sync leaves a node alone."""

##############
# Power states
##############

POWER_ON = 'power on'
POWER_OFF = 'power off'
REBOOT = 'rebooting'
SOFT_REBOOT = 'soft rebooting'
SOFT_POWER_OFF = 'soft power off'

POWER_STATES = (POWER_ON, POWER_OFF, REBOOT, SOFT_REBOOT, SOFT_POWER_OFF)
"""Every value ``PUT /v1/nodes/<id>/states/power`` may ask for."""

# The power actions a node with ``disable_power_off`` (API 1.95) refuses.
POWER_OFF_STATES = (POWER_OFF, SOFT_POWER_OFF)

# A node's ``health`` (API 1.109), Ironic's HealthState values; None:
# unknown.
HEALTH_STATES = ('OK', 'Warning', 'Critical')


def power_target(new_state):
    """The power state a node ends in after the power action ``new_state``.
    """
    if new_state in (POWER_ON, REBOOT, SOFT_REBOOT):
        return POWER_ON
    return POWER_OFF


#####################
# State machine model
#####################

# Transitional (and failed) state -> the stable state it is heading to.
TARGETS = {
    VERIFYING: MANAGEABLE,
    DEPLOYING: ACTIVE, DEPLOYWAIT: ACTIVE, DEPLOYFAIL: ACTIVE,
    DEPLOYHOLD: ACTIVE,
    CLEANING: AVAILABLE, CLEANWAIT: AVAILABLE, CLEANFAIL: AVAILABLE,
    CLEANHOLD: AVAILABLE,
    DELETING: AVAILABLE,
    INSPECTING: MANAGEABLE, INSPECTWAIT: MANAGEABLE, INSPECTFAIL: MANAGEABLE,
    ADOPTING: ACTIVE, ADOPTFAIL: ACTIVE,
    RESCUING: RESCUE, RESCUEWAIT: RESCUE, RESCUEFAIL: RESCUE,
    UNRESCUING: ACTIVE, UNRESCUEFAIL: ACTIVE,
    SERVICING: ACTIVE, SERVICEWAIT: ACTIVE, SERVICEFAIL: ACTIVE,
    SERVICEHOLD: ACTIVE,
}

# (from, event, to), in Ironic's order.
_TRANSITIONS = (
    # enroll -> verifying -> manageable
    (ENROLL, 'manage', VERIFYING),
    (VERIFYING, 'done', MANAGEABLE),
    (VERIFYING, 'fail', ENROLL),
    # deploy
    (AVAILABLE, 'deploy', DEPLOYING),
    (DEPLOYING, 'fail', DEPLOYFAIL),
    (DEPLOYFAIL, 'rebuild', DEPLOYING),
    (DEPLOYFAIL, 'deploy', DEPLOYING),
    (DEPLOYING, 'wait', DEPLOYWAIT),
    (DEPLOYWAIT, 'resume', DEPLOYING),
    (DEPLOYWAIT, 'fail', DEPLOYFAIL),
    # abort from wait call-back (API 1.110)
    (DEPLOYWAIT, 'abort', DEPLOYFAIL),
    (DEPLOYING, 'done', ACTIVE),
    # the "hold" deploy step (API 1.85): held until "unhold" or "abort"
    (DEPLOYING, 'hold', DEPLOYHOLD),
    (DEPLOYWAIT, 'hold', DEPLOYHOLD),
    (DEPLOYHOLD, 'unhold', DEPLOYWAIT),
    (DEPLOYHOLD, 'abort', DEPLOYFAIL),
    (ACTIVE, 'rebuild', DEPLOYING),
    (ERROR, 'rebuild', DEPLOYING),
    # tear down, then cleaning
    (ACTIVE, 'delete', DELETING),
    (DEPLOYWAIT, 'delete', DELETING),
    (DEPLOYFAIL, 'delete', DELETING),
    (ERROR, 'delete', DELETING),
    (DELETING, 'fail', ERROR),
    (DELETING, 'clean', CLEANING),
    # cleaning
    (CLEANING, 'done', AVAILABLE),
    (CLEANING, 'fail', CLEANFAIL),
    (CLEANWAIT, 'fail', CLEANFAIL),
    (CLEANWAIT, 'abort', CLEANFAIL),
    (CLEANING, 'wait', CLEANWAIT),
    (CLEANWAIT, 'resume', CLEANING),
    # the "hold" clean step (API 1.85)
    (CLEANING, 'hold', CLEANHOLD),
    (CLEANWAIT, 'hold', CLEANHOLD),
    (CLEANHOLD, 'unhold', CLEANWAIT),
    (CLEANHOLD, 'abort', CLEANFAIL),
    (CLEANFAIL, 'manage', MANAGEABLE),
    (MANAGEABLE, 'provide', CLEANING),
    (MANAGEABLE, 'clean', CLEANING),
    (CLEANING, 'manage', MANAGEABLE),
    (AVAILABLE, 'manage', MANAGEABLE),
    # inspection
    (MANAGEABLE, 'inspect', INSPECTING),
    (INSPECTING, 'done', MANAGEABLE),
    (INSPECTING, 'fail', INSPECTFAIL),
    (INSPECTING, 'wait', INSPECTWAIT),
    (INSPECTWAIT, 'done', MANAGEABLE),
    (INSPECTWAIT, 'fail', INSPECTFAIL),
    (INSPECTWAIT, 'abort', INSPECTFAIL),
    (INSPECTWAIT, 'resume', INSPECTING),
    (INSPECTFAIL, 'manage', MANAGEABLE),
    (INSPECTFAIL, 'inspect', INSPECTING),
    # adoption
    (MANAGEABLE, 'adopt', ADOPTING),
    (ADOPTING, 'done', ACTIVE),
    (ADOPTING, 'fail', ADOPTFAIL),
    (ADOPTFAIL, 'adopt', ADOPTING),
    (ADOPTFAIL, 'manage', MANAGEABLE),
    # rescue (states exist so rows written by Ironic are understood;
    # release 1.0 has no rescue interface)
    (ACTIVE, 'rescue', RESCUING),
    (RESCUING, 'done', RESCUE),
    (RESCUING, 'wait', RESCUEWAIT),
    (RESCUEWAIT, 'resume', RESCUING),
    (RESCUE, 'rescue', RESCUING),
    (RESCUE, 'delete', DELETING),
    (RESCUEWAIT, 'fail', RESCUEFAIL),
    (RESCUING, 'fail', RESCUEFAIL),
    (RESCUEWAIT, 'abort', RESCUEFAIL),
    (RESCUEFAIL, 'rescue', RESCUING),
    (RESCUEFAIL, 'unrescue', UNRESCUING),
    (RESCUEFAIL, 'delete', DELETING),
    (RESCUEWAIT, 'delete', DELETING),
    (RESCUE, 'unrescue', UNRESCUING),
    (UNRESCUING, 'done', ACTIVE),
    (UNRESCUING, 'fail', UNRESCUEFAIL),
    (UNRESCUEFAIL, 'rescue', RESCUING),
    (UNRESCUEFAIL, 'unrescue', UNRESCUING),
    (UNRESCUEFAIL, 'delete', DELETING),
    # servicing (API 1.87): from active only; a held or failed servicing
    # may be given new steps
    (SERVICING, 'done', ACTIVE),
    (ACTIVE, 'service', SERVICING),
    (SERVICING, 'fail', SERVICEFAIL),
    (SERVICING, 'wait', SERVICEWAIT),
    (SERVICING, 'hold', SERVICEHOLD),
    (SERVICEWAIT, 'hold', SERVICEHOLD),
    (SERVICEHOLD, 'service', SERVICING),
    (SERVICEHOLD, 'unhold', SERVICEWAIT),
    (SERVICEWAIT, 'resume', SERVICING),
    (SERVICEWAIT, 'fail', SERVICEFAIL),
    (SERVICEHOLD, 'fail', SERVICEFAIL),
    (SERVICEWAIT, 'abort', SERVICEFAIL),
    (SERVICEHOLD, 'abort', SERVICEFAIL),
    (SERVICEFAIL, 'service', SERVICING),
    (SERVICEFAIL, 'rescue', RESCUING),
    (SERVICEFAIL, 'wait', SERVICEWAIT),
    (SERVICEFAIL, 'hold', SERVICEHOLD),
    (SERVICEFAIL, 'delete', DELETING),
    (SERVICEFAIL, 'abort', ACTIVE),
    (SERVICEWAIT, 'delete', DELETING),
)


def _build_machine():
    fsm = machines.FiniteMachine()
    for state in STABLE_STATES + tuple(TARGETS):
        fsm.add_state(state)
    for start, event, end in _TRANSITIONS:
        fsm.add_transition(start, end, event)
    fsm.freeze()
    return fsm


machine = _build_machine()
"""The provision state machine (frozen; work on ``machine.copy()``)."""


def is_stable(state):
    return state in STABLE_STATES


def is_actionable(state, event):
    """Whether ``event`` is allowed from provision state ``state``."""
    fsm = machine.copy(shallow=True)
    try:
        fsm.initialize(state)
    except automaton_exc.NotFound:
        return False
    return fsm.is_actionable_event(event)


def next_state(node_uuid, state, event, target_state=None):
    """Where ``event`` takes a node in ``state``: (provision, target).

    :param target_state: overrides the default target of the new state
        (e.g. manual cleaning heads back to ``manageable``).
    :raises: InvalidStateRequested when the event is not allowed in that
        state; nothing has been changed then.
    """
    fsm = machine.copy(shallow=True)
    try:
        fsm.initialize(state)
        fsm.process_event(event)
    except (automaton_exc.NotFound, automaton_exc.InvalidState):
        raise exception.InvalidStateRequested(
            action=event, node=node_uuid, state=state)
    new_state = fsm.current_state
    if is_stable(new_state):
        return new_state, NOSTATE
    return new_state, target_state or TARGETS.get(new_state)
