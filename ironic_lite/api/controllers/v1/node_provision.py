"""The provision-state rules the API applies before it asks a conductor:
the states and faults a list may filter on, and the checks of
``PUT /v1/nodes/<node>/states/provision``.

The state names are Ironic's (``ironic/common/states.py``); the values and
the state machine are ``common/states.py``.
"""

import collections
import json

import jsonschema

from ironic_lite.api.controllers.v1 import runbook_use
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api import microversions as mv
from ironic_lite.api.schemas import deploy_template
from ironic_lite.common import exception
from ironic_lite.common import interfaces
from ironic_lite.common import states

ALL_STATES = states.STABLE_STATES + states.UNSTABLE_STATES + tuple(
    states.FAILURE_STATES)
CLEANING_STATES = (states.CLEANING, states.CLEANWAIT)
VALID_FAULTS = ('power failure', 'clean failure', 'rescue abort failure',
                'service failure')
# Ironic's schema of "clean_steps".
CLEAN_STEPS_SCHEMA = {
    'type': 'array',
    'items': {
        'type': 'object',
        'required': ['interface', 'step'],
        'properties': {
            'interface': {'enum': list(interfaces.CLEAN_STEP_INTERFACES)},
            'step': {'type': 'string', 'minLength': 1},
            'args': {'type': 'object', 'properties': {}},
        },
        'additionalProperties': False,
    },
}


# A provision request: the node as read, the verb asked ("target") and the
# whole body (its other keys go with some verbs only).
_Request = collections.namedtuple('_Request', 'node target body')


def _verb_too_new(req):
    """406 for a verb newer than the request."""
    needed = mv.PROVISION_VERB_MIN_VERSION.get(req.target)
    if needed is not None and not utils.allows(needed):
        raise exception.NotAcceptable()


def _deploying_in_maintenance(req):
    if req.target in ('active', 'rebuild') and req.node.maintenance:
        raise exception.NodeInMaintenance(op='provisioning',
                                          node=req.node.uuid)


def _not_allowed_in_state(req):
    """Refused from the state alone, before any lock or RPC (a node still
    locked by its last step does not turn this into a 409)."""
    node, target = req.node, req.target
    event = states.VERBS.get(target, target)
    if not isinstance(target, str) or not states.is_actionable(
            node.provision_state, event):
        raise exception.InvalidStateRequested(
            action=target, node=node.uuid, state=node.provision_state)


def _configdrive_misplaced(req):
    """A config drive goes with active (and rebuild from 1.35), as a JSON
    object from 1.56 only."""
    if not req.body.get('configdrive'):
        return
    allowed = ['active']
    if utils.allows(mv.MINOR_35_REBUILD_CONFIG_DRIVE):
        allowed.append('rebuild')
    if req.target not in allowed:
        raise exception.InvalidParameterValue(
            err='Adding a config drive is only supported when setting '
                'provision state to %s' % ', '.join(allowed))
    if isinstance(req.body['configdrive'], dict) and not utils.allows(
            mv.MINOR_56_BUILD_CONFIGDRIVE):
        raise exception.InvalidParameterValue(
            err='Providing a JSON object for configdrive is only '
                'supported starting with API version 1.%d'
                % mv.MINOR_56_BUILD_CONFIGDRIVE)


# disable_ramdisk goes with these verbs, from these versions.
_DISABLE_RAMDISK_MIN_VERSION = {
    'clean': mv.MINOR_70_CLEAN_DISABLE_RAMDISK,
    'service': mv.MINOR_108_SERVICE_DISABLE_RAMDISK,
}


def _runbook(req):
    """A runbook (1.92) becomes the steps of the verb, and its
    disable_ramdisk the request's (``runbook_use``)."""
    if req.body.get('runbook'):
        req.body.update(runbook_use.apply_to_body(req.node, req.target,
                                                  req.body))


def _disable_ramdisk_too_new(req):
    if req.body.get('disable_ramdisk') is None:
        return
    needed = _DISABLE_RAMDISK_MIN_VERSION.get(req.target)
    if needed is None:
        # Ironic's words.
        raise exception.InvalidParameterValue(
            err='disable_ramdisk is supported only with manual cleaning or '
                'servicing')
    if not utils.allows(needed):
        raise exception.NotAcceptable()


def _clean_steps_misplaced(req):
    if req.body.get('clean_steps') and req.target != 'clean':
        if req.body.get('runbook'):
            raise exception.InvalidParameterValue(
                err='"runbooks" is only valid when setting target '
                    'provision state to any of %s'
                    % list(runbook_use.STEPS_KEY))
        raise exception.InvalidParameterValue(
            err='"clean_steps" is only valid when setting target provision '
                'state to clean')


def _deploy_steps_too_new(req):
    if req.body.get('deploy_steps') is not None and not utils.allows(
            mv.MINOR_69_DEPLOY_STEPS):
        raise exception.NotAcceptable()
    # deploy_steps (1.69) go with active and rebuild only (Ironic's
    # check_allow_deploy_steps).
    if req.body.get('deploy_steps') and req.target not in ('active',
                                                           'rebuild'):
        raise exception.InvalidParameterValue(
            err='"deploy_steps" is only valid when setting target '
                'provision state to active or rebuild')


def _rescue_password_misplaced(req):
    if req.body.get('rescue_password') is not None and req.target != 'rescue':
        raise exception.InvalidParameterValue(
            err='"rescue_password" is only valid when setting target '
                'provision state to rescue')


