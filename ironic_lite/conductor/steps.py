"""The clean steps of a node's interfaces, and the check of the steps a
manual clean asks for (Ironic's ``conductor/steps.py``, for clean steps).
"""

from ironic_lite.common import exception
from ironic_lite.common import interfaces
from ironic_lite.drivers import steps as driver_steps


def node_clean_steps(task):
    """Every clean step the node's interfaces offer (unsorted)."""
    found = []
    for iface in interfaces.CLEAN_STEP_INTERFACES:
        found.extend(driver_steps.clean_steps(
            task.driver.interface(task.node, iface)))
    return found


def _step_errors(user_step, driver_step):
    errors = []
    argsinfo = driver_step.get('argsinfo') or {}
    user_args = user_step.get('args') or {}
    unexpected = sorted(set(user_args) - set(argsinfo))
    if unexpected:
        errors.append('clean step %s has these unexpected arguments: %s'
                      % (user_step, ', '.join(unexpected)))
    missing = []
    for name, info in sorted(argsinfo.items()):
        if info.get('required') and name not in user_args:
            missing.append('%s (%s)' % (name, info['description'])
                           if info.get('description') else name)
    if missing:
        errors.append('clean step %s is missing these required arguments: '
                      '%s' % (user_step, ', '.join(missing)))
    return errors


def validate_user_clean_steps(task, user_steps):
    """The user's steps, checked against the node's and completed with
    their ``priority`` and ``abortable`` (Ironic's).

    :raises: InvalidParameterValue naming every step the node does not
        offer and every argument missing or unexpected (Ironic's words).
    """
    offered = {(s['interface'], s['step']): s
               for s in node_clean_steps(task)}
    errors, result = [], []
    for user_step in user_steps:
        driver_step = offered.get((user_step.get('interface'),
                                   user_step.get('step')))
        if driver_step is None:
            errors.append('node does not support this clean step: %s'
                          % user_step)
            continue
        errors.extend(_step_errors(user_step, driver_step))
        result.append(dict(user_step,
                           abortable=driver_step.get('abortable', False),
                           priority=driver_step.get('priority', 0)))
    if errors:
        raise exception.InvalidParameterValue(err='; '.join(errors))
    return result
