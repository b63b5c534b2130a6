"""Servicing (API 1.87, RPC 1.12): an active node runs the service steps
asked for, then is active again (Ironic's ``conductor/servicing.py``).

active (or service failed, service hold) -> servicing -> active.  The
steps are checked against those the node's interfaces offer
(``@service_step``), as a manual cleaning's are; each runs in the
conductor in turn, ``node.service_step`` the one running.

* ``power_on``, ``power_off`` and ``reboot`` are the conductor's own
  steps (the node's power interface), on any interface named, as Ironic's.
* ``hold`` (the 1.85 step) stops the node in ``service hold``; ``unhold``
  runs the steps after it at once (Ironic waits for the agent's next
  heartbeat in ``service wait``; ironic-lite's steps need no agent).
* A step that returns ``service wait`` (it waits for the ramdisk's agent)
  leaves the node there; the agent's next heartbeat runs the steps after
  it (``agent.py``), ``[conductor]service_callback_timeout`` fails it.
* A failure ends in ``service failed`` (target ``active``); a failed step
  also puts the node in maintenance with the ``service failure`` fault.
* ``abort`` from ``service wait`` or ``service hold`` ends in ``active``
  (through ``service failed``), at once when the step is abortable, else
  once it is done; from ``service failed`` (not in maintenance), in
  ``active``.

Every state change is recorded in the node's history (event type
``servicing``) by ``Node.save``.
"""

from oslo_log import log as logging
import oslo_messaging as messaging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite import conf
from ironic_lite.conductor import bios
from ironic_lite.conductor import steps
from ironic_lite.conductor import task_manager
from ironic_lite.drivers import fake_hardware
from ironic_lite.drivers import steps as driver_steps

CONF = conf.CONF
LOG = logging.getLogger(__name__)

FAULT = 'service failure'
# driver_internal_info keys of a servicing in progress (Ironic's).
_INTERNAL_KEYS = ('service_steps', 'service_step_index',
                  'service_disable_ramdisk')


def _wipe_internal_info(node):
    info = dict(node.driver_internal_info or {})
    for key in _INTERNAL_KEYS:
        info.pop(key, None)
    node.driver_internal_info = info


def service_failed(task, message):
    """-> service failed (heading to active), as Ironic's
    ``servicing_error_handler``: ``last_error`` says why; a failure while
    a step ran also puts the node in maintenance (``service failure``)."""
    node = task.node
    LOG.error(message)
    if node.service_step:
        node.fault = FAULT
        node.maintenance = True
        node.maintenance_reason = node.maintenance_reason or message
    node.service_step = {}
    _wipe_internal_info(node)
    if CONF.conductor.poweroff_in_servicefail:
        try:
            task.driver.power.set_power_state(task, states.POWER_OFF)
            node.power_state = states.POWER_OFF
        except Exception as err:
            LOG.warning('Could not power off node %s in service failed: %s',
                        node.uuid, err)
    if node.provision_state == states.SERVICEFAIL:
        node.last_error = message
        node.save()
        return
    task.process_event('fail', last_error=message)


def service_error_hook(exc, task):
    """Spawn error hook: a step that raised past the worker's handling."""
    try:
        service_failed(task, 'Failed to service node %s: %s'
                       % (task.node.uuid, exc))
    except exception.NodeLockLost:
        raise
    except Exception:
        LOG.exception('Could not record the failure of the servicing of '
                      'node %s', task.node.uuid)