# abort from these states needs a later version than the verb's 1.13.
_ABORT_MIN_VERSION = {
    states.INSPECTWAIT: mv.MINOR_41_INSPECTION_ABORT,
    states.DEPLOYWAIT: mv.MINOR_110_DEPLOYWAIT_ABORT,
}


def _abort_too_new(req):
    needed = _ABORT_MIN_VERSION.get(req.node.provision_state)
    if (req.target == 'abort' and needed is not None
            and not utils.allows(needed)):
        raise exception.NotAcceptable()


def _service_steps_misplaced(req):
    if req.body.get('service_steps') and req.target != 'service':
        raise exception.InvalidParameterValue(
            err='"service_steps" is only valid when setting target '
                'provision state to service')


def _service_verb_too_new(req):
    """406 for "service" below 1.87 (Ironic checks it here, after the
    state, not with the other verbs)."""
    if req.target == 'service' and not utils.allows(mv.MINOR_87_SERVICE):
        raise exception.NotAcceptable()


def _rescue_password_missing(req):
    if req.target == 'rescue' and not (
            req.body.get('rescue_password') or '').strip():
        raise exception.InvalidParameterValue(
            err='A non-empty "rescue_password" is required when setting '
                'target provision state to rescue')


def _clean_steps_missing(req):
    if req.target == 'clean' and not req.body.get('clean_steps'):
        raise exception.InvalidParameterValue(
            err='"clean_steps" is required when setting target provision '
                'state to clean')


def _clean_steps_invalid(req):
    """Ironic's check of the steps' shape; whether the node offers them
    is the conductor's (a failed cleaning when it does not)."""
    if req.target != 'clean':
        return
    try:
        jsonschema.validate(req.body['clean_steps'], CLEAN_STEPS_SCHEMA)
    except jsonschema.ValidationError as err:
        raise exception.InvalidParameterValue(
            err='Invalid clean_steps: %s' % err.message)
    _check_steps_size('clean_steps', req.body['clean_steps'])


def service_steps(node, body):
    """The steps a "service" request runs: its ``service_steps`` -- a
    runbook's (1.92) once ``_runbook`` has put them in the body."""
    return body.get('service_steps')


def _service_steps_missing(req):
    if req.target == 'service' and not service_steps(req.node, req.body):
        raise exception.InvalidParameterValue(
            err='"service_steps" is required when setting target provision '
                'state to service')


def _service_steps_invalid(req):
    """The shape of the service steps, as Ironic checks clean steps'."""
    if req.target != 'service':
        return
    steps = service_steps(req.node, req.body)
    try:
        jsonschema.validate(steps, CLEAN_STEPS_SCHEMA)
    except jsonschema.ValidationError as err:
        raise exception.InvalidParameterValue(
            err='Invalid service_steps: %s' % err.message)
    _check_steps_size('service_steps', steps)


# Ironic's order: the first check that fails gives the error.
_CHECKS = (
    _verb_too_new,
    _deploying_in_maintenance,
    _not_allowed_in_state,
    _configdrive_misplaced,
    _runbook,
    _disable_ramdisk_too_new,
    _clean_steps_misplaced,
    _deploy_steps_too_new,
    _rescue_password_misplaced,
    _abort_too_new,
    _service_steps_misplaced,
    _service_verb_too_new,
    _rescue_password_missing,
    _clean_steps_missing,
    _clean_steps_invalid,
    _service_steps_missing,
    _service_steps_invalid,
)


def check_provision_request(node, target, body):
    """The checks of PUT .../states/provision, in Ironic's order.

    :raises: NotAcceptable (406) for a verb newer than the request;
        NodeInMaintenance (400) for active/rebuild of a node in maintenance;
        InvalidStateRequested (400) when the node's state does not allow
        the verb (whether or not the node is locked);
        InvalidParameterValue (400) for extra keys that do not go with the
        verb, or malformed ``clean_steps`` or ``service_steps``; those
        of a runbook (``runbook_use``).
    :returns: the body to act on: a runbook's steps and disable_ramdisk
        in it.
    """
    req = _Request(node, target, dict(body))
    for check in _CHECKS:
        check(req)
    return req.body


# deploy_steps (1.69): Ironic's _DEPLOY_STEPS_SCHEMA, checked before the
# RPC call.
_DEPLOY_STEPS = {'type': 'array', 'items': deploy_template.STEP}
MAX_STEPS_BYTES = 32768


def check_deploy_steps(deploy_steps):
    """400 "Invalid deploy_steps: ..." unless each step has Ironic's
    shape (the conductor checks them against the node's steps)."""
    if not deploy_steps:
        return
    error = next(jsonschema.Draft4Validator(
        _DEPLOY_STEPS).iter_errors(deploy_steps), None)
    if error is not None:
        raise exception.InvalidParameterValue(
            err='Invalid deploy_steps: %s' % error.message)
    _check_steps_size('deploy_steps', deploy_steps)


def _check_steps_size(name, steps):
    """400 for steps too large to keep: deploy and clean steps are kept in
    driver_internal_info (a JSON column) while they run, at most half of
    it (MariaDB's TEXT holds 64 KB and refuses more)."""
    size = len(json.dumps(steps).encode('utf-8'))
    if size > MAX_STEPS_BYTES:
        raise exception.InvalidParameterValue(
            err='Invalid %s: too large (%d bytes, at most %d as JSON in '
                'UTF-8)' % (name, size, MAX_STEPS_BYTES))
