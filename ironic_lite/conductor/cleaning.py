"""Automated cleaning: cleaning -> available; manual cleaning (RPC 1.6):
manageable -> cleaning -> manageable, running the steps asked for."""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import bios
from ironic_lite.conductor import firmware
from ironic_lite.conductor import steps
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import steps as driver_steps

CONF = conf.CONF
LOG = logging.getLogger(__name__)


def automated_clean_enabled(node):
    """The node's ``automated_clean`` if set, else [conductor] default."""
    if node.automated_clean is not None:
        return node.automated_clean
    return CONF.conductor.automated_clean


def do_node_clean(task):
    """Worker: clean the node (unless disabled), then make it available.

    A failure (raised) moves the node to ``clean failed`` through the
    task's spawn error hook.
    """
    node = task.node
    if automated_clean_enabled(node):
        task.driver.power.validate(task)
        task.driver.clean.clean(task)
    else:
        LOG.info('Automated cleaning is disabled for node %s', node.uuid)
    node.clean_step = None
    # A retired node goes back to manageable, never to available (Ironic).
    task.process_event('manage' if node.retired else 'done')
    LOG.info('Node %s cleaning complete', node.uuid)


def abort_cleaning(task):
    """clean wait -> clean failed, on the operator's request."""
    task.process_event(
        'abort', last_error='By request, the clean operation was aborted.')


# -- manual cleaning (RPC 1.6) ----------------------------------------------

# driver_internal_info keys of a manual cleaning in progress.
_INTERNAL_KEYS = ('clean_steps', 'clean_step_index',
                  'cleaning_disable_ramdisk')


def _wipe_internal_info(node):
    info = dict(node.driver_internal_info or {})
    for key in _INTERNAL_KEYS:
        info.pop(key, None)
    node.driver_internal_info = info


def manual_clean_failed(task, message, step_failed=False):
    """cleaning -> clean failed (heading back to manageable), as Ironic's
    cleaning error handler: ``last_error`` says why; a failed step also
    puts the node in maintenance with the ``clean failure`` fault."""
    node = task.node
    LOG.error(message)
    if step_failed:
        node.fault = 'clean failure'
        node.maintenance = True
        node.maintenance_reason = node.maintenance_reason or message
    node.clean_step = {}
    _wipe_internal_info(node)
    if node.provision_state == states.CLEANFAIL:
        node.last_error = message
        node.save()
        return
    task.process_event('fail', target_state=states.MANAGEABLE,
                       last_error=message)


def manual_clean_error_hook(exc, task):
    """Spawn error hook: a step that raised past the worker's handling."""
    try:
        manual_clean_failed(task, 'Failed to clean node %s: %s'
                            % (task.node.uuid, exc))
    except exception.NodeLockLost:
        raise
    except Exception:
        LOG.exception('Could not record the failure of the manual '
                      'cleaning of node %s', task.node.uuid)


def do_manual_clean(task, clean_steps, disable_ramdisk=False):
    """Worker: run ``clean_steps`` in order, then cleaning -> manageable.

    ``node.clean_step`` is the step running; a step that is not offered or
    has wrong arguments, or that fails, ends in ``clean failed``.
    """
    node = task.node
    try:
        task.driver.power.validate(task)
        validated = steps.validate_user_clean_steps(task, clean_steps)
    except exception.IronicException as err:
        return manual_clean_failed(task, 'Cannot clean node %s: %s'
                                   % (node.uuid, err))
    info = dict(node.driver_internal_info or {})
    info.update(clean_steps=validated,
                cleaning_disable_ramdisk=bool(disable_ramdisk))
    # What the fake steps recorded of the last manual cleaning.
    info.pop(fake_hardware.EXECUTED_STEPS_KEY, None)
    node.driver_internal_info = info
    _run_manual_steps(task, validated, 0)


def _run_manual_steps(task, clean_steps, start):
    """Run ``clean_steps[start:]``; the manual cleaning ends when they
    all ran, or waits in ``clean hold`` at a ``hold`` step."""
    node = task.node
    for index in range(start, len(clean_steps)):
        step = clean_steps[index]
        node.clean_step = step
        node.driver_internal_info = dict(node.driver_internal_info,
                                         clean_step_index=index)
        node.save()
        if steps.is_hold(step):
            task.process_event('hold',
                               target_state=node.target_provision_state)
            LOG.info('Node %s holds at clean step %d', node.uuid, index)
            return
        try:
            _run_step(task, step)
        except Exception as err:
            LOG.exception('Clean step %s of node %s failed', step, node.uuid)
            return manual_clean_failed(
                task, 'Node %s failed step %s: %s' % (node.uuid, step, err),
                step_failed=True)
    node.clean_step = None
    _wipe_internal_info(node)
    task.process_event('manage')
    LOG.info('Node %s manual cleaning complete', node.uuid)


def continue_manual_clean(task):
    """Worker, after ``unhold`` (clean hold -> clean wait): cleaning
    again, from the step after the hold.  Ironic leaves the node in
    ``clean wait`` for its agent's next heartbeat; ironic-lite's clean
    steps need no agent, so the conductor goes on at once."""
    node = task.node
    task.process_event('resume', target_state=node.target_provision_state)
    info = node.driver_internal_info or {}
    clean_steps = info.get('clean_steps') or []
    index = info.get('clean_step_index')
    if index is None:
        return manual_clean_failed(
            task, 'Node %s has no clean step to continue from.' % node.uuid)
    _run_manual_steps(task, clean_steps, index + 1)


def abort_clean_hold(task):
    """clean hold -> clean failed, on the operator's request; the node
    heads back to where its cleaning was going."""
    node = task.node
    node.clean_step = {}
    _wipe_internal_info(node)
    task.process_event(
        'abort', target_state=node.target_provision_state,
        last_error='By request, the clean operation was aborted.')


def _run_step(task, step):
    iface = task.driver.interface(task.node, step['interface'])
    result = driver_steps.execute_step(iface, task, step)
    if result is not None:
        raise exception.InvalidParameterValue(
            err='the step returned an unexpected value: %s' % (result,))
    bios.after_step(task, step)
    firmware.after_step(task, step)


class CleaningMixin(object):
    """The RPC 1.6 endpoint of manual cleaning (``do_node_clean``)."""

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.InvalidStateRequested,
                                   exception.NodeInMaintenance,
                                   exception.NodeLocked,
                                   exception.NoFreeConductorWorker)
    def do_node_clean(self, context, node_id, clean_steps,
                      disable_ramdisk=None):
        """manageable -> cleaning -> manageable, running ``clean_steps``
        (checked against the node's steps in the worker, as Ironic)."""
        LOG.debug('RPC do_node_clean called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='node manual cleaning') as task:
            node = task.node
            if node.maintenance:
                raise exception.NodeInMaintenance(op='cleaning',
                                                  node=node.uuid)
            try:
                task.driver.power.validate(task)
            except exception.InvalidParameterValue as err:
                raise exception.InvalidParameterValue(
                    err='Validation of node %s for cleaning failed: %s'
                        % (node.uuid, err))
            if not states.is_actionable(node.provision_state, 'clean'):
                raise exception.InvalidStateRequested(
                    action='manual clean', node=node.uuid,
                    state=node.provision_state)
            task.set_spawn_error_hook(manual_clean_error_hook, task)
            task.process_event(
                'clean', pool=self._pool, target_state=states.MANAGEABLE,
                call_args=(do_manual_clean, task, clean_steps,
                           bool(disable_ramdisk)))
