"""The provision-state rules the API applies before it asks a conductor:
the states and faults a list may filter on, the verbs this service
carries out, and the checks of ``PUT /v1/nodes/<node>/states/provision``.

The state names are Ironic's (``ironic/common/states.py``); the values and
the state machine are ``common/states.py``.
"""

from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.common import exception
from ironic_lite.common import states

ALL_STATES = states.STABLE_STATES + states.UNSTABLE_STATES + tuple(
    states.FAILURE_STATES)
CLEANING_STATES = (states.CLEANING, states.CLEANWAIT)
VALID_FAULTS = ('power failure', 'clean failure', 'rescue abort failure')
# Verbs the conductor RPC API of release 1.0 carries out.
SUPPORTED_VERBS = ('manage', 'provide', 'inspect', 'abort', 'adopt',
                   'active', 'deploy', 'rebuild', 'deleted', 'undeploy')


def check_provision_request(node, target, body):
    """The checks of PUT .../states/provision, in Ironic's order.

    :raises: NotAcceptable (406) for a verb newer than the request;
        NodeInMaintenance (400) for active/rebuild of a node in maintenance;
        InvalidStateRequested (400) when the node's state does not allow
        the verb (whether or not the node is locked);
        InvalidParameterValue (400) for extra keys that do not go with the
        verb, or a verb ironic-lite does not carry out.
    """
    needed = mv.PROVISION_VERB_MIN_VERSION.get(target)
    if needed is not None and not utils.allows(needed):
        raise exception.NotAcceptable()
    if target in ('active', 'rebuild') and node.maintenance:
        raise exception.NodeInMaintenance(op='provisioning', node=node.uuid)
    event = states.VERBS.get(target, target)
    if not isinstance(target, str) or not states.is_actionable(
            node.provision_state, event):
        # Refused from the state alone, before any lock or RPC (a node
        # still locked by its last step does not turn this into a 409).
        raise exception.InvalidStateRequested(
            action=target, node=node.uuid, state=node.provision_state)
    if body.get('configdrive'):
        allowed = ['active']
        if utils.allows(mv.MINOR_35_REBUILD_CONFIG_DRIVE):
            allowed.append('rebuild')
        if target not in allowed:
            raise exception.InvalidParameterValue(
                err='Adding a config drive is only supported when setting '
                    'provision state to %s' % ', '.join(allowed))
        if isinstance(body['configdrive'], dict) and not utils.allows(
                mv.MINOR_56_BUILD_CONFIGDRIVE):
            raise exception.InvalidParameterValue(
                err='Providing a JSON object for configdrive is only '
                    'supported starting with API version 1.%d'
                    % mv.MINOR_56_BUILD_CONFIGDRIVE)
    if body.get('disable_ramdisk') is not None:
        if not utils.allows(mv.MINOR_70_CLEAN_DISABLE_RAMDISK):
            raise exception.NotAcceptable()
    if body.get('clean_steps') and target != 'clean':
        raise exception.InvalidParameterValue(
            err='"clean_steps" is only valid when setting target provision '
                'state to clean')
    if body.get('deploy_steps') is not None and not utils.allows(
            mv.MINOR_69_DEPLOY_STEPS):
        raise exception.NotAcceptable()
    if body.get('rescue_password') is not None and target != 'rescue':
        raise exception.InvalidParameterValue(
            err='"rescue_password" is only valid when setting target '
                'provision state to rescue')
    if (target == 'abort' and node.provision_state == 'inspect wait'
            and not utils.allows(mv.MINOR_41_INSPECTION_ABORT)):
        raise exception.NotAcceptable()
    if target == 'rescue' and not (body.get('rescue_password') or '').strip():
        raise exception.InvalidParameterValue(
            err='A non-empty "rescue_password" is required when setting '
                'target provision state to rescue')
    if target == 'clean' and not body.get('clean_steps'):
        raise exception.InvalidParameterValue(
            err='"clean_steps" is required when setting target provision '
                'state to clean')
    if target not in SUPPORTED_VERBS:
        raise exception.InvalidParameterValue(
            err='The provisioning action "%s" is not supported by this '
                'service (ironic-lite).' % target)
