"""Deploying, tearing down and adopting nodes."""

from oslo_log import log as logging

from ironic_lite.conductor import cleaning

LOG = logging.getLogger(__name__)

# driver_internal_info keys an instance leaves behind.
_INSTANCE_INTERNAL_KEYS = ('instance', 'root_uuid_or_disk_id',
                           'is_whole_disk_image', 'is_source_a_path',
                           'deploy_boot_mode', 'deploy_steps')


def do_node_deploy(task, conductor_id=None):
    """Worker: deploying -> active; the node ends powered on.

    A failure (raised) moves the node to ``deploy failed``, powered off,
    through the task's spawn error hook.
    """
    node = task.node
    if task.driver.storage is not None:
        task.driver.storage.attach_volumes(task)
    task.driver.deploy.deploy(task)
    task.driver.boot.prepare_instance(task)
    node.conductor_affinity = conductor_id
    node.deploy_step = None
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
