"""Verification: enroll -> verifying -> manageable."""

from oslo_log import log as logging

from ironic_lite.conductor import bios

LOG = logging.getLogger(__name__)


def do_node_verify(task):
    """Worker: check the node can be managed and read its power state.

    Success -> ``manageable``; a failure (raised) goes back to ``enroll``
    with ``last_error`` through the task's spawn error hook.
    """
    node = task.node
    task.driver.power.validate(task)
    task.driver.management.validate(task)
    node.power_state = task.driver.power.get_power_state(task)
    # As Ironic caches them when verifying (node_update_cache).
    bios.cache_bios_settings_quietly(task)
    task.process_event('done')
    LOG.info('Successfully verified node %s', node.uuid)
