"""The steps of a node's interfaces: which a manual cleaning and a deploy
run, in which order (Ironic's ``conductor/steps.py``).

Clean steps: ``validate_user_clean_steps`` checks the steps a manual
clean asks for against those the node's interfaces offer.

Deploy steps (release 4.0): the steps a deploy runs are the
enabled (priority > 0) steps of the node's interfaces, overridden by the
steps of the deploy templates named in the node's
``instance_info['traits']``, themselves overridden by the user's
``deploy_steps`` (same interface and step: the later one wins; priority 0
disables a step), sorted by priority, highest first, ties broken by
interface (``DEPLOYING_INTERFACE_PRIORITY``).  Every step asked for is
validated against the steps the node's interfaces offer, with Ironic's
messages.

``skip_missing``: Ironic leaves an unknown step for later, when an agent
may still report in-band steps; the synchronous check of a deploy request
does so too.  ironic-lite has no in-band steps, so the worker checks again
without it: an unknown step then fails the deploy (``deploy failed``), as
Ironic's does once the agent's steps are known.
"""

import collections

from ironic_lite.common import exception
from ironic_lite.common import interfaces
from ironic_lite.drivers import base as drivers_base
from ironic_lite.drivers import steps as drivers_steps
from ironic_lite import objects


def node_clean_steps(task):
    """Every clean step the node's interfaces offer (unsorted)."""
    found = []
    for iface in interfaces.CLEAN_STEP_INTERFACES:
        found.extend(drivers_steps.clean_steps(
            task.driver.interface(task.node, iface)))
    return found


def node_service_steps(task):
    """Every service step the node's interfaces offer (API 1.87)."""
    found = []
    for iface in interfaces.CLEAN_STEP_INTERFACES:
        found.extend(drivers_steps.service_steps(
            task.driver.interface(task.node, iface)))
    return found


def _flow_step_errors(step_type, user_step, driver_step,
                      disable_ramdisk=False):
    """Ironic's ``_validate_user_step`` for a clean or service step."""
    errors = []
    argsinfo = driver_step.get('argsinfo') or {}
    user_args = user_step.get('args') or {}
    unexpected = sorted(set(user_args) - set(argsinfo))
    if unexpected:
        errors.append('%s step %s has these unexpected arguments: %s'
                      % (step_type, user_step, ', '.join(unexpected)))
    missing = []
    for name, info in sorted(argsinfo.items()):
        if info.get('required') and name not in user_args:
            missing.append('%s (%s)' % (name, info['description'])
                           if info.get('description') else name)
    if missing:
        errors.append('%s step %s is missing these required arguments: '
                      '%s' % (step_type, user_step, ', '.join(missing)))
    if disable_ramdisk and driver_step.get('requires_ramdisk', True):
        errors.append('%s step %s requires booting a ramdisk'
                      % (step_type, user_step))
    return errors


# Reserved steps the conductor runs itself in a servicing (Ironic's
# RESERVED_STEP_HANDLER_MAPPING): the node's power interface, on any
# interface named.
POWER_STEPS = {'power_on': 'power on', 'power_off': 'power off',
               'reboot': 'rebooting'}


def _validate_flow_steps(step_type, offered, user_steps,
                         disable_ramdisk=False, reserved=()):
    """The user's clean or service steps, checked against ``offered``
    and completed with their ``priority`` and ``abortable`` (Ironic's).

    :raises: InvalidParameterValue naming every step the node does not
        offer and every argument missing or unexpected (Ironic's words).
    """
    offered = {(s['interface'], s['step']): s for s in offered}
    errors, result = [], []
    for user_step in user_steps:
        if user_step.get('step') == HOLD:
            # The conductor's own step (API 1.85), on any interface.
            result.append(dict(user_step, abortable=True, priority=0))
            continue
        if user_step.get('step') in reserved:
            result.append(dict(user_step, abortable=False, priority=0,
                               requires_ramdisk=False))
            continue
        driver_step = offered.get((user_step.get('interface'),
                                   user_step.get('step')))
        if driver_step is None:
            errors.append('node does not support this %s step: %s'
                          % (step_type, user_step))
            continue
        errors.extend(_flow_step_errors(step_type, user_step, driver_step,
                                        disable_ramdisk))
        result.append(dict(user_step,
                           abortable=driver_step.get('abortable', False),
                           priority=driver_step.get('priority', 0),
                           requires_ramdisk=driver_step.get(
                               'requires_ramdisk', True)))
    if errors:
        raise exception.InvalidParameterValue(err='; '.join(errors))
    return result


