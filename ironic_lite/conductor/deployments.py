"""Deploying, tearing down and adopting nodes."""

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.common import states
from ironic_lite.conductor import bios
from ironic_lite.conductor import cleaning
from ironic_lite.conductor import firmware
from ironic_lite.conductor import phase_secrets
from ironic_lite.conductor import steps as conductor_steps
from ironic_lite.drivers import steps as drivers_steps

LOG = logging.getLogger(__name__)

# The agent's token and callback URL (Ironic's wipe_token_and_url): wiped
# when a deploy starts, ends or fails, so a token is good for one deploy.
AGENT_TOKEN_KEYS = phase_secrets.AGENT_TOKEN_KEYS
# driver_internal_info keys an instance leaves behind.
_INSTANCE_INTERNAL_KEYS = ('instance', 'root_uuid_or_disk_id',
                           'is_whole_disk_image', 'is_source_a_path',
                           'deploy_boot_mode', 'deploy_steps',
                           'user_deploy_steps', 'deploy_step_index',
                           'fake_deploy_steps', 'agent_version',
                           'agent_last_heartbeat', 'agent_status',
                           'agent_status_message') + AGENT_TOKEN_KEYS
# What a deploy leaves behind only while it runs (Ironic's
# wipe_deploy_internal_info), and what the fake interfaces record.
_DEPLOY_INTERNAL_KEYS = ('deploy_steps', 'user_deploy_steps',
                         'deploy_step_index') + AGENT_TOKEN_KEYS


def _without(internal, keys):
    return {k: v for k, v in (internal or {}).items() if k not in keys}


def _failure(message):
    """The exception whose message becomes the node's last_error as it
    is (``utils.fail_node``), Ironic's wording of a deploy step failure."""
    err = exception.InstanceDeployFailure(message)
    err.last_error = message
    return err


def _set_steps(task, deploy_steps):
    """Store the steps of this deploy in driver_internal_info (Ironic's
    ``deploy_steps``; the user's as ``user_deploy_steps``), validated now
    that every step of the node is known."""
    node = task.node
    internal = _without(node.driver_internal_info,
                        _DEPLOY_INTERNAL_KEYS + ('fake_deploy_steps',))
    if deploy_steps:
        internal['user_deploy_steps'] = deploy_steps
    node.driver_internal_info = internal
    try:
        steps = conductor_steps.deployment_steps(task)
    except exception.InvalidParameterValue as err:
        raise _failure('Failed to validate the final deploy steps list for '
                       'node %s: %s' % (node.uuid, err))
    node.driver_internal_info = dict(internal, deploy_steps=steps)
    node.deploy_step = {}
    if len(steps) > 1:
        node.save()
    return steps


def _run_steps(task, steps, start=0):
    """Run each step in order, from index ``start``.

    With more than one step the node is saved before each (its
    ``deploy_step`` and ``deploy_step_index``: a conductor that dies
    mid-way leaves them for the operator).  A deploy of the core step
    alone writes nothing until its end, as before deploy steps: only the
    task's fenced completion write, which a lost lock drops and a database
    outage retries (conductor/task_manager.py) -- an intermediate write
    would meet either first, without that handling.

    A step that returns ``states.DEPLOYWAIT`` (the ``ramdisk`` deploy,
    waiting for its agent) moves the node to ``wait call-back``, its step
    and index kept for ``continue_node_deploy``: returns False then, True
    when every step ran.
    """
    node = task.node
    for index in range(start, len(steps)):
        step = steps[index]
        node.deploy_step = step
        node.driver_internal_info = dict(node.driver_internal_info,
                                         deploy_step_index=index)
        if len(steps) > 1:
            node.save()
        if conductor_steps.is_hold(step):
            task.process_event('hold')
            LOG.info('Node %s holds at deploy step %d', node.uuid, index)
            return False
        if _execute(task, step) == states.DEPLOYWAIT:
            task.process_event('wait')
            LOG.info('Node %s waits in %s after deploy step %s', node.uuid,
                     states.DEPLOYWAIT, conductor_steps.step_id(step))
            return False
    return True


def _execute(task, step):
    """One deploy step; its result (states.DEPLOYWAIT or None)."""
    LOG.info('Executing deploy step %s on node %s',
             conductor_steps.step_id(step), task.node.uuid)
    interface = conductor_steps.step_interface(task, step['interface'])
    try:
        result = drivers_steps.execute_step(interface, task, step)
        bios.after_step(task, step)
        firmware.after_step(task, step)
        return result
    except exception.NodeLockLost:
        raise
    except Exception as err:
        LOG.exception('Node %s failed deploy step %s', task.node.uuid, step)
        raise _failure('Deploy step %s failed: %s.'
                       % (conductor_steps.step_id(step), err))


