"""Deploying, tearing down and adopting nodes."""

from oslo_log import log as logging

from ironic_lite.common import exception
from ironic_lite.conductor import bios
from ironic_lite.conductor import cleaning
from ironic_lite.conductor import steps as conductor_steps
from ironic_lite.drivers import steps as drivers_steps

LOG = logging.getLogger(__name__)

# driver_internal_info keys an instance leaves behind.
_INSTANCE_INTERNAL_KEYS = ('instance', 'root_uuid_or_disk_id',
                           'is_whole_disk_image', 'is_source_a_path',
                           'deploy_boot_mode', 'deploy_steps',
                           'user_deploy_steps', 'deploy_step_index',
                           'fake_deploy_steps')
# What a deploy leaves behind only while it runs (Ironic's
# wipe_deploy_internal_info), and what the fake interfaces record.
_DEPLOY_INTERNAL_KEYS = ('deploy_steps', 'user_deploy_steps',
                         'deploy_step_index')


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


def _run_steps(task, steps):
    """Run each step in order.

    With more than one step the node is saved before each (its
    ``deploy_step`` and ``deploy_step_index``: a conductor that dies
    mid-way leaves them for the operator).  A deploy of the core step
    alone writes nothing until its end, as before deploy steps: only the
    task's fenced completion write, which a lost lock drops and a database
    outage retries (conductor/task_manager.py) -- an intermediate write
    would meet either first, without that handling.
    """
    node = task.node
    for index, step in enumerate(steps):
        node.deploy_step = step
        node.driver_internal_info = dict(node.driver_internal_info,
                                         deploy_step_index=index)
        if len(steps) > 1:
            node.save()
        LOG.info('Executing deploy step %s on node %s',
                 conductor_steps.step_id(step), node.uuid)
        interface = conductor_steps.step_interface(task, step['interface'])
        try:
            drivers_steps.execute_step(interface, task, step)
            bios.after_step(task, step)
        except exception.NodeLockLost:
            raise
        except Exception as err:
            LOG.exception('Node %s failed deploy step %s', node.uuid, step)
            raise _failure('Deploy step %s failed: %s.'
                           % (conductor_steps.step_id(step), err))


def do_node_deploy(task, conductor_id=None, deploy_steps=None):
    """Worker: deploying -> active; the node ends powered on.

    Runs the deploy steps (``steps.deployment_steps``: the interfaces'
    enabled steps -- the core ``deploy.deploy`` -- with the instance's
    deploy templates and the user's ``deploy_steps``), by priority.  A
    failure (raised) moves the node to ``deploy failed``, powered off,
    through the task's spawn error hook.
    """
    node = task.node
    if task.driver.storage is not None:
        task.driver.storage.attach_volumes(task)
    _run_steps(task, _set_steps(task, deploy_steps))
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