def validate_user_clean_steps(task, user_steps):
    """The user's clean steps, checked against the node's."""
    return [{k: v for k, v in step.items() if k != 'requires_ramdisk'}
            for step in _validate_flow_steps(
                'clean', node_clean_steps(task), user_steps)]


def validate_user_service_steps(task, user_steps, disable_ramdisk=False):
    """The user's service steps (API 1.87), checked against the node's
    (``power_on``, ``power_off`` and ``reboot`` are the conductor's); with
    ``disable_ramdisk`` (1.108) a step that needs the ramdisk is refused,
    as Ironic does."""
    return _validate_flow_steps('service', node_service_steps(task),
                                user_steps, disable_ramdisk,
                                reserved=POWER_STEPS)


# -- deploy steps ----------------------------------------------------------

DEPLOYING_INTERFACE_PRIORITY = {
    'vendor': 7, 'power': 6, 'management': 5, 'firmware': 4, 'deploy': 3,
    'bios': 2, 'raid': 1,
}
# Steps the conductor resolves itself (Ironic's reserved names).
_FLOW_STEPS = ('power_on', 'power_off', 'reboot', 'hold', 'wait')
# The one of them ironic-lite runs: the node stops in "clean hold" or
# "deploy hold" until the "unhold" verb (API 1.85) resumes the steps after
# it.  The others are still accepted in deploy steps and skipped.
HOLD = 'hold'


_STEP_KEYS = ('interface', 'step', 'args', 'priority')


def is_hold(step):
    return (step or {}).get('step') == HOLD


def step_id(step):
    return '%s.%s' % (step['interface'], step['step'])


def _sorted(steps):
    return sorted(steps, reverse=True, key=lambda s: (
        s['priority'], DEPLOYING_INTERFACE_PRIORITY[s['interface']]))


def step_interface(task, name):
    """The node's implementation of interface ``name`` (None when it has
    none, or has the ``no-<name>`` one)."""
    impl = getattr(task.driver, name, None)
    chosen = getattr(task.node, '%s_interface' % name, None)
    if impl is None or (chosen is not None
                        and chosen != getattr(impl, 'name', chosen)):
        return None
    return impl


def driver_steps(task, enabled=False):
    """The deploy steps the node's interfaces offer (priority > 0 only
    when ``enabled``)."""
    steps = []
    for name in DEPLOYING_INTERFACE_PRIORITY:
        impl = step_interface(task, name)
        if impl is not None:
            steps.extend(drivers_base.get_deploy_steps(impl))
    if enabled:
        steps = [s for s in steps if s['priority'] > 0]
    return steps


def _step_errors(user_step, driver_step):
    """Ironic's ``_validate_user_step`` for a deploy step."""
    errors = []
    argsinfo = driver_step.get('argsinfo') or {}
    user_args = user_step.get('args') or {}
    unexpected = set(user_args) - set(argsinfo)
    if unexpected:
        errors.append('deploy step %s has these unexpected arguments: %s'
                      % (user_step, ', '.join(sorted(unexpected))))
    if user_step['priority'] > 0:
        missing = ['%s (%s)' % (n, i['description']) if i.get('description')
                   else n for n, i in argsinfo.items()
                   if i.get('required') and n not in user_args]
        if missing:
            errors.append('deploy step %s is missing these required '
                          'arguments: %s' % (user_step, ', '.join(missing)))
        if (driver_step['interface'], driver_step['step']) == ('deploy',
                                                               'deploy'):
            errors.append(
                'deploy step %s on interface %s is a core step and cannot '
                'be overridden by user steps. It may be disabled by setting '
                'the priority to 0' % (user_step['step'],
                                       user_step['interface']))
    return errors