def do_node_deploy(task, conductor_id=None, deploy_steps=None):
    """Worker: deploying -> active; the node ends powered on.

    Runs the deploy steps (``steps.deployment_steps``: the interfaces'
    enabled steps -- the core ``deploy.deploy`` -- with the instance's
    deploy templates and the user's ``deploy_steps``), by priority.  A
    failure (raised) moves the node to ``deploy failed``, powered off,
    through the task's spawn error hook.  A step that waits for the
    ramdisk's agent leaves the node in ``wait call-back``.
    """
    if task.driver.storage is not None:
        task.driver.storage.attach_volumes(task)
    if _run_steps(task, _set_steps(task, deploy_steps)):
        _finish(task, conductor_id)


def continue_node_deploy(task, conductor_id=None):
    """Worker (Ironic's ``continue_node_deploy``): deploying again after
    ``wait call-back`` (the agent heartbeated).  The deploy interface
    goes on (``continue_deploy``), then the steps after the one that
    waited run, and the deploy ends as ``do_node_deploy``'s."""
    node = task.node
    steps = node.driver_internal_info.get('deploy_steps') or []
    index = node.driver_internal_info.get('deploy_step_index')
    if index is None:
        raise _failure('Node %s has no deploy step to continue from.'
                       % node.uuid)
    try:
        task.driver.deploy.continue_deploy(task)
    except exception.NodeLockLost:
        raise
    except Exception as err:
        LOG.exception('Node %s failed to continue its deploy', node.uuid)
        raise _failure('Deploy step %s failed: %s.'
                       % (conductor_steps.step_id(steps[index]), err))
    if _run_steps(task, steps, start=index + 1):
        _finish(task, conductor_id)


def continue_held_deploy(task, conductor_id=None):
    """Worker, after ``unhold`` (deploy hold -> wait call-back):
    deploying again from the step after the hold.  Ironic waits for the
    agent's next heartbeat; ironic-lite goes on at once, as a held step
    asked nothing of the agent."""
    node = task.node
    task.process_event('resume')
    steps = node.driver_internal_info.get('deploy_steps') or []
    index = node.driver_internal_info.get('deploy_step_index')
    if index is None:
        raise _failure('Node %s has no deploy step to continue from.'
                       % node.uuid)
    if _run_steps(task, steps, start=index + 1):
        _finish(task, conductor_id)


def abort_deploy_hold(task):
    """deploy hold -> deploy failed, on the operator's request (the
    node can then be deployed again or torn down)."""
    node = task.node
    node.deploy_step = {}
    node.driver_internal_info = _without(node.driver_internal_info,
                                         _DEPLOY_INTERNAL_KEYS)
    task.process_event(
        'abort', last_error='By request, the deploy operation was aborted.')


def abort_deploy_wait(task):
    """wait call-back -> deploy failed, on the operator's request (API
    1.110), as Ironic's ``do_node_deploy_abort``: the agent's URL and
    token are dropped at once, the deploy interface cleans up, and
    ``last_error`` names the step the deploy waited after.  The node can
    then be deployed again or torn down."""
    node = task.node
    step = node.deploy_step
    node.driver_internal_info = _without(node.driver_internal_info,
                                         _DEPLOY_INTERNAL_KEYS)
    last_error = 'By request, the deploy operation was aborted'
    if step:
        last_error += (' during or after the completion of step "%s"'
                       % conductor_steps.step_id(step))
    try:
        task.driver.deploy.clean_up(task)
    except Exception as err:
        LOG.exception('Failed to clean up deploying for node %s after '
                      'aborting the operation', node.uuid)
        last_error = ('Failed to clean up deploying after aborting the '
                      'operation: %s' % err)
    node.deploy_step = {}
    task.process_event('abort', last_error=last_error)
    LOG.info('Deploy operation aborted for node %s', node.uuid)


def _finish(task, conductor_id):
    """Boot the instance: deploying -> active."""
    node = task.node
    task.driver.boot.prepare_instance(task)
    node.conductor_affinity = conductor_id
    node.deploy_step = None
    node.driver_internal_info = _without(node.driver_internal_info,
                                         _DEPLOY_INTERNAL_KEYS)
    task.process_event('done')
    LOG.info('Successfully deployed node %s', node.uuid)


def do_node_tear_down(task):
    """Worker: deleting -> cleaning -> available; powers the node off.

    The instance fields are cleared even when the tear down fails (the
    node then goes to ``error``); a cleaning failure ends in ``clean
    failed``.
    """
    node = task.node
    try:
        task.driver.boot.clean_up_instance(task)
        task.driver.deploy.clean_up(task)
        task.driver.deploy.tear_down(task)
        if task.driver.storage is not None:
            task.driver.storage.detach_volumes(task)
    finally:
        node.instance_info = {}
        node.instance_uuid = None
        node.instance_name = None
        internal = dict(node.driver_internal_info or {})
        for key in _INSTANCE_INTERNAL_KEYS:
            internal.pop(key, None)
        node.driver_internal_info = internal
        node.save()
    LOG.info('Successfully unprovisioned node %s', node.uuid)
    task.process_event('clean')
    cleaning.do_node_clean(task)


def do_node_adopt(task):
    """Worker: adopting -> active, for a node deployed by other means."""
    task.driver.boot.validate(task)
    task.driver.deploy.validate(task)
    task.process_event('done')
    LOG.info('Successfully adopted node %s', task.node.uuid)