def do_node_service(task, service_steps, disable_ramdisk=False):
    """Worker: run ``service_steps`` in order, then servicing -> active.

    A step the node does not offer, with wrong arguments, or (with
    ``disable_ramdisk``) one that needs the ramdisk ends in ``service
    failed`` before any step runs.
    """
    node = task.node
    try:
        task.driver.power.validate(task)
    except exception.IronicException as err:
        return service_failed(task, 'Validation of node %s for service '
                              'failed: %s' % (node.uuid, err))
    try:
        validated = steps.validate_user_service_steps(
            task, service_steps, disable_ramdisk=bool(disable_ramdisk))
    except exception.IronicException as err:
        return service_failed(task, 'Cannot service node %s: %s'
                              % (node.uuid, err))
    info = dict(node.driver_internal_info or {})
    # What the fake steps recorded of the last servicing.
    info.pop(fake_hardware.SERVICE_STEPS_KEY, None)
    info.update(service_steps=validated,
                service_disable_ramdisk=bool(disable_ramdisk))
    node.driver_internal_info = info
    _run_steps(task, validated, 0)


def _run_steps(task, service_steps, start):
    """Run ``service_steps[start:]``: the servicing ends when they all
    ran, or waits in ``service hold`` (a ``hold`` step) or ``service
    wait`` (a step waiting for the agent)."""
    node = task.node
    for index in range(start, len(service_steps)):
        step = service_steps[index]
        node.service_step = step
        node.driver_internal_info = dict(node.driver_internal_info,
                                         service_step_index=index)
        node.save()
        if steps.is_hold(step):
            task.process_event('hold')
            LOG.info('Node %s holds at service step %d', node.uuid, index)
            return
        try:
            result = _run_step(task, step)
        except exception.NodeLockLost:
            raise
        except Exception as err:
            LOG.exception('Service step %s of node %s failed', step,
                          node.uuid)
            return service_failed(task, 'Node %s failed step %s: %s'
                                  % (node.uuid, step, err))
        if result == states.SERVICEWAIT:
            task.process_event('wait')
            LOG.info('Node %s waits in %s after service step %s', node.uuid,
                     states.SERVICEWAIT, steps.step_id(step))
            return
        if result is not None:
            return service_failed(
                task, 'While executing step %s on node %s, step returned '
                      'invalid value: %s' % (step, node.uuid, result))
    node.service_step = None
    _wipe_internal_info(node)
    task.process_event('done')
    LOG.info('Node %s service complete.', node.uuid)


def _power_step(task, step):
    """A reserved power step (Ironic's handler): the power interface
    does it, a failure fails the step."""
    node = task.node
    new_state = steps.POWER_STEPS[step['step']]
    power = task.driver.power
    if new_state == states.REBOOT:
        power.reboot(task)
    else:
        power.set_power_state(task, new_state)
    node.power_state = states.power_target(new_state)
    node.target_power_state = states.NOSTATE


def _run_step(task, step):
    LOG.info('Executing service step %s on node %s', steps.step_id(step),
             task.node.uuid)
    if step['step'] in steps.POWER_STEPS:
        return _power_step(task, step)
    iface = task.driver.interface(task.node, step['interface'])
    result = driver_steps.execute_step(iface, task, step)
    bios.after_step(task, step)
    return result


def continue_node_service(task):
    """Worker (Ironic's ``continue_node_service``), the node back in
    ``servicing`` after ``service wait``: the steps after the one that
    waited run -- unless an abort was asked for meanwhile, then the
    servicing ends there (service failed -> active)."""
    node = task.node
    info = node.driver_internal_info or {}
    index = info.get('service_step_index')
    if index is None:
        return service_failed(
            task, 'Node %s has no service step to continue from.'
            % node.uuid)
    if (node.service_step or {}).get('abort_after'):
        LOG.info('The servicing of node %s was marked to be aborted after '
                 'step %s: aborting now', node.uuid, node.service_step)
        task.process_event('fail')
        return _aborted(task)
    _run_steps(task, info.get('service_steps') or [], index + 1)


def continue_held_service(task):
    """Worker, after ``unhold`` (service hold -> service wait): servicing
    again at once, from the step after the hold."""
    task.process_event('resume')
    continue_node_service(task)


