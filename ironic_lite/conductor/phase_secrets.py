"""The secrets a node holds only during a phase of its life, dropped on
every transition that leaves it, whatever the path: done, failed,
aborted, or failed by the conductor that took over a dead one's node.

* The rescue password (``instance_info['rescue_password']`` and its hash):
  while the node is rescued or being rescued or unrescued (Ironic removes
  it when a rescue fails or an unrescue ends; it keeps it through a
  failed unrescue, to be retried).
* The agent's token and callback URL (``driver_internal_info``, Ironic's
  ``wipe_token_and_url``): a token is good for the phase its agent runs
  in -- a deploy, a cleaning, an inspection, a rescue, a servicing --
  and for no other.

``TaskManager.process_event`` applies ``drop_left_behind`` to every
transition, before the node is saved.
"""

from ironic_lite.common import states

RESCUE_PASSWORD_KEYS = ('rescue_password', 'hashed_rescue_password')
AGENT_TOKEN_KEYS = ('agent_secret_token', 'agent_secret_token_pregenerated',
                    'agent_url', 'agent_verify_ca')

_RESCUE_PASSWORD_STATES = frozenset((
    states.RESCUING, states.RESCUEWAIT, states.RESCUE, states.UNRESCUING,
    states.UNRESCUEFAIL))
# The phases an agent runs in: a token minted in one is dropped when the
# node leaves it.
_AGENT_PHASES = (
    frozenset((states.DEPLOYING, states.DEPLOYWAIT)),
    frozenset((states.CLEANING, states.CLEANWAIT)),
    frozenset((states.INSPECTING, states.INSPECTWAIT)),
    frozenset((states.RESCUING, states.RESCUEWAIT)),
    frozenset((states.SERVICING, states.SERVICEWAIT, states.SERVICEHOLD)),
)


def _phase(state):
    return next((p for p in _AGENT_PHASES if state in p), None)


def _without(info, keys):
    if not any(key in (info or {}) for key in keys):
        return None
    return {k: v for k, v in info.items() if k not in keys}


def drop_left_behind(node, old_state, new_state):
    """Remove from ``node`` the secrets ``new_state`` may not keep (the
    caller saves it)."""
    if new_state not in _RESCUE_PASSWORD_STATES:
        kept = _without(node.instance_info, RESCUE_PASSWORD_KEYS)
        if kept is not None:
            node.instance_info = kept
    if _phase(old_state) != _phase(new_state) or _phase(new_state) is None:
        kept = _without(node.driver_internal_info, AGENT_TOKEN_KEYS)
        if kept is not None:
            node.driver_internal_info = kept