def validate_user_steps(task, user_steps, error_prefix='',
                        skip_missing=False):
    """The user (or template) steps, checked against the node's steps.

    :raises: InvalidParameterValue with Ironic's messages, joined by
        ``; `` after ``error_prefix``.
    """
    offered = {step_id(s): s for s in driver_steps(task)}
    errors, result = [], []
    for user_step in user_steps:
        if user_step.get('step') == HOLD:
            result.append(user_step)
            continue
        if user_step.get('step') in _FLOW_STEPS:
            continue
        driver_step = offered.get(step_id(user_step))
        if driver_step is None:
            if not skip_missing:
                errors.append('node does not support this deploy step: %s'
                              % user_step)
            continue
        errors.extend(_step_errors(user_step, driver_step))
        result.append(user_step)
    counts = collections.Counter(step_id(s) for s in result if not is_hold(s))
    duplicates = sorted(k for k, n in counts.items() if n > 1)
    if duplicates:
        errors.append("deploy steps from all deploy templates matching this "
                      "node's instance traits cannot have the same "
                      "interface and step. Duplicate deploy steps for %s"
                      % ', '.join(duplicates))
    if errors:
        raise exception.InvalidParameterValue(
            err=error_prefix + '; '.join(errors))
    return result


def _template_steps(task, skip_missing):
    traits = task.node.instance_info.get('traits')
    if not traits:
        return []
    templates = objects.DeployTemplate.list_by_names(task.context, traits)
    steps = [{k: step[k] for k in _STEP_KEYS}
             for template in templates for step in template.steps]
    prefix = ("Validation of deploy steps from deploy templates matching "
              "this node's instance traits failed. Matching deploy "
              "templates: %s. Errors: "
              % ','.join(t.name for t in templates))
    return validate_user_steps(task, steps, prefix, skip_missing)


def _user_steps(task, deploy_steps, skip_missing):
    if not deploy_steps:
        deploy_steps = task.node.driver_internal_info.get(
            'user_deploy_steps')
    if not deploy_steps:
        return []
    steps = [dict(s, priority=int(s['priority'])) for s in deploy_steps]
    return validate_user_steps(
        task, steps, 'Validation of deploy steps from "deploy steps" '
                     'argument failed.', skip_missing)


def validate_templates_and_user_steps(task, deploy_steps=None,
                                      skip_missing=False):
    """Ironic's ``validate_user_deploy_steps_and_templates``."""
    _template_steps(task, skip_missing)
    _user_steps(task, deploy_steps, skip_missing)


def deployment_steps(task, skip_missing=False):
    """The steps of this deploy, in the order they run (Ironic's
    ``_get_all_deployment_steps``; the user's steps are those stored in
    ``driver_internal_info['user_deploy_steps']``)."""
    user_steps = _user_steps(task, None, skip_missing)
    keys = {(s['interface'], s['step']) for s in user_steps}
    user_steps += [s for s in _template_steps(task, skip_missing)
                   if (s['interface'], s['step']) not in keys]
    keys = {(s['interface'], s['step']) for s in user_steps}
    steps = [{k: s[k] for k in ('interface', 'step', 'priority')}
             for s in driver_steps(task, enabled=True)
             if (s['interface'], s['step']) not in keys]
    for step in steps:
        step['args'] = {}
    steps += [s for s in user_steps if s['priority'] > 0]
    return _sorted(steps)


def check_instance_traits(node):
    """Ironic's ``validate_instance_info_traits``: the instance's traits
    are a list of strings, each one a trait of the node."""
    traits = (node.instance_info or {}).get('traits')
    if not traits:
        return
    if not isinstance(traits, list) or not all(
            isinstance(t, str) for t in traits):
        raise exception.InvalidParameterValue(
            err='Error parsing traits from Node %s instance_info field. A '
                'list of strings is expected.' % node.uuid)
    node_traits = (node.traits if node.obj_attr_is_set('traits')
                   else objects.TraitList.get_by_node_id(None, node.id))
    missing = set(traits) - set(node_traits.get_trait_names()
                                if node_traits else ())
    if missing:
        raise exception.InvalidParameterValue(
            err='Cannot specify instance traits that are not also set on '
                'the node. Node %s is missing traits %s'
                % (node.uuid, ', '.join(sorted(missing))))