def last_error_of_abort(node):
    """Ironic's ``get_last_error`` of an aborted servicing."""
    message = 'By request, the service operation was aborted'
    if node.service_step:
        message += (' during or after the completion of step "%s"'
                    % steps.step_id(node.service_step))
    return message


def _aborted(task):
    """service failed -> active, the servicing's data dropped."""
    node = task.node
    last_error = last_error_of_abort(node)
    node.service_step = None
    _wipe_internal_info(node)
    task.process_event('abort', last_error=last_error)
    LOG.info('Service operation aborted for node %s', node.uuid)


def abort_servicing(task):
    """``abort`` in service wait or service hold: at once when the step
    is abortable (service failed, then active); else the step is marked
    and the servicing ends once it is done (Ironic's)."""
    node = task.node
    step = node.service_step
    if step and not step.get('abortable'):
        LOG.info('The current service step %s of node %s is not abortable: '
                 'the servicing will be aborted once it is done', step,
                 node.uuid)
        if not step.get('abort_after'):
            node.service_step = dict(step, abort_after=True)
            node.save()
        return
    task.process_event('fail')
    _aborted(task)


def abort_service_failed(task):
    """``abort`` in service failed: back to active (not in maintenance:
    Ironic's refusal, the operator first looks at what failed)."""
    node = task.node
    if node.maintenance:
        raise exception.InvalidState(
            'Can not abort service on node "%s" while it is in maintenance '
            'mode. Please remove the node from maintenance prior to '
            'issuing the request to abort the service operation.'
            % node.uuid)
    _aborted(task)


# -- the service callback timeout (periodic) --------------------------------

def _fail_timed_out(task):
    node = task.node
    if node.provision_state != states.SERVICEWAIT or node.maintenance:
        return False    # it heartbeated, or changed, meanwhile
    service_failed(task, 'Timeout reached while servicing the node. Please '
                         'check if the ramdisk responsible for the servicing '
                         'is running on the node. Failed on step %s.'
                   % node.service_step)
    return True


def check_service_timeouts(context, host):
    """Fail the servicings this host owns that waited in ``service
    wait`` (not in maintenance) for ``[conductor]service_callback_timeout``
    seconds, as Ironic's ``_check_servicewait_timeouts``.  Returns the
    UUIDs failed."""
    return task_manager.fail_timed_out_waits(
        context, host, states.SERVICEWAIT,
        CONF.conductor.service_callback_timeout, 'service callback timeout',
        _fail_timed_out)


class ServicingMixin(object):
    """The RPC 1.12 endpoint of servicing (``do_node_service``)."""

    @messaging.expected_exceptions(exception.InvalidParameterValue,
                                   exception.InvalidStateRequested,
                                   exception.NodeInMaintenance,
                                   exception.NodeLocked,
                                   exception.NoFreeConductorWorker)
    def do_node_service(self, context, node_id, service_steps,
                        disable_ramdisk=None):
        """active (service failed, service hold) -> servicing -> active,
        running ``service_steps`` (checked against the node's steps in the
        worker, as Ironic)."""
        LOG.debug('RPC do_node_service called for node %s', node_id)
        with task_manager.acquire(context, node_id,
                                  purpose='node service') as task:
            node = task.node
            if node.maintenance:
                raise exception.NodeInMaintenance(op='service',
                                                  node=node.uuid)
            try:
                task.driver.power.validate(task)
            except exception.InvalidParameterValue as err:
                raise exception.InvalidParameterValue(
                    err='Validation of node %s for servicing failed: %s'
                        % (node.uuid, err))
            if not states.is_actionable(node.provision_state, 'service'):
                raise exception.InvalidStateRequested(
                    action='service', node=node.uuid,
                    state=node.provision_state)
            task.set_spawn_error_hook(service_error_hook, task)
            task.process_event(
                'service', pool=self._pool, target_state=states.ACTIVE,
                call_args=(do_node_service, task, service_steps,
                           bool(disable_ramdisk)))
